/* drv_beh_commit.c: corner commitment. A lane the car cannot take at its speed is a poor lane.
 *
 * Each slot is a constant-offset lane whose speed cap (drv_lanes.h) says how fast a car on it may be here and still
 * brake for every corner ahead on it. A car at the limit that picks a lane well inside or outside the racing line
 * mid-corner must brake hard there (and the car behind runs into it) or slide across its neighbours. So a slot whose
 * cap is below the reference speed (the lower of the car's speed and the speed plan's) gets danger in proportion to
 * the shortfall. The racing line's own lane is exempt: the car tracks the line there, at the plan's speed, and a
 * car off the line must always be drawn back to it, never kept off it.
 *
 * The danger stays below the walk's floor (DRV_RESOLVE_WALK_FLOOR): it never blocks a move or makes the driver
 * brake, it only shapes the choice among lanes that are otherwise as safe (the mask tolerance). Stronger values
 * were tried: the lanes' caps are not monotonic across the track, so they build ridges and pits that trap the walk. */
#include "drv_beh.h"
#include "drv_math.h"

#include "drv_lanes.h"

#include <math.h>

#define DRV_COMMIT_BAND 0.15       /* shortfall, as a fraction of the reference speed, for the full value */
#define DRV_COMMIT_MAX 0.09        /* the full value: under the walk's floor (0.1) */
#define DRV_COMMIT_LINE_BAND_M 1.0 /* no danger this close to the line; full danger from twice this */

/* The slot's danger for a shortfall, written as drv_commit_each writes it. */
static inline void drv_commit_write(DrvContextMap *map, int i, double shortfall, double off, double inv_band,
                                    double line_band)
{
    double near_line = off >= line_band ? 1.0 : off / line_band;
    double share = shortfall * inv_band; /* > 0; the compare is fmin's value here, without the call */
    float level = (float)(DRV_COMMIT_MAX * (share < 1.0 ? share : 1.0) * near_line);
    if (level > map->danger[i])
        map->danger[i] = level;
}

/* The slot loop: each slot's lane cap (from the column of lanes at this s when there is one, else read for the slot)
 * against the reference speed. */
static void drv_commit_each(const DrvView *view, const DrvBehCtx *ctx, const DrvLanesColumn *col,
                            const DrvLanesSlots *places, DrvContextMap *map, double v_ref, double inv_band,
                            double line_band)
{
    for (int i = 0; i < map->slots; i++) {
        double d = drv_map_slot_d(map, i);
        double off = fabs(d - ctx->line_d_m) - line_band;
        if (off <= 0.0)
            continue;
        double v_lane = places != NULL ? drv_lanes_column_slot_speed(col, places, i)
                        : col != NULL  ? drv_lanes_column_speed(col, d)
                                       : drv_lanes_speed(ctx->lanes, view->s_m, d);
        double shortfall = v_ref - v_lane;
        if (shortfall <= 0.0)
            continue;
        /* drv_map_write_point at a slot's own offset is that slot; the value lies in (0, DRV_COMMIT_MAX], so the
         * 0..1 clamp of the write helper has nothing to do */
        drv_commit_write(map, i, shortfall, off, inv_band, line_band);
    }
}

/* The lanes the slots read (j_lo .. j_hi + 1), false when an end slot's offset is not finite. Slot offsets fall with
 * the slot index (d_left_m - i step_m, step_m > 0) and drv_lanes_place's lane with the offset (its arithmetic is
 * monotonic), so the slots read the lanes from slot slots-1's lane to slot 0's lane + 1 (the map spans the width a
 * car's centre may take, the lanes the whole track). places: the slots' kept places, or NULL. */
static bool drv_commit_lanes_read(const DrvLanes *lanes, const DrvContextMap *map, const DrvLanesSlots *places,
                                  int *j_lo, int *j_hi)
{
    if (places != NULL) {
        *j_lo = places->j[map->slots - 1];
        *j_hi = places->j[0];
        return *j_lo >= 0 && *j_hi >= 0; /* -1: not finite */
    }
    double d_first = drv_map_slot_d(map, 0), d_last = drv_map_slot_d(map, map->slots - 1);
    if (!isfinite(d_first) || !isfinite(d_last))
        return false;
    double t;
    drv_lanes_place(lanes->d0_m, lanes->spacing_m, lanes->count, d_last, j_lo, &t);
    drv_lanes_place(lanes->d0_m, lanes->spacing_m, lanes->count, d_first, j_hi, &t);
    return true;
}

void drv_beh_commit(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)p;
    if (ctx->lanes == NULL)
        return;
    double v_ref = drv_fmin(view->speed_mps, ctx->line_speed_mps);
    if (!(v_ref > 1.0))
        return;
    double inv_band = 1.0 / (DRV_COMMIT_BAND * v_ref);
    /* on a coarse map the slots nearest the line may lie a metre or more from it: they are still the line */
    double line_band = drv_fmax(DRV_COMMIT_LINE_BAND_M, 1.5 * map->step_m);
    const DrvLanes *lanes = ctx->lanes;
    bool part = lanes->count >= 2 && lanes->count <= DRV_LANES_COLUMN_MAX;
    /* each slot's place among the lanes as the driver kept it for this map (drv_lanes_slots): the places of a fresh
     * drv_lanes_column_speed at the slots' offsets */
    const DrvLanesSlots *places = part ? ctx->lanes_slots : NULL;
    DrvLanesColumn col;
    const DrvLanesColumn *column = NULL; /* NULL: each slot reads the lanes itself */
    int j_lo, j_hi;
    if (part && drv_commit_lanes_read(lanes, map, places, &j_lo, &j_hi)) {
        /* Every slot reads the lanes at the same s: interpolate along s once per lane, and only for the lanes the
         * slots read. */
        double m = drv_lanes_column_part(lanes, view->s_m, j_lo, j_hi + 1, &col);
        /* No slot can get danger (the usual case on a straight) when the slowest lane the slots read, m, is faster
         * than v_ref by more than the rounding of drv_lanes_column_speed: a slot's cap (1 - t) a + t b, with t in
         * [0, 1] and a, b >= m > 0, rounds (three roundings) to no less than m (1 - 3 2^-53), and
         * m * (1.0 - 1e-15) (1 - 9 2^-53 as a double) rounds to at most m (1 - 7 2^-53): when that is >= v_ref,
         * every slot's shortfall is < 0 and the slot loop would write nothing. */
        if (col.valid && m > 0.0 && m * (1.0 - 1e-15) >= v_ref)
            return;
        column = &col;
    } else if (drv_lanes_column(lanes, view->s_m, &col)) {
        column = &col; /* lanes too many for a part column, too few to interpolate between, or non-finite offsets */
    }
    if (column == NULL)
        places = NULL;
    drv_commit_each(view, ctx, column, places, map, v_ref, inv_band, line_band);
}
