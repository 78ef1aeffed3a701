/* drv_beh_avoid.c: danger where other cars are, or will be when we reach them.
 *
 * A car alongside (overlapping along the track, including one slightly behind) is full danger whatever its speed:
 * we cannot go through it. A car ahead is danger in proportion to how soon we would hit it (time to contact over
 * the driver's horizon), plus a little when it is very close in time even at equal speed; a car pulling away
 * writes nothing. Danger covers the other car's width plus ours and a small margin, with the driver's skirt of
 * decreasing danger either side. */
#include "drv_beh.h"

#include <math.h>

#define DRV_AVOID_ALONGSIDE_GAP_M 0.5   /* a gap this small along the track already counts as alongside */
#define DRV_AVOID_HORIZON_PER_LOOKAHEAD 2.0
#define DRV_AVOID_MIN_RANGE_M 12.0
#define DRV_AVOID_CLOSE_HEADWAY_S 0.35  /* nearer than this in time, a car ahead is danger at any speed */
#define DRV_AVOID_CLOSE_DANGER 0.6
#define DRV_AVOID_MAX_PREDICT_S 1.5     /* lateral prediction is not trusted further than this */

static double drv_clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

static void drv_avoid_write(DrvContextMap *map, const DrvView *view, const DrvOther *o, double d_from, double d_to,
                            double danger, double skirt_m)
{
    double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
    double lo = fmin(d_from, d_to) - half, hi = fmax(d_from, d_to) + half;
    drv_map_write_band(map, DRV_MAP_DANGER, lo, hi, danger, skirt_m);
}

void drv_beh_avoid(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    double horizon_s = DRV_AVOID_HORIZON_PER_LOOKAHEAD * p->lookahead_s;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double gap = drv_beh_gap_m(view, o);
        double od = o->d_m + ctx->noise_d_m;
        if (gap < DRV_AVOID_ALONGSIDE_GAP_M) {
            drv_avoid_write(map, view, o, od, od + 0.3 * o->lat_speed_mps, 1.0, p->skirt_m);
            continue;
        }
        if (o->ds_m < 0.0)
            continue; /* behind and clear: its driver's problem */
        double closing = view->speed_mps - o->speed_mps;
        double range = DRV_AVOID_MIN_RANGE_M + fmax(closing, 0.0) * horizon_s;
        if (gap > range)
            break; /* others are sorted by ds: every later car is further still */
        double ttc = closing > 0.05 ? gap / closing : INFINITY;
        double urgency = drv_clamp01(1.0 - ttc / horizon_s);
        double headway = gap / fmax(view->speed_mps, 5.0);
        double close = DRV_AVOID_CLOSE_DANGER * drv_clamp01(1.0 - headway / DRV_AVOID_CLOSE_HEADWAY_S);
        double danger = fmax(urgency, close);
        if (danger <= 0.0)
            continue;
        double t_pred = fmin(ttc, DRV_AVOID_MAX_PREDICT_S);
        drv_avoid_write(map, view, o, od, od + o->lat_speed_mps * t_pred, danger, p->skirt_m);
    }
}
