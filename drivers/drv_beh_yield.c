/* drv_beh_yield.c: blue flags. A car that is about to be lapped treats the lane of the faster car closing from
 * behind as mild danger, so it moves off that lane (and off the line) and lets it by without braking. */
#include "drv_beh.h"

#define DRV_YIELD_RANGE_M 60.0
#define DRV_YIELD_DANGER 0.2

/* The first car of o..end-1, before the first one not behind (the view is sorted: the rest are ahead), that is
 * about to lap us within range and at least as fast as we are; end when there is none. The tests of the loop this
 * replaced, in its order; the view's cars behind are stepped over with no call in the loop, since nearly always none
 * of them is about to lap us. */
static const DrvOther *drv_yield_next(const DrvView *view, const DrvOther *o, const DrvOther *end)
{
    for (; o < end && !(o->ds_m >= 0.0); o++)
        if (o->laps_ahead > 0 && !(-o->ds_m > DRV_YIELD_RANGE_M) && !(o->speed_mps < view->speed_mps))
            return o;
    return end;
}

/* The writes for the car o and every later one drv_yield_next finds. Not inlined: the registers the calls need are
 * saved here, and not on every decision's pass over the cars behind, which nearly always finds none. */
static __attribute__((noinline)) void drv_yield_write(const DrvView *view, const DrvBehCtx *ctx, DrvContextMap *map,
                                                      const DrvOther *o, const DrvOther *end)
{
    for (; o < end; o = drv_yield_next(view, o + 1, end)) {
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        /* its lane is probably the racing line: mark both where it is and where the line is */
        drv_map_write_band(map, DRV_MAP_DANGER, o->d_m - half, o->d_m + half, DRV_YIELD_DANGER, 1.0);
        drv_map_write_band(map, DRV_MAP_DANGER, ctx->line_d_m - half, ctx->line_d_m + half, DRV_YIELD_DANGER, 1.0);
    }
}

void drv_beh_yield(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)p;
    const DrvOther *end = view->others + view->other_count, *o = drv_yield_next(view, view->others, end);
    if (o < end)
        drv_yield_write(view, ctx, map, o, end);
}
