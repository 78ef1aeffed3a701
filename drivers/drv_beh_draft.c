/* drv_beh_draft.c: slipstream hunting. On a straight, a car ahead that is at least as fast as us (or barely
 * slower) within drafting range is interest in its wake, stronger the closer and faster it is, weighted by the
 * driver's draft. Close behind, avoid's danger takes over and the driver pulls out to use the speed.
 *
 * The wake is where the car drives, so it lies along the racing line at the car's offset from it: at our lookahead
 * point, the line there plus that offset (the lanes of drv_beh_attack.c are compared the same way). Where the line
 * sweeps across the track out of a corner, the car's offset now is metres from its wake at our point: interest there
 * held a drafter off the line, on a slower lane out of every corner, too far back to attack into the next one. */
#include "drv_beh.h"
#include "drv_math.h"

#include <math.h>

#define DRV_DRAFT_RANGE_M 45.0
#define DRV_DRAFT_SLOWER_OK_MPS 2.0 /* a car this much slower still gives a useful tow */

/* On a straight or not: the lone-car test runs before the track ahead is looked at. */
bool drv_beh_draft_reaches(const DrvView *view, const DrvPersonality *p, const DrvOther *o, double margin_m,
                           double margin_mps)
{
    if (p->draft_weight <= 0.0 || o->ds_m <= 0.0)
        return false;
    double gap = drv_beh_gap_m(view, o);
    double faster = o->speed_mps - view->speed_mps;
    return gap <= DRV_DRAFT_RANGE_M + margin_m && faster >= -DRV_DRAFT_SLOWER_OK_MPS - margin_mps;
}

/* Where the wake of car o lies at our lookahead point: its offset from the racing line, carried along the line; its
 * offset now when there is no track to read the line from. */
static double drv_beh_draft_wake_d(const DrvView *view, const DrvBehCtx *ctx, const DrvOther *o)
{
    return ctx->track == NULL ? o->d_m : ctx->line_d_m + drv_beh_off_line_m(ctx->track, view, o);
}

void drv_beh_draft(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    if (!ctx->on_straight || p->draft_weight <= 0.0)
        return;
    /* the view's fields in locals: the compiler cannot know that writing a peak leaves them as they are, and read
     * them again for every car */
    const double v = view->speed_mps, weight = p->draft_weight;
    const DrvOther *o = view->others, *end = o + view->other_count;
    /* the cars behind, listed first, in a loop of their own that only steps over them (the loop below would skip
     * them too, one by one) */
    while (o < end && o->ds_m <= 0.0)
        o++;
    for (; o < end; o++) {
        if (o->ds_m <= 0.0)
            continue;
        double gap = drv_beh_gap_m(view, o);
        if (gap > DRV_DRAFT_RANGE_M)
            break;
        double faster = o->speed_mps - v;
        if (gap <= 0.0 || faster < -DRV_DRAFT_SLOWER_OK_MPS)
            continue;
        double closeness = 1.0 - gap / DRV_DRAFT_RANGE_M;
        double pace = drv_fmin(1.0, 0.6 + 0.2 * (faster + DRV_DRAFT_SLOWER_OK_MPS));
        drv_map_write_peak(map, DRV_MAP_INTEREST, drv_beh_draft_wake_d(view, ctx, o), weight * closeness * pace,
                           o->width_m);
    }
}
