/* test_drv_follow.c: safe following (drivers/drv_follow.c). Behind a slower car into a braking zone the rule in time
 * lets the follower carry more speed than the rule at the same points (the reason it exists), yet both stop it behind
 * a car standing still; a lead in a train is followed further back; the first lap uses the same-points rule; a lead
 * with no braking foreseen is followed closely, in its tow; a lead is seen along its own speed plan, and along its
 * lane's caps when it is off its racing line; into a tight corner a car a little slower than our plan is followed
 * closely, its braking being the corner's. */
#include "../drivers/drv.h"
#include "../drivers/drv_drive.h"
#include "../drivers/drv_follow.h"
#include "../drivers/drv_internal.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>

/* Into the braking zone at the end of gp's longest straight: the plan falls from 71 to 54 m/s over s = 5030..5100. */
#define S_FOLLOWER 4990.0
#define V_FOLLOWER 70.0

typedef struct Case {
    TrkTrack *track;
    DrvDriver *driver;
    DrvView view;
    DrvOther others[2];
    DrvHere here;
} Case;

static bool case_open(Case *c) { return drv_tst_open_gp(&c->track, &c->driver); }

static void case_close(Case *c) { drv_tst_close(c->track, c->driver); }

/* The follower at S_FOLLOWER, V_FOLLOWER on the line; a lead gap_m ahead (centre to centre) at lead_mps on the line;
 * with train, a second car 20 m further on at train_mps. */
static const DrvOther *case_set(Case *c, double gap_m, double lead_mps, bool train, double train_mps, int laps_done)
{
    double d = trk_line_d(c->track, S_FOLLOWER, NULL);
    c->others[0] = (DrvOther){.id = 1, .ds_m = gap_m, .d_m = d, .speed_mps = lead_mps, .length_m = 4.6, .width_m = 2.0};
    c->others[1] = (DrvOther){.id = 2, .ds_m = gap_m + 20.0, .d_m = d, .speed_mps = train_mps, .length_m = 4.6,
                              .width_m = 2.0};
    c->view = (DrvView){.track = c->track, .tick = 100, .dt_s = 0.01, .laps_done = laps_done, .s_m = S_FOLLOWER,
                        .d_m = d, .speed_mps = V_FOLLOWER, .length_m = 4.6, .width_m = 2.0,
                        .others = c->others, .other_count = train ? 2 : 1};
    drv_drive_here(c->driver, &c->view, S_FOLLOWER + 20.0, &c->here);
    return &c->others[0];
}

static int test_time_rule_closes_up(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* a lead 40 m ahead, 5 m/s slower than us, both about to brake for the same corner: in time we may hold our
     * speed (it will brake too, and we can still brake behind it); at the same points we must lift now */
    const DrvOther *o = case_set(&c, 40.0, 65.0, false, 0.0, 1);
    double v_time = drv_follow_time(&c.view, c.driver, &c.here, o);
    double v_points = drv_follow_points(&c.view, c.driver, &c.here, o);
    TST_CHECK(v_time > V_FOLLOWER);
    TST_CHECK(v_points < V_FOLLOWER - 2.0);
    /* and in time the limit grows with the gap */
    o = case_set(&c, 30.0, 65.0, false, 0.0, 1);
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) < v_time);
    case_close(&c);
    return 0;
}

/* A lead off its racing line (attacking, held in a lane) is predicted along its lane's caps where they are below its
 * plan: into the braking zone, a lead 3 m off its line brakes earlier than its plan says, and we must be slower
 * behind it than behind the same lead judged by its plan alone. A lead on its line is judged by its plan. */
static int test_lead_off_its_line_drives_its_lane(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    const DrvLanes *lanes = c.driver->lanes;
    const DrvOther *o = case_set(&c, 40.0, 65.0, false, 0.0, 1);
    c.others[0].d_m -= 3.0;
    double on_lane = drv_follow_time(&c.view, c.driver, &c.here, o);
    c.driver->lanes = NULL; /* the same lead without its lane's caps */
    double by_plan = drv_follow_time(&c.view, c.driver, &c.here, o);
    TST_CHECK(on_lane < by_plan - 1.0);
    c.others[0].d_m += 3.0; /* on its line: the lanes change nothing */
    double on_line_plain = drv_follow_time(&c.view, c.driver, &c.here, o);
    c.driver->lanes = lanes;
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) == on_line_plain);
    case_close(&c);
    return 0;
}

static int test_both_stop_behind_a_stopped_car(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* a car standing 40 m ahead: from the limit, braking at the full grip after no reaction at all must stop us
     * within the gap (bumper to bumper, 35.4 m) */
    const DrvOther *o = case_set(&c, 40.0, 0.0, false, 0.0, 1);
    double g = c.here.grip_mps2;
    double v_stop = sqrt(2.0 * g * (40.0 - 4.6));
    double v_time = drv_follow_time(&c.view, c.driver, &c.here, o);
    double v_points = drv_follow_points(&c.view, c.driver, &c.here, o);
    TST_CHECK(v_time < v_stop);
    TST_CHECK(v_points < v_stop);
    TST_CHECK(v_time > 5.0); /* and neither tells us to stop dead 40 m back */
    case_close(&c);
    return 0;
}

static int test_train_is_followed_further_back(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    const DrvOther *o = case_set(&c, 25.0, 65.0, false, 0.0, 1);
    double alone = drv_follow_time(&c.view, c.driver, &c.here, o);
    o = case_set(&c, 25.0, 65.0, true, 40.0, 1); /* the lead has a much slower car 20 m ahead of it in its lane */
    double train = drv_follow_time(&c.view, c.driver, &c.here, o);
    TST_CHECK(train < alone - 1.0);
    case_close(&c);
    return 0;
}

/* We at s, v on the line; one lead gap_m ahead (centre to centre) on the line at lead_mps; lap 2. */
static const DrvOther *case_set_at(Case *c, double s, double v, double gap_m, double lead_mps)
{
    c->others[0] = (DrvOther){.id = 1, .ds_m = gap_m, .d_m = trk_line_d(c->track, s + gap_m, NULL),
                              .speed_mps = lead_mps, .length_m = 4.6, .width_m = 2.0};
    c->view = (DrvView){.track = c->track, .tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = s,
                        .d_m = trk_line_d(c->track, s, NULL), .speed_mps = v, .length_m = 4.6, .width_m = 2.0,
                        .others = c->others, .other_count = 1};
    drv_drive_here(c->driver, &c->view, s + 20.0, &c->here);
    return &c->others[0];
}

/* The follower's escape brakes with the grip it has at each speed on the way down: from the limit behind a car
 * standing on the main straight, braking at its grip use of the grip at each speed (falling with the downforce), after
 * no reaction at all, stops it before that car. */
static int test_escape_brakes_with_the_grip_at_each_speed(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    const TrkCarParams car = trk_default_car();
    for (double gap = 40.0; gap <= 120.0; gap += 20.0) {
        double v = drv_follow_time(&c.view, c.driver, &c.here, case_set_at(&c, 100.0, 80.0, gap, 0.0));
        TST_CHECK(v > 5.0 && isfinite(v));
        double x = 0.0, dt = 0.001;
        while (v > 0.0) {
            double b = drv_default_personality().grip_use * trk_car_grip_mps2(&car, v);
            x += v * dt;
            v -= b * dt;
        }
        TST_CHECK(x <= gap - 4.6);
    }
    case_close(&c);
    return 0;
}

/* The slope of the limit behind a lead at a steady gap: the lead's acceleration along its own plan at its pace. */
static int test_lead_accel_is_its_plan_slope_at_its_pace(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    const TrkSpeedProfile *plan = drv_plan(c.driver);
    /* in turn 1's braking zone at its plan's speed: braking hard */
    double v_brake = trk_speed_at(plan, 720.0, NULL);
    const DrvOther *o = case_set_at(&c, 700.0, v_brake, 20.0, v_brake);
    double a_full = drv_follow_lead_accel(c.driver, &c.view, o);
    TST_CHECK(a_full < -10.0);
    /* at half its plan's speed there, a quarter of it: half the speed, and half as fast along the plan's slope */
    o = case_set_at(&c, 700.0, v_brake, 20.0, 0.5 * v_brake);
    double a_half = drv_follow_lead_accel(c.driver, &c.view, o);
    TST_CHECK(a_half < 0.0 && fabs(a_half - 0.25 * a_full) < 0.5);
    /* early on the main straight, where its plan accelerates: no braking */
    double v_straight = trk_speed_at(plan, 120.0, NULL);
    o = case_set_at(&c, 100.0, v_straight, 20.0, v_straight);
    TST_CHECK(drv_follow_lead_accel(c.driver, &c.view, o) > 0.0);
    case_close(&c);
    return 0;
}

static int test_wake_is_followed_closely_into_the_braking_zone(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* 12 m behind a car at our speed early on gp's main straight (no braking for the next 4 s): we may stay there,
     * in its tow */
    const DrvOther *o = case_set_at(&c, 100.0, 60.0, 12.0, 60.0);
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) >= 60.0);
    /* the same gap and speeds with turn 1's braking 1.5 s ahead: still in the tow, where an attack can start from (a
     * headway doubled there took the follower back to 14 m of bumper gap before the braking point) */
    o = case_set_at(&c, 600.0, 60.0, 12.0, 60.0);
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) >= 60.0);
    /* but behind a lead 2 m off its racing line, whose braking its plan does not foretell, we drop back */
    c.others[0].d_m += 2.0;
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) < 60.0);
    /* but with less to spare as the braking comes nearer: the full reaction time from 1 s before it */
    double mid = drv_follow_time(&c.view, c.driver, &c.here, case_set_at(&c, 420.0, 60.0, 12.0, 60.0));
    double near = drv_follow_time(&c.view, c.driver, &c.here, case_set_at(&c, 700.0, 60.0, 12.0, 60.0));
    TST_CHECK(mid > near + 3.0);
    case_close(&c);
    return 0;
}

static int test_first_lap_follows_at_the_same_points(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    const DrvOther *o = case_set(&c, 25.0, 65.0, false, 0.0, 0);
    TST_CHECK(drv_follow_safe_speed(&c.view, c.driver, &c.here, o) == drv_follow_points(&c.view, c.driver, &c.here, o));
    o = case_set(&c, 25.0, 65.0, false, 0.0, 2);
    TST_CHECK(drv_follow_safe_speed(&c.view, c.driver, &c.here, o) == drv_follow_time(&c.view, c.driver, &c.here, o));
    case_close(&c);
    return 0;
}

static int test_lead_is_predicted_along_its_own_plan(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* a lead whose driver uses less grip (0.85) plans to brake earlier and corner slower than we do */
    DrvDriver *slow = drv_tst_driver(c.track, 0.85, 2);
    TST_CHECK(slow != NULL);
    /* 25 m ahead at our speed into the braking zone: seen along our plan (no plan shown) */
    const DrvOther *o = case_set(&c, 25.0, 70.0, false, 0.0, 1);
    double ours = drv_follow_time(&c.view, c.driver, &c.here, o);
    /* shown with our own plan, the same */
    c.others[0].plan = drv_plan(c.driver);
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) == ours);
    /* shown with its own, slower plan: it will be slower through the corner, so we are held further back */
    c.others[0].plan = drv_plan(slow);
    double its = drv_follow_time(&c.view, c.driver, &c.here, o);
    TST_CHECK(its < ours - 0.5);
    drv_destroy(slow);
    case_close(&c);
    return 0;
}

/* The limit asked for below a cap (the speed the caller aims for): the same limit wherever it is at or below the
 * cap, else a speed above the cap; a NaN cap is no cap. Both rules: the first lap's and the one in time. */
static int test_limit_below_a_cap(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    for (int laps = 0; laps <= 1; laps++)
        for (double gap = 15.0; gap <= 150.0; gap += 5.0)
            for (double lead = 40.0; lead <= 80.0; lead += 20.0) {
                const DrvOther *o = case_set(&c, gap, lead, false, 0.0, laps);
                double v = drv_follow_safe_speed(&c.view, c.driver, &c.here, o);
                for (double cap = 40.0; cap <= 90.0; cap += 2.5) {
                    double below = drv_follow_safe_speed_below(&c.view, c.driver, &c.here, o, cap);
                    TST_CHECK(v <= cap ? below == v : below > cap);
                }
                TST_CHECK(drv_follow_safe_speed_below(&c.view, c.driver, &c.here, o, NAN) == v);
            }
    case_close(&c);
    return 0;
}

/* Where gp's racing line bends the most, m. */
static double tightest_corner(const TrkTrack *t)
{
    double best_s = 0.0, best_k = 0.0;
    for (double s = 0.0; s < trk_length(t); s += 1.0) {
        double k = fabs(trk_line_curvature(t, s, NULL));
        if (k > best_k)
            best_k = k, best_s = s;
    }
    return best_s;
}

/* Into gp's hairpin, 50 m before its tightest point at our plan's speed, 20 m behind a car (centre to centre) that
 * goes 0.97 of our plan where it is: its braking is what its corner leaves it, and the escape only has to shed the
 * difference, so the rule lets us keep our plan (counted at the braking our own corner leaves us, it held us below
 * it). A car standing where that one is still limits us. */
static int test_corner_entry_followed_closely(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    double s = tightest_corner(c.track) - 50.0, gap = 20.0;
    double v = trk_speed_at(c.driver->profile, s, NULL);
    double v_lead = 0.97 * trk_speed_at(c.driver->profile, s + gap, NULL);
    const DrvOther *o = case_set_at(&c, s, v, gap, v_lead);
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) > v);
    o = case_set_at(&c, s, v, gap, 0.0);
    TST_CHECK(drv_follow_time(&c.view, c.driver, &c.here, o) < v);
    case_close(&c);
    return 0;
}

int main(void)
{
    TST_RUN(test_corner_entry_followed_closely);
    TST_RUN(test_lead_is_predicted_along_its_own_plan);
    TST_RUN(test_time_rule_closes_up);
    TST_RUN(test_lead_off_its_line_drives_its_lane);
    TST_RUN(test_both_stop_behind_a_stopped_car);
    TST_RUN(test_train_is_followed_further_back);
    TST_RUN(test_first_lap_follows_at_the_same_points);
    TST_RUN(test_wake_is_followed_closely_into_the_braking_zone);
    TST_RUN(test_escape_brakes_with_the_grip_at_each_speed);
    TST_RUN(test_lead_accel_is_its_plan_slope_at_its_pace);
    TST_RUN(test_limit_below_a_cap);
    return tst_report();
}
