/* test_drv_steering.c: the steering-behaviours driver (model = steering): its behaviours push the way they should,
 * it drives the racing line alone exactly like the context model, it finishes races alone and in traffic without a
 * NaN, and it keeps no maps. */
#include "../drivers/drv_steering.h"
#include "../sim/sim.h"
#include "tst.h"

#include <math.h>

/* A stadium built with trk_create: two straights of `straight_m` joined by half circles of `radius_m`, 7.5 m
 * either side of the centre line. */
static TrkTrack *stadium(double straight_m, double radius_m)
{
    const double pi = 3.14159265358979323846;
    TrkPointDef p[64];
    int n = 0, segs = (int)(straight_m / 100.0);
    for (int i = 0; i < segs; i++)
        p[n++] = (TrkPointDef){straight_m * i / segs, 0.0, 7.5, 7.5};
    for (int k = 0; k < 12; k++) {
        double a = -pi / 2 + pi * k / 12.0;
        p[n++] = (TrkPointDef){straight_m + radius_m * cos(a), radius_m + radius_m * sin(a), 7.5, 7.5};
    }
    for (int i = 0; i < segs; i++)
        p[n++] = (TrkPointDef){straight_m - straight_m * i / segs, 2.0 * radius_m, 7.5, 7.5};
    for (int k = 0; k < 12; k++) {
        double a = pi / 2 + pi * k / 12.0;
        p[n++] = (TrkPointDef){radius_m * cos(a), radius_m + radius_m * sin(a), 7.5, 7.5};
    }
    char err[TRK_ERR_LEN];
    return trk_create(p, n, NULL, err, sizeof err);
}

static DrvOther other(double ds, double d, double speed)
{
    DrvOther o = {.id = 1, .ds_m = ds, .d_m = d, .speed_mps = speed, .length_m = 4.6, .width_m = 2.0};
    return o;
}

static DrvView view_with(const DrvOther *o, int n, double d, double speed)
{
    DrvView v = {.tick = 10, .dt_s = 0.01, .s_m = 100.0, .d_m = d, .speed_mps = speed, .length_m = 4.6,
                 .width_m = 2.0, .others = o, .other_count = n};
    return v;
}

static DrvPersonality quiet(void)
{
    DrvPersonality p = drv_default_personality();
    p.model = DRV_MODEL_STEERING;
    p.reaction_noise = 0.0;
    return p;
}

/* Each behaviour on its own: seek pulls to the line, separation pushes away from a car alongside, avoidance pushes
 * out of the lane of a slower car ahead (toward the line when the car is dead ahead), draft pulls behind a car
 * ahead on a straight only. */
static int test_forces(void)
{
    DrvPersonality p = quiet();
    DrvSteeringDef def = drv_steering_default_def();
    DrvView v = view_with(NULL, 0, 0.0, 50.0);
    DrvSteeringForces f = drv_steering_forces(&v, &p, &def, 2.0, true, 0.0);
    TST_NEAR(f.sum_m, 2.0, 1e-12); /* alone: the target is the line */
    TST_CHECK(f.separation_m == 0.0 && f.avoid_m == 0.0 && f.draft_m == 0.0);

    DrvOther beside = other(0.5, 2.6, 50.0);
    v = view_with(&beside, 1, 0.0, 50.0);
    f = drv_steering_forces(&v, &p, &def, 0.0, false, 0.0);
    TST_CHECK(f.separation_m < -0.1); /* pushed right, away from the car on the left */
    TST_CHECK(f.avoid_m == 0.0);      /* alongside is not ahead */

    DrvOther slow = other(25.0, 0.5, 35.0);
    v = view_with(&slow, 1, 0.0, 50.0);
    f = drv_steering_forces(&v, &p, &def, 0.0, false, 0.0);
    TST_CHECK(f.avoid_m < -0.5); /* away from it: it is a little left of us */
    slow.d_m = 0.0;
    f = drv_steering_forces(&v, &p, &def, -3.0, false, 0.0);
    TST_CHECK(f.avoid_m < -0.5); /* dead ahead: toward the line */
    f = drv_steering_forces(&v, &p, &def, 3.0, false, 0.0);
    TST_CHECK(f.avoid_m > 0.5);

    DrvOther tow = other(20.0, 2.0, 50.0);
    v = view_with(&tow, 1, 0.0, 50.0);
    f = drv_steering_forces(&v, &p, &def, 0.0, true, 0.0);
    TST_CHECK(f.draft_m > 0.1);
    f = drv_steering_forces(&v, &p, &def, 0.0, false, 0.0);
    TST_CHECK(f.draft_m == 0.0);
    return 0;
}

/* The danger the model brakes on: full beside a car alongside, none in a free lane, proportional to urgency
 * ahead. */
static int test_danger_at(void)
{
    DrvPersonality p = quiet();
    DrvOther o[2] = {other(0.0, 3.0, 50.0), other(20.0, -3.0, 30.0)};
    DrvView v = view_with(o, 2, 0.0, 50.0);
    TST_NEAR(drv_steering_danger_at(&v, &p, 3.0, 0.0), 1.0, 1e-12);
    TST_NEAR(drv_steering_danger_at(&v, &p, -3.0, 0.0), 1.0 - (20.0 - 4.6) / 20.0 / 3.0, 1e-9);
    TST_CHECK(drv_steering_danger_at(&v, &p, -8.0, 0.0) == 0.0);
    return 0;
}

/* A world of `n` cars of one personality on a stadium, on a grid 10 m apart. Returns the world; fills drivers. */
static SimWorld *race(const TrkTrack *t, const DrvPersonality *p, int n, int laps, DrvDriver **drivers)
{
    SimWorldDef wd = sim_default_world_def();
    wd.track = t;
    wd.laps = laps;
    wd.seed = 3;
    SimWorld *w = sim_world_create(&wd);
    SimCarSpec spec = sim_default_car_spec();
    for (int i = 0; i < n; i++) {
        drivers[i] = drv_create(p, t, &spec.dyn, 100 + (uint64_t)i);
        SimCarDef c = {.name = "car", .number = i, .spec = spec, .s_m = -10.0 * (i + 1),
                       .d_m = (i % 2 ? -2.5 : 2.5), .race_dist_m = -10.0 * (i + 1), .think = drv_think_fn,
                       .driver = drivers[i]};
        sim_world_add_car(w, &c);
    }
    return w;
}

static bool finite_car(const SimCar *c)
{
    return isfinite(c->s_m) && isfinite(c->d_m) && isfinite(c->speed_mps) && isfinite(c->lat_speed_mps) &&
           isfinite(c->last_controls.long_accel_mps2) && isfinite(c->last_controls.lat_accel_mps2);
}

/* Alone, the steering car drives the same race as a context car with a fine map to a few hundredths of a second (the
 * same speed plan and control on the racing line), finishes, and keeps no maps. */
static int test_alone_matches_context(void)
{
    TrkTrack *t = stadium(400.0, 60.0);
    TST_CHECK(t != NULL);
    double time[2];
    for (int m = 0; m < 2; m++) {
        DrvPersonality p = quiet();
        p.model = m ? DRV_MODEL_STEERING : DRV_MODEL_CONTEXT;
        p.slots = 64;
        p.lod = false;
        DrvDriver *d[1];
        SimWorld *w = race(t, &p, 1, 2, d);
        TST_CHECK(m ? drv_debug(d[0]) == NULL : drv_debug(d[0]) != NULL);
        sim_world_run(w);
        const SimCar *c = sim_world_car(w, 0);
        TST_CHECK(c->status == SIM_FINISHED && finite_car(c));
        time[m] = c->finish_time_s;
        sim_world_destroy(w);
        drv_destroy(d[0]);
    }
    TST_NEAR(time[1], time[0], 0.05);
    trk_free(t);
    return 0;
}

/* The solo time of one lap of a race track, seconds. */
static double solo_lap_s(const TrkTrack *t, const DrvPersonality *p)
{
    DrvDriver *d[1];
    SimWorld *w = race(t, p, 1, 1, d);
    sim_world_run(w);
    const SimCar *c = sim_world_car(w, 0);
    double time = c->status == SIM_FINISHED && finite_car(c) ? c->finish_time_s : INFINITY;
    sim_world_destroy(w);
    drv_destroy(d[0]);
    return time;
}

/* The slot count must not matter to a lone car: on the grand-prix track (chicane, S-bends, a line that runs close
 * to the edges) a context car at 8, 16, 32 or 64 slots, with level of detail on or off, and with the hysteresis and
 * blur of the coarsest personalities, laps as fast as the steering car that follows the line exactly. A coarse map
 * read literally put the target a slot off the line and cost up to 7 s in two laps. */
static int test_alone_any_slot_count(void)
{
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    TST_CHECK(t != NULL);
    if (t == NULL)
        return 0;
    DrvPersonality p = quiet();
    double ref = solo_lap_s(t, &p);
    TST_CHECK(isfinite(ref));
    static const int slots[] = {8, 16, 32, 64};
    p.model = DRV_MODEL_CONTEXT;
    p.hysteresis = 0.6;
    p.blur = DRV_BLUR_GAUSS;
    p.blur_radius = 2;
    for (int i = 0; i < 4; i++)
        for (int lod = 0; lod < 2; lod++) {
            p.slots = slots[i];
            p.lod = lod;
            TST_NEAR(solo_lap_s(t, &p), ref, 0.1);
        }
    trk_free(t);
    return 0;
}

/* Five steering cars with some noise finish a three-lap race on a stadium: no NaN, nobody stalls or retires, and
 * the race is deterministic. */
static int test_traffic_finishes(void)
{
    TrkTrack *t = stadium(400.0, 60.0);
    DrvPersonality p = drv_default_personality();
    p.model = DRV_MODEL_STEERING;
    DrvDriver *d[5];
    SimWorld *w = race(t, &p, 5, 3, d);
    while (!sim_world_done(w)) {
        sim_world_step(w);
        for (int i = 0; i < 5; i++)
            if (!finite_car(sim_world_car(w, i))) {
                TST_CHECK(!"a car's state is not finite");
                break;
            }
    }
    for (int i = 0; i < 5; i++) {
        const SimCar *c = sim_world_car(w, i);
        TST_CHECK(c->status == SIM_FINISHED && c->laps == 3);
    }
    uint64_t hash = sim_world_hash(w);
    sim_world_destroy(w);
    for (int i = 0; i < 5; i++)
        drv_destroy(d[i]);
    /* deterministic: the same race again gives the same bits */
    w = race(t, &p, 5, 3, d);
    sim_world_run(w);
    TST_CHECK(sim_world_hash(w) == hash);
    sim_world_destroy(w);
    for (int i = 0; i < 5; i++)
        drv_destroy(d[i]);
    trk_free(t);
    return 0;
}

int main(void)
{
    TST_RUN(test_forces);
    TST_RUN(test_danger_at);
    TST_RUN(test_alone_matches_context);
    TST_RUN(test_alone_any_slot_count);
    TST_RUN(test_traffic_finishes);
    return tst_report();
}
