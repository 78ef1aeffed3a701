/* drv_resolve_blend.c: the "threshold-blend" resolver.
 *
 * Slots whose danger exceeds DRV_RESOLVE_BLEND_THRESHOLD are ignored; the best remaining slot (highest interest,
 * ties toward the car) is blended with its two neighbours, each weighted by its interest, which gives a continuous
 * offset without a parabola fit. Like subtract and min-danger it does not ask whether the slot can be reached.
 * With no slot left it holds the current offset and reports no_slot (the driver slows down). */
#include "drv_resolve.h"

void drv_resolve_threshold_blend(const DrvContextMap *map, double current_d_m, DrvResolveResult *out)
{
    const int n = map->slots;
    bool ok[DRV_MAX_SLOTS];
    for (int i = 0; i < n; i++)
        ok[i] = map->danger[i] <= DRV_RESOLVE_BLEND_THRESHOLD;
    int cur = drv_map_d_to_slot(map, current_d_m);
    int best = drv_resolve_pick(map->interest, ok, 0, n - 1, cur);
    if (best < 0) {
        drv_resolve_hold(map, cur, current_d_m, out);
        return;
    }
    /* the tolerance of the pick may have taken the flank of a peak: climb to its top */
    (void)drv_resolve_refine(map->interest, ok, &best, n);
    double wsum = 0.0, fsum = 0.0;
    for (int i = best - 1; i <= best + 1; i++) {
        if (i < 0 || i >= n || !ok[i])
            continue;
        double w = map->interest[i] > 0.0f ? map->interest[i] : 0.0;
        wsum += w;
        fsum += w * i;
    }
    drv_resolve_choose(map, cur, best, wsum > 0.0 ? fsum / wsum : best, out);
}
