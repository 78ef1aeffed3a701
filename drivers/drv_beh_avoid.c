/* drv_beh_avoid.c: danger where other cars are, or will be when we reach them.
 *
 * A car alongside (overlapping along the track, including one slightly behind) is full danger whatever its speed:
 * we cannot go through it. A car ahead is danger in proportion to how soon we would hit it (time to contact over
 * the driver's horizon), plus a little when it is very close in time even at equal speed (less, on a straight, for
 * a driver who likes the tow: sitting in a wake is drafting). Into and through corners the danger of a car ahead
 * is instead the braking needed to follow it (see drv_avoid_ahead_danger). Clear of the start's pack, the car we
 * follow and cannot get alongside (drv_beh_attack.c) is no danger at all: we follow it in its wake, and how close is the
 * safe-following limit's business (drv_follow.c). Danger covers the other car's width plus ours and a small margin,
 * with the driver's skirt of decreasing danger either side.
 *
 * A gap is a lane only if the car fits through it with room to spare: between a car ahead and the track edge, or
 * between two cars ahead too close together along the track to weave between them, a gap narrower than our width
 * plus, either side, the side margin and half the driver's skirt is as dangerous as the car(s) beside it. Without
 * this, the skirts of the two sides of a narrow gap leave a shallow dip in the middle that the resolver takes for a
 * lane, and the car squeezes through with centimetres to spare. */
#include "drv_beh.h"
#include "drv_lanes.h"
#include "drv_math.h"

#include <math.h>

#define DRV_AVOID_ALONGSIDE_GAP_M 0.5   /* a gap this small along the track already counts as alongside */
#define DRV_AVOID_HORIZON_PER_LOOKAHEAD 2.0
#define DRV_AVOID_MIN_RANGE_M 12.0
#define DRV_AVOID_CLOSE_HEADWAY_S 0.35  /* nearer than this in time, a car ahead is danger at any speed */
#define DRV_AVOID_CLOSE_DANGER 0.6
#define DRV_AVOID_MAX_PREDICT_S 1.5     /* lateral prediction is not trusted further than this */
#define DRV_AVOID_WAKE_SHARE 0.5        /* of the draft weight: how much closer a drafter sits on a straight */
#define DRV_AVOID_FOLLOW_ROOM_M 2.0     /* gap kept when following a car ahead, m */
#define DRV_AVOID_FOLLOW_BRAKE_SHARE 0.2 /* of the grip: braking that makes following a car ahead full danger */
#define DRV_AVOID_FOLLOW_EASY_SHARE 0.05 /* of the grip: braking to follow it that is no danger at all */
#define DRV_AVOID_GAP_SPARE_M 0.75      /* most room, either side beyond the margin, a gap must leave (m) */
#define DRV_AVOID_GAP_CARS 16           /* cars ahead kept for the narrow-gap pass (the nearest ones) */
#define DRV_AVOID_EDGE_FAR_M 20.0       /* "beyond the edge" for a band: further than any track is wide */
#define DRV_AVOID_BEHIND_GAP_M 1.5      /* a car beside our line with its nose this near our tail is a wall... */
#define DRV_AVOID_BEHIND_CLOSING_S 1.0  /* ...and further by this many seconds of its closing speed */
#define DRV_AVOID_SLOW_HEADWAY_S 1.2    /* a slower car ahead nearer than this in time devalues its lane... */
#define DRV_AVOID_SLOW_LAP1_HEADWAY_S 1.5 /* ...this on the first lap, where the pack is dense (the longer: the
                                          * range avoid reads cars in, on every lap) */
#define DRV_AVOID_SLOW_DANGER 0.5       /* ...up to this danger (below the walk's full danger)... */
#define DRV_AVOID_SLOW_BAND_MPS 3.0     /* ...reached when it is this much slower than our plan there */
#define DRV_AVOID_SLOW_TOW_SHARE 0.5    /* of the draft weight: how much shorter that headway is on a straight */
#define DRV_AVOID_SLOW_LANE_SHARE 0.98  /* ...but only where a lane beside it allows this share of our plan here */
#define DRV_AVOID_SLOW_LANE_SPARE_M 0.5 /* room, beyond the margin, between it and that lane, m */
#define DRV_AVOID_SLOW_CLOSING_MPS 0.5  /* ...and only while we close on it at least this fast... */
#define DRV_AVOID_SLOW_REACH_M 300.0    /* ...the lane judged at most this far ahead (where we would be alongside) */
#define DRV_AVOID_SLOW_SAMPLES 4        /* points of that lane checked */

/* A car ahead that wrote danger, for the narrow-gap pass. */
typedef struct DrvAvoidCar {
    const DrvOther *o;
    double d_m;      /* perceived offset */
    double danger;
} DrvAvoidCar;

static double drv_clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

static void drv_avoid_write(DrvContextMap *map, const DrvView *view, const DrvOther *o, double d_from, double d_to,
                            double danger, double skirt_m)
{
    double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
    double lo = drv_fmin(d_from, d_to) - half, hi = drv_fmax(d_from, d_to) + half;
    drv_map_write_band(map, DRV_MAP_DANGER, lo, hi, danger, skirt_m);
}

/* How fast we close on a car ahead: no faster than our own plan lets us be where it is now. A car braking for the
 * corner we also brake for is not closing on us; judged by our speed of now, it filled the map with danger at every
 * braking point and built trains. m/s. */
static double drv_avoid_closing(const DrvView *view, const DrvBehCtx *ctx, const DrvOther *o)
{
    double v = view->speed_mps;
    if (ctx->plan != NULL)
        v = drv_fmin(v, trk_speed_at(ctx->plan, ctx->s_m + o->ds_m, NULL));
    return v - o->speed_mps;
}

/* Whether a lane beside the car ahead, either side of it and on the track, lets us hold DRV_AVOID_SLOW_LANE_SHARE
 * of our plan all the way from here to where we would be alongside it at the closing speed `closing` (its cap,
 * drv_lanes.h, at DRV_AVOID_SLOW_SAMPLES points). Where none does (a corner whose inside and outside lanes are both
 * slow, or one we reach before we are alongside), leaving the slower car's wake gains nothing and costs the lane's
 * cap: the car left the line at the end of a straight, could not take it back in the braking zone with the slower
 * car on it, and drove the corner on a constant offset, losing half a second at every slow corner. A car we are not
 * catching is never alongside: its wake is the place to be. */
static bool drv_avoid_lane_beside(const DrvView *view, const DrvBehCtx *ctx, const DrvOther *o, double closing)
{
    if (ctx->lanes == NULL)
        return true;
    if (!(closing > DRV_AVOID_SLOW_CLOSING_MPS))
        return false;
    double along_m = drv_fmin(view->speed_mps * (drv_beh_gap_m(view, o) + view->length_m) / closing,
                              DRV_AVOID_SLOW_REACH_M);
    double side = ctx->half_width_m + 0.5 * o->width_m + DRV_BEH_SIDE_MARGIN_M + DRV_AVOID_SLOW_LANE_SPARE_M;
    for (int k = -1; k <= 1; k += 2) {
        double d = o->d_m + k * side;
        if (d > ctx->d_left_ahead_m || d < ctx->d_right_ahead_m)
            continue;
        bool worth = true;
        for (int i = 0; i < DRV_AVOID_SLOW_SAMPLES && worth; i++) {
            double s = ctx->s_m + along_m * i / (DRV_AVOID_SLOW_SAMPLES - 1.0);
            double want = DRV_AVOID_SLOW_LANE_SHARE * (i == 0 ? ctx->line_speed_mps : trk_speed_at(ctx->plan, s, NULL));
            worth = drv_lanes_speed(ctx->lanes, s, d) >= want;
        }
        if (worth)
            return true;
    }
    return false;
}

/* A car close ahead that is slower than our plan where it is: following it costs time, so its lane is worth less
 * than a free one beside it, if there is one worth taking. Below the full value the walk still crosses it; a free
 * lane within reach wins. On a straight its wake is worth having: a driver who likes the tow pulls out later. */
static double drv_avoid_slow_danger(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx,
                                    double headway_s, double closing, const DrvOther *o, bool first_lap)
{
    /* On the first lap the field is a pack that has not sorted itself yet: a slower car's lane is devalued earlier and
     * whether or not a lane beside it is worth taking, which keeps the pack spread over the track into the first
     * corners (checked only for a lane worth taking, the first lap's rear-ends in the braking zones doubled). */
    if (ctx->plan == NULL || o->laps_ahead < 0)
        return 0.0; /* a lapped car moves over for us (blue flags) */
    double deficit = trk_speed_at(ctx->plan, ctx->s_m + o->ds_m, NULL) - o->speed_mps;
    if (!(deficit > 0.0) || (!first_lap && !drv_avoid_lane_beside(view, ctx, o, closing)))
        return 0.0;
    double tow = ctx->on_straight ? DRV_AVOID_SLOW_TOW_SHARE * p->draft_weight : 0.0;
    double reach_s = first_lap ? DRV_AVOID_SLOW_LAP1_HEADWAY_S : DRV_AVOID_SLOW_HEADWAY_S;
    double near = drv_clamp01(1.0 - headway_s / (reach_s * (1.0 - tow)));
    return DRV_AVOID_SLOW_DANGER * drv_clamp01(deficit / DRV_AVOID_SLOW_BAND_MPS) * near;
}

/* Danger of a car ahead (not alongside), 0 when it is no threat. */
static double drv_avoid_ahead_danger(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx,
                                     double horizon_s, double gap, const DrvOther *o)
{
    /* the car we follow and cannot get alongside (drv_beh_attack.c): its wake is the place to be, at the gap the
     * safe-following limit keeps. Its braking is not danger either: a band spread with its lateral speed as it turns
     * in along its line covers the track from its lane to the edge, and sends a follower in the braking zone across
     * to the one lane left free, above that lane's cap and off the track. */
    if (ctx->attack.target == o && !ctx->attack.feasible)
        return 0.0;
    double closing = drv_avoid_closing(view, ctx, o);
    double ttc = closing > 0.05 ? gap / closing : INFINITY;
    double urgency = drv_clamp01(1.0 - ttc / horizon_s);
    if (!ctx->on_straight) {
        /* into and through corners a car ahead is followed, not passed in its own lane: its lane is as dangerous
         * as following it is hard (the braking needed to shed the closing speed before the gap is gone), not as
         * near as the moment we would reach it. Measured by time to contact, the lane behind a car braking into
         * a corner looks dangerous while the track beside it (too fast to hold) looks free. */
        double room = drv_fmax(gap - DRV_AVOID_FOLLOW_ROOM_M, 0.01);
        double need = closing > 0.0 ? closing * closing / (2.0 * room) : 0.0;
        urgency = drv_clamp01((need - DRV_AVOID_FOLLOW_EASY_SHARE * ctx->grip_mps2) /
                              ((DRV_AVOID_FOLLOW_BRAKE_SHARE - DRV_AVOID_FOLLOW_EASY_SHARE) * ctx->grip_mps2));
    }
    double headway = gap / drv_fmax(view->speed_mps, 5.0);
    /* on a straight nobody brakes: sitting close in a wake is drafting, and a driver who likes the tow sits closer */
    double wake = ctx->on_straight ? DRV_AVOID_WAKE_SHARE * p->draft_weight : 0.0;
    double close_s = DRV_AVOID_CLOSE_HEADWAY_S * (1.0 - wake);
    double close = DRV_AVOID_CLOSE_DANGER * drv_clamp01(1.0 - headway / close_s);
    double slow = drv_avoid_slow_danger(view, p, ctx, headway, closing, o, view->laps_done == 0);
    return drv_fmax(drv_fmax(urgency, close), slow);
}

/* A car just behind, beside our line rather than in our wake, has nowhere to go if we cut across in front of it:
 * its lane is a wall, as for a car alongside (no skirt: it only has to stop the walk). Most lap-1 contacts of a
 * standing start were a car sweeping across the nose of one half a metre behind it. A car closing fast is one as
 * far back as it closes in a second: braking into turn 1 it brakes as hard as we do, so what it closes it keeps
 * closing, and a move across its nose there was a rear-end. A car in our wake, or further back, is following us:
 * its driver's problem. */
static void drv_avoid_behind(DrvContextMap *map, const DrvView *view, const DrvOther *o, double gap, double od)
{
    double reach = DRV_AVOID_BEHIND_GAP_M + drv_fmax(o->speed_mps - view->speed_mps, 0.0) * DRV_AVOID_BEHIND_CLOSING_S;
    double beside = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
    if (gap < reach && fabs(od - view->d_m) >= beside)
        drv_avoid_write(map, view, o, od, od, 1.0, 0.0);
}

/* Narrow gaps (see the top of the file): next to the track edges, and between pairs of cars ahead. */
static void drv_avoid_narrow_gaps(const DrvView *view, const DrvPersonality *p, const DrvAvoidCar *cars, int n,
                                  DrvContextMap *map)
{
    double need = view->width_m + 2.0 * (DRV_BEH_SIDE_MARGIN_M + drv_fmin(0.5 * p->skirt_m, DRV_AVOID_GAP_SPARE_M));
    double half_w = 0.5 * view->width_m;
    double edge_left = map->d_left_m + half_w, edge_right = map->d_right_m - half_w; /* the track's edges */
    for (int i = 0; i < n; i++) {
        const DrvAvoidCar *a = &cars[i];
        double half_a = 0.5 * a->o->width_m;
        if (edge_left - (a->d_m + half_a) < need)
            drv_map_write_band(map, DRV_MAP_DANGER, a->d_m, edge_left + DRV_AVOID_EDGE_FAR_M, a->danger, 0.0);
        if ((a->d_m - half_a) - edge_right < need)
            drv_map_write_band(map, DRV_MAP_DANGER, edge_right - DRV_AVOID_EDGE_FAR_M, a->d_m, a->danger, 0.0);
        for (int j = i + 1; j < n; j++) {
            const DrvAvoidCar *b = &cars[j];
            /* too close together along the track for us to pass one and then cut in front of the other */
            double weave = 0.5 * (a->o->length_m + b->o->length_m) + view->length_m;
            if (fabs(a->o->ds_m - b->o->ds_m) >= weave)
                continue;
            double gap = fabs(a->d_m - b->d_m) - 0.5 * (a->o->width_m + b->o->width_m);
            if (gap < need)
                drv_map_write_band(map, DRV_MAP_DANGER, a->d_m, b->d_m, drv_fmin(a->danger, b->danger), 0.0);
        }
    }
}

bool drv_beh_avoid_reaches(const DrvView *view, const DrvPersonality *p, const DrvOther *o, double margin_m,
                           double margin_mps)
{
    double gap = drv_beh_gap_m(view, o);
    if (!(gap >= DRV_AVOID_ALONGSIDE_GAP_M + margin_m)) /* alongside (a NaN gap too) */
        return true;
    /* the range drv_beh_avoid stops at */
    double closing = view->speed_mps - o->speed_mps + margin_mps;
    double horizon_s = DRV_AVOID_HORIZON_PER_LOOKAHEAD * p->lookahead_s;
    double slow_reach = DRV_AVOID_SLOW_LAP1_HEADWAY_S * drv_fmax(view->speed_mps + margin_mps, 5.0);
    return gap <= drv_fmax(DRV_AVOID_MIN_RANGE_M + drv_fmax(closing, 0.0) * horizon_s, slow_reach) + margin_m;
}

void drv_beh_avoid(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    double horizon_s = DRV_AVOID_HORIZON_PER_LOOKAHEAD * p->lookahead_s;
    DrvAvoidCar ahead[DRV_AVOID_GAP_CARS];
    int n_ahead = 0;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double gap = drv_beh_gap_m(view, o);
        double od = o->d_m + ctx->noise_d_m;
        if (gap < DRV_AVOID_ALONGSIDE_GAP_M) {
            drv_avoid_write(map, view, o, od, od + 0.3 * o->lat_speed_mps, 1.0, p->skirt_m);
            continue;
        }
        if (o->ds_m < 0.0) {
            drv_avoid_behind(map, view, o, gap, od);
            continue;
        }
        double closing = view->speed_mps - o->speed_mps;
        /* a slower car within the slow-car headway devalues its lane even before we close on it */
        double range = drv_fmax(DRV_AVOID_MIN_RANGE_M + drv_fmax(closing, 0.0) * horizon_s,
                                DRV_AVOID_SLOW_LAP1_HEADWAY_S * drv_fmax(view->speed_mps, 5.0));
        if (gap > range)
            break; /* others are sorted by ds: every later car is further still */
        double danger = drv_avoid_ahead_danger(view, p, ctx, horizon_s, gap, o);
        if (danger <= 0.0)
            continue;
        double ttc = closing > 0.05 ? gap / closing : INFINITY;
        double t_pred = drv_fmin(ttc, DRV_AVOID_MAX_PREDICT_S);
        drv_avoid_write(map, view, o, od, od + o->lat_speed_mps * t_pred, danger, p->skirt_m);
        if (n_ahead < DRV_AVOID_GAP_CARS)
            ahead[n_ahead++] = (DrvAvoidCar){o, od, danger};
    }
    drv_avoid_narrow_gaps(view, p, ahead, n_ahead, map);
}
