/* test_drv_fast.c: the fast forms of hot look-ups give bit for bit what their reference forms give. */
#include "../drivers/drv_lanes.h"
#include "../drivers/drv_map.h"
#include "../drivers/drv_resolve.h"
#include "../track/trk.h"
#include "tst.h"

#include <math.h>
#include <string.h>

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* drv_lanes_speed (inline, compare-based wrap and clamps) against drv_lanes_speed_slow (fmod, fmin, fmax) at arc
 * lengths on the lap, before it, laps past it, at its ends, and offsets across and far beyond the track. */
static int test_lanes_speed_matches_reference(void)
{
    char err[256] = "";
    TrkTrack *t = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    TST_CHECK(t != NULL);
    if (t == NULL)
        return 1;
    TrkCarParams car = trk_default_car();
    DrvLanes *lanes = drv_lanes_create(t, &car, 0.9);
    TST_CHECK(lanes != NULL);
    double len = trk_length(t);
    const double s_list[] = {0.0, -0.0, 1e-300, -1e-300, 0.5, len - 1e-9, len, len + 0.25, -0.25, -len, 3.5 * len,
                             -7.25 * len, 1e12, -1e12, NAN, INFINITY, -INFINITY};
    const double d_list[] = {0.0, -0.0, 0.3, -0.3, 2.9, -6.1, 7.77, -25.0, 40.0, 1e300, -1e300, NAN, INFINITY};
    int bad = 0;
    for (size_t a = 0; a < sizeof s_list / sizeof s_list[0]; a++)
        for (size_t b = 0; b < sizeof d_list / sizeof d_list[0]; b++)
            bad += !same_bits(drv_lanes_speed(lanes, s_list[a], d_list[b]),
                              drv_lanes_speed_slow(lanes, s_list[a], d_list[b]));
    for (int k = 0; k < 20000; k++) { /* a sweep over two laps and the track's width */
        double s = -0.5 * len + k * (2.0 * len / 20000.0), d = -9.0 + (k % 181) * 0.1;
        bad += !same_bits(drv_lanes_speed(lanes, s, d), drv_lanes_speed_slow(lanes, s, d));
    }
    TST_CHECK(bad == 0);
    TST_CHECK(drv_lanes_speed(lanes, 10.0, 0.0) > 0.0);
    drv_lanes_destroy(lanes);
    trk_free(t);
    return 0;
}

/* A small deterministic generator (tests use no global RNG). */
static unsigned next_u(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 8) & 0xffffffu;
}

static double pick(unsigned *state, const double *values, int count) { return values[next_u(state) % (unsigned)count]; }

static int abs_i(int x) { return x < 0 ? -x : x; }

/* drv_resolve_walk's choice as first written: a pass over lo..hi keeping the nearest candidate. */
static int ref_nearest(const float *danger, const float *interest, int lo, int hi, int cur, float limit, float top)
{
    int best = -1;
    for (int i = lo; i <= hi; i++) {
        if (danger[i] > limit || interest[i] < top - (float)DRV_RESOLVE_INTEREST_TOL)
            continue;
        if (best < 0 || abs_i(i - cur) < abs_i(best - cur) ||
            (abs_i(i - cur) == abs_i(best - cur) && interest[i] > interest[best]))
            best = i;
    }
    return best;
}

/* The walk on random maps with many ties (few distinct levels) picks the slot the reference pass picks: the
 * reference is run on the walk's own reach and limit, so this checks the outward search for the nearest slot. */
static int test_walk_choice_matches_reference(void)
{
    static const double dangers[] = {0.0, 0.0, 0.05, 0.09, 0.1, 0.3, 1.0};
    static const double interests[] = {0.0, 0.02, 0.3, 0.3, 0.45, 0.9, 1.0};
    unsigned state = 7u;
    int bad = 0, checked = 0;
    for (int round = 0; round < 4000; round++) {
        DrvContextMap m;
        drv_map_init(&m, 2 + (int)(next_u(&state) % 63u), 5.0, -5.0);
        for (int i = 0; i < m.slots; i++) {
            m.danger[i] = (float)pick(&state, dangers, 7);
            m.interest[i] = (float)pick(&state, interests, 7);
        }
        double d = -5.5 + 11.0 * (next_u(&state) % 1000u) / 999.0;
        DrvResolveResult r;
        drv_resolve_walk(&m, d, &r);
        float dmin = m.danger[r.reach_lo], top = -1.0f;
        for (int i = r.reach_lo; i <= r.reach_hi; i++)
            dmin = m.danger[i] < dmin ? m.danger[i] : dmin;
        float limit = dmin + (float)DRV_RESOLVE_MASK_TOL;
        for (int i = r.reach_lo; i <= r.reach_hi; i++)
            if (m.danger[i] <= limit && m.interest[i] > top)
                top = m.interest[i];
        int best = ref_nearest(m.danger, m.interest, r.reach_lo, r.reach_hi, r.current_slot, limit, top);
        /* the walk then climbs to the top of the peak it picked: compare the slot before that climb only when
         * the reference's slot is already a top (no neighbour in its run is higher), else the climb's end */
        if (best < 0)
            continue;
        checked++;
        int run_lo = best, run_hi = best;
        while (run_lo - 1 >= r.reach_lo && m.danger[run_lo - 1] <= limit)
            run_lo--;
        while (run_hi + 1 <= r.reach_hi && m.danger[run_hi + 1] <= limit)
            run_hi++;
        for (;;) {
            if (best > run_lo && m.interest[best - 1] > m.interest[best])
                best--;
            else if (best < run_hi && m.interest[best + 1] > m.interest[best])
                best++;
            else
                break;
        }
        bad += best != r.chosen_slot;
    }
    TST_CHECK(checked > 3000);
    TST_CHECK(bad == 0);
    return 0;
}

/* drv_map_write_peak_on_floor gives the map drv_map_write_all + drv_map_write_peak give, over random maps, peaks
 * (values below, at and above 1) and falloffs, on top of existing content. */
static int test_peak_on_floor_matches_two_writes(void)
{
    static const double values[] = {0.01, 0.3, 0.45, 1.0, 1.5, 0.0, -1.0};
    static const double falloffs[] = {0.0, 0.1, 3.0, 6.0, 21.0, 1e9};
    unsigned state = 11u;
    int bad = 0;
    for (int round = 0; round < 3000; round++) {
        DrvContextMap a;
        drv_map_init(&a, 2 + (int)(next_u(&state) % 127u), 4.0 + (next_u(&state) % 7u), -6.0);
        for (int i = 0; i < a.slots; i++)
            a.interest[i] = (float)((next_u(&state) % 5u) * 0.25);
        DrvContextMap b = a;
        double d = -12.0 + 24.0 * (next_u(&state) % 1000u) / 999.0, floor = pick(&state, values, 7);
        double value = pick(&state, values, 7), falloff = pick(&state, falloffs, 6);
        drv_map_write_all(&a, DRV_MAP_INTEREST, floor);
        drv_map_write_peak(&a, DRV_MAP_INTEREST, d, value, falloff);
        drv_map_write_peak_on_floor(&b, DRV_MAP_INTEREST, floor, d, value, falloff);
        bad += memcmp(a.interest, b.interest, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    return 0;
}

int main(void)
{
    TST_RUN(test_lanes_speed_matches_reference);
    TST_RUN(test_walk_choice_matches_reference);
    TST_RUN(test_peak_on_floor_matches_two_writes);
    return tst_report();
}
