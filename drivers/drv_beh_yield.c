/* drv_beh_yield.c: blue flags. A car that is about to be lapped treats the lane of the faster car closing from
 * behind as mild danger, so it moves off that lane (and off the line) and lets it by without braking. */
#include "drv_beh.h"

#define DRV_YIELD_RANGE_M 60.0
#define DRV_YIELD_DANGER 0.2

void drv_beh_yield(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)p;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m >= 0.0)
            break; /* sorted: the rest are ahead */
        if (o->laps_ahead <= 0 || -o->ds_m > DRV_YIELD_RANGE_M || o->speed_mps < view->speed_mps)
            continue;
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        /* its lane is probably the racing line: mark both where it is and where the line is */
        drv_map_write_band(map, DRV_MAP_DANGER, o->d_m - half, o->d_m + half, DRV_YIELD_DANGER, 1.0);
        drv_map_write_band(map, DRV_MAP_DANGER, ctx->line_d_m - half, ctx->line_d_m + half, DRV_YIELD_DANGER, 1.0);
    }
}
