/* drv_resolve_mindanger.c: the "min-danger" resolver, the planar rule of the original context-steering papers.
 *
 * Only the slots at the global minimum of danger (within DRV_RESOLVE_MASK_TOL) count; among them the highest
 * interest wins, ties toward the current slot. It is the walk without the walk: the minimum is global, so when the
 * lane on the far side of a car alongside is as safe as ours and more interesting, it is chosen, and the steering
 * then drives into the car that stands between. */
#include "drv_resolve.h"

void drv_resolve_min_danger(const DrvContextMap *map, double current_d_m, DrvResolveResult *out)
{
    const int n = map->slots;
    float dmin = map->danger[0];
    for (int i = 1; i < n; i++)
        if (map->danger[i] < dmin)
            dmin = map->danger[i];
    float limit = dmin + (float)DRV_RESOLVE_MASK_TOL;
    bool ok[DRV_MAX_SLOTS];
    for (int i = 0; i < n; i++)
        ok[i] = map->danger[i] <= limit;
    int cur = drv_map_d_to_slot(map, current_d_m);
    int best = drv_resolve_pick(map->interest, ok, 0, n - 1, cur);
    double fb = drv_resolve_refine(map->interest, ok, &best, n);
    drv_resolve_choose(map, cur, best, fb, out);
}
