/* drv_context.c: the context-steering driver's decision.
 *
 * A decision is a pipeline: choose the level of detail -> behaviours write the maps -> post-process (blur,
 * hysteresis) -> resolve a lateral offset -> judge whether the racing line leaves the open lanes. The control that
 * drives toward the decision every tick (speed, steering, friction circle) is shared with the steering model
 * (drv_drive.c). Nothing allocates. */
#include "drv_context.h"
#include "drv_math.h"

#include "drv_lanes.h"
#include "drv_post.h"
#include "drv_resolve.h"

#include <math.h>
#include <string.h>

#define DRV_EDGE_LOOKAHEAD_S 0.7         /* where the track limits ahead are read */
#define DRV_STRAIGHT_MAX_CURVATURE (1.0 / 350.0)
#define DRV_STRAIGHT_LOOKAHEAD_S 2.0
#define DRV_LOD_RANGE_BEHIND_M 15.0
#define DRV_LOD_MIN_RANGE_M 40.0
#define DRV_LOD_MIN_SLOTS 8
#define DRV_ALONE_MARGIN_M 5.0           /* a car ahead this much beyond a behaviour's reach is still company, m */
#define DRV_ALONE_MARGIN_MPS 1.0         /* and one this much past its speed thresholds, m/s */
#define DRV_ALONE_BEHIND_M 70.0          /* beyond the blue-flag range (60 m) */
#define DRV_ON_LINE_M 0.5                /* a chosen offset this near the line is the line (a slot's width), m */
#define DRV_WAKE_M 1.0                   /* this near the attacked car's offset, we are back in its wake, m */
#define DRV_ATTACK_AIM_M 1.0             /* a chosen offset this near the attack's lane is the attack, m */
#define DRV_HELD_DANGER 0.7f           /* danger from which a lane is closed to us for the length of a sweep */

/* The behaviours about the other cars (and the line among them): the driver's blur spreads the danger they write. */
static DrvBehaviourFn *const drv_traffic_behaviours[] = {
    drv_beh_line, drv_beh_stay, drv_beh_avoid, drv_beh_draft, drv_beh_attack, drv_beh_defend, drv_beh_yield,
};
/* The behaviours about the track itself, written after the blur: its limits and the lanes too fast for the corners
 * ahead are the same for every driver. Blurred, they spread a slot or two toward a racing line that runs near an
 * edge, the walk stopped short of the line, and a driver with a coarse, blurred map drove its lanes' caps whenever
 * another car was near enough to need maps at all (docs/research.md, tenth round). */
static DrvBehaviourFn *const drv_track_behaviours[] = {drv_beh_edge, drv_beh_commit};

/* True when no other car could write anything into the maps: none behind within DRV_ALONE_BEHIND_M (beyond the
 * blue-flag range; all the view shows), and none ahead within reach of avoid or drafting at its own closing speed,
 * with a margin of DRV_ALONE_MARGIN_M and DRV_ALONE_MARGIN_MPS. Then the maps would hold only the line, the track
 * limits and the corner commitment. Cars behind are not judged by their reach: a car followed closely must keep its
 * maps (the car-behind wall), or it cuts across the follower on lap 1. */
static bool drv_context_alone(const DrvView *view, const DrvPersonality *p)
{
    for (int i = 0; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m <= 0.0) {
            if (o->ds_m > -DRV_ALONE_BEHIND_M)
                return false;
            continue;
        }
        if (drv_beh_avoid_reaches(view, p, o, DRV_ALONE_MARGIN_M, DRV_ALONE_MARGIN_MPS) ||
            drv_beh_draft_reaches(view, p, o, DRV_ALONE_MARGIN_M, DRV_ALONE_MARGIN_MPS))
            return false;
    }
    return true;
}

int drv_context_slots(const DrvView *view, const DrvPersonality *p)
{
    if (!p->lod)
        return p->slots;
    double range = drv_fmax(DRV_LOD_MIN_RANGE_M, 2.0 * p->lookahead_s * view->speed_mps);
    for (int i = 0; i < view->other_count; i++) {
        double ds = view->others[i].ds_m;
        if (ds > -DRV_LOD_RANGE_BEHIND_M && ds < range)
            return p->slots;
    }
    int low = p->slots / 4;
    return low < DRV_LOD_MIN_SLOTS ? (p->slots < DRV_LOD_MIN_SLOTS ? p->slots : DRV_LOD_MIN_SLOTS) : low;
}

void drv_context_behaviours(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map,
                            DrvBlurWeights *blur_weights)
{
    for (size_t i = 0; i < sizeof drv_traffic_behaviours / sizeof drv_traffic_behaviours[0]; i++)
        drv_traffic_behaviours[i](view, p, ctx, map);
    /* the blur radius is set for full detail: scale it with the slot count so it always spans the same metres */
    drv_post_blur_kept(map, p->blur, (p->blur_radius * map->slots + p->slots / 2) / p->slots, blur_weights);
    for (size_t i = 0; i < sizeof drv_track_behaviours / sizeof drv_track_behaviours[0]; i++)
        drv_track_behaviours[i](view, p, ctx, map);
}

static void drv_debug_fill(DrvDebug *dbg, const DrvContextMap *map, const DrvResolveResult *res, bool braking,
                           DrvResolver resolver, long tick)
{
    dbg->tick = tick;
    dbg->alone = false;
    dbg->slots = map->slots;
    dbg->d_left_m = map->d_left_m;
    dbg->d_right_m = map->d_right_m;
    for (int i = 0; i < map->slots; i++) {
        dbg->danger[i] = map->danger[i];
        dbg->interest[i] = map->interest[i];
    }
    dbg->current_slot = res->current_slot;
    dbg->reach_lo = res->reach_lo;
    dbg->reach_hi = res->reach_hi;
    dbg->chosen_slot = res->chosen_slot;
    dbg->chosen_d_m = res->chosen_d_m;
    dbg->braking_for_danger = braking;
    dbg->resolver = resolver;
}

/* Whether every value of lo..hi is at most limit (none NaN), in one pass that vectorises: the usual map, where the
 * run of open lanes is the whole reach, without a step per slot. */
static bool drv_all_at_most(const float *v, int lo, int hi, float limit)
{
    int above = 0;
    for (int i = lo; i <= hi; i++)
        above += !(v[i] <= limit);
    return above == 0;
}

/* Whether the decision holds the car off the racing line: the line, over the braking distance to the chosen lane's
 * cap, leaves the lanes open to us (the contiguous run of reachable slots around the chosen one whose danger is
 * below DRV_HELD_DANGER, or within the masking tolerance of the chosen one's, half a slot wider each side). A car
 * the line stays inside that run tracks the line, wherever it sweeps; one it leaves (a car beside us in an S-bend)
 * cannot. A lower threshold (0.5) also held cars in a train behind a car on the line: fewer contacts, but more time
 * off the track and fewer overtakes. The open run it finds also becomes the plan's lateral bounds (plan.bounded,
 * free_lo/hi), past which the steering does not follow the line. */
static bool drv_line_blocked(DrvDriver *driver, const DrvView *view, DrvHere *here, const DrvContextMap *map,
                             const DrvResolveResult *res)
{
    float limit = map->danger[res->chosen_slot] + (float)DRV_RESOLVE_MASK_TOL;
    limit = limit > DRV_HELD_DANGER ? limit : DRV_HELD_DANGER;
    int a = res->chosen_slot, b = res->chosen_slot;
    /* reach_open: every slot of the reach is at most the chosen one's danger + the tolerance, so at most limit */
    if ((res->reach_open || drv_all_at_most(map->danger, res->reach_lo, res->reach_hi, limit)) &&
        a >= res->reach_lo && a <= res->reach_hi) {
        a = res->reach_lo; /* the loops below would walk to both ends */
        b = res->reach_hi;
    } else {
        while (a - 1 >= res->reach_lo && map->danger[a - 1] <= limit)
            a--;
        while (b + 1 <= res->reach_hi && map->danger[b + 1] <= limit)
            b++;
    }
    if (a == 0 && b == map->slots - 1) {
        driver->plan.bounded = false;
        return false; /* the whole track: the line never leaves it */
    }
    double hi_d = drv_map_slot_d(map, a) + 0.5 * map->step_m, lo_d = drv_map_slot_d(map, b) - 0.5 * map->step_m;
    driver->plan.bounded = true;
    driver->plan.free_lo_d_m = b == map->slots - 1 ? -INFINITY : lo_d;
    driver->plan.free_hi_d_m = a == 0 ? INFINITY : hi_d;
    double v_plan = here->line_speed_mps * driver->noise.speed_scale;
    double v_off = drv_offline_speed(driver, view, res->chosen_d_m, here);
    double reach = drv_held_reach(view, v_plan, v_off, drv_held_brake_mps2(driver, here));
    /* kept for this tick's control (drv_held_speed and the lane's cap), which reads the same for the same lane */
    DrvHeldLine *held = &here->held;
    drv_held_read(driver, view, reach, 0, held);
    held->target_d_m = res->chosen_d_m;
    held->v_off_mps = v_off;
    held->valid = true;
    return drv_line_outside(held, lo_d, hi_d) > 0.0;
}

/* A decision: behaviours -> post -> resolve, into driver->plan (and the inspector's copy of the maps). */
void drv_context_decide(DrvDriver *driver, const DrvView *view, DrvHere *here, double line_d_m)
{
    const DrvPersonality *p = &driver->p;
    /* Alone, the maps would hold only the line and the track limits (which the line lies inside): the line is the
     * choice, and where exactly it runs is the line's business, not the map's. Read through a map, the offset near
     * the line carries a quantisation error that depends on the slot count (sub-slot interpolation of a pointed peak,
     * hysteresis of a peak that moves with the line through a chicane, blurred edge danger near a line that runs
     * close to the edge): on an 8-slot map it was a metre or more, which the steering and the off-line speed caps
     * took for an off-line lane, and a lone car lost up to 7 s in two laps. So a lone car builds no maps at all
     * (about a third of all decisions in the default race) and its next maps, with company, start afresh rather than
     * blend with maps from before it was alone. */
    if (drv_context_alone(view, p)) {
        driver->plan = (DrvPlan){.valid = true, .on_line = true, .target_d_m = line_d_m, .braking = false,
                                 .line_blocked = false, .attacking = false, .attacked_id = -1};
        driver->has_prev = false;
        driver->debug.slots = 0;
        driver->debug.alone = true;
        driver->debug.chosen_d_m = line_d_m;
        driver->debug.braking_for_danger = false;
        driver->debug.attack = false;
        driver->debug.tick = view->tick;
        return;
    }
    const TrkTrack *trk = driver->track;
    DrvHints *h = &driver->hints;
    double s = view->s_m, v = view->speed_mps;

    /* track facts at the car and ahead */
    double half_w = 0.5 * view->width_m;
    double d_left = here->spot.left_m - half_w;
    double d_right = half_w - here->spot.right_m;
    TrkGeometry edge = trk_geometry_at(trk, s + v * DRV_EDGE_LOOKAHEAD_S, &h->edge_ahead);
    double d_left_ahead = edge.left_m - half_w;
    double d_right_ahead = half_w - edge.right_m;
    double k_here = here->spot.kappa;
    double k_ahead = trk_curvature(trk, s + v * DRV_STRAIGHT_LOOKAHEAD_S, &h->curv_ahead);
    DrvBehCtx ctx = {
        .half_width_m = half_w,
        .half_length_m = 0.5 * view->length_m,
        .line_d_m = line_d_m,
        .d_left_ahead_m = d_left_ahead,
        .d_right_ahead_m = d_right_ahead,
        .on_straight = fabs(k_here) < DRV_STRAIGHT_MAX_CURVATURE && fabs(k_ahead) < DRV_STRAIGHT_MAX_CURVATURE,
        .grip_mps2 = here->grip_mps2,
        .noise_d_m = driver->noise.d_m,
        .line_speed_mps = here->line_speed_mps,
        .lanes = driver->lanes,
        .plan = driver->profile,
        .s_m = view->s_m,
        .track = trk,
        .attacked_id = driver->plan.valid ? driver->plan.attacked_id : -1,
        .first_lap_manners = drv_first_lap_manners(driver, view),
    };
    ctx.attack = drv_attack_judge(view, &ctx);

    DrvContextMap map;
    drv_map_init(&map, drv_context_slots(view, p), d_left, d_right);
    /* what depends on the map's span alone, kept from the last decision whose map spanned the same offsets */
    ctx.edge_tokens = drv_map_stamp(&driver->edge_tokens, &map, DRV_MAP_DANGER, drv_beh_edge_tokens);
    if (driver->lanes != NULL && driver->lanes->count >= 2)
        ctx.lanes_slots = drv_lanes_slots(&driver->lanes_slots, driver->lanes, map.slots, map.d_left_m, map.step_m);
    drv_context_behaviours(view, p, &ctx, &map, &driver->blur_weights);
    drv_post_hysteresis(&map, &driver->prev, &driver->has_prev, drv_hysteresis_weight(driver, view->tick));
    DrvResolveResult res;
    drv_resolver_fn(p->resolver)(&map, view->d_m, &res);
    driver->plan.valid = true;
    driver->plan.on_line = fabs(res.chosen_d_m - line_d_m) <= DRV_ON_LINE_M;
    driver->plan.target_d_m = res.chosen_d_m;
    driver->plan.braking = res.chosen_danger > p->aggression || res.no_slot;
    driver->plan.line_blocked = drv_line_blocked(driver, view, here, &map, &res);
    driver->plan.attacking = ctx.attack.feasible && fabs(res.chosen_d_m - ctx.attack.d_m) < DRV_ATTACK_AIM_M;
    /* the car an attack is on stays the car judged while we are out of its lane, beside and behind it: when the
     * verdict then fails, we follow it back into its wake (drv_beh_avoid.c spares only the car judged), where before
     * we were held beside it at the lane's cap, without the tow and without the pass */
    const DrvOther *target = ctx.attack.target;
    if (driver->plan.attacking)
        driver->plan.attacked_id = target->id;
    else if (target == NULL || target->id != driver->plan.attacked_id || fabs(view->d_m - target->d_m) < DRV_WAKE_M)
        driver->plan.attacked_id = -1;
    drv_debug_fill(&driver->debug, &map, &res, driver->plan.braking, p->resolver, view->tick);
    driver->debug.attack = ctx.attack.feasible;
}
