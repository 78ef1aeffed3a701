/* drv_beh_stay.c: moving across the track costs time, grip and risk. A broad peak of interest at the car's own
 * offset, below the racing line's peak, means that when the line is taken (masked by danger) the driver picks the
 * free lane nearest to it rather than whichever free lane happens to be nearest the line, and does not swap sides
 * from one tick to the next. */
#include "drv_beh.h"

#define DRV_STAY_FRACTION 0.45 /* of line_weight: below the line's peak, above its broad base */
#define DRV_STAY_FALLOFF_M 6.0

void drv_beh_stay(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)ctx;
    drv_map_write_peak(map, DRV_MAP_INTEREST, view->d_m, DRV_STAY_FRACTION * p->line_weight, DRV_STAY_FALLOFF_M);
}
