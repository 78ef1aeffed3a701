/* test_api_checks.c: public entry points refuse bad input instead of crashing or spreading NaN: non-finite or
 * absurd numbers, invalid ids, NULL where a thing is required, cars added after the start. Also the stage-timing
 * accessors and sim_world_check (the invariant check the soak test uses). */
#include "tst.h"

#include "../sim/sim.h"

#include <stdlib.h>

static TrkTrack *square_track(void)
{
    TrkPointDef p[8];
    for (int i = 0; i < 8; i++) {
        double a = 6.283185307179586 * i / 8;
        p[i] = (TrkPointDef){300.0 * cos(a), 200.0 * sin(a), 6.0, 6.0};
    }
    char err[TRK_ERR_LEN];
    return trk_create(p, 8, NULL, err, sizeof err);
}

static SimCarDef car_at(double s, double d)
{
    SimCarDef c;
    memset(&c, 0, sizeof c);
    c.name = "c";
    c.spec = sim_default_car_spec();
    c.s_m = s;
    c.d_m = d;
    c.speed_mps = 20.0;
    c.race_dist_m = s;
    return c;
}

static int test_world_def_checked(void)
{
    TrkTrack *t = square_track();
    TST_CHECK(t != NULL);
    TST_CHECK(sim_world_create(NULL) == NULL);
    SimWorldDef def = sim_default_world_def();
    TST_CHECK(sim_world_create(&def) == NULL); /* no track */
    def.track = t;
    const double bad_hz[] = {0.0, -100.0, NAN, INFINITY, 1e9};
    for (size_t i = 0; i < sizeof bad_hz / sizeof bad_hz[0]; i++) {
        SimWorldDef d = def;
        d.tick_hz = bad_hz[i];
        TST_CHECK(sim_world_create(&d) == NULL);
    }
    SimWorldDef d = def;
    d.duration_s = NAN;
    TST_CHECK(sim_world_create(&d) == NULL);
    d = def;
    d.stall_timeout_s = -1.0;
    TST_CHECK(sim_world_create(&d) == NULL);
    d = def;
    d.laps = -1;
    TST_CHECK(sim_world_create(&d) == NULL);
    SimWorld *w = sim_world_create(&def);
    TST_CHECK(w != NULL);
    sim_world_destroy(w);
    sim_world_destroy(NULL);
    trk_free(t);
    return 0;
}

static int test_add_car_checked(void)
{
    TrkTrack *t = square_track();
    SimWorldDef def = sim_default_world_def();
    def.track = t;
    SimWorld *w = sim_world_create(&def);
    TST_CHECK(sim_world_add_car(w, NULL) == -1);
    TST_CHECK(sim_world_add_car(NULL, NULL) == -1);
    SimCarDef c = car_at(10.0, NAN);
    TST_CHECK(sim_world_add_car(w, &c) == -1);
    c = car_at(INFINITY, 0.0);
    TST_CHECK(sim_world_add_car(w, &c) == -1);
    c = car_at(1e300, 0.0);
    TST_CHECK(sim_world_add_car(w, &c) == -1);
    c = car_at(10.0, 0.0);
    c.spec.dyn.mass_kg = 0.0;
    TST_CHECK(sim_world_add_car(w, &c) == -1);
    c = car_at(10.0, 0.0);
    c.spec.width_m = NAN;
    TST_CHECK(sim_world_add_car(w, &c) == -1);
    c = car_at(10.0, 0.0);
    c.spec.dyn.power_w = -1.0;
    TST_CHECK(sim_world_add_car(w, &c) == -1);
    c = car_at(10.0, 0.0);
    TST_CHECK(sim_world_add_car(w, &c) == 0);
    TST_CHECK(sim_world_car_count(w) == 1);
    sim_world_step(w);
    c = car_at(50.0, 0.0);
    TST_CHECK(sim_world_add_car(w, &c) == -1); /* after the start */
    TST_CHECK(sim_world_car(w, -1) == NULL);
    TST_CHECK(sim_world_car(w, 1) == NULL);
    TST_CHECK(sim_world_car(w, 0) != NULL);
    sim_world_step(NULL);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

/* Track queries at non-finite or absurd arc lengths answer finite values; a bad hint is ignored. */
static int test_track_queries_nonfinite(void)
{
    TrkTrack *t = square_track();
    const double bad[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, -0.0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int hint = 123456789;
        TrkPose p = trk_pose_at(t, bad[i], &hint);
        TST_CHECK(isfinite(p.x_m) && isfinite(p.y_m) && isfinite(p.tx) && isfinite(p.ny));
        TST_CHECK(hint >= 0);
        hint = -5;
        TST_CHECK(isfinite(trk_curvature(t, bad[i], &hint)));
        TST_CHECK(isfinite(trk_width_left(t, bad[i], NULL)) && trk_width_left(t, bad[i], NULL) > 0.0);
        TST_CHECK(isfinite(trk_line_d(t, bad[i], NULL)));
        double w = trk_wrap_s(t, bad[i]);
        TST_CHECK(w >= 0.0 && w < trk_length(t));
        TST_CHECK(isfinite(trk_delta_s(t, 0.0, bad[i])));
        double s = -1.0, d = -1.0;
        hint = 99999999;
        int rc = trk_to_frenet(t, bad[i], 0.0, &s, &d, &hint);
        TST_CHECK(isfinite(s) && isfinite(d));
        TST_CHECK(rc == (isfinite(bad[i]) ? 0 : 1));
    }
    TrkCarParams car = trk_default_car();
    TrkSpeedProfile *prof = trk_speed_profile_create(t, &car, TRK_PATH_RACING_LINE, 0.9);
    TST_CHECK(prof != NULL);
    TST_CHECK(isfinite(trk_speed_at(prof, NAN, NULL)) && isfinite(trk_speed_at(prof, -1e300, NULL)));
    trk_speed_profile_free(prof);
    /* the wrap's fast path keeps the formula's results, -0.0 included */
    TST_CHECK(signbit(trk_wrap_s(t, -0.0)) == 0);
    TST_CHECK(trk_wrap_s(t, trk_length(t)) == 0.0);
    TST_CHECK(trk_wrap_s(t, 12.5) == 12.5);
    trk_free(t);
    return 0;
}

/* Bad control points are refused with a message, never built. */
static int test_track_create_checked(void)
{
    char err[TRK_ERR_LEN];
    TST_CHECK(trk_create(NULL, 0, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "need at least 4 points, got 0");
    TrkPointDef p[4] = {{0, 0, 5, 5}, {100, 0, 5, 5}, {100, NAN, 5, 5}, {0, 100, 5, 5}};
    TST_CHECK(trk_create(p, 4, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "not a finite number");
    return 0;
}

static int test_stage_timing(void)
{
    TrkTrack *t = square_track();
    SimWorldDef def = sim_default_world_def();
    def.track = t;
    SimWorld *w = sim_world_create(&def);
    SimCarDef c = car_at(10.0, 0.0);
    sim_world_add_car(w, &c);
    sim_world_step(w);
    for (int s = 0; s < SIM_STAGE_COUNT; s++)
        TST_CHECK(sim_world_stage_ns(w, (SimStage)s) == 0.0); /* off by default: no clock read */
    uint64_t h_untimed = sim_world_hash(w);
    sim_world_set_stage_timing(w, true);
    for (int i = 0; i < 50; i++)
        sim_world_step(w);
    double total = 0.0;
    for (int s = 0; s < SIM_STAGE_COUNT; s++) {
        TST_CHECK(sim_world_stage_ns(w, (SimStage)s) >= 0.0);
        total += sim_world_stage_ns(w, (SimStage)s);
    }
    TST_CHECK(total > 0.0);
    TST_CHECK(sim_world_stage_ns(w, SIM_STAGE_COUNT) == 0.0);
    TST_STR_EQ(sim_stage_name(SIM_STAGE_THINK), "think");
    TST_STR_EQ(sim_stage_name(SIM_STAGE_COUNT), "unknown");
    /* timing never changes results: the same world stepped without it has the same hash */
    SimWorld *u = sim_world_create(&def);
    sim_world_add_car(u, &c);
    sim_world_step(u);
    TST_CHECK(sim_world_hash(u) == h_untimed);
    for (int i = 0; i < 50; i++)
        sim_world_step(u);
    TST_CHECK(sim_world_hash(u) == sim_world_hash(w));
    sim_world_destroy(u);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

static int test_world_check(void)
{
    TrkTrack *t = square_track();
    SimWorldDef def = sim_default_world_def();
    def.track = t;
    SimWorld *w = sim_world_create(&def);
    char err[256];
    SimCarDef c = car_at(10.0, 0.0);
    sim_world_add_car(w, &c);
    c = car_at(30.0, 10.9); /* 6 m of track, 5 m of run-off: just inside the world */
    c.speed_mps = 0.0;
    sim_world_add_car(w, &c);
    TST_CHECK(sim_world_check(w, err, sizeof err) == 0);
    sim_world_destroy(w);
    w = sim_world_create(&def);
    c = car_at(30.0, 11.5); /* beyond the wall */
    sim_world_add_car(w, &c);
    TST_CHECK(sim_world_check(w, err, sizeof err) != 0);
    TST_STR_EQ(err, "car 0 (c): d = 11.500 m beyond the world limit (11.000 m)");
    TST_CHECK(sim_world_check(NULL, err, sizeof err) != 0);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

int main(void)
{
    TST_RUN(test_world_def_checked);
    TST_RUN(test_add_car_checked);
    TST_RUN(test_track_queries_nonfinite);
    TST_RUN(test_track_create_checked);
    TST_RUN(test_stage_timing);
    TST_RUN(test_world_check);
    return tst_report();
}
