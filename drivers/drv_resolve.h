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
} DrvResolveResult;

typedef void DrvResolveFn(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);

/* The resolver for a kind; kinds not implemented yet fall back to the walk. */
DrvResolveFn *drv_resolver_fn(DrvResolver kind);

/* The reachable-slot walk: from the current slot, left and right while danger does not increase (danger under
 * DRV_RESOLVE_WALK_FLOOR counts as none; a wall of DRV_RESOLVE_WALL is never entered); mask slots above
 * the range's minimum danger (+ DRV_RESOLVE_MASK_TOL); highest interest wins; sub-slot refinement. */
void drv_resolve_walk(const DrvContextMap *map, double current_d_m, DrvResolveResult *out);

/* Sub-slot refinement: fits a parabola through interest at slot-1, slot, slot+1 and returns the continuous slot
 * coordinate of its vertex, within half a slot of `slot`. Returns `slot` when a neighbour is outside [lo, hi] or the
 * three points are not a peak. */
double drv_resolve_subslot(const float *interest, int slot, int lo, int hi);

#endif
