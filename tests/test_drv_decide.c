/* test_drv_decide.c: the decision rate ([map] decide_hz, decide_far_hz). Decisions (maps -> chosen lane) run every
 * 1 / (decide_hz * dt) ticks, staggered between drivers, or at decide_far_hz while no other car is near; the control
 * runs every tick on the current view toward the held plan; at the sim's own rate every tick decides. Hysteresis is
 * per tick, and a target on the racing line is held relative to the line. */
#include "../drivers/drv.h"
#include "../drivers/drv_internal.h"
#include "../sim/sim.h"
#include "tst.h"

#include <math.h>
#include <string.h>

/* A shipped track, or NULL (the caller's TST_CHECK reports it). */
static TrkTrack *load_track(const char *path)
{
    char err[TRK_ERR_LEN];
    return trk_load(path, NULL, err, sizeof err);
}

static DrvPersonality quiet(double decide_hz)
{
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    p.lod = false;
    p.decide_hz = decide_hz;
    return p;
}

/* A car alongside on the left drifts toward us a little every tick, so every decision sees a new danger map. */
static DrvView view_at(long tick, DrvOther *o)
{
    *o = (DrvOther){.id = 1, .ds_m = 1.0, .d_m = 3.5 - 0.02 * (double)tick, .speed_mps = 40.0, .length_m = 4.6,
                    .width_m = 2.0};
    return (DrvView){.tick = tick, .dt_s = 0.01, .s_m = 200.0, .d_m = -1.0, .speed_mps = 40.0, .length_m = 4.6,
                     .width_m = 2.0, .others = o, .other_count = 1};
}

/* The only other car `ds_m` ahead on the left, `closing_mps` slower than our 40 m/s. */
static DrvView view_with(long tick, DrvOther *o, double ds_m, double closing_mps)
{
    DrvView v = view_at(tick, o);
    o->ds_m = ds_m;
    o->speed_mps = v.speed_mps - closing_mps;
    return v;
}

/* Decisions in 40 ticks (the driver's maps come from that very tick): tick 0 always, then exactly one every
 * `period` ticks from the driver's phase. Returns the first decision tick after 0, or -1 when the decisions did not
 * follow that pattern. The other car sits `ds_m` ahead (view_with); p's decide_far_hz is the default unless set. */
static int decisions_p(const TrkTrack *t, DrvPersonality p, uint64_t seed, int period, double ds_m, double closing)
{
    DrvDriver *d = drv_create(&p, t, NULL, seed);
    if (d == NULL)
        return -1;
    int first = -1, last = -1;
    bool ok = true;
    for (long tick = 0; tick < 40; tick++) {
        DrvOther o;
        DrvView v = view_with(tick, &o, ds_m, closing);
        DrvControls c;
        drv_think(d, &v, &c);
        if (drv_debug(d)->tick != tick)
            continue;
        if (tick == 0)
            continue;
        if (first < 0)
            first = (int)tick, ok = ok && first <= period;
        else
            ok = ok && tick - last == period;
        last = (int)tick;
    }
    drv_destroy(d);
    return ok && last + period >= 40 ? first : -1;
}

static int decisions(const TrkTrack *t, double decide_hz, uint64_t seed, int period)
{
    return decisions_p(t, quiet(decide_hz), seed, period, 1.0, 0.0);
}

static int test_decision_period(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    TST_CHECK(decisions(t, 100.0, 7, 1) == 1);  /* every tick */
    TST_CHECK(decisions(t, 1000.0, 7, 1) == 1); /* faster than the sim: every tick, no more */
    TST_CHECK(decisions(t, 20.0, 7, 5) > 0);
    TST_CHECK(decisions(t, 10.0, 7, 10) > 0);
    TST_CHECK(decisions(t, 30.0, 7, 3) > 0);    /* 3.33 ticks rounds to 3 */
    /* drivers' decisions fall on different ticks of the period */
    int seen[6] = {0}, distinct = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int first = decisions(t, 20.0, seed, 5);
        TST_CHECK(first >= 1 && first <= 5);
        if (first >= 1 && first <= 5 && seen[first]++ == 0)
            distinct++;
    }
    TST_CHECK(distinct == 5);
    trk_free(t);
    return 0;
}

/* The decision period follows the sim's tick length when it changes (a driver keeps the periods of the last one it
 * saw): 20 Hz is every 5th tick at 100 Hz and every 2nd at 40 Hz; a dt of -0.0 (not a tick length: every tick) and
 * one of +0.0 (a period of a million ticks: none here) are told apart although they compare equal. */
static int test_decision_period_follows_dt(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(20.0);
    DrvDriver *d = drv_create(&p, t, NULL, 7);
    TST_CHECK(d != NULL);
    const double dts[] = {0.01, 0.025, -0.0, 0.0, 0.01, 0.025};
    const int period[] = {5, 2, 1, 0, 5, 2}; /* 0: none */
    long tick = 0;
    int ok = 0;
    for (int w = 0; w < 6; w++) {
        int count = 0, gaps_ok = 1;
        long last = -1;
        for (int i = 0; i < 20; i++, tick++) {
            DrvOther o;
            DrvView v = view_with(tick, &o, 1.0, 0.0);
            v.dt_s = dts[w];
            DrvControls c;
            drv_think(d, &v, &c);
            if (drv_debug(d)->tick != tick || tick == 0) /* tick 0 always decides, whatever the period */
                continue;
            gaps_ok &= last < 0 || tick - last == period[w];
            last = tick, count++;
        }
        ok += gaps_ok && (period[w] == 0 ? count == 0 : count == 20 / period[w] || (w == 0 && count == 3));
    }
    TST_CHECK(ok == 6);
    drv_destroy(d);
    trk_free(t);
    return 0;
}

/* With no car near, a driver decides at its far rate (default 25 Hz: every 4th tick); a car within 20 m, or one we
 * would reach within a second, brings it back to every tick. A far rate at or above decide_hz changes nothing. */
static int test_far_rate(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(100.0);
    TST_NEAR(p.decide_far_hz, 25.0, 0);
    TST_CHECK(decisions_p(t, p, 7, 4, 100.0, 0.0) > 0);  /* 100 m ahead at our speed: far */
    TST_CHECK(decisions_p(t, p, 7, 1, 15.0, 0.0) == 1);  /* 15 m ahead: near */
    TST_CHECK(decisions_p(t, p, 7, 1, -15.0, 0.0) == 1); /* 15 m behind: near */
    TST_CHECK(decisions_p(t, p, 7, 1, 30.0, 40.0) == 1); /* 30 m ahead, standing still: reached in 0.75 s */
    TST_CHECK(decisions_p(t, p, 7, 4, 50.0, 40.0) > 0);  /* 50 m ahead, standing still: 1.25 s away */
    TST_CHECK(decisions_p(t, p, 7, 1, -50.0, -60.0) == 1); /* 50 m behind, closing at 60 m/s */
    p.decide_far_hz = 10.0;
    TST_CHECK(decisions_p(t, p, 7, 10, 100.0, 0.0) > 0);
    p.decide_hz = 20.0, p.decide_far_hz = 50.0;         /* a far rate above the rate: the rate */
    TST_CHECK(decisions_p(t, p, 7, 5, 100.0, 0.0) > 0);
    trk_free(t);
    return 0;
}

/* The danger the driver's latest maps hold at offset d (the inspector's copy, after hysteresis). */
static double danger_at(const DrvDebug *dbg, double d_m)
{
    double step = (dbg->d_left_m - dbg->d_right_m) / (dbg->slots - 1);
    int i = (int)((dbg->d_left_m - d_m) / step + 0.5);
    return i >= 0 && i < dbg->slots ? dbg->danger[i] : -1.0;
}

/* Hysteresis is per tick: a car beside us that moves from the left to the right of the track leaves half its danger
 * in the next map of a driver deciding every tick (hysteresis 0.5), but a driver deciding every 10th tick blends
 * with maps 10 ticks old, weighted 0.5^10, not with half of them. */
static double danger_left_after_move(const TrkTrack *t, double decide_hz)
{
    DrvPersonality p = quiet(decide_hz);
    p.hysteresis = 0.5;
    p.blur = DRV_BLUR_NONE;
    DrvDriver *d = drv_create(&p, t, NULL, 3);
    if (d == NULL)
        return -1.0;
    double left = -1.0;
    for (long tick = 0; tick <= 40; tick++) {
        DrvOther o;
        DrvView v = view_at(0, &o);
        v.tick = tick;
        o.d_m = tick < 20 ? 4.0 : -5.0;
        DrvControls c;
        drv_think(d, &v, &c);
        const DrvDebug *dbg = drv_debug(d);
        if (tick >= 20 && dbg->tick == tick) { /* the first decision after the move */
            left = danger_at(dbg, 4.0);
            break;
        }
    }
    drv_destroy(d);
    return left;
}

static int test_hysteresis_per_tick(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    double every_tick = danger_left_after_move(t, 100.0), tenth = danger_left_after_move(t, 10.0);
    TST_CHECK(every_tick > 0.4 && every_tick < 0.6);
    TST_CHECK(tenth >= 0.0 && tenth < 0.01);
    trk_free(t);
    return 0;
}

/* Whether a driver deciding with the only other car `ds_m` ahead (behind when negative), `closing_mps` slower,
 * builds maps, or drives the line alone. */
static bool alone_with(const TrkTrack *t, DrvPersonality p, double ds_m, double closing_mps)
{
    DrvDriver *d = drv_create(&p, t, NULL, 9);
    if (d == NULL)
        return false;
    DrvOther o;
    DrvView v = view_with(0, &o, ds_m, closing_mps);
    o.d_m = 0.0;
    DrvControls c;
    drv_think(d, &v, &c);
    bool alone = drv_debug(d)->alone;
    drv_destroy(d);
    return alone;
}

/* A car ahead is company only within reach of avoid (its range at our closing speed on it, or the slow-car
 * headway) or drafting, plus a margin; any car behind in view is company. */
static int test_alone_by_reach(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(100.0), no_tow = p;
    no_tow.draft_weight = 0.0;
    double horizon = 2.0 * p.lookahead_s; /* avoid's horizon */
    TST_CHECK(alone_with(t, p, 150.0, 0.0));                          /* far ahead at our speed */
    TST_CHECK(!alone_with(t, p, 150.0, 140.0 / horizon));             /* closing fast enough to be in range */
    /* at our speed, avoid reaches a car within the slow-car headway (1.5 s: it may be slower than our plan) */
    DrvOther o;
    double slow_reach = 1.5 * view_at(0, &o).speed_mps;
    TST_CHECK(alone_with(t, no_tow, slow_reach + 15.0, 0.0));         /* beyond avoid's reach + margin */
    TST_CHECK(!alone_with(t, no_tow, slow_reach - 5.0, 0.0));         /* within it */
    TST_CHECK(!alone_with(t, p, 40.0, 0.0));                          /* in drafting's 45 m */
    TST_CHECK(!alone_with(t, no_tow, 14.0, 0.0));                     /* avoid's minimum range */
    TST_CHECK(!alone_with(t, no_tow, -30.0, 0.0));                    /* a car behind */
    TST_CHECK(!alone_with(t, no_tow, 0.5, 0.0));                      /* alongside */
    trk_free(t);
    return 0;
}

/* In the start's pack the first lap's manners hold: on lap 1 until the car is at speed (20 m/s) with no other car
 * within half a second ahead or a second behind; then not again, also when a car comes near later in the lap; never
 * after lap 1. At 40 m/s: 20 m ahead, 40 m behind. */
static int test_start_pack(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(100.0);
    DrvDriver *d = drv_create(&p, t, NULL, 1);
    TST_CHECK(d != NULL);
    DrvControls c;
    DrvOther o;
    DrvView v = view_with(0, &o, 18.0, 0.0); /* within half a second ahead */
    TST_CHECK(drv_first_lap_manners(d, &v));
    drv_think(d, &v, &c);
    TST_CHECK(drv_first_lap_manners(d, &v));
    o.ds_m = -35.0; /* within a second behind */
    drv_think(d, &v, &c);
    TST_CHECK(drv_first_lap_manners(d, &v));
    v.other_count = 0; /* nobody within reach, but not yet at speed: still the start */
    v.speed_mps = 15.0;
    drv_think(d, &v, &c);
    TST_CHECK(drv_first_lap_manners(d, &v));
    v = view_with(1, &o, 25.0, 0.0); /* clear: more than half a second ahead, nobody behind */
    drv_think(d, &v, &c);
    TST_CHECK(!drv_first_lap_manners(d, &v));
    v = view_with(2, &o, 5.0, 0.0); /* and clear for good */
    drv_think(d, &v, &c);
    TST_CHECK(!drv_first_lap_manners(d, &v));
    drv_destroy(d);
    /* after lap 1 they never hold, whatever is around */
    d = drv_create(&p, t, NULL, 1);
    TST_CHECK(d != NULL);
    v = view_with(0, &o, 5.0, 0.0);
    v.laps_done = 1;
    drv_think(d, &v, &c);
    TST_CHECK(!drv_first_lap_manners(d, &v));
    v.laps_done = 0; /* (not a real view: the state remembers that it left the pack) */
    TST_CHECK(!drv_first_lap_manners(d, &v));
    drv_destroy(d);
    trk_free(t);
    return 0;
}

/* The weight of maps k ticks old is hysteresis^k as pow gives it, bit for bit, for gaps in the driver's table of
 * powers and beyond it (the table must not change a result). */
static int test_hysteresis_weight_is_pow(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(100.0);
    p.hysteresis = 0.83;
    DrvDriver *d = drv_create(&p, t, NULL, 3);
    TST_CHECK(d != NULL);
    int bad = 0;
    for (long k = 0; k <= 3 * DRV_HYST_POW_TICKS; k++) {
        d->last_decide_tick = 1000;
        double w = drv_hysteresis_weight(d, 1000 + k), want = k > 1 ? pow(0.83, (double)k) : 0.83;
        bad += memcmp(&w, &want, sizeof w) != 0;
    }
    TST_CHECK(bad == 0);
    drv_destroy(d);
    trk_free(t);
    return 0;
}

/* Between decisions a target on the racing line moves with the line (through the gp track's chicane it sweeps
 * metres in a few ticks); a target off the line would stay put. The line is read where drv_think reads it: 2 m plus
 * 0.35 of the lookahead ahead. */
static int test_target_follows_line(void)
{
    TrkTrack *t = load_track("data/tracks/gp.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(10.0);
    DrvDriver *d = drv_create(&p, t, NULL, 5);
    TST_CHECK(d != NULL);
    double first_target = NAN, first_line = NAN, worst = 0.0, moved = 0.0;
    int held = 0;
    for (long tick = 0; tick < 10 && d != NULL; tick++) {
        DrvOther o;
        DrvView v = view_at(0, &o);
        v.tick = tick;
        v.speed_mps = 30.0;
        v.s_m = 1440.0 + 0.3 * (double)tick;
        v.d_m = trk_line_d(t, v.s_m, NULL);
        /* company 40 m ahead at our speed: within drafting's reach, so maps are built, but nothing is written for it
         * off a straight, so the line is the choice (100 m ahead it is a lone car's plan, which follows the line
         * for another reason: a lone car builds no maps) */
        o.ds_m = 40.0, o.speed_mps = 30.0;
        DrvControls c;
        drv_think(d, &v, &c);
        double line = trk_line_d(t, v.s_m + 2.0 + v.speed_mps * 0.35 * p.lookahead_s, NULL);
        if (drv_debug(d)->tick == tick) {
            TST_CHECK(!drv_debug(d)->alone && drv_debug(d)->slots > 0); /* a decision through maps */
            TST_CHECK(fabs(c.target_d_m - line) < 1.0); /* the decision chose the line */
            first_target = c.target_d_m, first_line = line;
            continue;
        }
        held++;
        worst = fmax(worst, fabs((c.target_d_m - first_target) - (line - first_line)));
        moved = fmax(moved, fabs(line - first_line));
    }
    TST_CHECK(held >= 5);
    TST_CHECK(moved > 0.05); /* the line did move */
    TST_CHECK(worst < 1e-9);
    drv_destroy(d);
    trk_free(t);
    return 0;
}

/* Between decisions the control still runs on the current view: with the plan held, the lateral request changes as
 * the car's own offset and lateral speed change. */
static int test_control_every_tick(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvPersonality p = quiet(10.0);
    DrvDriver *d = drv_create(&p, t, NULL, 3);
    TST_CHECK(d != NULL);
    double prev_lat = NAN, prev_target = NAN;
    int lat_changes = 0, target_changes = 0;
    for (long tick = 0; tick < 10; tick++) {
        DrvOther o;
        DrvView v = view_at(0, &o); /* the other car stands still relative to us */
        v.tick = tick;
        v.d_m = -5.5 + 0.02 * (double)tick; /* but we drift left, near the lane we aim for */
        v.lat_speed_mps = 0.1 * (double)tick;
        v.speed_mps = 20.0;
        v.s_m = 5.0;
        DrvControls c;
        drv_think(d, &v, &c);
        TST_CHECK(isfinite(c.lat_accel_mps2) && isfinite(c.long_accel_mps2));
        if (tick > 0) {
            lat_changes += c.lat_accel_mps2 != prev_lat;
            target_changes += c.target_d_m != prev_target;
        }
        prev_lat = c.lat_accel_mps2, prev_target = c.target_d_m;
    }
    TST_CHECK(lat_changes == 9);
    TST_CHECK(target_changes <= 1); /* a decision every 10 ticks: at most one new target in 9 steps */
    drv_destroy(d);
    trk_free(t);
    return 0;
}

/* Four cars deciding at 20 Hz race three laps of the oval: every car finishes with finite state, and a second run
 * is bit-identical (the stagger comes from the seeds, not from anything outside the race). */
static uint64_t race_hash(const TrkTrack *t, int *finished)
{
    SimWorldDef wd = sim_default_world_def();
    wd.track = t;
    wd.laps = 3;
    wd.seed = 5;
    SimWorld *w = sim_world_create(&wd);
    SimCarSpec spec = sim_default_car_spec();
    DrvPersonality p = drv_default_personality();
    p.decide_hz = 20.0;
    DrvDriver *d[4];
    for (int i = 0; i < 4; i++) {
        d[i] = drv_create(&p, t, &spec.dyn, 1000 + (uint64_t)i * 7919);
        SimCarDef c = {.name = "car", .number = i, .spec = spec, .s_m = -10.0 * (i + 1), .d_m = (i % 2 ? -2.5 : 2.5),
                       .race_dist_m = -10.0 * (i + 1), .think = drv_think_fn, .driver = d[i]};
        sim_world_add_car(w, &c);
    }
    sim_world_run(w);
    *finished = 0;
    for (int i = 0; i < 4; i++) {
        const SimCar *c = sim_world_car(w, i);
        *finished += c->status == SIM_FINISHED && isfinite(c->s_m) && isfinite(c->d_m) && isfinite(c->speed_mps);
    }
    uint64_t h = sim_world_hash(w);
    sim_world_destroy(w);
    for (int i = 0; i < 4; i++)
        drv_destroy(d[i]);
    return h;
}

static int test_race_at_20hz(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    int fin1, fin2;
    uint64_t h1 = race_hash(t, &fin1), h2 = race_hash(t, &fin2);
    TST_CHECK(fin1 == 4 && fin2 == 4);
    TST_CHECK(h1 == h2);
    trk_free(t);
    return 0;
}

int main(void)
{
    TST_RUN(test_race_at_20hz);
    TST_RUN(test_decision_period);
    TST_RUN(test_control_every_tick);
    TST_RUN(test_decision_period_follows_dt);
    TST_RUN(test_far_rate);
    TST_RUN(test_hysteresis_per_tick);
    TST_RUN(test_hysteresis_weight_is_pow);
    TST_RUN(test_alone_by_reach);
    TST_RUN(test_start_pack);
    TST_RUN(test_target_follows_line);
    return tst_report();
}
