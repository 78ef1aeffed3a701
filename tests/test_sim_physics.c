/* test_sim_physics.c: the sim's car physics against closed-form predictions: top speed from power and drag,
 * braking distance from the friction limit, sliding wide in a corner taken too fast, drafting, off-track. */
#include "../sim/sim_internal.h"
#include "sim_tst.h"
#include "tst.h"

/* Top speed where power / v equals aero drag plus rolling resistance (bisection). */
static double predicted_top_speed(const TrkCarParams *c)
{
    double lo = 1.0, hi = 200.0;
    for (int i = 0; i < 200; i++) {
        double v = 0.5 * (lo + hi);
        double resist = 0.5 * c->air_density_kgpm3 * c->drag_area_m2 * v * v +
                        c->rolling_coeff * c->mass_kg * TRK_GRAVITY_MPS2;
        if (c->power_w / v > resist)
            lo = v;
        else
            hi = v;
    }
    return 0.5 * (lo + hi);
}

static int test_top_speed(void)
{
    TrkTrack *t = sim_tst_stadium(4000.0, 300.0);
    TST_CHECK(t != NULL);
    SimWorld *w = sim_tst_world(t, 0);
    SimCarSpec spec = sim_default_car_spec();
    double v_top = predicted_top_speed(&spec.dyn);
    TST_CHECK(v_top > 80.0 && v_top < 100.0);
    SimTstDriver full = sim_tst_driver(-1.0, 3.0), at_top = sim_tst_driver(-1.0, -3.0); /* apart: no wake */
    full.long_mps2 = 1000.0; /* flat out: the sim clips to what the engine gives */
    at_top.long_mps2 = 1000.0;
    sim_tst_add(w, "below", 100.0, 3.0, v_top - 2.0, 100.0, &full, &spec);
    sim_tst_add(w, "at", 100.0, -3.0, v_top, 100.0, &at_top, &spec);
    sim_tst_steps(w, 3000); /* 30 s, about 2.8 km of the 4 km straight (the approach has a ~10 s time constant) */
    TST_NEAR(sim_world_car(w, 0)->s_m, 2900.0, 100.0);
    TST_NEAR(sim_world_car(w, 0)->speed_mps, v_top, 0.3);
    TST_NEAR(sim_world_car(w, 1)->speed_mps, v_top, 0.02);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

static int test_braking_distance(void)
{
    TrkTrack *t = sim_tst_stadium(2000.0, 300.0);
    SimWorld *w = sim_tst_world(t, 0);
    SimCarSpec spec = sim_default_car_spec();
    spec.dyn.drag_area_m2 = 0.0; /* only the tyres stop the car, so the distance is v^2 / (2 mu g) */
    spec.dyn.rolling_coeff = 0.0;
    spec.dyn.downforce_area_m2 = 0.0;
    SimTstDriver brake = sim_tst_driver(-1.0, 0.0);
    brake.long_mps2 = -1000.0; /* stamps on the brakes: the friction circle limits it */
    const double v0 = 50.0;
    sim_tst_add(w, "brake", 200.0, 0.0, v0, 200.0, &brake, &spec);
    int ticks = 0;
    while (sim_world_car(w, 0)->speed_mps > 0.0 && ticks < 1000) {
        sim_world_step(w);
        ticks++;
    }
    double mu_g = spec.dyn.mu * TRK_GRAVITY_MPS2;
    TST_NEAR(sim_world_car(w, 0)->race_dist_m - 200.0, v0 * v0 / (2.0 * mu_g), 0.5);
    TST_NEAR(ticks * 0.01, v0 / mu_g, 0.02);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

/* On a circle of radius R without downforce the grip limit is sqrt(mu g R). Just under it the car holds its line;
 * well over it the car slides to the outside (right of a left turn) and off the track. */
static int test_corner_too_fast_slides_wide(void)
{
    const double radius = 150.0;
    TrkTrack *t = sim_tst_circle(radius);
    TST_CHECK(trk_curvature(t, 10.0, NULL) > 0.0); /* counter-clockwise: a left turn */
    SimWorld *w = sim_tst_world(t, 0);
    SimCarSpec spec = sim_default_car_spec();
    spec.dyn.downforce_area_m2 = 0.0;
    double v_lim = sqrt(spec.dyn.mu * TRK_GRAVITY_MPS2 / trk_curvature(t, 10.0, NULL));
    SimTstDriver under = sim_tst_driver(0.97 * v_lim, 0.0), over = sim_tst_driver(1.15 * v_lim, 0.0);
    sim_tst_add(w, "under", 10.0, 0.0, 0.97 * v_lim, 10.0, &under, &spec);
    sim_tst_add(w, "over", 400.0, 0.0, 1.15 * v_lim, 400.0, &over, &spec);
    double min_d_over = 0.0, max_abs_d_under = 0.0;
    for (int i = 0; i < 1000; i++) {
        sim_world_step(w);
        max_abs_d_under = fmax(max_abs_d_under, fabs(sim_world_car(w, 0)->d_m));
        min_d_over = fmin(min_d_over, sim_world_car(w, 1)->d_m);
    }
    TST_CHECK(max_abs_d_under < 0.05);
    TST_CHECK(sim_world_car(w, 0)->offtracks == 0);
    TST_CHECK(min_d_over < -7.5); /* slid wide, over the right edge */
    TST_CHECK(sim_world_car(w, 1)->offtracks >= 1);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

static int test_draft_factor_formula(void)
{
    TST_NEAR(sim_draft_factor(2.0, 1.0, 4.6), 1.0 - SIM_DRAFT_MAX, 1e-12);
    TST_NEAR(sim_draft_factor(4.6, 1.0, 4.6), 1.0 - SIM_DRAFT_MAX, 1e-12);
    TST_NEAR(sim_draft_factor(0.5 * (4.6 + SIM_DRAFT_RANGE_M), 1.0, 4.6), 1.0 - 0.5 * SIM_DRAFT_MAX, 1e-12);
    TST_NEAR(sim_draft_factor(SIM_DRAFT_RANGE_M, 1.0, 4.6), 1.0, 1e-12);
    TST_NEAR(sim_draft_factor(100.0, 1.0, 4.6), 1.0, 1e-12);
    TST_NEAR(sim_draft_factor(2.0, 0.5, 4.6), 1.0 - 0.5 * SIM_DRAFT_MAX, 1e-12);
    TST_NEAR(sim_draft_factor(-0.5, 1.0, 4.6), 1.0, 1e-12); /* alongside: no wake */
    TST_NEAR(sim_draft_factor(2.0, 0.0, 4.6), 1.0, 1e-12);
    return 0;
}

/* Coasting on a straight: the leader loses speed to full drag, a car a few metres behind to 0.65 of the aero part,
 * a car behind with half its width overlapping to 0.825 of it. */
static int test_draft_reduces_drag(void)
{
    TrkTrack *t = sim_tst_stadium(2000.0, 300.0);
    SimWorld *w = sim_tst_world(t, 0);
    SimTstDriver coast[3];
    for (int i = 0; i < 3; i++) {
        coast[i] = sim_tst_driver(-1.0, 0.0);
        coast[i].hold_d = false;
    }
    const double v = 60.0;
    sim_tst_add(w, "leader", 500.0, 0.0, v, 500.0, &coast[0], NULL);
    sim_tst_add(w, "close", 500.0 - 4.6 - 3.0, 0.0, v, 500.0 - 7.6, &coast[1], NULL);
    sim_tst_add(w, "half", 500.0 - 4.6 - 3.0 - 4.6 - 20.0, 1.0, v, 500.0 - 7.6 - 24.6, &coast[2], NULL);
    sim_world_step(w);
    TrkCarParams c = trk_default_car();
    double aero = 0.5 * c.air_density_kgpm3 * c.drag_area_m2 * v * v;
    double roll = c.rolling_coeff * c.mass_kg * TRK_GRAVITY_MPS2;
    double dt = 0.01;
    TST_NEAR(sim_world_car(w, 0)->speed_mps, v - (aero + roll) / c.mass_kg * dt, 1e-9);
    TST_NEAR(sim_world_car(w, 1)->speed_mps, v - ((1.0 - SIM_DRAFT_MAX) * aero + roll) / c.mass_kg * dt, 1e-9);
    /* "half" is 20 m behind "close" (closeness (40-20)/(40-4.6)) with half its width overlapping */
    double f = sim_draft_factor(20.0, 0.5, 4.6);
    TST_NEAR(sim_world_car(w, 2)->speed_mps, v - (f * aero + roll) / c.mass_kg * dt, 1e-9);
    TST_CHECK(!sim_world_car(w, 0)->drafting_now);
    TST_CHECK(sim_world_car(w, 1)->drafting_now && sim_world_car(w, 2)->drafting_now);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

/* Flat out on a straight, the follower closes on an identical leader. */
static int test_draft_makes_follower_faster(void)
{
    TrkTrack *t = sim_tst_stadium(3000.0, 300.0);
    SimWorld *w = sim_tst_world(t, 0);
    SimTstDriver a = sim_tst_driver(-1.0, 0.0), b = sim_tst_driver(-1.0, 0.0);
    a.long_mps2 = b.long_mps2 = 1000.0;
    sim_tst_add(w, "leader", 300.0, 0.0, 70.0, 300.0, &a, NULL);
    sim_tst_add(w, "follower", 288.0, 0.0, 70.0, 288.0, &b, NULL);
    sim_tst_steps(w, 300);
    const SimCar *l = sim_world_car(w, 0), *f = sim_world_car(w, 1);
    TST_CHECK(f->speed_mps > l->speed_mps + 1.0);
    TST_CHECK(l->race_dist_m - f->race_dist_m < 12.0 - 2.0);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

/* Steered off: one off-track per excursion, time counted, grass slows the car, and it never leaves the world. */
static int test_offtrack(void)
{
    TrkTrack *t = sim_tst_stadium(2000.0, 300.0);
    SimWorld *w = sim_tst_world(t, 0);
    SimTstDriver drv = sim_tst_driver(-1.0, 0.0), ref = sim_tst_driver(-1.0, 0.0);
    drv.hold_d = false;
    drv.lat_mps2 = -6.0; /* hard right, forever, coasting */
    sim_tst_add(w, "off", 100.0, 0.0, 40.0, 100.0, &drv, NULL);
    sim_tst_add(w, "ref", 300.0, 0.0, 40.0, 300.0, &ref, NULL); /* coasts on the track */
    double min_d = 0.0;
    for (int i = 0; i < 400; i++) {
        sim_world_step(w);
        min_d = fmin(min_d, sim_world_car(w, 0)->d_m);
    }
    const SimCar *c = sim_world_car(w, 0);
    TST_CHECK(c->off_track_now);
    TST_CHECK(c->offtracks == 1);
    TST_CHECK(min_d >= -7.5 - SIM_OFF_MAX_M - 1e-9);
    TST_CHECK(min_d < -7.5 - SIM_OFF_MAX_M + 0.5); /* it reached the wall */
    TST_CHECK(c->offtrack_s > 1.0 && c->offtrack_s < 4.0);
    /* grass drag of at least SIM_GRASS_DECEL_MPS2 for the time off */
    TST_CHECK(sim_world_car(w, 1)->speed_mps - c->speed_mps > SIM_GRASS_DECEL_MPS2 * (c->offtrack_s - 0.05));
    /* back on the track, then off again: a second excursion */
    drv.hold_d = true;
    sim_tst_steps(w, 400);
    TST_CHECK(!sim_world_car(w, 0)->off_track_now);
    drv.hold_d = false;
    sim_tst_steps(w, 300);
    TST_CHECK(sim_world_car(w, 0)->offtracks == 2);
    TST_CHECK(sim_tst_count(w, SIM_EV_OFFTRACK) == 2);
    sim_world_destroy(w);
    trk_free(t);
    return 0;
}

int main(void)
{
    TST_RUN(test_top_speed);
    TST_RUN(test_braking_distance);
    TST_RUN(test_corner_too_fast_slides_wide);
    TST_RUN(test_draft_factor_formula);
    TST_RUN(test_draft_reduces_drag);
    TST_RUN(test_draft_makes_follower_faster);
    TST_RUN(test_offtrack);
    return tst_report();
}
