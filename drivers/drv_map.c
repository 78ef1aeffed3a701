/* drv_map.c: the context map and its metre-based write helpers. */
#include "drv_map.h"

#include <math.h>

static double drv_clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* A value as a map stores it: clamped to 0..1 (NaN passes through, as drv_clampd lets it). Written as two selects
 * so the compiler emits maxsd/minsd instead of branches: this runs for every slot of every peak. */
static float drv_map_level(double value)
{
    value = value < 0.0 ? 0.0 : value;
    return (float)(value > 1.0 ? 1.0 : value);
}

static void drv_map_merge(float *v, int slot, double value)
{
    float f = drv_map_level(value);
    if (f > v[slot])
        v[slot] = f;
}

/* fmax without the library call (it is not inlined without -ffinite-math-only); the same result for every input
 * the maps see, NaN included: a NaN operand yields the other one. */
static double drv_maxd(double a, double b) { return a > b || b != b ? a : b; }

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

void drv_map_write_point(DrvContextMap *map, DrvMapWhich which, double d_m, double value)
{
    double f = drv_map_d_to_slotf(map, d_m);
    if (!(f >= -0.5 && f <= map->slots - 0.5))
        return;
    drv_map_merge(drv_map_values(map, which), drv_map_d_to_slot(map, d_m), value);
}

/* The slots whose centres lie within [d_lo, d_hi] (widened by `reach`), as an index range; empty when lo > hi. */
static void drv_map_range(const DrvContextMap *map, double d_lo, double d_hi, double reach, int *lo, int *hi)
{
    /* higher d is a lower slot index */
    double flo = drv_map_d_to_slotf(map, d_hi + reach);
    double fhi = drv_map_d_to_slotf(map, d_lo - reach);
    flo = drv_clampd(ceil(flo), 0.0, map->slots);
    fhi = drv_clampd(floor(fhi), -1.0, map->slots - 1);
    *lo = (int)flo;
    *hi = (int)fhi;
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
    /* the same arithmetic as drv_map_slot_d and drv_map_merge, spelled out so the loop stays in registers */
    for (int i = lo; i <= hi; i++) {
        double x = (left - i * step) - d_m;
        double w = 1.0 - x * x * inv2;
        float f = drv_map_level(value * w);
        if (w > 0.0 && f > v[i])
            v[i] = f;
    }
}

void drv_map_write_band(DrvContextMap *map, DrvMapWhich which, double d_lo_m, double d_hi_m, double value,
                        double skirt_m)
{
    if (!isfinite(d_lo_m) || !isfinite(d_hi_m) || !(value > 0.0))
        return;
    if (d_lo_m > d_hi_m) {
        double t = d_lo_m;
        d_lo_m = d_hi_m;
        d_hi_m = t;
    }
    double skirt = skirt_m > 0.0 ? skirt_m : 0.0;
    float *v = drv_map_values(map, which);
    int lo, hi;
    drv_map_range(map, d_lo_m, d_hi_m, skirt, &lo, &hi);
    const double left = map->d_left_m, step = map->step_m;
    for (int i = lo; i <= hi; i++) {
        double d = left - i * step; /* drv_map_slot_d */
        double out = d < d_lo_m ? d_lo_m - d : (d > d_hi_m ? d - d_hi_m : 0.0);
        if (out <= 0.0)
            drv_map_merge(v, i, value);
        else if (out < skirt)
            drv_map_merge(v, i, value * (1.0 - out / skirt));
    }
    /* A band narrower than a slot step may hold no slot centre: give its nearest slot the full value. */
    drv_map_write_point(map, which, 0.5 * (d_lo_m + d_hi_m), value);
}

void drv_map_write_all(DrvContextMap *map, DrvMapWhich which, double value)
{
    float *v = drv_map_values(map, which);
    float f = drv_map_level(value); /* one value for every slot: clamp it once */
    for (int i = 0; i < map->slots; i++)
        v[i] = f > v[i] ? f : v[i];
}
