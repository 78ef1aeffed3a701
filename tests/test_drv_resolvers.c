/* test_drv_resolvers.c: the five context-map resolvers on the same hand-made maps (issue 10).
 *
 * Each scenario builds one map through the metre-based helpers at 8..64 slots and hands it to every resolver. The
 * assertions state what each resolver actually does, including where the alternatives fail: the motivating case is
 * a car alongside with the better lane on its far side, which the walk must never cross to. */
#include "../drivers/drv_resolve.h"
#include "tst.h"

#include <dirent.h>

static const int counts[] = {8, 16, 32, 64};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])
#define HALF_SPAN 5.0 /* a 12 m track less half a car each side */
#define CAR_HALF 1.0
#define NRES DRV_RESOLVE_COUNT

/* Danger of a car at d_o (its width plus ours and the margin), with a skirt. */
static void car_at(DrvContextMap *m, double d_o, double danger, double skirt)
{
    drv_map_write_band(m, DRV_MAP_DANGER, d_o - 2.0 * CAR_HALF - 0.3, d_o + 2.0 * CAR_HALF + 0.3, danger, skirt);
}

/* The racing line as the line behaviour writes it: a broad low peak and a narrow full one. */
static void line_at(DrvContextMap *m, double d)
{
    drv_map_write_all(m, DRV_MAP_INTEREST, 0.02);
    drv_map_write_peak(m, DRV_MAP_INTEREST, d, 0.3, 20.0);
    drv_map_write_peak(m, DRV_MAP_INTEREST, d, 1.0, 3.0);
}

/* Runs every resolver on one map. */
static void resolve_all(const DrvContextMap *m, double me, DrvResolveResult r[NRES])
{
    for (int k = 0; k < NRES; k++)
        drv_resolver_fn((DrvResolver)k)(m, me, &r[k]);
}

/* The registry has one entry per kind, each different, and out-of-range kinds fall back to the walk. */
static int test_registry(void)
{
    TST_CHECK(drv_resolver_fn(DRV_RESOLVE_WALK) == drv_resolve_walk);
    TST_CHECK(drv_resolver_fn(DRV_RESOLVE_SUBTRACT) == drv_resolve_subtract);
    TST_CHECK(drv_resolver_fn(DRV_RESOLVE_MASK_SUM) == drv_resolve_mask_sum);
    TST_CHECK(drv_resolver_fn(DRV_RESOLVE_THRESHOLD_BLEND) == drv_resolve_threshold_blend);
    TST_CHECK(drv_resolver_fn(DRV_RESOLVE_MIN_DANGER) == drv_resolve_min_danger);
    TST_CHECK(drv_resolver_fn(DRV_RESOLVE_COUNT) == drv_resolve_walk);
    TST_CHECK(drv_resolver_fn((DrvResolver)-1) == drv_resolve_walk);
    return 0;
}

/* An empty track with the line at 1.234 m: every resolver but mask-sum finds the line; mask-sum's average is
 * pulled toward the middle of the map by the broad, low interest everywhere else. Non-walk reach = whole map. */
static int test_free_track_finds_line(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        line_at(&m, 1.234);
        DrvResolveResult r[NRES];
        resolve_all(&m, -2.0, r);
        double step = m.step_m;
        TST_NEAR(r[DRV_RESOLVE_WALK].chosen_d_m, 1.234, 1e-3);
        TST_NEAR(r[DRV_RESOLVE_SUBTRACT].chosen_d_m, 1.234, 1e-3);
        TST_NEAR(r[DRV_RESOLVE_MIN_DANGER].chosen_d_m, 1.234, 1e-3);
        /* blending with the neighbours by interest: within half a slot of the line */
        TST_NEAR(r[DRV_RESOLVE_THRESHOLD_BLEND].chosen_d_m, 1.234, 0.5 * step);
        double ms = r[DRV_RESOLVE_MASK_SUM].chosen_d_m;
        TST_CHECK(ms > 0.0 && ms < 1.234 - 0.3);
        for (int k = 0; k < NRES; k++) {
            TST_CHECK(!r[k].no_slot);
            TST_CHECK(r[k].chosen_danger == 0.0);
            if (k != DRV_RESOLVE_WALK)
                TST_CHECK(r[k].reach_lo == 0 && r[k].reach_hi == m.slots - 1);
        }
    }
    return 0;
}

/* The case that motivates the walk: we are at -2 m, a car alongside at +0.6 m (0.6 m between us), and the racing
 * line, the better lane, on its far side at +4.2 m. The walk stays right of the car. Subtract, threshold-blend and
 * min-danger see a free, interesting lane and aim across the car (nothing in them asks how to get there); mask-sum
 * averages the two free sides and aims into the car itself. */
static int test_car_alongside_better_lane_beyond(void)
{
    const double me = -2.0, car = 0.6, line = 4.2;
    const double car_left_edge = car + 2.0 * CAR_HALF + 0.3; /* beyond this a lane is on the car's far side */
    const double car_right_edge = car - 2.0 * CAR_HALF - 0.3;
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        car_at(&m, car, 1.0, 0.5);
        line_at(&m, line);
        DrvResolveResult r[NRES];
        resolve_all(&m, me, r);
        /* walk: never crosses; its reach ends at the car and it picks the free lane nearest the line on our side */
        TST_CHECK(r[DRV_RESOLVE_WALK].chosen_d_m < car_right_edge);
        TST_CHECK(drv_map_slot_d(&m, r[DRV_RESOLVE_WALK].reach_lo) < car_right_edge + m.step_m);
        TST_CHECK(r[DRV_RESOLVE_WALK].chosen_danger < 0.5);
        /* subtract, threshold-blend, min-danger: cross to the far side, through the car */
        TST_CHECK(r[DRV_RESOLVE_SUBTRACT].chosen_d_m > car_left_edge);
        TST_CHECK(r[DRV_RESOLVE_THRESHOLD_BLEND].chosen_d_m > car_left_edge);
        TST_CHECK(r[DRV_RESOLVE_MIN_DANGER].chosen_d_m > car_left_edge);
        /* mask-sum: the average of both free sides lies inside the car's lane */
        double ms = r[DRV_RESOLVE_MASK_SUM].chosen_d_m;
        TST_CHECK(ms > car_right_edge && ms < car_left_edge);
        TST_CHECK(r[DRV_RESOLVE_MASK_SUM].chosen_danger > 0.5);
    }
    return 0;
}

/* A slower car straight ahead (danger 0.6) with free lanes either side, the line just right of centre behind the
 * car. Walk and min-danger pick the free lane right of the car; threshold-blend too, but it accepts the skirt's
 * danger below its threshold; subtract trades danger for interest and keeps the line behind the car (1 - 0.6 beats
 * the free lanes' low interest), so the driver brakes behind it; mask-sum averages left and right into the car. */
static int test_car_ahead_free_lanes(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        car_at(&m, 0.0, 0.6, 1.0);
        line_at(&m, -0.5);
        DrvResolveResult r[NRES];
        resolve_all(&m, 0.0, r);
        TST_CHECK(r[DRV_RESOLVE_WALK].chosen_danger <= 0.05 && r[DRV_RESOLVE_WALK].chosen_d_m < -3.0);
        TST_CHECK(r[DRV_RESOLVE_MIN_DANGER].chosen_danger <= 0.05 && r[DRV_RESOLVE_MIN_DANGER].chosen_d_m < -3.0);
        TST_CHECK(r[DRV_RESOLVE_THRESHOLD_BLEND].chosen_danger <= DRV_RESOLVE_BLEND_THRESHOLD);
        TST_CHECK(r[DRV_RESOLVE_THRESHOLD_BLEND].chosen_d_m < -2.9);
        TST_NEAR(r[DRV_RESOLVE_SUBTRACT].chosen_d_m, -0.5, 1e-3);
        TST_NEAR(r[DRV_RESOLVE_SUBTRACT].chosen_danger, 0.6, 1e-6);
        TST_NEAR(r[DRV_RESOLVE_MASK_SUM].chosen_d_m, 0.0, 1.0);
        TST_CHECK(r[DRV_RESOLVE_MASK_SUM].chosen_danger >= 0.6);
    }
    return 0;
}

/* Boxed in: a slower car ahead (0.7) and cars alongside both sides (1.0), the line beyond the left one. The walk
 * and min-danger stay in the lane (and the driver brakes on its danger); mask-sum and threshold-blend find no slot
 * left and hold the lane with no_slot; subtract trades danger for interest and aims at the line through the car
 * alongside. */
static int test_boxed_in(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        car_at(&m, 0.0, 0.7, 1.0);
        car_at(&m, 3.0, 1.0, 1.0);
        car_at(&m, -3.0, 1.0, 1.0);
        line_at(&m, 4.0);
        DrvResolveResult r[NRES];
        resolve_all(&m, 0.0, r);
        TST_NEAR(r[DRV_RESOLVE_WALK].chosen_d_m, 0.0, 0.8);
        /* at 8 slots no slot centre falls in the lane, every slot is full danger and min-danger takes the line */
        if (counts[c] > 8)
            TST_NEAR(r[DRV_RESOLVE_MIN_DANGER].chosen_d_m, 0.0, 0.8);
        TST_CHECK(r[DRV_RESOLVE_MIN_DANGER].chosen_danger >= 0.69);
        TST_CHECK(r[DRV_RESOLVE_MASK_SUM].no_slot && r[DRV_RESOLVE_MASK_SUM].chosen_d_m == 0.0);
        TST_CHECK(r[DRV_RESOLVE_THRESHOLD_BLEND].no_slot && r[DRV_RESOLVE_THRESHOLD_BLEND].chosen_d_m == 0.0);
        TST_CHECK(!r[DRV_RESOLVE_WALK].no_slot && !r[DRV_RESOLVE_SUBTRACT].no_slot);
        TST_CHECK(r[DRV_RESOLVE_SUBTRACT].chosen_d_m > 2.0);
        TST_CHECK(r[DRV_RESOLVE_SUBTRACT].chosen_danger >= 0.99);
    }
    return 0;
}

/* Two equally good free lanes, the car in the left one: every slot-picking resolver keeps to the lane it is in
 * (ties go to the current slot), from either side. */
static int test_ties_go_to_current_lane(void)
{
    for (int c = 1; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], HALF_SPAN, -HALF_SPAN);
        drv_map_write_peak(&m, DRV_MAP_INTEREST, 3.0, 0.8, 1.5);
        drv_map_write_peak(&m, DRV_MAP_INTEREST, -3.0, 0.8, 1.5);
        const DrvResolver pickers[] = {DRV_RESOLVE_WALK, DRV_RESOLVE_SUBTRACT, DRV_RESOLVE_THRESHOLD_BLEND,
                                       DRV_RESOLVE_MIN_DANGER};
        for (int side = -1; side <= 1; side += 2) {
            DrvResolveResult r[NRES];
            resolve_all(&m, 2.5 * side, r);
            for (int k = 0; k < 4; k++)
                TST_NEAR(r[pickers[k]].chosen_d_m, 3.0 * side, 0.5 * m.step_m);
            /* mask-sum averages the two lanes into the empty middle */
            TST_NEAR(r[DRV_RESOLVE_MASK_SUM].chosen_d_m, 0.0, 1e-6);
        }
    }
    return 0;
}

/* The comparison personalities (data/drivers/<variant>/, made by data/races/experiments/make.sh) are the shipped
 * ones with only the model or the resolver changed, so comparisons measure that and nothing else. */
static int test_variant_files(void)
{
    const char *dirs[] = {"steering", "subtract", "mask-sum", "threshold-blend", "min-danger"};
    for (int v = 0; v < 5; v++) {
        DIR *dir = opendir("data/drivers");
        TST_CHECK(dir != NULL);
        int n = 0;
        struct dirent *e;
        while (dir && (e = readdir(dir)) != NULL) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
                continue;
            char base[512], var[512], err[512];
            snprintf(base, sizeof base, "data/drivers/%s", e->d_name);
            snprintf(var, sizeof var, "data/drivers/%s/%s", dirs[v], e->d_name);
            DrvPersonality a, b;
            TST_CHECK(drv_personality_load(base, &a, err, sizeof err) == 0);
            if (drv_personality_load(var, &b, err, sizeof err) != 0) {
                fprintf(stderr, "%s\n", err);
                TST_CHECK(!"variant file missing or bad (run data/races/experiments/make.sh)");
                continue;
            }
            if (v == 0)
                TST_CHECK(b.model == DRV_MODEL_STEERING && b.resolver == a.resolver);
            else
                TST_CHECK((int)b.resolver == v && b.model == a.model);
            b.model = a.model;
            b.resolver = a.resolver;
            TST_CHECK(memcmp(&a, &b, sizeof a) == 0);
            n++;
        }
        if (dir)
            closedir(dir);
        TST_CHECK(n >= 8);
    }
    return 0;
}

int main(void)
{
    TST_RUN(test_registry);
    TST_RUN(test_free_track_finds_line);
    TST_RUN(test_car_alongside_better_lane_beyond);
    TST_RUN(test_car_ahead_free_lanes);
    TST_RUN(test_boxed_in);
    TST_RUN(test_ties_go_to_current_lane);
    TST_RUN(test_variant_files);
    return tst_report();
}
