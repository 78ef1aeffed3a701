/* drv_beh_defend.c: covering the inside before a braking zone, once clear of the start's pack.
 *
 * A car close behind us in our wake, keeping up with us, is the car that may attack us at the next corner, and it
 * would dive up the inside of it. When our plan brakes for a corner within DRV_DEFEND_AHEAD_S, we take the inside
 * first: interest in a lane that leaves less than a car's width between us and the inside edge, weighted by the
 * driver's `defend`. One move: once the car behind has left our wake (beside us, or on its way there) this writes
 * nothing, so we do not move across it again, and a car alongside is a wall to us anyway (drv_beh_avoid.c), so the
 * walk always leaves it its room. */
#include "drv_beh.h"

#include <math.h>

#define DRV_DEFEND_RANGE_M 20.0        /* an attacker's nose this near our tail at most, m */
#define DRV_DEFEND_SLOWER_MPS 1.0      /* ...and no more than this slower than us */
#define DRV_DEFEND_AHEAD_S 3.0         /* a braking zone starting within this time is defended */
#define DRV_DEFEND_BRAKE_MPS 3.0       /* our plan falling this far below our speed is a braking zone */
#define DRV_DEFEND_CORNER_M 150.0      /* the corner's slowest point is looked for this far past its braking */
#define DRV_DEFEND_SAMPLES 12          /* points of the plan read over the whole reach */
#define DRV_DEFEND_EDGE_M 0.5          /* our centre this far inside the usable width's inside limit, m */
#define DRV_DEFEND_INTEREST_MIN 0.6    /* interest for a driver whose defend is just above 0... */
#define DRV_DEFEND_INTEREST_MAX 1.0    /* ...and for one whose defend is 1 */

/* The nearest car behind us, in our wake and keeping up: NULL when none. */
static const DrvOther *drv_defend_attacker(const DrvView *view)
{
    for (int i = view->other_count - 1; i >= 0; i--) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m >= 0.0)
            continue;
        double gap = drv_beh_gap_m(view, o);
        if (gap > DRV_DEFEND_RANGE_M)
            return NULL; /* sorted by ds: every car before it is further behind */
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        if (gap > 0.0 && fabs(o->d_m - view->d_m) < half && o->speed_mps > view->speed_mps - DRV_DEFEND_SLOWER_MPS)
            return o;
    }
    return NULL;
}

/* The side of the corner our plan brakes for next (+1 left, -1 right), 0 when it brakes for none within reach. */
static int drv_defend_inside(const DrvView *view, const DrvBehCtx *ctx)
{
    double v = view->speed_mps, reach = v * DRV_DEFEND_AHEAD_S + DRV_DEFEND_CORNER_M;
    double brake_x = -1.0, apex_x = 0.0, apex_v = INFINITY;
    for (int k = 1; k <= DRV_DEFEND_SAMPLES; k++) {
        double x = reach * k / DRV_DEFEND_SAMPLES;
        double plan = trk_speed_at(ctx->plan, ctx->s_m + x, NULL);
        if (brake_x < 0.0 && x <= v * DRV_DEFEND_AHEAD_S && plan < v - DRV_DEFEND_BRAKE_MPS)
            brake_x = x;
        if (plan < apex_v)
            apex_v = plan, apex_x = x;
    }
    if (brake_x < 0.0 || apex_x < brake_x)
        return 0;
    double k = trk_curvature(ctx->track, ctx->s_m + apex_x, NULL);
    return k > 0.0 ? 1 : (k < 0.0 ? -1 : 0);
}

void drv_beh_defend(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    if (!(p->defend > 0.0) || ctx->first_lap_manners || ctx->track == NULL || ctx->plan == NULL)
        return;
    if (drv_defend_attacker(view) == NULL)
        return;
    int side = drv_defend_inside(view, ctx);
    if (side == 0)
        return;
    double d = side > 0 ? ctx->d_left_ahead_m - DRV_DEFEND_EDGE_M : ctx->d_right_ahead_m + DRV_DEFEND_EDGE_M;
    double level = DRV_DEFEND_INTEREST_MIN + (DRV_DEFEND_INTEREST_MAX - DRV_DEFEND_INTEREST_MIN) * p->defend;
    drv_map_write_peak(map, DRV_MAP_INTEREST, d, level, view->width_m);
}
