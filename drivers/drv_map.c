/* drv_map.c: the context map and its metre-based write helpers. */
#include "drv_map.h"

#include <math.h>
#include <string.h>

static double drv_clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* A value as a map stores it: clamped to 0..1 (NaN passes through, as drv_clampd lets it). Written as two selects
 * so the compiler emits maxsd/minsd instead of branches: this runs for every slot of every peak. */
static float drv_map_level(double value)
{
    value = value < 0.0 ? 0.0 : value;
    return (float)(value > 1.0 ? 1.0 : value);
}

/* fmax without the library call (it is not inlined without -ffinite-math-only); the same result for every input
 * the maps see, NaN included: a NaN operand yields the other one. */
static double drv_maxd(double a, double b) { return b != b || a > b ? a : b; } /* as trk_fmax */

void drv_map_init(DrvContextMap *map, int slots, double d_left_m, double d_right_m)
{
    if (slots < 2)
        slots = 2;
    if (slots > DRV_MAX_SLOTS)
        slots = DRV_MAX_SLOTS;
    if (!(d_left_m > d_right_m + 0.02)) {
        double mid = 0.5 * (d_left_m + d_right_m);
        if (!isfinite(mid))
            mid = 0.0;
        d_left_m = mid + 0.01;
        d_right_m = mid - 0.01;
    }
    map->slots = slots;
    map->d_left_m = d_left_m;
    map->d_right_m = d_right_m;
    map->step_m = (d_left_m - d_right_m) / (slots - 1);
    for (int i = 0; i < slots; i++) {
        map->danger[i] = 0.0f;
        map->interest[i] = 0.0f;
    }
}

int drv_map_d_to_slot(const DrvContextMap *map, double d_m)
{
    double f = drv_map_d_to_slotf(map, d_m);
    if (!(f > 0.0)) /* also catches NaN */
        return 0;
    if (f >= map->slots - 1)
        return map->slots - 1;
    return (int)(f + 0.5);
}

float *drv_map_values(DrvContextMap *map, DrvMapWhich which)
{
    return which == DRV_MAP_DANGER ? map->danger : map->interest;
}


/* (int)drv_clampd(ceil(x), lo, hi) for integers lo <= hi, without the library call where x is a modest number;
 * anything else (huge, infinite, NaN) takes the library path. A modest x is clamped first: ceil is monotonic and
 * leaves the integers lo and hi as they are, so the ceil of the clamped x is the clamped ceil of x, and the clamped x
 * fits an int. The int is the same: only the sign of a zero may differ, which (int) drops. It runs twice for every band
 * and peak written. */
static int drv_map_ceil_in(double x, double lo, double hi)
{
    if (!(x > -1e9 && x < 1e9))
        return (int)drv_clampd(ceil(x), lo, hi);
    x = x < lo ? lo : (x > hi ? hi : x);
    int t = (int)x; /* toward zero */
    return t + (t < x);
}

/* (int)drv_clampd(floor(x), lo, hi) for integers lo <= hi, likewise. */
static int drv_map_floor_in(double x, double lo, double hi)
{
    if (!(x > -1e9 && x < 1e9))
        return (int)drv_clampd(floor(x), lo, hi);
    x = x < lo ? lo : (x > hi ? hi : x);
    int t = (int)x;
    return t - (t > x);
}

/* The slots whose centres lie within [d_lo, d_hi] (widened by `reach`), as an index range; empty when lo > hi.
 * Inline: it runs for every write, and a call costs about a third of its work. */
static inline void drv_map_range(const DrvContextMap *map, double d_lo, double d_hi, double reach, int *lo, int *hi)
{
    /* higher d is a lower slot index */
    double flo = drv_map_d_to_slotf(map, d_hi + reach);
    double fhi = drv_map_d_to_slotf(map, d_lo - reach);
    *lo = drv_map_ceil_in(flo, 0.0, map->slots);
    *hi = drv_map_floor_in(fhi, -1.0, map->slots - 1);
}

/* Two doubles in one vector register (GCC/Clang vector extensions): each lane is computed by exactly the scalar
 * operations written, in the same order, nothing fused. */
typedef double DrvMapV2d __attribute__((vector_size(2 * sizeof(double))));

/* A peak's constants, each in both lanes; the value negated (drv_map_peak_block). */
typedef struct DrvMapPeakV {
    DrvMapV2d left, step, d, inv2, neg_value;
} DrvMapPeakV;

/* Slots i..i+3 of a peak of value <= 1 (the usual case, no clamp): value * (1 - x * x * inv2), x the slot's offset
 * (drv_map_slot_d) less the centre, merged by maximum, after the floor `base` when `floor` (drv_map_write_peak_on_floor
 * merges the floor first). k01 and k23 hold the slot indices as doubles. Where w <= 0 the value is <= 0 and never
 * rises above a stored value (every stored value is >= 0 or NaN, which no compare replaces), so no slot is tested.
 * Writing a slot twice gives what writing it once does (a merge by maximum of the same value), which the overlapping
 * last block of drv_map_peak_run relies on.
 *
 * The operations are the scalar ones with their signs turned round, which rounding to nearest mirrors exactly: the
 * offset as (i * step - left) + d, which is -x or (both zero) x, and squares to x * x; the weight as x * x * inv2 - 1,
 * which is -w, times -value, which gives value * w, except that a weight of exactly 0 gives -0 for +0: which merges
 * as +0 does, into stored values >= 0 or NaN (test_drv_fast.c: test_peak_matches_reference). Each operation then
 * updates its register in place: SSE2's operations overwrite their first operand. */
static inline __attribute__((always_inline)) void drv_map_peak_block(float *v, int i, DrvMapV2d k01, DrvMapV2d k23,
                                                                   const DrvMapPeakV *pv, bool floor, float base)
{
    const DrvMapV2d one = {1.0, 1.0};
    DrvMapV2d x01 = (k01 * pv->step - pv->left) + pv->d, x23 = (k23 * pv->step - pv->left) + pv->d;
    DrvMapV2d f01 = (x01 * x01 * pv->inv2 - one) * pv->neg_value, f23 = (x23 * x23 * pv->inv2 - one) * pv->neg_value;
    float f[4] = {(float)f01[0], (float)f01[1], (float)f23[0], (float)f23[1]};
    for (int j = 0; j < 4; j++) {
        float m = v[i + j];
        if (floor)
            m = base > m ? base : m;
        v[i + j] = f[j] > m ? f[j] : m;
    }
}

/* drv_map_peak_block over slots lo..hi (lo <= hi, inside the map), four at a time, the last four ending at hi (they
 * overlap the block before when the count is not a multiple of four: rewriting a slot is exact, see above). The
 * compiler's own vectorised loop spent much of a short peak's work in its set-up and a scalar remainder of up to
 * three slots (a drafting peak spans a car's width each side: about ten slots). Always inline, so `floor` is a
 * constant and the loop merges the floor only where it is asked for. */
static inline __attribute__((always_inline)) void drv_map_peak_run(float *v, int lo, int hi, double left, double step,
                                                                 double d_m, double inv2, double value, bool floor,
                                                                 float base)
{
    if (hi - lo < 3) {
        for (int i = lo; i <= hi; i++) {
            double x = (left - i * step) - d_m;
            float f = (float)(value * (1.0 - x * x * inv2));
            float m = v[i];
            if (floor)
                m = base > m ? base : m;
            v[i] = f > m ? f : m;
        }
        return;
    }
    const DrvMapPeakV pv = {{left, left}, {step, step}, {d_m, d_m}, {inv2, inv2}, {-value, -value}};
    const DrvMapV2d four = {4.0, 4.0};
    DrvMapV2d k01 = {(double)lo, (double)lo + 1.0}, k23 = {(double)lo + 2.0, (double)lo + 3.0};
    int last = hi - 3;
    for (int i = lo; i < last; i += 4) {
        drv_map_peak_block(v, i, k01, k23, &pv, floor, base);
        k01 += four; /* small integers: exact */
        k23 += four;
    }
    const DrvMapV2d k_01 = {(double)last, (double)last + 1.0}, k_23 = {(double)last + 2.0, (double)last + 3.0};
    drv_map_peak_block(v, last, k_01, k_23, &pv, floor, base);
}

void drv_map_write_peak(DrvContextMap *map, DrvMapWhich which, double d_m, double value, double falloff_m)
{
    if (!isfinite(d_m) || !(value > 0.0))
        return;
    const double left = map->d_left_m, step = map->step_m;
    double falloff = drv_maxd(falloff_m, 1.5 * step);
    double inv2 = 1.0 / (falloff * falloff);
    float *v = drv_map_values(map, which);
    int lo, hi;
    drv_map_range(map, d_m, d_m, falloff, &lo, &hi);
    if (lo > hi)
        return;
    /* the usual case: 0 < w <= 1 (1 minus a square) gives 0 <= value * w <= value <= 1, which drv_map_level returns
     * unchanged, so the clamp is left out */
    if (value <= 1.0) {
        drv_map_peak_run(v, lo, hi, left, step, d_m, inv2, value, false, 0.0f);
        return;
    }
    for (int i = lo; i <= hi; i++) {
        double x = (left - i * step) - d_m;
        double w = 1.0 - x * x * inv2;
        float f = drv_map_level(value * w);
        if (w > 0.0 && f > v[i])
            v[i] = f;
    }
}

/* The first slot of from..to whose offset is at most d (below d when strict); to + 1 when there is none. Offsets
 * fall as the index grows, so these slots run to the end, and the answer does not depend on the guess (any slot of
 * from..to + 1): the exact tests below move it there. */
static inline int drv_map_first_below(const DrvContextMap *map, int from, int to, int guess, double d, bool strict)
{
    int i = guess;
    while (i > from && (strict ? drv_map_slot_d(map, i - 1) < d : drv_map_slot_d(map, i - 1) <= d))
        i--;
    while (i <= to && !(strict ? drv_map_slot_d(map, i) < d : drv_map_slot_d(map, i) <= d))
        i++;
    return i;
}

/* A guess for drv_map_first_below: the slot coordinate of d clamped to from..to + 1, rounded up. */
static inline int drv_map_guess_below(const DrvContextMap *map, int from, int to, double d)
{
    double f = drv_map_d_to_slotf(map, d);
    f = f > from ? f : from;
    f = f < to + 1 ? f : to + 1;
    int i = (int)f;
    return i + (i < f);
}

/* drv_map_range for a band: the same lo and hi. drv_map_ceil_in and drv_map_floor_in send anything beyond +-1e9
 * through the library; a band's slot coordinates are never NaN (its offsets are finite, the skirt is finite or +inf
 * and never NaN), and for every other x clamping first gives the same int (see drv_map_ceil_in), so the band clamps
 * straight away. (A NaN, from a map whose span is not finite, gives an empty
 * range here; the library path's (int)NaN gave no usable index either.) */
static inline void drv_map_band_range(const DrvContextMap *map, double d_lo, double d_hi, double reach, int *lo,
                                      int *hi)
{
    double flo = drv_map_d_to_slotf(map, d_hi + reach);
    double fhi = drv_map_d_to_slotf(map, d_lo - reach);
    double top = map->slots; /* lo is clamped to 0..slots, hi to -1..slots-1 */
    flo = flo > 0.0 ? flo : 0.0;
    flo = flo < top ? flo : top;
    int c = (int)flo;
    *lo = c + (c < flo);
    fhi = fhi > -1.0 ? fhi : -1.0;
    fhi = fhi < top - 1.0 ? fhi : top - 1.0;
    int t = (int)fhi;
    *hi = t - (t > fhi);
}

/* A band's skirt at a slot `out` metres (> 0) beyond the band: the value falling linearly to 0 at the skirt's end. */
static inline void drv_map_skirt(float *v, int slot, double out, double value, double skirt)
{
    if (out < skirt) {
        float f = drv_map_level(value * (1.0 - out / skirt));
        if (f > v[slot])
            v[slot] = f;
    }
}

/* f merged into four slots from v on: written as a loop of four so the compiler emits one vector max. */
static inline void drv_map_fill4(float *v, float f)
{
    for (int k = 0; k < 4; k++)
        v[k] = f > v[k] ? f : v[k];
}

/* The band's inside run: its level merged into slots in_lo..in_end-1, then the point write that keeps a band narrower
 * than a slot step from being lost. When the run holds two slots or more the point write is a no-op, and left out:
 * the band reaches from the centre of slot in_lo to less than a step beyond it (the next centre up is outside it, or
 * was cut off by the range's rounding within an ulp of its end), and likewise below slot in_end-1, so its middle lies
 * within half a step of the middle of the run's end centres, that is, between those centres. The slot nearest to it
 * is then in the run (rounding errors are ulps, not the half step to spare), and already holds the level or more (or
 * a NaN, which no compare replaces). It saves a division on most bands. */
static inline void drv_map_band_inside(DrvContextMap *map, DrvMapWhich which, float *v, int in_lo, int in_end,
                                       double d_lo_m, double d_hi_m, double value)
{
    float f = drv_map_level(value);
    if (in_end - in_lo >= 4) {
        /* four slots at a time, the last four overlapping the ones before when the run is not a multiple of four:
         * merging the same value twice changes nothing (max(f, max(f, x)) is max(f, x), NaN included) */
        for (int i = in_lo; i < in_end - 4; i += 4)
            drv_map_fill4(v + i, f);
        drv_map_fill4(v + in_end - 4, f);
    } else {
        for (int i = in_lo; i < in_end; i++)
            v[i] = f > v[i] ? f : v[i];
    }
    if (in_end - in_lo < 2)
        drv_map_write_point(map, which, 0.5 * (d_lo_m + d_hi_m), value);
}

/* Bands that reach this few slots are written slot by slot. */
#define DRV_MAP_SHORT_BAND 4

void drv_map_write_band(DrvContextMap *map, DrvMapWhich which, double d_lo_m, double d_hi_m, double value,
                        double skirt_m)
{
    if (!isfinite(d_lo_m) || !isfinite(d_hi_m) || !(value > 0.0))
        return;
    /* the ends in order, as selects (the same as swapping them when d_lo_m > d_hi_m) */
    double b_lo = d_lo_m > d_hi_m ? d_hi_m : d_lo_m;
    double b_hi = d_lo_m > d_hi_m ? d_lo_m : d_hi_m;
    d_lo_m = b_lo;
    d_hi_m = b_hi;
    double skirt = skirt_m > 0.0 ? skirt_m : 0.0;
    float *v = drv_map_values(map, which);
    int lo, hi;
    drv_map_band_range(map, d_lo_m, d_hi_m, skirt, &lo, &hi);
    if (!(skirt > 0.0)) {
        /* No skirt (the narrow gaps, a car behind): the slots of lo..hi outside the band would get nothing (out <
         * skirt never holds), so only the inside run is written. lo and hi are the run's ends up to rounding, so
         * they are the guesses: no divisions. */
        int in_lo = drv_map_first_below(map, lo, hi, lo, d_hi_m, false);
        int in_end = drv_map_first_below(map, in_lo, hi, hi + 1, d_lo_m, true);
        drv_map_band_inside(map, which, v, in_lo, in_end, d_lo_m, d_hi_m, value);
        return;
    }
    if (hi - lo < DRV_MAP_SHORT_BAND) {
        /* a few slots (the edge's tokens: one or two): slot by slot, cheaper than setting up the runs below */
        for (int i = lo; i <= hi; i++) {
            double d = drv_map_slot_d(map, i);
            double out = d < d_lo_m ? d_lo_m - d : (d > d_hi_m ? d - d_hi_m : 0.0);
            if (out <= 0.0) {
                float f = drv_map_level(value);
                v[i] = f > v[i] ? f : v[i];
            } else {
                drv_map_skirt(v, i, out, value, skirt);
            }
        }
        drv_map_write_point(map, which, 0.5 * (d_lo_m + d_hi_m), value);
        return;
    }
    /* Slot offsets fall as the index grows: the slots left of the band, inside it and right of it are three runs,
     * each written in its own loop without a branch, so that it vectorises (the band loop was a sixth of a 100-car
     * race, where avoid writes several bands per decision). Inside, every slot merges the same value. */
    int in_lo = drv_map_first_below(map, lo, hi, drv_map_guess_below(map, lo, hi, d_hi_m), d_hi_m, false);
    int in_end = drv_map_first_below(map, in_lo, hi, drv_map_guess_below(map, in_lo, hi, d_lo_m), d_lo_m, true);
    const double left = map->d_left_m, step = map->step_m;
    if (value <= 1.0) {
        /* The usual case, in loops that vectorise. A slot at or beyond the skirt's end (out >= skirt) gets
         * value * (1 - out / skirt) <= 0, which merges as no write (every stored value is >= 0 or NaN, which no
         * compare replaces), so the test out < skirt is left out; and 0 < value <= 1 leaves nothing to clamp. */
        for (int i = lo; i < in_lo; i++) {
            float f = (float)(value * (1.0 - ((left - i * step) - d_hi_m) / skirt));
            v[i] = f > v[i] ? f : v[i];
        }
        for (int i = in_end; i <= hi; i++) {
            float f = (float)(value * (1.0 - (d_lo_m - (left - i * step)) / skirt));
            v[i] = f > v[i] ? f : v[i];
        }
    } else {
        for (int i = lo; i < in_lo; i++)
            drv_map_skirt(v, i, drv_map_slot_d(map, i) - d_hi_m, value, skirt);
        for (int i = in_end; i <= hi; i++)
            drv_map_skirt(v, i, d_lo_m - drv_map_slot_d(map, i), value, skirt);
    }
    drv_map_band_inside(map, which, v, in_lo, in_end, d_lo_m, d_hi_m, value);
}

void drv_map_write_all(DrvContextMap *map, DrvMapWhich which, double value)
{
    float *v = drv_map_values(map, which);
    float f = drv_map_level(value); /* one value for every slot: clamp it once */
    for (int i = 0; i < map->slots; i++)
        v[i] = f > v[i] ? f : v[i];
}

/* drv_map_write_all(floor) then drv_map_write_peak(d, value, falloff) in one pass: bit for bit the same map, since
 * both merge by maximum, which ignores order. Slots outside the peak's range get the floor only. */
void drv_map_write_peak_on_floor(DrvContextMap *map, DrvMapWhich which, double floor_value, double d_m, double value,
                                 double falloff_m)
{
    if (!isfinite(d_m) || !(value > 0.0) || !(value <= 1.0)) { /* the peak writes nothing, or needs its clamp */
        drv_map_write_all(map, which, floor_value);
        drv_map_write_peak(map, which, d_m, value, falloff_m);
        return;
    }
    const double left = map->d_left_m, step = map->step_m;
    double falloff = drv_maxd(falloff_m, 1.5 * step);
    double inv2 = 1.0 / (falloff * falloff);
    float *v = drv_map_values(map, which);
    float base = drv_map_level(floor_value);
    int lo, hi, n = map->slots;
    drv_map_range(map, d_m, d_m, falloff, &lo, &hi);
    int a = lo < 0 ? 0 : (lo > n ? n : lo), z = hi + 1 < a ? a : (hi + 1 > n ? n : hi + 1); /* [a, z) */
    for (int i = 0; i < a; i++)
        v[i] = base > v[i] ? base : v[i];
    if (a < z) /* as drv_map_write_peak, value <= 1: no clamp */
        drv_map_peak_run(v, a, z - 1, left, step, d_m, inv2, value, true, base);
    for (int i = z; i < n; i++)
        v[i] = base > v[i] ? base : v[i];
}

/* drv_map_write_peak_on_floor(floor, d, broad) then drv_map_write_peak(d, narrow) with one call's set-up: the same
 * loops, in the same order, as the two calls run (test_drv_fast.c: test_two_peaks_match_three_writes). The narrow peak
 * is not fused into the broad one's loop: split around the narrow range or masked by slot, the vectorised loops'
 * set-up ate the gain. */
void drv_map_write_two_peaks_on_floor(DrvContextMap *map, DrvMapWhich which, double floor_value, double d_m,
                                      double broad_value, double broad_falloff_m, double narrow_value,
                                      double narrow_falloff_m)
{
    if (!isfinite(d_m) || !(broad_value > 0.0) || !(broad_value <= 1.0) || !(narrow_value > 0.0) ||
        !(narrow_value <= 1.0)) { /* a peak writes nothing, or needs its clamp */
        drv_map_write_peak_on_floor(map, which, floor_value, d_m, broad_value, broad_falloff_m);
        drv_map_write_peak(map, which, d_m, narrow_value, narrow_falloff_m);
        return;
    }
    const double left = map->d_left_m, step = map->step_m;
    double fb = drv_maxd(broad_falloff_m, 1.5 * step), fn = drv_maxd(narrow_falloff_m, 1.5 * step);
    double inv2b = 1.0 / (fb * fb), inv2n = 1.0 / (fn * fn);
    int lo, hi, nlo, nhi, n = map->slots;
    drv_map_range(map, d_m, d_m, fb, &lo, &hi);
    drv_map_range(map, d_m, d_m, fn, &nlo, &nhi);
    int a = lo < 0 ? 0 : (lo > n ? n : lo), z = hi + 1 < a ? a : (hi + 1 > n ? n : hi + 1); /* [a, z) */
    float *v = drv_map_values(map, which);
    float base = drv_map_level(floor_value);
    for (int i = 0; i < a; i++)
        v[i] = base > v[i] ? base : v[i];
    /* as drv_map_write_peak_on_floor, values <= 1: no clamp; a value <= 0 never rises above a stored one */
    if (a < z)
        drv_map_peak_run(v, a, z - 1, left, step, d_m, inv2b, broad_value, true, base);
    for (int i = z; i < n; i++)
        v[i] = base > v[i] ? base : v[i];
    /* then the narrow peak over its own slots, as drv_map_write_peak's loop merges it */
    if (nlo <= nhi)
        drv_map_peak_run(v, nlo, nhi, left, step, d_m, inv2n, narrow_value, false, 0.0f);
}

const DrvMapStamp *drv_map_stamp(DrvMapStamp *stamp, const DrvContextMap *map, DrvMapWhich which,
                                 DrvMapWriteFn *write)
{
    uint64_t key[3];
    memcpy(&key[0], &map->d_left_m, sizeof key[0]);
    memcpy(&key[1], &map->d_right_m, sizeof key[1]);
    memcpy(&key[2], &map->step_m, sizeof key[2]);
    if (stamp->valid && stamp->slots == map->slots && memcmp(stamp->key, key, sizeof key) == 0)
        return stamp;
    DrvContextMap blank;
    blank.slots = map->slots;
    blank.d_left_m = map->d_left_m;
    blank.d_right_m = map->d_right_m;
    blank.step_m = map->step_m;
    float *v = drv_map_values(&blank, which);
    for (int i = 0; i < blank.slots; i++)
        v[i] = 0.0f;
    write(&blank, which);
    stamp->valid = true;
    stamp->slots = map->slots;
    memcpy(stamp->key, key, sizeof key);
    stamp->count = 0;
    for (int i = 0; i < blank.slots; i++)
        if (v[i] > 0.0f) {
            stamp->slot[stamp->count] = i;
            stamp->value[stamp->count++] = v[i];
        }
    return stamp;
}

void drv_map_stamp_merge(DrvContextMap *map, DrvMapWhich which, const DrvMapStamp *stamp)
{
    float *v = drv_map_values(map, which);
    for (int k = 0; k < stamp->count; k++) {
        int i = stamp->slot[k];
        float f = stamp->value[k];
        v[i] = f > v[i] ? f : v[i];
    }
}
