/* test_drv_fast.c: the fast forms of hot look-ups give bit for bit what their reference forms give. */
#include "../drivers/drv_beh.h"
#include "../drivers/drv_lanes.h"
#include "../drivers/drv_map.h"
#include "../drivers/drv_post.h"
#include "../drivers/drv_resolve.h"
#include "../track/trk.h"
#include "tst.h"

#include <math.h>
#include <string.h>

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The gp track (into *track) and its lanes for the default car at 0.9 of the grip; NULL when either fails (then the
 * track, if any, is freed). */
static DrvLanes *gp_lanes(TrkTrack **track)
{
    char err[256] = "";
    *track = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    if (*track == NULL)
        return NULL;
    TrkCarParams car = trk_default_car();
    DrvLanes *lanes = drv_lanes_create(*track, &car, 0.9, 0.95);
    if (lanes == NULL) {
        trk_free(*track);
        *track = NULL;
    }
    return lanes;
}

/* drv_lanes_speed (inline, compare-based wrap and clamps; the offset placed by drv_lanes_row, the arc length by
 * drv_lanes_row_speed, as a held lane reads them) against drv_lanes_speed_slow (fmod, fmin, fmax) at arc lengths on
 * the lap, before it, on the next lap and at its ends, laps past it, and offsets across and far beyond the track. */
static int test_lanes_speed_matches_reference(void)
{
    TrkTrack *t = NULL;
    DrvLanes *lanes = gp_lanes(&t);
    TST_CHECK(lanes != NULL);
    double len = trk_length(t);
    const double s_list[] = {0.0, -0.0, 1e-300, -1e-300, 0.5, len - 1e-9, len, len + 0.25, 2.0 * len - 1e-9,
                             2.0 * len, 2.0 * len + 0.5, -0.25, -len, 3.5 * len, -7.25 * len, 1e12, -1e12, NAN,
                             INFINITY, -INFINITY};
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

/* drv_resolve_walk as first written: a step per slot each way (the walk's least danger kept on the way), the run of
 * unmasked slots around the choice found a step per slot. */
static int ref_walk_dir(const float *danger, int n, int from, int dir, float *dmin)
{
    int i = from;
    float here = danger[i] < DRV_RESOLVE_WALK_FLOOR ? 0.0f : danger[i], low = danger[i];
    while (i + dir >= 0 && i + dir < n) {
        float raw = danger[i + dir], next = raw < DRV_RESOLVE_WALK_FLOOR ? 0.0f : raw;
        if (next > here + (float)DRV_RESOLVE_WALK_EPS || next >= DRV_RESOLVE_WALL)
            break;
        i += dir;
        here = next;
        low = raw < low ? raw : low;
    }
    if (low < *dmin)
        *dmin = low;
    return i;
}

static void ref_walk(const DrvContextMap *map, double current_d_m, DrvResolveResult *out)
{
    const int n = map->slots;
    const float *danger = map->danger, *interest = map->interest;
    int cur = drv_map_d_to_slot(map, current_d_m);
    double f = drv_map_d_to_slotf(map, current_d_m);
    int left = f <= 0.0 ? 0 : (f >= n - 1 ? n - 1 : (int)f);
    int right = f <= 0.0 ? 0 : (f >= n - 1 ? n - 1 : (int)ceil(f));
    float dmin = danger[left];
    int lo = ref_walk_dir(danger, n, left, -1, &dmin);
    int hi = ref_walk_dir(danger, n, right, +1, &dmin);
    float limit = dmin + (float)DRV_RESOLVE_MASK_TOL, top = -1.0f;
    for (int i = lo; i <= hi; i++)
        if (danger[i] <= limit && interest[i] > top)
            top = interest[i];
    int best = ref_nearest(danger, interest, lo, hi, cur, limit, top);
    int run_lo = best, run_hi = best;
    while (run_lo - 1 >= lo && danger[run_lo - 1] <= limit)
        run_lo--;
    while (run_hi + 1 <= hi && danger[run_hi + 1] <= limit)
        run_hi++;
    for (;;) {
        if (best > run_lo && interest[best - 1] > interest[best])
            best--;
        else if (best < run_hi && interest[best + 1] > interest[best])
            best++;
        else
            break;
    }
    double fb = drv_resolve_subslot(interest, best, run_lo, run_hi);
    *out = (DrvResolveResult){.current_slot = cur, .reach_lo = lo, .reach_hi = hi, .chosen_slot = best,
                              .chosen_d_m = map->d_left_m - fb * map->step_m, .chosen_danger = danger[best]};
}

/* The walk (both walks at once when every slot is below the floor; the run of unmasked slots taken whole when
 * nothing in reach is masked) gives the reference's result bit for bit: on maps all below the floor (the usual
 * map: flat, the walks reach both ends), maps with bumps, walls and plateaus, and maps with slots just either side
 * of the floor and of the mask limit. */
static int test_walk_matches_reference(void)
{
    static const double low[] = {0.0, 0.0, 0.01, 0.04, 0.05, 0.0501, 0.09, 0.0999};
    static const double any[] = {0.0, 0.04, 0.09, 0.0999, 0.1, 0.1001, 0.3, 0.35, 0.949, 0.95, 1.0};
    static const double interests[] = {0.0, 0.02, 0.3, 0.3, 0.45, 0.9, 1.0, 0.995};
    unsigned state = 17u;
    int bad = 0, flat = 0, bumpy = 0, open = 0;
    for (int round = 0; round < 20000; round++) {
        DrvContextMap m;
        drv_map_init(&m, 2 + (int)(next_u(&state) % 63u), 5.0, -5.0);
        unsigned kind = next_u(&state) % 4u; /* 0, 1: below the floor; 2: anything; 3: below it but a few slots */
        for (int i = 0; i < m.slots; i++) {
            m.danger[i] = (float)(kind == 2 ? pick(&state, any, 11) : pick(&state, low, 8));
            m.interest[i] = (float)pick(&state, interests, 8);
        }
        if (kind == 3)
            for (int k = 0; k < 3; k++)
                m.danger[next_u(&state) % (unsigned)m.slots] = (float)pick(&state, any, 11);
        double d = -5.5 + 11.0 * (next_u(&state) % 1000u) / 999.0;
        DrvResolveResult a, b;
        drv_resolve_walk(&m, d, &a);
        ref_walk(&m, d, &b);
        bad += a.current_slot != b.current_slot || a.reach_lo != b.reach_lo || a.reach_hi != b.reach_hi ||
               a.chosen_slot != b.chosen_slot || !same_bits(a.chosen_d_m, b.chosen_d_m) ||
               !same_bits(a.chosen_danger, b.chosen_danger) || a.no_slot != b.no_slot;
        /* reach_open, when set, holds */
        for (int i = a.reach_lo; a.reach_open && i <= a.reach_hi; i++)
            bad += !(m.danger[i] <= m.danger[a.chosen_slot] + (float)DRV_RESOLVE_MASK_TOL);
        open += a.reach_open;
        bool all_low = true;
        for (int i = 0; i < m.slots; i++)
            all_low = all_low && m.danger[i] < DRV_RESOLVE_WALK_FLOOR;
        flat += all_low;
        bumpy += !all_low && (b.reach_lo > 0 || b.reach_hi < m.slots - 1);
    }
    TST_CHECK(flat > 5000);
    TST_CHECK(bumpy > 2000);
    TST_CHECK(open > 1000);
    TST_CHECK(bad == 0);
    return 0;
}

/* drv_map_write_peak as first written: the slots whose centres lie within the falloff (the slot coordinates of its
 * ends, rounded inward and clamped to the map), each merged where its weight is positive, the value clamped to 0..1. */
static void ref_peak(DrvContextMap *map, double d_m, double value, double falloff_m)
{
    if (!isfinite(d_m) || !(value > 0.0))
        return;
    double falloff = fmax(falloff_m, 1.5 * map->step_m);
    double inv2 = 1.0 / (falloff * falloff);
    double flo = fmin(fmax(ceil(drv_map_d_to_slotf(map, d_m + falloff)), 0.0), map->slots);
    double fhi = fmin(fmax(floor(drv_map_d_to_slotf(map, d_m - falloff)), -1.0), map->slots - 1);
    for (int i = (int)flo; i <= (int)fhi; i++) {
        double x = drv_map_slot_d(map, i) - d_m;
        double w = 1.0 - x * x * inv2;
        float f = (float)fmin(fmax(value * w, 0.0), 1.0);
        if (w > 0.0 && f > map->interest[i])
            map->interest[i] = f;
    }
}

/* drv_map_write_peak (four slots at a time in vector registers, the last four overlapping the ones before) gives the
 * reference's map bit for bit over random maps of every slot count, centres inside, at the edges of and beyond the
 * map, values below, at and above 1, falloffs from below a slot (so 1 to 4 slots written) to wider than any track, on
 * top of existing content (NaN included), and slots at exactly the falloff (weight 0). */
static int test_peak_matches_reference(void)
{
    static const double values[] = {0.01, 0.3, 0.45, 1.0, 1.5, 0.0, -1.0, NAN};
    static const double falloffs[] = {0.0, 0.1, 0.7, 1.3, 2.0, 3.0, 6.0, 21.0, 1e9};
    unsigned state = 17u;
    int bad = 0, written = 0;
    for (int round = 0; round < 20000; round++) {
        DrvContextMap a;
        if (round % 4 == 0) /* step 0.5: slots at exactly the falloff from a centre on a slot, where w is 0 */
            drv_map_init(&a, 17, 4.0, -4.0);
        else
            drv_map_init(&a, 2 + (int)(next_u(&state) % 127u), 3.0 + (next_u(&state) % 7u),
                         -4.0 - (next_u(&state) % 4u));
        for (int i = 0; i < a.slots; i++)
            a.interest[i] = next_u(&state) % 50u == 0u ? NAN : (float)((next_u(&state) % 5u) * 0.125);
        DrvContextMap b = a, before = a;
        double d = next_u(&state) % 8u == 0u ? drv_map_slot_d(&a, (int)(next_u(&state) % (unsigned)a.slots))
                                              : -12.0 + 24.0 * (next_u(&state) % 1000u) / 999.0;
        double value = pick(&state, values, 8), falloff = pick(&state, falloffs, 9);
        ref_peak(&a, d, value, falloff);
        drv_map_write_peak(&b, DRV_MAP_INTEREST, d, value, falloff);
        bad += memcmp(a.interest, b.interest, sizeof(float) * (size_t)a.slots) != 0;
        written += memcmp(a.interest, before.interest, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    TST_CHECK(written > 5000); /* most rounds write something: the comparison is not of untouched maps */
    return 0;
}

/* drv_map_write_peak_on_floor gives the map drv_map_write_all + the first-written peak give, over random maps, peaks
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
        ref_peak(&a, d, value, falloff);
        drv_map_write_peak_on_floor(&b, DRV_MAP_INTEREST, floor, d, value, falloff);
        bad += memcmp(a.interest, b.interest, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    return 0;
}

/* drv_map_write_two_peaks_on_floor gives the map drv_map_write_all + the first-written peak twice give, over random
 * maps, centres inside and beyond the map, values below, at and above 1, and falloffs either way round (the narrow
 * one wider too), on top of existing content (NaN included). */
static int test_two_peaks_match_three_writes(void)
{
    static const double values[] = {0.01, 0.18, 0.6, 1.0, 1.5, 0.0, -1.0};
    static const double falloffs[] = {0.0, 0.1, 3.0, 6.0, 21.0, 1e9};
    unsigned state = 13u;
    int bad = 0;
    for (int round = 0; round < 6000; round++) {
        DrvContextMap a;
        drv_map_init(&a, 2 + (int)(next_u(&state) % 127u), 4.0 + (next_u(&state) % 7u), -6.0);
        for (int i = 0; i < a.slots; i++)
            a.interest[i] = next_u(&state) % 50u == 0u ? NAN : (float)((next_u(&state) % 5u) * 0.25);
        DrvContextMap b = a;
        double d = -12.0 + 24.0 * (next_u(&state) % 1000u) / 999.0, floor = pick(&state, values, 7);
        double bv = pick(&state, values, 7), bf = pick(&state, falloffs, 6);
        double nv = pick(&state, values, 7), nf = pick(&state, falloffs, 6);
        drv_map_write_all(&a, DRV_MAP_INTEREST, floor);
        ref_peak(&a, d, bv, bf);
        ref_peak(&a, d, nv, nf);
        drv_map_write_two_peaks_on_floor(&b, DRV_MAP_INTEREST, floor, d, bv, bf, nv, nf);
        bad += memcmp(a.interest, b.interest, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    return 0;
}

/* drv_post_blur as first written: every slot's window cut at the map's ends by a test per offset, the weights from
 * exp() at every offset (k = 0 included). */
static void ref_blur(DrvContextMap *map, DrvBlur blur, int radius)
{
    if (blur == DRV_BLUR_NONE || radius <= 0)
        return;
    radius = radius > 16 ? 16 : radius;
    double w[17], sigma = radius * 0.5;
    for (int k = 0; k <= radius; k++)
        w[k] = blur == DRV_BLUR_GAUSS ? exp(-0.5 * (k * k) / (sigma * sigma)) : 1.0;
    float out[DRV_MAX_SLOTS];
    const int n = map->slots;
    for (int i = 0; i < n; i++) {
        double sum = 0.0, wsum = 0.0;
        for (int k = -radius; k <= radius; k++) {
            int j = i + k;
            if (j < 0 || j >= n)
                continue;
            sum += w[k < 0 ? -k : k] * map->danger[j];
            wsum += w[k < 0 ? -k : k];
        }
        float b = (float)(sum / wsum);
        out[i] = map->danger[i] > b ? map->danger[i] : b;
    }
    memcpy(map->danger, out, sizeof(float) * (size_t)n);
}

/* drv_post_blur (four slots' sums at a time in vector registers, the ends by their bounds) gives the reference's map
 * bit for bit, box and Gaussian, radii from 1 to beyond the cap, on maps of every slot count (wider and narrower
 * than the window) with many distinct levels and the odd NaN. */
static int test_blur_matches_reference(void)
{
    unsigned state = 17u;
    int bad = 0;
    for (int round = 0; round < 6000; round++) {
        DrvContextMap a;
        drv_map_init(&a, 2 + (int)(next_u(&state) % (DRV_MAX_SLOTS - 1u)), 5.0, -5.0);
        for (int i = 0; i < a.slots; i++)
            a.danger[i] = next_u(&state) % 97u == 0u ? NAN : (float)((next_u(&state) % 1000u) / 999.0);
        DrvContextMap b = a;
        DrvBlur blur = next_u(&state) % 2u ? DRV_BLUR_GAUSS : DRV_BLUR_BOX;
        int radius = 1 + (int)(next_u(&state) % 18u);
        ref_blur(&a, blur, radius);
        drv_post_blur(&b, blur, radius);
        bad += memcmp(a.danger, b.danger, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    return 0;
}

/* A car exactly on a slot centre starts both walks on that slot (the slot left of it and the slot right of it are
 * the same one): a wall on the next slot either side bounds the reach there, never includes it. */
static int test_walk_from_a_slot_centre(void)
{
    int bad = 0;
    for (int k = 1; k < 16; k++) {
        DrvContextMap m;
        drv_map_init(&m, 17, 4.0, -4.0); /* step 0.5: every centre and slot coordinate exact */
        for (int i = 0; i < m.slots; i++)
            m.interest[i] = 0.5f;
        m.danger[k - 1] = 1.0f;
        m.danger[k + 1] = 1.0f;
        DrvResolveResult res;
        drv_resolve_walk(&m, drv_map_slot_d(&m, k), &res);
        bad += res.reach_lo != k || res.reach_hi != k || res.chosen_slot != k;
    }
    TST_CHECK(bad == 0);
    return 0;
}

/* drv_map_write_band as first written: one loop over the slots in reach, with a branch per slot. in_range: only the
 * slots whose slot coordinate lies within the band's widened by the skirt, rounded inward (ceil, floor) and clamped
 * to the map, as drv_map_write_band has always limited them; a slot centre within an ulp of the band's end may round
 * out of it. Otherwise every slot of the map. */
static void ref_band_over(DrvContextMap *map, double d_lo_m, double d_hi_m, double value, double skirt_m, bool in_range)
{
    if (!isfinite(d_lo_m) || !isfinite(d_hi_m) || !(value > 0.0))
        return;
    if (d_lo_m > d_hi_m) {
        double t = d_lo_m;
        d_lo_m = d_hi_m;
        d_hi_m = t;
    }
    double skirt = skirt_m > 0.0 ? skirt_m : 0.0;
    int from = 0, to = map->slots - 1;
    if (in_range) {
        from = (int)fmin(fmax(ceil((map->d_left_m - (d_hi_m + skirt)) / map->step_m), 0.0), map->slots);
        to = (int)fmin(fmax(floor((map->d_left_m - (d_lo_m - skirt)) / map->step_m), -1.0), map->slots - 1);
    }
    for (int i = from; i <= to; i++) {
        double d = drv_map_slot_d(map, i);
        double out = d < d_lo_m ? d_lo_m - d : (d > d_hi_m ? d - d_hi_m : 0.0);
        double w = out <= 0.0 ? value : (out < skirt ? value * (1.0 - out / skirt) : -1.0);
        if (w < 0.0)
            continue;
        float f = (float)fmin(fmax(w, 0.0), 1.0);
        if (f > map->danger[i])
            map->danger[i] = f;
    }
    drv_map_write_point(map, DRV_MAP_DANGER, 0.5 * (d_lo_m + d_hi_m), value);
}

static void ref_band(DrvContextMap *map, double d_lo_m, double d_hi_m, double value, double skirt_m)
{
    ref_band_over(map, d_lo_m, d_hi_m, value, skirt_m, false);
}

/* drv_map_write_band (three runs of slots, branch-free loops) gives the reference's map bit for bit over random
 * maps, bands inside, across and beyond the map (either way round), values below, at and above 1, and skirts from
 * none to wider than any track, on top of existing content. */
static int test_band_matches_reference(void)
{
    static const double values[] = {0.01, 0.2, 0.6, 1.0, 1.5, 0.0, -1.0, INFINITY};
    static const double skirts[] = {0.0, -1.0, 0.1, 0.35, 1.0, 2.5, 21.0, 1e9};
    unsigned state = 5u;
    int bad = 0;
    for (int round = 0; round < 6000; round++) {
        DrvContextMap a;
        drv_map_init(&a, 2 + (int)(next_u(&state) % 127u), 3.0 + (next_u(&state) % 5u), -4.0 - (next_u(&state) % 4u));
        for (int i = 0; i < a.slots; i++)
            a.danger[i] = (float)((next_u(&state) % 5u) * 0.25);
        DrvContextMap b = a;
        double lo = -12.0 + 24.0 * (next_u(&state) % 1000u) / 999.0;
        double hi = lo + (next_u(&state) % 3u == 0u ? 0.0 : -3.0 + 9.0 * (next_u(&state) % 1000u) / 999.0);
        double value = pick(&state, values, 8), skirt = pick(&state, skirts, 8);
        ref_band(&a, lo, hi, value, skirt);
        drv_map_write_band(&b, DRV_MAP_DANGER, lo, hi, value, skirt);
        bad += memcmp(a.danger, b.danger, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    return 0;
}

/* Where drv_map_write_band's shortcuts are exact only by its argument (the inside run found by exact tests from a
 * guess, the point write left out when the run holds two slots or more, no skirt runs without a skirt, the last four
 * slots of a run merged again): bands whose ends sit on slot centres or an ulp either side, from zero to four steps
 * wide (their middles on centres or half-way between) or any width, with and without skirts, across and off either
 * end of the map, give the reference's map over the slots in range bit for bit. */
static int test_band_on_slot_centres_matches_reference(void)
{
    static const double skirts[] = {0.0, -1.0, 0.3, 1.0, 2.5};
    static const double values[] = {0.4, 1.0, 1.5};
    unsigned state = 11u;
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        DrvContextMap a;
        drv_map_init(&a, 2 + (int)(next_u(&state) % 60u), 2.0 + (next_u(&state) % 900u) / 100.0,
                     -1.0 - (next_u(&state) % 900u) / 100.0);
        for (int i = 0; i < a.slots; i++)
            a.danger[i] = (float)((next_u(&state) % 3u) * 0.25);
        DrvContextMap b = a;
        int s = -2 + (int)(next_u(&state) % (unsigned)(a.slots + 4));
        double lo = drv_map_slot_d(&a, s), hi = lo + 0.5 * (next_u(&state) % 9u) * a.step_m;
        if (round % 2 == 1)
            hi = lo + (next_u(&state) % 10000u) * 1e-3;
        int nudge = (int)(next_u(&state) % 9u);
        lo = nudge % 3 == 0 ? lo : nextafter(lo, nudge % 3 == 1 ? -INFINITY : INFINITY);
        hi = nudge / 3 == 0 ? hi : nextafter(hi, nudge / 3 == 1 ? -INFINITY : INFINITY);
        double value = pick(&state, values, 3), skirt = pick(&state, skirts, 5);
        ref_band_over(&a, lo, hi, value, skirt, true);
        drv_map_write_band(&b, DRV_MAP_DANGER, hi, lo, value, skirt);
        bad += memcmp(a.danger, b.danger, sizeof(float) * (size_t)a.slots) != 0;
    }
    TST_CHECK(bad == 0);
    return 0;
}

/* drv_beh_commit as first written: every slot through drv_lanes_speed, skipped near the line or where the lane is
 * fast enough. */
static void ref_commit(const DrvView *view, const DrvBehCtx *ctx, DrvContextMap *map)
{
    double v_ref = fmin(view->speed_mps, ctx->line_speed_mps);
    if (!(v_ref > 1.0))
        return;
    double inv_band = 1.0 / (0.15 * v_ref), line_band = fmax(1.0, 1.5 * map->step_m);
    for (int i = 0; i < map->slots; i++) {
        double d = drv_map_slot_d(map, i), off = fabs(d - ctx->line_d_m) - line_band;
        if (off <= 0.0)
            continue;
        double shortfall = v_ref - drv_lanes_speed(ctx->lanes, view->s_m, d);
        if (shortfall <= 0.0)
            continue;
        double near_line = off >= line_band ? 1.0 : off / line_band, share = shortfall * inv_band;
        float level = (float)(0.09 * (share < 1.0 ? share : 1.0) * near_line);
        if (level > map->danger[i])
            map->danger[i] = level;
    }
}

/* drv_beh_commit (which skips the slots when every lane the map spans is fast enough) writes the reference's map, at
 * arc lengths around the lap and speeds from a crawl to beyond every lane's cap, including speeds a hair either side
 * of a lane's cap, on maps of every width and slot count over existing danger. */
static int test_commit_matches_reference(void)
{
    TrkTrack *t = NULL;
    DrvLanes *lanes = gp_lanes(&t);
    TST_CHECK(lanes != NULL);
    double len = trk_length(t);
    unsigned state = 5u;
    int bad = 0, written = 0, quiet = 0;
    for (int round = 0; round < 6000; round++) {
        DrvView view = {.s_m = len * (next_u(&state) % 100000u) / 100000.0};
        DrvBehCtx ctx = {.lanes = lanes, .line_d_m = -6.0 + 12.0 * (next_u(&state) % 1000u) / 999.0};
        DrvContextMap a;
        double half = 2.0 + (next_u(&state) % 600u) / 100.0;
        drv_map_init(&a, 8 + (int)(next_u(&state) % 57u), half, -half);
        /* a speed at, just above or just below one slot's cap, or anywhere up to 100 m/s */
        double cap = drv_lanes_speed(lanes, view.s_m, drv_map_slot_d(&a, (int)(next_u(&state) % (unsigned)a.slots)));
        static const double nudges[] = {0.0, 1e-13, -1e-13, 1e-9, -1e-9};
        unsigned how = next_u(&state) % 6u;
        view.speed_mps = how < 5 ? cap * (1.0 + nudges[how]) : 100.0 * (next_u(&state) % 1000u) / 999.0;
        ctx.line_speed_mps = next_u(&state) % 2u ? view.speed_mps : view.speed_mps + 5.0;
        for (int i = 0; i < a.slots; i++)
            a.danger[i] = (float)((next_u(&state) % 4u) * 0.01);
        DrvContextMap b = a, before = a;
        drv_beh_commit(&view, NULL, &ctx, &a);
        ref_commit(&view, &ctx, &b);
        bad += memcmp(a.danger, b.danger, sizeof(float) * (size_t)a.slots) != 0;
        int changed = memcmp(b.danger, before.danger, sizeof(float) * (size_t)a.slots) != 0;
        written += changed;
        quiet += !changed;
    }
    TST_CHECK(bad == 0);
    TST_CHECK(written > 100); /* both kinds of tick were seen */
    TST_CHECK(quiet > 100);
    drv_lanes_destroy(lanes);
    trk_free(t);
    return 0;
}

/* A random view of `count` others, sorted by ds (cars behind first) unless `shuffled`: ds from 70 m behind to 80 m
 * ahead with the odd zero and car beside, speeds around ours, laps from lapped to lapping. */
static void random_view(unsigned *state, DrvView *view, DrvOther *others, int count, bool shuffled)
{
    *view = (DrvView){.speed_mps = 40.0 + (next_u(state) % 200u) / 10.0, .length_m = 4.5, .width_m = 1.9,
                      .others = others, .other_count = count};
    for (int i = 0; i < count; i++) {
        unsigned kind = next_u(state) % 10u;
        double ds = kind == 0u ? 0.0 : (kind == 1u ? -0.0 : -70.0 + 150.0 * (next_u(state) % 1000u) / 999.0);
        others[i] = (DrvOther){.id = i, .ds_m = ds, .d_m = -5.0 + 10.0 * (next_u(state) % 100u) / 99.0,
                               .speed_mps = view->speed_mps - 5.0 + (next_u(state) % 100u) / 10.0,
                               .length_m = 4.0 + (next_u(state) % 10u) / 10.0,
                               .width_m = 1.7 + (next_u(state) % 5u) / 10.0,
                               .laps_ahead = (int)(next_u(state) % 3u) - 1};
    }
    for (int i = 1; i < count && !shuffled; i++) /* insertion sort by ds */
        for (int j = i; j > 0 && others[j].ds_m < others[j - 1].ds_m; j--) {
            DrvOther t = others[j];
            others[j] = others[j - 1];
            others[j - 1] = t;
        }
}

/* drv_beh_draft as first written: one loop over the view by index. */
static void ref_draft(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    if (!ctx->on_straight || p->draft_weight <= 0.0)
        return;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m <= 0.0)
            continue;
        double gap = drv_beh_gap_m(view, o);
        if (gap > 45.0)
            break;
        double faster = o->speed_mps - view->speed_mps;
        if (gap <= 0.0 || faster < -2.0)
            continue;
        double closeness = 1.0 - gap / 45.0;
        double pace = fmin(1.0, 0.6 + 0.2 * (faster + 2.0));
        double at = o->d_m; /* its wake: along the racing line at its offset from it, where there is a track */
        if (ctx->track != NULL) {
            double s_o = view->s_m + o->ds_m, line_o;
            trk_line_d_n(ctx->track, &s_o, &line_o, 1);
            at = ctx->line_d_m + (o->d_m - line_o);
        }
        drv_map_write_peak(map, DRV_MAP_INTEREST, at, p->draft_weight * closeness * pace, o->width_m);
    }
}

/* drv_beh_yield as first written: one loop over the view by index, the writes inside it. */
static void ref_yield(const DrvView *view, const DrvBehCtx *ctx, DrvContextMap *map)
{
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m >= 0.0)
            break;
        if (o->laps_ahead <= 0 || -o->ds_m > 60.0 || o->speed_mps < view->speed_mps)
            continue;
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        drv_map_write_band(map, DRV_MAP_DANGER, o->d_m - half, o->d_m + half, 0.2, 1.0);
        drv_map_write_band(map, DRV_MAP_DANGER, ctx->line_d_m - half, ctx->line_d_m + half, 0.2, 1.0);
    }
}

/* drv_beh_draft (the cars behind stepped over first, the view in locals) and drv_beh_yield (the cars behind scanned
 * with no call in the loop, the writes apart) write the maps their first forms write, over random views of 0 to 40
 * cars, sorted as the sim gives them and shuffled, with zero gaps, lapped and lapping cars. */
static int test_draft_and_yield_match_reference(void)
{
    DrvPersonality p = drv_default_personality();
    p.draft_weight = 0.5;
    unsigned state = 23u;
    int bad = 0, drafted = 0, yielded = 0;
    for (int round = 0; round < 4000; round++) {
        DrvOther others[40];
        DrvView view;
        random_view(&state, &view, others, (int)(next_u(&state) % 41u), round % 5 == 0);
        DrvBehCtx ctx = {.on_straight = true, .line_d_m = -4.0 + 8.0 * (next_u(&state) % 100u) / 99.0};
        DrvContextMap a;
        drv_map_init(&a, 8 + (int)(next_u(&state) % 57u), 5.0, -5.0);
        DrvContextMap b = a, before = a;
        drv_beh_draft(&view, &p, &ctx, &a);
        drv_beh_yield(&view, &p, &ctx, &a);
        ref_draft(&view, &p, &ctx, &b);
        ref_yield(&view, &ctx, &b);
        bad += memcmp(&a, &b, sizeof a) != 0;
        drafted += memcmp(b.interest, before.interest, sizeof b.interest) != 0;
        yielded += memcmp(b.danger, before.danger, sizeof b.danger) != 0;
    }
    TST_CHECK(bad == 0);
    TST_CHECK(drafted > 500); /* both behaviours wrote in many rounds */
    TST_CHECK(yielded > 500);
    return 0;
}

int main(void)
{
    TST_RUN(test_lanes_speed_matches_reference);
    TST_RUN(test_walk_choice_matches_reference);
    TST_RUN(test_walk_matches_reference);
    TST_RUN(test_peak_matches_reference);
    TST_RUN(test_peak_on_floor_matches_two_writes);
    TST_RUN(test_two_peaks_match_three_writes);
    TST_RUN(test_blur_matches_reference);
    TST_RUN(test_walk_from_a_slot_centre);
    TST_RUN(test_band_matches_reference);
    TST_RUN(test_band_on_slot_centres_matches_reference);
    TST_RUN(test_commit_matches_reference);
    TST_RUN(test_draft_and_yield_match_reference);
    return tst_report();
}
