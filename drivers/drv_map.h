/* drv_map.h: the context map (private to drivers/).
 *
 * Two 1D maps, danger and interest, over N slots spanning the usable track width at the car's position. Slot 0 is
 * the left edge (d_left_m, the larger offset) and slot N-1 the right edge (d_right_m), so each slot is a lateral
 * offset of the car's centre. Behaviours write through helpers that take offsets and widths in metres, never slot
 * indices, so the slot count can change from tick to tick without any behaviour knowing. Every write merges by
 * maximum per slot, never by sum: two cars in one place are no more dangerous than the worse of them.
 */
#ifndef DRV_MAP_H
#define DRV_MAP_H

#include "drv.h"

#include <stdint.h>

typedef enum DrvMapWhich { DRV_MAP_DANGER = 0, DRV_MAP_INTEREST = 1 } DrvMapWhich;

typedef struct DrvContextMap {
    int slots;                      /* 2..DRV_MAX_SLOTS */
    double d_left_m, d_right_m;     /* offsets of slot 0 and slot slots-1, m (d_left_m > d_right_m) */
    double step_m;                  /* distance between neighbouring slots, m (> 0) */
    float danger[DRV_MAX_SLOTS];    /* 0..1 */
    float interest[DRV_MAX_SLOTS];  /* 0..1 */
} DrvContextMap;

/* Clears both maps and sets the span. slots is clamped to 2..DRV_MAX_SLOTS; when d_left_m <= d_right_m (a track
 * narrower than the car) the span is widened to a few centimetres around their middle so the map stays usable. */
void drv_map_init(DrvContextMap *map, int slots, double d_left_m, double d_right_m);

/* Lateral offset of a slot's centre, m. (Inline: behaviours and the speed plan call it in per-slot loops.) */
static inline double drv_map_slot_d(const DrvContextMap *map, int slot) { return map->d_left_m - slot * map->step_m; }
/* Nearest slot to an offset, clamped to the map. */
int drv_map_d_to_slot(const DrvContextMap *map, double d_m);
/* Continuous slot coordinate of an offset (not clamped): 0 at d_left_m, slots-1 at d_right_m. */
static inline double drv_map_d_to_slotf(const DrvContextMap *map, double d_m)
{
    return (map->d_left_m - d_m) / map->step_m;
}

float *drv_map_values(DrvContextMap *map, DrvMapWhich which);

/* value at the slot nearest d_m (nothing when d_m is more than half a slot outside the map). Inline: behaviours
 * call it once per slot (drv_beh_commit.c), and inlined, the compiler can also keep their loop-invariant work out of
 * the loop (a float store cannot change anything else they read). */
static inline void drv_map_write_point(DrvContextMap *map, DrvMapWhich which, double d_m, double value)
{
    double f = drv_map_d_to_slotf(map, d_m);
    if (!(f >= -0.5 && f <= map->slots - 0.5))
        return;
    /* drv_map_d_to_slot, then the merge and 0..1 clamp of drv_map.c, with f already at hand */
    int slot = !(f > 0.0) ? 0 : (f >= map->slots - 1 ? map->slots - 1 : (int)(f + 0.5));
    float *v = which == DRV_MAP_DANGER ? map->danger : map->interest;
    value = value < 0.0 ? 0.0 : value;
    float level = (float)(value > 1.0 ? 1.0 : value);
    if (level > v[slot])
        v[slot] = level;
}
/* A smooth peak: value * (1 - (x/falloff)^2) at distance x < falloff from d_m. The falloff is widened to 1.5 slot
 * steps when narrower, so a peak is never lost between slots; near its top the shape is a parabola, which the
 * resolver's sub-slot interpolation recovers exactly. */
void drv_map_write_peak(DrvContextMap *map, DrvMapWhich which, double d_m, double value, double falloff_m);
/* value across [d_lo_m, d_hi_m], decreasing linearly to 0 over skirt_m either side. A band that falls between two
 * slots still writes its full value at the nearest slot, so narrow obstacles are seen at any slot count. */
void drv_map_write_band(DrvContextMap *map, DrvMapWhich which, double d_lo_m, double d_hi_m, double value,
                        double skirt_m);
/* value in every slot. */
void drv_map_write_all(DrvContextMap *map, DrvMapWhich which, double value);
/* drv_map_write_all(floor_value) and drv_map_write_peak(d_m, value, falloff_m) in one pass over the slots, with the
 * same result bit for bit (both merge by maximum). */
void drv_map_write_peak_on_floor(DrvContextMap *map, DrvMapWhich which, double floor_value, double d_m, double value,
                                 double falloff_m);
/* drv_map_write_peak_on_floor(floor_value, d_m, broad_value, broad_falloff_m) then drv_map_write_peak(d_m,
 * narrow_value, narrow_falloff_m), two peaks at one offset, in one call with the same result bit for bit. */
void drv_map_write_two_peaks_on_floor(DrvContextMap *map, DrvMapWhich which, double floor_value, double d_m,
                                      double broad_value, double broad_falloff_m, double narrow_value,
                                      double narrow_falloff_m);

/* A write's effect on maps that span the same slots, kept so it can be merged again without working it out: the values
 * it merges into each slot, the positive ones only. The helpers above merge by maximum values that do not depend on
 * the map's (a stored value is >= 0 or NaN, and a value <= 0 changes none), so merging the stamp into a map gives
 * what the write gives, bit for bit, whatever else was written before or after. Keyed by the bits of the span. */
typedef struct DrvMapStamp {
    bool valid;
    int slots;
    uint64_t key[3]; /* the bits of d_left_m, d_right_m, step_m */
    int count;
    int slot[DRV_MAX_SLOTS];
    float value[DRV_MAX_SLOTS];
} DrvMapStamp;

/* The write a stamp keeps: always the same one for a given stamp, its values a function of the map's span alone. */
typedef void DrvMapWriteFn(DrvContextMap *map, DrvMapWhich which);

/* write's stamp for the span of map, from *stamp when it was kept for that span, else worked out into *stamp (write
 * on a blank map of the same span). */
const DrvMapStamp *drv_map_stamp(DrvMapStamp *stamp, const DrvContextMap *map, DrvMapWhich which,
                                 DrvMapWriteFn *write);
/* Merges a stamp into map's values (its span is the stamp's). */
void drv_map_stamp_merge(DrvContextMap *map, DrvMapWhich which, const DrvMapStamp *stamp);

#endif
