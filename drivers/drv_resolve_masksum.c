/* drv_resolve_masksum.c: the "mask-sum" resolver: mask, then average.
 *
 * Interest is zeroed wherever danger exceeds DRV_RESOLVE_MASKSUM_THRESHOLD, and the chosen offset is the
 * interest-weighted average of the remaining slots' offsets. Averaging is smooth (no slot snapping, no flip-flop
 * between two peaks), but it is the blended-vector failure again in one dimension: two free lanes either side of a
 * car average to the car itself, and every low background interest pulls the choice toward the middle of the free
 * slots. With nothing left it holds the current offset and reports no_slot (brake). */
#include "drv_resolve.h"

void drv_resolve_mask_sum(const DrvContextMap *map, double current_d_m, DrvResolveResult *out)
{
    const int n = map->slots;
    double wsum = 0.0, fsum = 0.0;
    for (int i = 0; i < n; i++) {
        if (map->danger[i] > DRV_RESOLVE_MASKSUM_THRESHOLD || !(map->interest[i] > 0.0f))
            continue;
        wsum += map->interest[i];
        fsum += map->interest[i] * (double)i;
    }
    int cur = drv_map_d_to_slot(map, current_d_m);
    if (wsum <= 0.0) {
        drv_resolve_hold(map, cur, current_d_m, out);
        return;
    }
    double f = fsum / wsum;
    int best = (int)(f + 0.5);
    /* the average may fall between free slots, on a masked one: the danger reported is where the car will go */
    drv_resolve_choose(map, cur, best, f, out);
}
