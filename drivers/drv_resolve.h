/* drv_resolve.h: turning a context map into a chosen lateral offset.
 *
 * Resolvers sit behind one function-pointer interface keyed by DrvResolver, so other strategies can be added as
 * separate files (drv_resolve_<name>.c) and registered in drv_resolver_fn() without touching the others.
 */
#ifndef DRV_RESOLVE_H
#define DRV_RESOLVE_H

#include "drv_map.h"

/* Danger within this much of the reachable minimum counts as "as safe as it gets" when masking. */
#define DRV_RESOLVE_MASK_TOL 0.05
/* Interest this close to the best counts as equal; the slot nearest the car then wins. */
#define DRV_RESOLVE_INTEREST_TOL 0.005
/* The walk treats a rise smaller than this as flat (float noise, blur ripples). */
#define DRV_RESOLVE_WALK_EPS 1e-3
/* Danger below this is flat ground for the walk (it still counts when masking). */
#define DRV_RESOLVE_WALK_FLOOR 0.1f
/* Danger at or above this is a car beside us: the walk never steps onto it, even across a flat plateau. */
#define DRV_RESOLVE_WALL 0.95f

typedef struct DrvResolveResult {
    int current_slot;
    int reach_lo, reach_hi;  /* inclusive */
    int chosen_slot;
    double chosen_d_m;       /* after sub-slot interpolation */
    double chosen_danger;    /* danger at the chosen offset, 0..1 */
    bool no_slot;            /* no acceptable slot was left (threshold-blend, mask-sum): the driver should brake */
    bool reach_open;         /* known that every slot of reach_lo..reach_hi has danger at most chosen_slot's plus
                              * DRV_RESOLVE_MASK_TOL (as floats; none NaN); false when not known (a hint for callers
                              * that would otherwise test it slot by slot) */
} DrvResolveResult;

typedef void DrvResolveFn(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);

/* The resolver for a kind; an out-of-range kind falls back to the walk. */
DrvResolveFn *drv_resolver_fn(DrvResolver kind);

/* The reachable-slot walk: from the current slot, left and right while danger does not increase (danger under
 * DRV_RESOLVE_WALK_FLOOR counts as none; a wall of DRV_RESOLVE_WALL is never entered); mask slots above
 * the range's minimum danger (+ DRV_RESOLVE_MASK_TOL); highest interest wins; sub-slot refinement. */
void drv_resolve_walk(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);

/* Sub-slot refinement: fits a parabola through interest at slot-1, slot, slot+1 and returns the continuous slot
 * coordinate of its vertex, within half a slot of `slot`. Returns `slot` when a neighbour is outside [lo, hi] or the
 * three points are not a peak. */
double drv_resolve_subslot(const float *interest, int slot, int lo, int hi);

/* ---- alternatives from the literature (issue 10), one file each; reach is the whole map ---------------------- */

/* Danger above this masks a slot for mask-sum (just above the edges' token danger, so the edges stay usable). */
#define DRV_RESOLVE_MASKSUM_THRESHOLD 0.05f
/* Danger above this removes a slot for threshold-blend. */
#define DRV_RESOLVE_BLEND_THRESHOLD 0.3f

/* subtract: per slot interest minus danger; the highest wins (ties to the slot nearest the car). */
void drv_resolve_subtract(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);
/* mask-sum: interest is zeroed where danger exceeds DRV_RESOLVE_MASKSUM_THRESHOLD; the offset is the
 * interest-weighted average of the remaining slots' offsets. Nothing left: hold the current offset, no_slot. */
void drv_resolve_mask_sum(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);
/* threshold-blend: slots with danger above DRV_RESOLVE_BLEND_THRESHOLD are ignored; the best remaining slot is
 * blended with its (remaining) two neighbours weighted by interest. Nothing left: hold the current offset, no_slot. */
void drv_resolve_threshold_blend(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);
/* min-danger: the planar rule: only slots at the global minimum danger (+ DRV_RESOLVE_MASK_TOL) count; the highest
 * interest there wins, ties toward the current slot. No reachability walk. */
void drv_resolve_min_danger(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);

/* Shared by the resolvers whose reach is the whole map. drv_resolve_choose: the choice is slot `best`, refined to
 * the continuous slot coordinate `f`. drv_resolve_hold: nothing acceptable was left; keep the current offset and
 * flag no_slot so the driver brakes. */
void drv_resolve_choose(const DrvContextMap *map, int cur, int best, double f, DrvResolveResult *out);
void drv_resolve_hold(const DrvContextMap *map, int cur, double current_d_m, DrvResolveResult *out);

/* Shared by the resolvers: of the slots in [lo, hi] with ok[i], the one with the highest value, where values within
 * DRV_RESOLVE_INTEREST_TOL of the best count as equal and the one nearest `cur` wins. -1 when none is ok. */
int drv_resolve_pick(const float *value, const bool *ok, int lo, int hi, int cur);
/* Continuous slot coordinate of the lane around `*best`: climbs to the top of its peak inside the contiguous run of
 * ok slots (the tolerance may have picked a flank), updates *best, then refines by drv_resolve_subslot in the run. */
double drv_resolve_refine(const float *value, const bool *ok, int *best, int n);

#endif
