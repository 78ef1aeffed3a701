/* drv_resolve_subtract.c: the "subtract" resolver, the simplest published way to read two context maps.
 *
 * Final interest per slot = interest - danger (both already max-merged), and the highest wins. It has no notion of
 * reachability: a lane behind a car alongside wins as soon as its interest beats the car's danger, so a car may aim
 * straight through another one. It also trades danger for interest, so a lane with some danger but a lot of
 * interest can beat a safe one; that is the coupling the walk's masking avoids. */
#include "drv_resolve.h"

void drv_resolve_subtract(const DrvContextMap *map, double current_d_m, DrvResolveResult *out)
{
    const int n = map->slots;
    float value[DRV_MAX_SLOTS];
    bool ok[DRV_MAX_SLOTS];
    for (int i = 0; i < n; i++) {
        value[i] = map->interest[i] - map->danger[i];
        ok[i] = true;
    }
    int cur = drv_map_d_to_slot(map, current_d_m);
    int best = drv_resolve_pick(value, ok, 0, n - 1, cur);
    double fb = drv_resolve_refine(value, ok, &best, n);
    drv_resolve_choose(map, cur, best, fb, out);
}
