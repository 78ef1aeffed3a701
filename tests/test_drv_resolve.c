/* test_drv_resolve.c: the reachable-slot walk, masking, sub-slot interpolation, hysteresis and the context driver's
 * brake-not-swerve decision. Maps are hand-made through the metre-based helpers, so each scenario runs at 8..64 slots. */
#include "../drivers/drv_context.h"
#include "../drivers/drv_post.h"
#include "../drivers/drv_resolve.h"
#include "tst.h"

static const int counts[] = {8, 16, 32, 64};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])
#define HALF_SPAN 5.0 /* a 12 m track less half a car each side */
#define CAR_HALF 1.0

/* Danger of a car at d_o (its width plus ours), with a skirt. */
static void car_at(DrvContextMap *m, double d_o, double danger, double skirt)
{
    drv_map_write_band(m, DRV_MAP_DANGER, d_o - 2.0 * CAR_HALF - 0.3, d_o + 2.0 * CAR_HALF + 0.3, danger, skirt);
}

static void line_at(DrvContextMap *m, double d)
{
    drv_map_write_peak(m, DRV_MAP_INTEREST, d, 0.3, 20.0);
    drv_map_write_peak(m, DRV_MAP_INTEREST, d, 1.0, 3.0);
}

/* A car alongside on the left: even with the racing line (most interest) on the left, the choice stays right. */
static int test_walk_stops_at_car_alongside(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        double me = 0.0;
        car_at(&m, me + 2.6, 1.0, 1.5); /* 0.6 m between the cars */
        line_at(&m, 4.5);               /* far side of that car */
        DrvResolveResult r;
        drv_resolve_walk(&m, me, &r);
        TST_CHECK(r.reach_lo >= r.current_slot - 1); /* the walk did not cross to the left */
        TST_CHECK(r.chosen_d_m <= me + 0.05);
        TST_CHECK(r.chosen_danger < 0.5);
        TST_CHECK(r.reach_hi == m.slots - 1);
    }
    return 0;
}

/* A slower car straight ahead and a free lane: the walk reaches it and takes the free side nearest the line. */
static int test_walk_escapes_car_ahead(void)
{
    double chosen[NCOUNTS];
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        car_at(&m, 0.0, 0.6, 1.0);
        line_at(&m, -0.5); /* the line is behind the car, slightly right */
        DrvResolveResult r;
        drv_resolve_walk(&m, 0.0, &r);
        TST_CHECK(r.reach_lo == 0 && r.reach_hi == m.slots - 1);
        TST_CHECK(r.chosen_danger <= 0.05);
        TST_CHECK(r.chosen_d_m < -3.0); /* right of the car: nearer the line */
        chosen[c] = r.chosen_d_m;
    }
    /* consistent choice at every slot count: within the coarsest step */
    for (int c = 1; c < NCOUNTS; c++)
        TST_NEAR(chosen[c], chosen[NCOUNTS - 1], 10.0 / 7.0);
    return 0;
}

/* Boxed in (slow car ahead, cars alongside both sides): the choice stays in the lane, its danger is high. */
static int test_blocked_stays_in_lane(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        car_at(&m, 0.0, 0.7, 1.0);
        car_at(&m, 3.0, 1.0, 1.0);
        car_at(&m, -3.0, 1.0, 1.0);
        line_at(&m, 4.0);
        DrvResolveResult r;
        drv_resolve_walk(&m, 0.0, &r);
        TST_NEAR(r.chosen_d_m, 0.0, 0.8);
        TST_CHECK(r.chosen_danger >= 0.69);
    }
    return 0;
}

/* The parabola through three samples of a parabola is the parabola: the true vertex comes back. */
static int test_subslot_parabola(void)
{
    const double peaks[] = {3.2, 3.5, 3.0, 2.55, 3.49};
    for (size_t k = 0; k < sizeof peaks / sizeof peaks[0]; k++) {
        float y[8];
        for (int i = 0; i < 8; i++)
            y[i] = (float)(0.9 - 0.05 * (i - peaks[k]) * (i - peaks[k]));
        int best = (int)(peaks[k] + 0.5);
        TST_NEAR(drv_resolve_subslot(y, best, 0, 7), peaks[k], 1e-5);
    }
    /* through the walk, in metres, at every slot count */
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        drv_map_write_peak(&m, DRV_MAP_INTEREST, 1.234, 0.8, 6.0);
        DrvResolveResult r;
        drv_resolve_walk(&m, 0.0, &r);
        TST_NEAR(r.chosen_d_m, 1.234, 1e-4);
    }
    /* a neighbour outside the range: no refinement */
    float y[3] = {0.5f, 1.0f, 0.2f};
    TST_NEAR(drv_resolve_subslot(y, 1, 1, 2), 1.0, 0.0);
    return 0;
}

/* Two equally good lanes, each with a little independent noise every tick: without hysteresis the choice flips
 * whenever the noise says so; blended with the previous maps it changes lanes far less often. */
static int count_flips(double h)
{
    DrvContextMap prev;
    bool has_prev = false;
    DrvRng rng = drv_rng_seed(7);
    int flips = 0, last = 0;
    for (int t = 0; t < 400; t++) {
        DrvContextMap m;
        drv_map_init(&m, 32, HALF_SPAN, -HALF_SPAN);
        double a = 0.78 + 0.04 * (drv_rng_uniform(&rng) - 0.5), b = 0.78 + 0.04 * (drv_rng_uniform(&rng) - 0.5);
        drv_map_write_peak(&m, DRV_MAP_INTEREST, 3.0, a, 1.5);
        drv_map_write_peak(&m, DRV_MAP_INTEREST, -3.0, b, 1.5);
        drv_post_hysteresis(&m, &prev, &has_prev, h);
        DrvResolveResult r;
        drv_resolve_walk(&m, 0.0, &r);
        int side = r.chosen_d_m > 0.0 ? 1 : -1;
        if (t > 0 && side != last)
            flips++;
        last = side;
    }
    return flips;
}

/* The classic flip-flop: two lanes whose winner alternates every tick by a small margin, and a car that follows
 * its choice. Without hysteresis it changes its mind every tick; blended with the previous maps the difference
 * shrinks below the resolver's tolerance and it keeps its lane. */
static int count_alternating_flips(double h)
{
    DrvContextMap prev;
    bool has_prev = false;
    double car_d = 0.0;
    int flips = 0, last = 0;
    for (int t = 0; t < 60; t++) {
        DrvContextMap m;
        drv_map_init(&m, 32, HALF_SPAN, -HALF_SPAN);
        double a = (t % 2 == 0) ? 0.80 : 0.77, b = (t % 2 == 0) ? 0.77 : 0.80;
        drv_map_write_peak(&m, DRV_MAP_INTEREST, 3.0, a, 1.5);
        drv_map_write_peak(&m, DRV_MAP_INTEREST, -3.0, b, 1.5);
        drv_post_hysteresis(&m, &prev, &has_prev, h);
        DrvResolveResult r;
        drv_resolve_walk(&m, car_d, &r);
        car_d += 0.05 * (r.chosen_d_m - car_d);
        int side = r.chosen_d_m > 0.0 ? 1 : -1;
        if (t > 0 && side != last)
            flips++;
        last = side;
    }
    return flips;
}

static int test_hysteresis_damps_flip_flop(void)
{
    TST_CHECK(count_alternating_flips(0.0) >= 50);
    TST_CHECK(count_alternating_flips(0.8) == 0);
    /* with random noise instead, blending still halves the lane changes */
    int raw = count_flips(0.0), damped = count_flips(0.8);
    TST_CHECK(raw >= 150);
    TST_CHECK(damped * 2 <= raw);
    return 0;
}

/* Hysteresis resamples the previous map by offset when the slot count changes: a constant map stays constant and
 * a peak stays where it was in metres. */
static int test_hysteresis_resamples(void)
{
    DrvContextMap prev, m;
    bool has_prev = false;
    drv_map_init(&m, 64, HALF_SPAN, -HALF_SPAN);
    drv_map_write_peak(&m, DRV_MAP_INTEREST, 2.0, 1.0, 4.0);
    drv_post_hysteresis(&m, &prev, &has_prev, 0.5);
    drv_map_init(&m, 16, HALF_SPAN + 0.5, -HALF_SPAN);
    drv_post_hysteresis(&m, &prev, &has_prev, 0.9);
    DrvResolveResult r;
    drv_resolve_walk(&m, 0.0, &r);
    TST_NEAR(r.chosen_d_m, 2.0, 0.15);
    TST_CHECK(m.interest[0] > 0.0f);
    return 0;
}

/* Danger is never hidden by hysteresis: a new car shows at full strength at once. */
static int test_hysteresis_danger_rises_at_once(void)
{
    DrvContextMap prev, m;
    bool has_prev = false;
    drv_map_init(&m, 32, HALF_SPAN, -HALF_SPAN);
    drv_post_hysteresis(&m, &prev, &has_prev, 0.9);
    drv_map_init(&m, 32, HALF_SPAN, -HALF_SPAN);
    car_at(&m, 2.0, 1.0, 1.0);
    drv_post_hysteresis(&m, &prev, &has_prev, 0.9);
    TST_NEAR(drv_map_sample(&m, DRV_MAP_DANGER, 2.0), 1.0, 1e-6);
    return 0;
}

static int test_blur_keeps_danger_peak(void)
{
    DrvContextMap m;
    drv_map_init(&m, 32, HALF_SPAN, -HALF_SPAN);
    car_at(&m, 0.0, 1.0, 0.0);
    int k = drv_map_d_to_slot(&m, 0.0);
    drv_post_blur(&m, DRV_BLUR_GAUSS, 3);
    TST_NEAR(m.danger[k], 1.0, 1e-6);
    TST_CHECK(m.danger[k + 8] > 0.0f); /* widened */
    drv_post_blur(&m, DRV_BLUR_BOX, 2);
    TST_NEAR(m.danger[k], 1.0, 1e-6);
    return 0;
}

/* ---- the whole context driver on a real track ----------------------------------------------------------------- */

static TrkTrack *oval(void)
{
    /* a long rounded rectangle, 12 m wide */
    TrkPointDef pts[] = {
        {0, 0, 6, 6},      {300, 0, 6, 6},    {600, 0, 6, 6},    {800, 100, 6, 6},  {800, 300, 6, 6},
        {600, 400, 6, 6},  {300, 400, 6, 6},  {0, 400, 6, 6},    {-200, 300, 6, 6}, {-200, 100, 6, 6},
    };
    char err[TRK_ERR_LEN];
    return trk_create(pts, (int)(sizeof pts / sizeof pts[0]), NULL, err, sizeof err);
}

static DrvOther other(double ds, double d, double speed)
{
    DrvOther o = {.id = 1, .ds_m = ds, .d_m = d, .speed_mps = speed, .length_m = 4.6, .width_m = 2.0};
    return o;
}

static DrvView view_at(const TrkTrack *t, const TrkCarParams *car, double speed, const DrvOther *others, int n)
{
    DrvView v = {.track = t, .tick = 10, .dt_s = 0.01, .s_m = 150.0, .d_m = 0.0, .speed_mps = speed,
                 .length_m = 4.6, .width_m = 2.0, .car = car, .others = others, .other_count = n};
    return v;
}

/* Boxed in on a straight behind a much slower car: brake (follow it), do not swerve into a car alongside. */
static int test_driver_blocked_brakes(void)
{
    TrkTrack *t = oval();
    TST_CHECK(t != NULL);
    TrkCarParams car = trk_default_car();
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    DrvDriver *drv = drv_create(&p, t, &car, 1);
    TST_CHECK(drv != NULL);
    DrvOther o[3] = {other(-0.5, 2.8, 50.0), other(0.5, -2.8, 50.0), other(12.0, 0.0, 35.0)};
    DrvView v = view_at(t, &car, 50.0, o, 3);
    DrvControls out;
    for (int i = 0; i < 5; i++) {
        v.tick++;
        drv_think(drv, &v, &out);
    }
    TST_CHECK(out.long_accel_mps2 < -3.0);
    TST_NEAR(out.target_d_m, 0.0, 0.6);
    TST_CHECK(fabs(out.lat_accel_mps2) < 3.0);
    const DrvDebug *dbg = drv_debug(drv);
    TST_CHECK(dbg != NULL && dbg->braking_for_danger);
    drv_destroy(drv);
    trk_free(t);
    return 0;
}

/* One tick of a fresh driver at 50 m/s on the oval's straight among `others`: its target offset, and whether it
 * brakes for danger. */
static double first_target(const TrkTrack *t, const TrkCarParams *car, const DrvPersonality *p, const DrvOther *others,
                           int n, bool *braking)
{
    DrvDriver *drv = drv_create(p, t, car, 1);
    DrvView v = view_at(t, car, 50.0, others, n);
    DrvControls out;
    drv_think(drv, &v, &out);
    *braking = drv_debug(drv)->braking_for_danger;
    drv_destroy(drv);
    return out.target_d_m;
}

/* Same slow car ahead with the lanes free: steer out, do not brake for it yet. */
static int test_driver_free_lane_swerves(void)
{
    TrkTrack *t = oval();
    TrkCarParams car = trk_default_car();
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    for (int c = 0; c < NCOUNTS; c++) {
        p.slots = counts[c];
        DrvOther o[1] = {other(30.0, 0.0, 35.0)};
        bool braking = true;
        TST_CHECK(fabs(first_target(t, &car, &p, o, 1, &braking)) > 2.3);
        TST_CHECK(!braking);
    }
    trk_free(t);
    return 0;
}

/* The slow car 30 m ahead in our lane, and one `ds` behind us (centre to centre) at offset d and speed v (ours 50). */
static double swerve_with_car_behind(const TrkTrack *t, const TrkCarParams *car, const DrvPersonality *p, double ds,
                                     double d, double v)
{
    DrvOther o[2] = {other(ds, d, v), other(30.0, 0.0, 35.0)};
    o[0].id = 2;
    bool braking;
    return first_target(t, car, p, o, 2, &braking);
}

/* Swerving round a slow car never cuts across the nose of a car just behind and beside us: whichever side it is
 * on, we go the other way. A car straight behind (in our wake) does not stop the swerve. A car further back that
 * closes fast is as much a wall, as far back as it closes in a second (braking into a corner it brakes as we do, so
 * what it closes it keeps closing, and cutting across its nose was a rear-end): here 14 m back, 10 m/s faster. */
static int test_driver_swerve_spares_car_behind(void)
{
    TrkTrack *t = oval();
    TrkCarParams car = trk_default_car();
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    for (int c = 0; c < NCOUNTS; c++) {
        p.slots = counts[c];
        TST_CHECK(swerve_with_car_behind(t, &car, &p, -5.6, -3.0, 50.0) > 2.3);
        TST_CHECK(swerve_with_car_behind(t, &car, &p, -5.6, 3.0, 50.0) < -2.3);
        TST_CHECK(fabs(swerve_with_car_behind(t, &car, &p, -5.6, 0.0, 50.0)) > 2.3);
        TST_CHECK(swerve_with_car_behind(t, &car, &p, -14.0, -3.0, 60.0) > 2.3);
        TST_CHECK(swerve_with_car_behind(t, &car, &p, -14.0, 3.0, 60.0) < -2.3);
    }
    trk_free(t);
    return 0;
}

/* The gp track's S-bend (seed 1's lap-1 contact, Lu Iron): an 8-slot car on the racing line at s = 1136 m, 40 m/s,
 * with a car alongside on its left. Its lane (-2.36 m) is one the line crosses right here, but within the braking
 * distance the line sweeps left, behind the car alongside, where it cannot follow: it is held on that lane, whose
 * cap (about 29 m/s, for the second corner on the lane) it must already be braking for. Judged at the crossing
 * alone it counted as on the line and asked for 42 m/s. A lone car there keeps the line's plan. */
static double sbend_target_speed(const TrkTrack *t, const TrkCarParams *car, int others)
{
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    p.slots = 8;
    DrvDriver *drv = drv_create(&p, t, car, 1);
    DrvOther o = {.id = 1, .ds_m = -2.0, .d_m = 1.5, .speed_mps = 38.0, .length_m = 4.6, .width_m = 2.0};
    DrvView v = {.track = t, .tick = 10, .dt_s = 0.01, .s_m = 1136.0, .d_m = -4.4, .speed_mps = 40.0,
                 .length_m = 4.6, .width_m = 2.0, .car = car, .others = &o, .other_count = others};
    DrvControls out;
    for (int i = 0; i < 3; i++) {
        v.tick++;
        drv_think(drv, &v, &out);
    }
    drv_destroy(drv);
    return out.target_speed_mps;
}

static int test_driver_held_lane_brakes_early(void)
{
    char err[256];
    TrkTrack *t = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    TST_CHECK(t != NULL);
    TrkCarParams car = trk_default_car();
    double held = sbend_target_speed(t, &car, 1);
    TST_CHECK(held < 34.0);
    TST_CHECK(held > 25.0);
    TST_CHECK(sbend_target_speed(t, &car, 0) > 40.0);
    trk_free(t);
    return 0;
}

/* Nobody near: level of detail drops the slot count; a car near brings it back. */
static int test_lod(void)
{
    DrvPersonality p = drv_default_personality();
    DrvView v = {.speed_mps = 50.0};
    TST_CHECK(drv_context_slots(&v, &p) == 8);
    DrvOther o = other(60.0, 0.0, 40.0);
    v.others = &o, v.other_count = 1;
    TST_CHECK(drv_context_slots(&v, &p) == 32);
    p.lod = false;
    v.other_count = 0;
    TST_CHECK(drv_context_slots(&v, &p) == 32);
    return 0;
}

int main(void)
{
    TST_RUN(test_walk_stops_at_car_alongside);
    TST_RUN(test_walk_escapes_car_ahead);
    TST_RUN(test_blocked_stays_in_lane);
    TST_RUN(test_subslot_parabola);
    TST_RUN(test_hysteresis_damps_flip_flop);
    TST_RUN(test_hysteresis_resamples);
    TST_RUN(test_hysteresis_danger_rises_at_once);
    TST_RUN(test_blur_keeps_danger_peak);
    TST_RUN(test_driver_blocked_brakes);
    TST_RUN(test_driver_free_lane_swerves);
    TST_RUN(test_driver_swerve_spares_car_behind);
    TST_RUN(test_driver_held_lane_brakes_early);
    TST_RUN(test_lod);
    return tst_report();
}
