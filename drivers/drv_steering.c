/* drv_steering.c: the traditional steering-behaviours driver, the baseline for context steering.
 *
 * Classic steering behaviours, lateral only (the track's d axis), combined by a weighted sum:
 *   seek        toward the racing line ahead,
 *   separation  away from nearby cars, growing with the inverse of their (scaled) distance,
 *   avoidance   away from cars ahead we are closing on, scaled by urgency (time to contact),
 *   draft       toward a car ahead on a straight (the slipstream as a seek target),
 *   yield       out of the lane of a car about to lap us.
 * target_d = d + sum of the pushes, smoothed over ticks and clamped to the track. Speed and low-level control are
 * shared with the context model (drv_drive_control): the same speed plan, the same following logic (brake and follow when
 * the target lane is more dangerous than the driver's aggression tolerates), the same steering. Only the lateral
 * decision differs, which is what the comparison is about. */
#include "drv_steering.h"
#include "drv_math.h"

#include "drv_beh.h"
#include "drv_drive.h"

#include <math.h>

/* the same values the context model uses, so the two see the same world */
#define DRV_ST_EDGE_LOOKAHEAD_S 0.7
#define DRV_ST_STRAIGHT_MAX_CURVATURE (1.0 / 350.0)
#define DRV_ST_STRAIGHT_LOOKAHEAD_S 2.0
#define DRV_ST_ALONGSIDE_GAP_M 0.5
#define DRV_ST_HORIZON_PER_LOOKAHEAD 2.0
#define DRV_ST_MAX_PREDICT_S 1.5
#define DRV_ST_CLOSE_HEADWAY_S 0.35
#define DRV_ST_CLOSE_DANGER 0.6
#define DRV_ST_DRAFT_RANGE_M 45.0
#define DRV_ST_DRAFT_SLOWER_OK_MPS 2.0
#define DRV_ST_YIELD_RANGE_M 60.0
/* steering-model shapes */
#define DRV_ST_SEP_MAX 3.0            /* cap of the inverse-distance strength (1/q - 1) */
#define DRV_ST_SIDE_PICK_M 0.25       /* a car this close to our line of travel: dodge toward the racing line */
#define DRV_ST_YIELD_PUSH_M 2.0

/* The tuned weights, searched over separation 1.5..96, avoidance 1.5..6, draft 0.3..2 and separation length
 * 4..15 m toward the fewest collisions (docs/research.md): collisions fall steeply as separation grows, then level
 * off, and a stronger draft costs collisions. The best weights make separation dominate the sum whenever a car is
 * near, i.e. the sum behaves like a priority rule there.
 * A build may override them with -D for tuning runs. */
#ifndef DRV_ST_W_SEP
#define DRV_ST_W_SEP 48.0
#endif
#ifndef DRV_ST_W_AVOID
#define DRV_ST_W_AVOID 3.0
#endif
#ifndef DRV_ST_W_DRAFT
#define DRV_ST_W_DRAFT 0.6
#endif
#ifndef DRV_ST_SEP_BEHIND
#define DRV_ST_SEP_BEHIND 1 /* classic separation is omnidirectional: cars behind push too */
#endif
#ifndef DRV_ST_SEP_LONG_M
#define DRV_ST_SEP_LONG_M 8.0
#endif

DrvSteeringDef drv_steering_default_def(void)
{
    DrvSteeringDef def = {
        .seek_weight = 1.0,
        .separation_weight = DRV_ST_W_SEP,
        .avoid_weight = DRV_ST_W_AVOID,
        .draft_weight = DRV_ST_W_DRAFT,
        .yield_weight = 1.0,
        .sep_long_m = DRV_ST_SEP_LONG_M,
        .separate_from_behind = DRV_ST_SEP_BEHIND,
    };
    return def;
}

static double drv_st_clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }
static double drv_st_sign(double x) { return x >= 0.0 ? 1.0 : -1.0; }

/* The lateral distance between two cars' centres at which they just do not touch, plus the side margin, m. */
static double drv_st_half(const DrvView *view, const DrvOther *o)
{
    return 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
}

/* Separation: every car near us, in (s, d) with the longitudinal distance scaled by sep_long_m per radius, pushes
 * us away by (1/q - 1) where q is the distance over the radius (the skirt widens the radius). */
static double drv_st_separation(const DrvView *view, const DrvPersonality *p, const DrvSteeringDef *def,
                                double noise_d_m)
{
    double push = 0.0;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (!def->separate_from_behind && drv_beh_gap_m(view, o) >= DRV_ST_ALONGSIDE_GAP_M && o->ds_m < 0.0)
            continue;
        double radius = drv_st_half(view, o) + p->skirt_m;
        double dd = view->d_m - (o->d_m + noise_d_m);
        double gap = drv_fmax(drv_beh_gap_m(view, o), 0.0);
        double q = hypot(fabs(dd) / radius, gap / def->sep_long_m);
        if (q >= 1.0)
            continue;
        double strength = drv_fmin(1.0 / drv_fmax(q, 1e-3) - 1.0, DRV_ST_SEP_MAX);
        push += strength * drv_st_sign(dd);
    }
    return push;
}

/* Which way to dodge a car at od: away from it, or toward the racing line when it is right in our way. */
static double drv_st_dodge_dir(const DrvView *view, double od, double line_d_m, double d_left, double d_right)
{
    double dd = view->d_m - od;
    if (fabs(dd) > DRV_ST_SIDE_PICK_M)
        return drv_st_sign(dd);
    if (fabs(line_d_m - od) > DRV_ST_SIDE_PICK_M)
        return drv_st_sign(line_d_m - od);
    return d_left - od >= od - d_right ? 1.0 : -1.0;
}

/* Avoidance: a car ahead we are closing on, predicted where it will be, pushes us out of its lane by the lateral
 * distance still missing, scaled by urgency (1 - time to contact / horizon). */
static double drv_st_avoid(const DrvView *view, const DrvPersonality *p, double line_d_m, double d_left,
                           double d_right, double noise_d_m)
{
    double horizon = DRV_ST_HORIZON_PER_LOOKAHEAD * p->lookahead_s;
    double push = 0.0;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double gap = drv_beh_gap_m(view, o);
        double closing = view->speed_mps - o->speed_mps;
        if (o->ds_m <= 0.0 || gap < DRV_ST_ALONGSIDE_GAP_M || closing <= 0.05)
            continue;
        double ttc = gap / closing;
        if (ttc >= horizon)
            continue;
        double od = o->d_m + noise_d_m + o->lat_speed_mps * drv_fmin(ttc, DRV_ST_MAX_PREDICT_S);
        double clear = drv_st_half(view, o) + p->skirt_m;
        double missing = clear - fabs(view->d_m - od);
        if (missing <= 0.0)
            continue;
        double urgency = 1.0 - ttc / horizon;
        push += urgency * missing * drv_st_dodge_dir(view, od, line_d_m, d_left, d_right);
    }
    return push;
}

/* Draft: on a straight, seek the offset of cars ahead in range that are not much slower (the strongest wins). */
static double drv_st_draft(const DrvView *view, const DrvPersonality *p, bool on_straight, double noise_d_m)
{
    if (!on_straight || p->draft_weight <= 0.0)
        return 0.0;
    double best = 0.0, push = 0.0;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double gap = drv_beh_gap_m(view, o);
        if (o->ds_m <= 0.0 || gap <= 0.0)
            continue;
        if (gap > DRV_ST_DRAFT_RANGE_M)
            break;
        double faster = o->speed_mps - view->speed_mps;
        if (faster < -DRV_ST_DRAFT_SLOWER_OK_MPS)
            continue;
        double w = (1.0 - gap / DRV_ST_DRAFT_RANGE_M) * drv_fmin(1.0, 0.6 + 0.2 * (faster + DRV_ST_DRAFT_SLOWER_OK_MPS));
        if (w > best)
            best = w, push = w * (o->d_m + noise_d_m - view->d_m);
    }
    return (p->draft_weight / 0.3) * push;
}

/* Yield: a faster car about to lap us, closing from behind, pushes us out of its lane. */
static double drv_st_yield(const DrvView *view, double line_d_m)
{
    double push = 0.0;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m >= 0.0)
            break;
        if (o->laps_ahead <= 0 || -o->ds_m > DRV_ST_YIELD_RANGE_M || o->speed_mps < view->speed_mps)
            continue;
        if (fabs(view->d_m - o->d_m) > drv_st_half(view, o) + 1.0)
            continue;
        double closeness = 1.0 + o->ds_m / DRV_ST_YIELD_RANGE_M;
        double dir = fabs(view->d_m - o->d_m) > DRV_ST_SIDE_PICK_M ? drv_st_sign(view->d_m - o->d_m)
                                                                  : drv_st_sign(view->d_m - line_d_m);
        push += closeness * DRV_ST_YIELD_PUSH_M * dir;
    }
    return push;
}

DrvSteeringForces drv_steering_forces(const DrvView *view, const DrvPersonality *p, const DrvSteeringDef *def,
                                      double line_d_m, bool on_straight, double noise_d_m)
{
    const TrkTrack *trk = view->track;
    double half_w = 0.5 * view->width_m;
    double d_left = trk ? trk_width_left(trk, view->s_m, NULL) - half_w : INFINITY;
    double d_right = trk ? half_w - trk_width_right(trk, view->s_m, NULL) : -INFINITY;
    /* The sum is normalised by the seek weight, so alone on the track the target is the racing line itself (the
     * same path the context model drives) and a driver who values the line more is pushed off it less. */
    double seek = drv_fmax(def->seek_weight * (p->line_weight / 0.6), 0.05);
    DrvSteeringForces f;
    f.seek_m = seek * (line_d_m - view->d_m);
    f.separation_m = def->separation_weight * drv_st_separation(view, p, def, noise_d_m);
    f.avoid_m = def->avoid_weight * drv_st_avoid(view, p, line_d_m, d_left, d_right, noise_d_m);
    f.draft_m = def->draft_weight * drv_st_draft(view, p, on_straight, noise_d_m);
    f.yield_m = def->yield_weight * drv_st_yield(view, line_d_m);
    f.sum_m = (f.seek_m + f.separation_m + f.avoid_m + f.draft_m + f.yield_m) / seek;
    return f;
}

/* Danger of one car at offset d: full across its lane (our width and its own plus the margin), falling off over
 * the skirt, times how threatening it is. */
static double drv_st_band(double d, double lo, double hi, double value, double skirt)
{
    double out = d < lo ? lo - d : (d > hi ? d - hi : 0.0);
    if (out <= 0.0)
        return value;
    return out < skirt ? value * (1.0 - out / skirt) : 0.0;
}

double drv_steering_danger_at(const DrvView *view, const DrvPersonality *p, double d_m, double noise_d_m)
{
    double horizon = DRV_ST_HORIZON_PER_LOOKAHEAD * p->lookahead_s;
    double worst = 0.0;
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double gap = drv_beh_gap_m(view, o), od = o->d_m + noise_d_m, half = drv_st_half(view, o);
        double danger, od2 = od;
        if (gap < DRV_ST_ALONGSIDE_GAP_M) {
            danger = 1.0;
            od2 = od + 0.3 * o->lat_speed_mps;
        } else {
            if (o->ds_m < 0.0)
                continue;
            double closing = view->speed_mps - o->speed_mps;
            double ttc = closing > 0.05 ? gap / closing : INFINITY;
            double headway = gap / drv_fmax(view->speed_mps, 5.0);
            danger = drv_fmax(drv_st_clamp01(1.0 - ttc / horizon),
                          DRV_ST_CLOSE_DANGER * drv_st_clamp01(1.0 - headway / DRV_ST_CLOSE_HEADWAY_S));
            od2 = od + o->lat_speed_mps * drv_fmin(ttc, DRV_ST_MAX_PREDICT_S);
        }
        double v = drv_st_band(d_m, drv_fmin(od, od2) - half, drv_fmax(od, od2) + half, danger, p->skirt_m);
        worst = drv_fmax(worst, v);
    }
    return worst;
}

/* A decision: the forces' target offset, smoothed and contained, into driver->plan. */
void drv_steering_decide(DrvDriver *driver, const DrvView *view, const DrvHere *here, double line_d)
{
    const DrvPersonality *p = &driver->p;
    const TrkTrack *trk = driver->track;
    DrvHints *h = &driver->hints;
    double s = view->s_m, v = view->speed_mps;

    double half_w = 0.5 * view->width_m;
    double s_edge = s + v * DRV_ST_EDGE_LOOKAHEAD_S;
    TrkGeometry edge = trk_geometry_at(trk, s_edge, &h->edge_ahead);
    double d_left = drv_fmin(here->spot.left_m, edge.left_m) - half_w;
    double d_right = half_w - drv_fmin(here->spot.right_m, edge.right_m);
    double k_here = here->spot.kappa;
    double k_ahead = trk_curvature(trk, s + v * DRV_ST_STRAIGHT_LOOKAHEAD_S, &h->curv_ahead);
    bool on_straight = fabs(k_here) < DRV_ST_STRAIGHT_MAX_CURVATURE && fabs(k_ahead) < DRV_ST_STRAIGHT_MAX_CURVATURE;

    DrvSteeringDef def = drv_steering_default_def();
    DrvSteeringForces f = drv_steering_forces(view, p, &def, line_d, on_straight, driver->noise.d_m);
    double target = view->d_m + f.sum_m;
    /* smoothing, the steering model's counterpart of the context model's map hysteresis */
    if (driver->steer_has_prev && isfinite(driver->steer_prev_target_m)) {
        double hyst = drv_hysteresis_weight(driver, view->tick);
        target = hyst * driver->steer_prev_target_m + (1.0 - hyst) * target;
    }
    /* containment: never aim off the track (nor off the part that remains a moment ahead) */
    if (d_left > d_right)
        target = drv_fmax(d_right, drv_fmin(d_left, target));
    else
        target = 0.5 * (d_left + d_right);
    if (!isfinite(target))
        target = view->d_m;
    driver->steer_prev_target_m = target;
    driver->steer_has_prev = true;

    driver->plan.valid = true;
    driver->plan.on_line = false;
    driver->plan.target_d_m = target;
    driver->plan.braking = drv_steering_danger_at(view, p, target, driver->noise.d_m) > p->aggression;
}
