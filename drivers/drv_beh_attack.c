/* drv_beh_attack.c: attacking the car we follow, once clear of the start's pack.
 *
 * The car we follow (the nearest car ahead in our lane) can be passed only on a side where we get alongside it before
 * its racing line needs that side: at a corner's turn-in the line crosses the track, and a car that dives beside it
 * too late has to back off across its wake, which cost half a second or more a corner. So both cars are run forward
 * in time: we on the lane beside it at that lane's cap (drv_lanes.h: the braking for every corner ahead on it), it
 * along its own speed plan at its present pace (drv_beh_plan_of: a slower driver brakes earlier and corners slower),
 * from where it is back onto its line over a driver's way back. Both ways are counted along the track (the centre
 * line's s, as the gap between the cars is): at the same speed a car on the inside of a corner gains on one on the
 * outside, and counted in metres driven, an attack round the outside of gp's hairpin looked alongside while it lost
 * three seconds to the car on the line. The attack holds when our nose is past its tail
 * (overlapping it: it has to leave us room) before it comes within a car's width of our lane. The lanes judged are
 * the one right beside it and, failing that, lanes further across (up to DRV_ATTACK_WIDER_M more): its line crosses a
 * lane nearer the inside of the corner later, at the apex rather than at the turn-in. Once the move has
 * begun (we are off its line toward the lane) it holds with a little less overlap, so that a verdict short by a
 * fraction of a metre one decision does not leave the car half out of the wake the next; and while the car aims for
 * the attack's lane, that lane's caps count only where they are below the plan, so it keeps the tow's throttle
 * (drv_drive.c).
 *
 * The verdict (drv_attack_judge, read once a tick into DrvBehCtx) decides two things: interest in that lane (this
 * behaviour, scaled by the driver's attack), and whether the car's closeness devalues its lane at all
 * (drv_beh_avoid.c): a car we cannot get alongside is followed in its wake, where the tow is and the line is, with
 * the safe-following limit keeping the gap. */
#include "drv_beh.h"
#include "drv_lanes.h"
#include "drv_math.h"

#include <math.h>

#define DRV_ATTACK_RANGE_M 60.0      /* the car we follow is judged this far ahead at most (bumper gap), m */
#define DRV_ATTACK_DT_S 0.2          /* step of the two cars' predicted ways, s */
#define DRV_ATTACK_STEPS 40          /* ...this many (8 s) */
#define DRV_ATTACK_OVERLAP_M 1.0     /* alongside: our nose this far past its tail (it must leave us room), m */
#define DRV_ATTACK_UNDER_WAY_M 0.5   /* an attack is under way once we are this far off its line toward the lane... */
#define DRV_ATTACK_KEEP_M 1.5        /* ...and then holds with this much less overlap, m */
#define DRV_ATTACK_SPARE_M 0.5       /* room between the attacked car and our lane beyond the side margin, m */
#define DRV_ATTACK_WIDER_M 3.0       /* lanes further from it are judged up to this much further across... */
#define DRV_ATTACK_WIDER_STEP_M 1.0  /* ...this far apart, m */
#define DRV_ATTACK_INTEREST_MIN 0.6  /* interest in the attack lane for a driver whose attack is 0... */
#define DRV_ATTACK_INTEREST_MAX 1.0  /* ...and for one whose attack is 1 */

/* The car ahead whose lane overlaps ours: the one we follow; else the car an attack is on (ctx->attacked_id) while we
 * are beside and behind it. NULL when none within DRV_ATTACK_RANGE_M. Lanes are
 * compared as offsets from the racing line, each read where its car is: where the line sweeps across the track (a
 * corner's turn-in, a chicane) a car ahead on the line is metres to the side of us on the line too, and judged by
 * absolute offsets it was not followed but avoided, its band of danger swept across the line. */
static const DrvOther *drv_attack_followed(const DrvView *view, const DrvBehCtx *ctx)
{
    double s_me = view->s_m, line_me;
    trk_line_d_n(ctx->track, &s_me, &line_me, 1);
    const DrvOther *attacked = NULL; /* the car of an attack under way, beside and behind it (DrvPlan.attacked_id) */
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m <= 0.0)
            continue;
        double gap = drv_beh_gap_m(view, o);
        if (gap > DRV_ATTACK_RANGE_M)
            break; /* sorted by ds: every later car is further still */
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        if (gap > 0.0 && fabs(drv_beh_off_line_m(ctx->track, view, o) - (view->d_m - line_me)) < half)
            return o;
        if (gap > 0.0 && o->id == ctx->attacked_id)
            attacked = o;
    }
    return attacked; /* none in our lane */
}

/* The followed car's predicted way, the same for every lane judged: its centre along the track from ours (xo) and its
 * offset (d_o) at each step, predicted only as far as a lane's judgement needs. It drives its own speed plan at its
 * present pace (drv_beh_plan_of), from where it is back onto its line over a driver's way back (drv_drive.c). */
typedef struct DrvAttackWay {
    const TrkSpeedProfile *plan;
    bool on_grid; /* trk_profile_on_grid(track, plan) */
    double pace, e0, back, vo;
    int n; /* steps predicted (xo[0..n], d_o[0..n-1], far[0..n-1]) */
    double xo[DRV_ATTACK_STEPS + 1], d_o[DRV_ATTACK_STEPS];
    double far[DRV_ATTACK_STEPS]; /* the furthest of xo[0..k] (and 0) */
    /* the centre line's curvature from our s to s + reach (trk_fast_curvature_bounds), for drv_attack_lane_scale:
     * extended as a lane needs it further, none (reach NaN) once out of that function's range */
    double reach, kappa_lo, kappa_hi;
} DrvAttackWay;

static DrvAttackWay drv_attack_way_start(const DrvBehCtx *ctx, const DrvOther *o)
{
    DrvAttackWay w;
    w.plan = drv_beh_plan_of(ctx->plan, o);
    w.on_grid = trk_profile_on_grid(ctx->track, w.plan);
    w.pace = 1.0; /* drv_beh_pace, from the first step's reading of the plan (at ctx->s_m + o->ds_m) */
    w.e0 = 0.0;   /* it is off its line by e0 now (the first step reads its line) */
    w.back = drv_fmax(DRV_BEH_REJOIN_MIN_M, o->speed_mps * DRV_BEH_REJOIN_S);
    w.vo = o->speed_mps;
    w.n = 0;
    w.reach = 0.0, w.kappa_lo = INFINITY, w.kappa_hi = -INFINITY;
    w.xo[0] = o->ds_m;
    return w;
}

/* The way's next step, n to n + 1. */
static void drv_attack_way_step(DrvAttackWay *w, const DrvBehCtx *ctx, const DrvOther *o)
{
    int k = w->n++;
    /* its line, its plan and the centre line's curvature where it is, from one look-up (each as trk_line_d_n,
     * trk_speed_at and trk_curvature give it) */
    double s_o = ctx->s_m + w->xo[k], line_o, plan_v, kappa_o;
    trk_fast_line_speed_curvature(ctx->track, w->plan, w->on_grid, s_o, &line_o, &plan_v, &kappa_o);
    double far = k > 0 ? w->far[k - 1] : 0.0;
    w->far[k] = w->xo[k] > far ? w->xo[k] : far;
    if (k == 0) {
        w->e0 = o->d_m - line_o;
        w->pace = drv_beh_pace_at(plan_v, o);
    }
    double d_o = line_o + w->e0 * drv_fmax(1.0 - (w->xo[k] - o->ds_m) / w->back, 0.0);
    w->d_o[k] = d_o;
    w->vo = drv_fmin(w->vo, w->pace * plan_v);
    /* metres driven to metres of track */
    w->xo[k + 1] = w->xo[k] + w->vo * DRV_ATTACK_DT_S / trk_path_scale(kappa_o, d_o);
}

/* The curvature bounds of the track up to s + x at least (x >= 0); false where there are none. */
static bool drv_attack_way_reach(DrvAttackWay *w, const DrvBehCtx *ctx, double x)
{
    if (!(x > w->reach)) /* within the reach, or none (NaN) */
        return x <= w->reach;
    if (!(ctx->s_m >= 0.0) ||
        !trk_fast_curvature_bounds(ctx->track, ctx->s_m + w->reach, ctx->s_m + x, &w->kappa_lo, &w->kappa_hi)) {
        w->reach = NAN;
        return false;
    }
    w->reach = x;
    return true;
}

/* A lane's verdict: alongside in time, or not, because its line crosses the lane first or because we do not catch it
 * within the horizon. */
typedef enum DrvLaneVerdict { DRV_LANE_HOLDS, DRV_LANE_CROSSED, DRV_LANE_NOT_CAUGHT } DrvLaneVerdict;

/* What a side's last scan for the crossing (drv_attack_way_crossing) tells the next lane out on that side: up to step
 * `clear`, its line stayed on the car's side of lane d, at least half from it, and so further still from a lane
 * beyond d (the difference to it, larger, rounds to no less), which it cannot have crossed before that step. */
typedef struct DrvAttackScan {
    bool known;
    double d;
    int clear;
} DrvAttackScan;

/* The first step at which its line is within half of lane d (DRV_ATTACK_STEPS for none), its way predicted so far,
 * from the step the side's last scan (*scan) rules out up to, for a lane beyond that scan's; *scan becomes this
 * lane's. `toward`: +1 when the car is to the left of the lane, -1 to the right. *reach: the furthest of its centres
 * before that step. */
static int drv_attack_way_crossing(DrvAttackWay *way, const DrvBehCtx *ctx, const DrvOther *o, double d, double half,
                                   double toward, DrvAttackScan *scan, double *reach)
{
    bool beyond = scan->known && (toward > 0.0 ? d < scan->d : d > scan->d);
    int k = beyond ? scan->clear : 0, clear = -1;
    for (; k < DRV_ATTACK_STEPS; k++) {
        if (way->n == k)
            drv_attack_way_step(way, ctx, o);
        /* toward * (d_o - d): the product by +-1 is exact, so its magnitude is fabs(d_o - d) */
        double e = toward * (way->d_o[k] - d);
        if (e >= half)
            continue; /* on the car's side of the lane, clear of it */
        if (clear < 0)
            clear = k;
        if (e > -half)
            break; /* within half of the lane */
    }
    *scan = (DrvAttackScan){true, d, clear < 0 ? k : clear};
    *reach = k == 0 ? 0.0 : way->far[k - 1];
    return k;
}

/* The least path scale lane d has over the track from our s to s + reach (reach >= 0), with the curvature's margin
 * for its lerp's rounding: at or below trk_path_scale of every look-up of ours within that stretch. False where the
 * track gives no bounds there. */
static bool drv_attack_lane_scale(const DrvBehCtx *ctx, DrvAttackWay *way, double d, double reach, double *scale)
{
    if (!drv_attack_way_reach(way, ctx, reach))
        return false;
    double lo = way->kappa_lo * d, hi = way->kappa_hi * d;
    double kd = drv_fmax(lo, hi) + 1e-9 * (1.0 + fabs(lo) + fabs(hi)); /* at or above every look-up's kappa * d */
    *scale = drv_fmax(1.0 - kd, TRK_MIN_PATH_SCALE);
    return true;
}

/* Whether we provably stay behind (x_j + along < xo[j]) at every step j from k to the crossing step c (the horizon,
 * DRV_ATTACK_STEPS, where its line does not cross), without stepping our way: from x_k = x and a speed v that ours
 * never exceeds from step k on (each step takes the least of it and the lane's cap), and the least path scale of the
 * lane (drv_attack_lane_scale over the furthest of its centres before c), each step goes at most as far as it does at
 * that speed and scale. Every operation is monotone, so the bound's x, made by the same operations, is at or above
 * ours at every step, rounding included. Once the bound stays behind its centre (and along >= 0), so does every
 * look-up of ours, within the bounded track. */
static bool drv_attack_stays_behind(const DrvAttackWay *way, double scale, double x, double v, double along, int k,
                                    int c)
{
    double dx = v * DRV_ATTACK_DT_S / scale;
    for (int j = k; j <= c; j++) {
        if (!(x + along < way->xo[j]))
            return false;
        x += dx;
    }
    return true;
}

/* Whether, on the lane at offset d beside car o, we get our nose past its tail before its line needs our lane. */
static DrvLaneVerdict drv_attack_lane(const DrvView *view, const DrvBehCtx *ctx, const DrvOther *o, double d,
                                      DrvAttackWay *way, DrvAttackScan *scan)
{
    /* once the move has begun, a verdict that flipped back for a fraction of a metre left the car half out of the
     * wake, without its tow and without the lane */
    bool under_way = (view->d_m - o->d_m) * (d - o->d_m) > 0.0 && fabs(view->d_m - o->d_m) >= DRV_ATTACK_UNDER_WAY_M;
    double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
    double x = 0.0, v = view->speed_mps; /* we: our centre, from where we are */
    const double along =
        0.5 * (view->length_m + o->length_m) - DRV_ATTACK_OVERLAP_M + (under_way ? DRV_ATTACK_KEEP_M : 0.0);
    /* most lanes are crossed well before we could be alongside, and where we are not catching it at all that shows
     * too: both are told without stepping our way */
    double reach, scale = 0.0;
    int c = drv_attack_way_crossing(way, ctx, o, d, half, d < o->d_m ? 1.0 : -1.0, scan, &reach);
    const DrvLaneVerdict missed = c < DRV_ATTACK_STEPS ? DRV_LANE_CROSSED : DRV_LANE_NOT_CAUGHT;
    bool bounded = c > 0 && v >= 0.0 && along >= 0.0 && drv_attack_lane_scale(ctx, way, d, reach, &scale);
    if (bounded && drv_attack_stays_behind(way, scale, 0.0, v, along, 0, c))
        return missed;
    /* our lane's place among the lanes, found once: drv_lanes_speed(s, d) for every s of the way */
    const DrvLanesRow lane = drv_lanes_row(ctx->lanes, d);
    double v_tried = v; /* the speed the bound was last tried with */
    for (int k = 0; k <= DRV_ATTACK_STEPS; k++) {
        if (x + along >= way->xo[k])
            return DRV_LANE_HOLDS;
        if (k == DRV_ATTACK_STEPS)
            break;
        if (k == c)
            return DRV_LANE_CROSSED; /* it turns in across our lane before we are alongside */
        v = drv_fmin(v, drv_lanes_row_speed(ctx->lanes, &lane, ctx->s_m + x));
        /* braking for the lane's corners: from here on we are no faster than v, and the bound may now settle what it
         * could not from our speed before (x >= 0: every step so far went forward) */
        if (bounded && v < v_tried && v >= 0.0) {
            v_tried = v;
            if (drv_attack_stays_behind(way, scale, x, v, along, k, c))
                return missed;
        }
        /* metres driven to metres of track, on our lane */
        x += v * DRV_ATTACK_DT_S / trk_path_scale(trk_curvature(ctx->track, ctx->s_m + x, NULL), d);
    }
    return DRV_LANE_NOT_CAUGHT; /* not alongside within the horizon: not catching it fast enough to pass */
}

/* Whether another car than o, beside it or between it and us, is in the lane at offset d: then that lane is no way
 * past o (two cars abreast ahead leave a gap between them that is no lane to attack through). */
static bool drv_attack_lane_taken(const DrvView *view, const DrvOther *o, double d)
{
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *q = &view->others[i];
        if (q->ds_m > o->ds_m + 0.5 * (o->length_m + q->length_m))
            break; /* sorted by ds: every later car is further ahead than o */
        if (q == o || q->ds_m < -0.5 * (view->length_m + q->length_m))
            continue;
        if (fabs(q->d_m - d) < 0.5 * (view->width_m + q->width_m) + DRV_BEH_SIDE_MARGIN_M)
            return true;
    }
    return false;
}

DrvAttack drv_attack_judge(const DrvView *view, const DrvBehCtx *ctx)
{
    DrvAttack a = {NULL, false, 0.0};
    if (ctx->first_lap_manners || ctx->track == NULL || ctx->lanes == NULL || ctx->plan == NULL)
        return a;
    a.target = drv_attack_followed(view, ctx);
    if (a.target == NULL)
        return a;
    const DrvOther *o = a.target;
    double side = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M + DRV_ATTACK_SPARE_M;
    DrvAttackWay way = drv_attack_way_start(ctx, o);
    /* the nearest lanes first: beside it either side, then further across, on a side only while its line crossed the
     * nearer lane (a lane further across is crossed later); where we do not catch it, no lane helps */
    bool open[2] = {true, true}; /* right (k = -1), left (k = +1) */
    DrvAttackScan scan[2] = {{false, 0.0, 0}, {false, 0.0, 0}};
    for (double wider = 0.0; wider <= DRV_ATTACK_WIDER_M; wider += DRV_ATTACK_WIDER_STEP_M)
        for (int k = -1; k <= 1; k += 2) {
            bool *side_open = &open[(k + 1) / 2];
            double d = o->d_m + k * (side + wider);
            if (!*side_open || d > ctx->d_left_ahead_m || d < ctx->d_right_ahead_m)
                continue;
            if (drv_attack_lane_taken(view, o, d)) {
                *side_open = false; /* and the lanes beyond it on this side: the other car is in the way there too */
                continue;
            }
            DrvLaneVerdict verdict = drv_attack_lane(view, ctx, o, d, &way, &scan[(k + 1) / 2]);
            if (verdict == DRV_LANE_HOLDS) {
                a.feasible = true;
                a.d_m = d;
                return a;
            }
            *side_open = verdict == DRV_LANE_CROSSED;
        }
    return a;
}

void drv_beh_attack(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)view;
    if (!ctx->attack.feasible)
        return;
    double level = DRV_ATTACK_INTEREST_MIN + (DRV_ATTACK_INTEREST_MAX - DRV_ATTACK_INTEREST_MIN) * p->attack;
    drv_map_write_peak(map, DRV_MAP_INTEREST, ctx->attack.d_m, level, ctx->attack.target->width_m);
}
