/* test_drv_attack.c: the attack's verdict (drivers/drv_beh_attack.c) and what it decides. On gp's main straight a car
 * catching the one ahead gets alongside it on the free side; one at the same speed never does; a car that would still
 * be behind when the one ahead turns in for turn 1 does not attack; nor through a lane another car runs in; the first
 * lap's manners have no verdict. The verdict decides whether the closeness of the car we follow devalues its lane
 * (drv_beh_avoid.c) and where the attack's interest goes. The car ahead is judged along its own speed plan: a slower
 * driver at our speed on a straight brakes earlier. */
#include "../drivers/drv.h"
#include "../drivers/drv_beh.h"
#include "../drivers/drv_drive.h"
#include "../drivers/drv_internal.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>

#define LINE_D 6.0 /* the racing line on gp's main straight (s = 0..780), m */

typedef struct Case {
    TrkTrack *track;
    DrvDriver *driver;
    DrvView view;
    DrvOther other;
    DrvHere here;
    DrvBehCtx ctx;
} Case;

static bool case_open(Case *c) { return drv_tst_open_gp(&c->track, &c->driver); }

static void case_close(Case *c) { drv_tst_close(c->track, c->driver); }

/* We at s on the line at v; the car we follow ds_m ahead (centre to centre) on the line at v_other. */
static void case_set(Case *c, double s, double v, double ds_m, double v_other, int laps_done)
{
    c->other = (DrvOther){.id = 1, .ds_m = ds_m, .d_m = trk_line_d(c->track, s + ds_m, NULL), .speed_mps = v_other,
                          .length_m = 4.6, .width_m = 2.0};
    c->view = (DrvView){.track = c->track, .tick = 100, .dt_s = 0.01, .laps_done = laps_done, .s_m = s,
                        .d_m = trk_line_d(c->track, s, NULL), .speed_mps = v, .length_m = 4.6, .width_m = 2.0,
                        .others = &c->other, .other_count = 1};
    drv_drive_here(c->driver, &c->view, s + 20.0, &c->here);
    c->ctx = (DrvBehCtx){.half_width_m = 1.0, .half_length_m = 2.3, .line_d_m = c->view.d_m,
                         .d_left_ahead_m = 7.5 - 1.0, .d_right_ahead_m = -7.5 + 1.0, .on_straight = true,
                         .grip_mps2 = c->here.grip_mps2, .line_speed_mps = c->here.line_speed_mps,
                         .lanes = c->driver->lanes, .plan = c->driver->profile, .s_m = s, .track = c->track,
                         .attacked_id = -1, .first_lap_manners = laps_done == 0};
    c->ctx.attack = drv_attack_judge(&c->view, &c->ctx);
}

static int test_catching_on_the_straight_attacks_on_the_free_side(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    case_set(&c, 100.0, 60.0, 15.0, 54.0, 1);
    TST_CHECK(c.ctx.attack.target == &c.other);
    TST_CHECK(c.ctx.attack.feasible);
    /* the line runs along the left edge: the lane beside it is on the right, a car's width and the margins away */
    TST_CHECK(c.ctx.attack.d_m < c.other.d_m - 2.0 && c.ctx.attack.d_m > c.other.d_m - 4.0);
    /* and the attack writes its interest there, above the racing line's */
    DrvContextMap map;
    drv_map_init(&map, 32, 6.5, -6.5);
    drv_beh_line(&c.view, &c.driver->p, &c.ctx, &map);
    float line_peak = map.interest[drv_map_d_to_slot(&map, LINE_D)];
    drv_beh_attack(&c.view, &c.driver->p, &c.ctx, &map);
    TST_CHECK(map.interest[drv_map_d_to_slot(&map, c.ctx.attack.d_m)] > line_peak);
    case_close(&c);
    return 0;
}

/* Out of the car's lane, beside and behind it (a pull-out whose verdict then fails), the car is still the one judged
 * while the attack on it lasts, so that a failed attack ends back in its wake; without an attack it is not. */
static int test_attacked_car_is_judged_from_beside_it(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    case_set(&c, 100.0, 60.0, 15.0, 60.0, 1);
    c.view.d_m = LINE_D - 3.5; /* pulled out to the right, 3.5 m off its lane */
    c.ctx.attacked_id = -1;
    TST_CHECK(drv_attack_judge(&c.view, &c.ctx).target == NULL);
    c.ctx.attacked_id = c.other.id;
    DrvAttack a = drv_attack_judge(&c.view, &c.ctx);
    TST_CHECK(a.target == &c.other);
    TST_CHECK(!a.feasible); /* not catching it: back to its wake */
    c.ctx.attacked_id = c.other.id + 1; /* another car's attack */
    TST_CHECK(drv_attack_judge(&c.view, &c.ctx).target == NULL);
    case_close(&c);
    return 0;
}

static int test_not_catching_is_no_attack(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    case_set(&c, 100.0, 60.0, 15.0, 60.0, 1);
    TST_CHECK(c.ctx.attack.target == &c.other);
    TST_CHECK(!c.ctx.attack.feasible);
    case_close(&c);
    return 0;
}

static int test_too_late_for_the_turn_in_is_no_attack(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* in turn 1's braking zone, 15 m behind a car 4 m/s slower: it turns in across the track (s = 800..880) before
     * we are alongside it */
    case_set(&c, 740.0, 62.0, 15.0, 58.0, 1);
    TST_CHECK(c.ctx.attack.target == &c.other);
    TST_CHECK(!c.ctx.attack.feasible);
    /* the same closing speed on the straight, far from the corner, is an attack */
    case_set(&c, 100.0, 62.0, 15.0, 58.0, 1);
    TST_CHECK(c.ctx.attack.feasible);
    case_close(&c);
    return 0;
}

/* A lane where another car runs abreast of the one we follow is no way past it: two cars abreast ahead leave no
 * lane between them or beside the one in the way. The same car further up the road changes nothing. */
static int test_a_lane_taken_by_another_car_is_no_attack(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    case_set(&c, 100.0, 62.0, 15.0, 58.0, 1);
    TST_CHECK(c.ctx.attack.feasible);
    double lane = c.ctx.attack.d_m;
    DrvOther both[2] = {c.other, c.other};
    both[1].id = 2;
    both[1].d_m = lane; /* abreast of it, in the attack's lane */
    c.view.others = both, c.view.other_count = 2;
    DrvAttack a = drv_attack_judge(&c.view, &c.ctx);
    TST_CHECK(a.target == &both[0] && !a.feasible);
    both[1].ds_m = 90.0; /* far up the road in that lane */
    a = drv_attack_judge(&c.view, &c.ctx);
    TST_CHECK(a.feasible && a.d_m == lane);
    case_close(&c);
    return 0;
}

/* In the first lap's manners there is no verdict (when they hold: test_drv_decide's start pack). */
static int test_first_lap_has_no_verdict(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    case_set(&c, 100.0, 60.0, 15.0, 54.0, 0);
    TST_CHECK(c.ctx.attack.target == NULL && !c.ctx.attack.feasible);
    case_close(&c);
    return 0;
}

/* The danger avoid writes in the lane of a car close ahead at our speed, with the verdict as judged or as given. */
static float close_danger(Case *c, bool feasible)
{
    c->ctx.attack.feasible = feasible;
    DrvContextMap map;
    drv_map_init(&map, 32, 6.5, -6.5);
    drv_beh_avoid(&c->view, &c->driver->p, &c->ctx, &map);
    return map.danger[drv_map_d_to_slot(&map, c->other.d_m)];
}

static int test_a_car_we_cannot_pass_is_followed_in_its_wake(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* 10 m behind (centre to centre) at its speed, on lap 2: within the close headway, which devalues its lane for a
     * car that can get alongside; for one that cannot, its wake is no danger at all */
    case_set(&c, 100.0, 60.0, 10.0, 60.0, 1);
    TST_CHECK(c.ctx.attack.target == &c.other && !c.ctx.attack.feasible);
    TST_CHECK(close_danger(&c, false) == 0.0f);
    TST_CHECK(close_danger(&c, true) > 0.1f);
    case_close(&c);
    return 0;
}

/* Slots of the map with any danger, and the largest. */
static int danger_slots(const DrvContextMap *map, float *max)
{
    int n = 0;
    *max = 0.0f;
    for (int i = 0; i < map->slots; i++) {
        n += map->danger[i] > 0.0f;
        *max = map->danger[i] > *max ? map->danger[i] : *max;
    }
    return n;
}

static int test_the_car_we_follow_into_a_corner_is_no_danger(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    /* in turn 1's braking zone, 12 m behind a car 5 m/s below our plan where it is, turning in across the track at
     * 6 m/s: we cannot get alongside it, and following it is the speed control's business, not the map's */
    case_set(&c, 770.0, 60.0, 12.0, 45.0, 1);
    c.other.lat_speed_mps = -6.0;
    c.ctx.on_straight = false;
    c.ctx.attack = drv_attack_judge(&c.view, &c.ctx);
    TST_CHECK(c.ctx.attack.target == &c.other && !c.ctx.attack.feasible);
    DrvContextMap map;
    float max;
    drv_map_init(&map, 32, 6.5, -6.5);
    drv_beh_avoid(&c.view, &c.driver->p, &c.ctx, &map);
    TST_CHECK(danger_slots(&map, &max) == 0);
    /* the same car, not the one we follow (no verdict): its lane and its way across are danger, wider than a lane */
    c.ctx.attack = (DrvAttack){NULL, false, 0.0};
    drv_map_init(&map, 32, 6.5, -6.5);
    drv_beh_avoid(&c.view, &c.driver->p, &c.ctx, &map);
    int n = danger_slots(&map, &max);
    TST_CHECK(max > 0.1f);
    TST_CHECK(n * map.step_m > c.other.width_m + c.view.width_m);
    case_close(&c);
    return 0;
}

static int test_a_slower_driver_is_judged_along_its_own_plan(void)
{
    Case c;
    TST_CHECK(case_open(&c));
    DrvDriver *slow = drv_tst_driver(c.track, 0.82, 2);
    TST_CHECK(slow != NULL);
    /* 16 m behind (centre to centre) a car at our speed, 70 m/s, 380 m before turn 1's braking: seen along our plan it
     * brakes where we brake and we never get alongside; shown with our own plan, the same */
    case_set(&c, 400.0, 70.0, 16.0, 70.0, 1);
    TST_CHECK(c.ctx.attack.target == &c.other && !c.ctx.attack.feasible);
    c.other.plan = drv_plan(c.driver);
    c.ctx.attack = drv_attack_judge(&c.view, &c.ctx);
    TST_CHECK(!c.ctx.attack.feasible);
    /* shown with its own plan (grip use 0.82) it brakes earlier, and we are alongside before it turns in */
    c.other.plan = drv_plan(slow);
    c.ctx.attack = drv_attack_judge(&c.view, &c.ctx);
    TST_CHECK(c.ctx.attack.feasible);
    drv_destroy(slow);
    case_close(&c);
    return 0;
}

int main(void)
{
    TST_RUN(test_a_slower_driver_is_judged_along_its_own_plan);
    TST_RUN(test_catching_on_the_straight_attacks_on_the_free_side);
    TST_RUN(test_not_catching_is_no_attack);
    TST_RUN(test_attacked_car_is_judged_from_beside_it);
    TST_RUN(test_too_late_for_the_turn_in_is_no_attack);
    TST_RUN(test_first_lap_has_no_verdict);
    TST_RUN(test_a_lane_taken_by_another_car_is_no_attack);
    TST_RUN(test_a_car_we_cannot_pass_is_followed_in_its_wake);
    TST_RUN(test_the_car_we_follow_into_a_corner_is_no_danger);
    return tst_report();
}
