/* drv_beh.h: context-steering behaviours (private to drivers/).
 *
 * A behaviour is a stateless function of the read-only view, the driver's personality and a few per-tick facts the
 * context driver has already looked up (DrvBehCtx). It writes danger and interest into the map through the metre-based
 * helpers of drv_map.h, and nothing else. Adding a behaviour means a new drv_beh_<name>.c and one line in the
 * behaviour list of drv_context.c; the resolver never changes.
 */
#ifndef DRV_BEH_H
#define DRV_BEH_H

#include "drv_map.h"
#include "../track/trk_fast.h" /* the speed plan read per car and tick, inlined */

/* The verdict on the car we follow (drv_beh_attack.c): whether we can get alongside it, and on which lane. */
typedef struct DrvAttack {
    const DrvOther *target; /* the nearest car ahead in our lane, else the car of an attack under way while we are
                             * beside and behind it, within range; NULL when none (or in the first
                             * lap's manners) */
    bool feasible;          /* we get alongside it, on the lane at d_m, before its line needs that lane */
    double d_m;
} DrvAttack;

/* Facts about this tick shared by all behaviours, so most of them need not look the track up themselves (the attack's
 * verdict reads the racing line ahead, once, before them, and the defence the curvature of the corner ahead). */
typedef struct DrvBehCtx {
    double half_width_m;      /* own half width, m */
    double half_length_m;     /* own half length, m */
    double line_d_m;          /* racing-line offset at the line's lookahead point, m */
    double d_left_ahead_m;    /* usable track (car centre) a moment ahead: left limit, m */
    double d_right_ahead_m;   /* and right limit, m */
    bool on_straight;         /* no real corner at the car or within the next seconds */
    double grip_mps2;         /* total grip at the current speed, m/s^2 */
    double noise_d_m;         /* this driver's current perception error on other cars' offsets, m */
    double line_speed_mps;    /* the speed plan (racing line) at the car, m/s */
    const struct DrvLanes *lanes; /* speed caps of constant-offset lanes (drv_lanes.h); NULL = none */
    const TrkSpeedProfile *plan;  /* the driver's own speed plan: closing on a car is judged against it; NULL = none */
    double s_m;                   /* own arc length (the view's), where the plan is read from */
    const TrkTrack *track;        /* read by drv_attack_judge and drv_beh_defend; NULL = neither */
    DrvAttack attack;             /* drv_attack_judge's verdict for this tick */
    int attacked_id;              /* the car the last decision's attack was on (DrvPlan.attacked_id), -1 for none */
    bool first_lap_manners;       /* in the start's pack on the first lap: no attack or defence (drv_internal.h) */
    /* what depends on the map's span alone, which the driver keeps from one decision to the next while its maps span
     * the same offsets (the same track edges): read-only here */
    const struct DrvLanesSlots *lanes_slots; /* where the map's slots fall among the lanes (drv_lanes_slots), read by
                                              * drv_beh_commit; NULL = worked out there */
    const DrvMapStamp *edge_tokens; /* the edges' token danger on the map's span (drv_beh_edge_tokens), merged by
                                     * drv_beh_edge; NULL = written there */
} DrvBehCtx;

typedef void DrvBehaviourFn(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);

/* Racing line: low interest everywhere, peaking at the racing line ahead. */
void drv_beh_line(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* Some interest where the car already is, so among free lanes the nearest wins over crossing the track. */
void drv_beh_stay(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* Danger where other cars are (or will be when we reach them). */
void drv_beh_avoid(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* Interest in the wake of cars ahead on a straight. */
void drv_beh_draft(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* The track limits: where the track narrows ahead, and a token margin at the edges. */
void drv_beh_edge(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* The token danger drv_beh_edge writes at both edges of today's track: a function of the map's span alone. */
void drv_beh_edge_tokens(DrvContextMap *map, DrvMapWhich which);
/* Corner commitment: danger on lanes the car is too fast to hold through the corners ahead (see the file). */
void drv_beh_commit(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* Attack: interest in the lane beside the car we follow, when we get alongside it there before its line needs it. */
void drv_beh_attack(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* Defence: interest in the inside of the corner ahead while a car behind in our wake keeps up (one move). */
void drv_beh_defend(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);
/* The verdict drv_beh_attack and drv_beh_avoid read (ctx->attack), from the rest of ctx. */
DrvAttack drv_attack_judge(const DrvView *view, const DrvBehCtx *ctx);
/* Blue flags: a car about to be lapped leaves the faster car's lane. */
void drv_beh_yield(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);

/* Whether a car AHEAD (ds_m > 0) is within reach of a behaviour: whether that behaviour could write anything for it
 * this tick, judged widened by margin_m metres (ranges) and margin_mps m/s (speed thresholds). Each lives beside the
 * behaviour it describes, with the same constants. The decision's lone-car test asks them about the cars ahead
 * (drv_context.c; any car behind in view is company there): a car that none of them reaches builds no maps, since
 * they would hold only the line and the track limits. The margin lets a car about to come within reach have maps,
 * with their hysteresis, a few ticks before it writes. */
bool drv_beh_avoid_reaches(const DrvView *view, const DrvPersonality *p, const DrvOther *o, double margin_m,
                           double margin_mps);
bool drv_beh_draft_reaches(const DrvView *view, const DrvPersonality *p, const DrvOther *o, double margin_m,
                           double margin_mps);

/* A car off the racing line that aims for it is back on it this far ahead in time, or in metres, whichever is
 * further: how a driver plans its own way back (drv_drive.c) and predicts another's (drv_beh_attack.c). */
#define DRV_BEH_REJOIN_S 1.5
#define DRV_BEH_REJOIN_MIN_M 30.0

/* Lateral clearance added to the combined half-widths of two cars when judging overlap, m. */
#define DRV_BEH_SIDE_MARGIN_M 0.3

/* How far car o is off the racing line where it is, m (left positive): lanes are compared, and a wake carried, as
 * offsets from the line, each read where its car is. */
static inline double drv_beh_off_line_m(const TrkTrack *track, const DrvView *view, const DrvOther *o)
{
    double s_o = view->s_m + o->ds_m, line_o;
    trk_line_d_n(track, &s_o, &line_o, 1);
    return o->d_m - line_o;
}

/* The speed plan a car ahead is predicted along: its own, when the view shows it (DrvOther.plan), else ours. */
static inline const TrkSpeedProfile *drv_beh_plan_of(const TrkSpeedProfile *ours, const DrvOther *o)
{
    return o->plan != NULL ? o->plan : ours;
}

/* A car's pace: its speed over a plan where it is, at most 1 (1 where the plan is at a standstill). What a car
 * ahead is predicted by, along its plan (drv_beh_plan_of: safe following, the attack's verdict): a car below its
 * plan (held in a train, lifting) is predicted that much below it. drv_beh_pace_at takes the plan's speed there
 * (trk_speed_at(plan, s_m + o->ds_m)) from a caller that reads it anyway. */
static inline double drv_beh_pace_at(double plan_mps, const DrvOther *o)
{
    return plan_mps > 1.0 ? trk_fmin(o->speed_mps / plan_mps, 1.0) : 1.0;
}

static inline double drv_beh_pace(const TrkSpeedProfile *plan, double s_m, const DrvOther *o)
{
    return drv_beh_pace_at(trk_speed_at(plan, s_m + o->ds_m, NULL), o);
}

/* Gap between bumpers (negative when the cars overlap along the track), m. */
static inline double drv_beh_gap_m(const DrvView *view, const DrvOther *o)
{
    double half = 0.5 * (view->length_m + o->length_m);
    return (o->ds_m >= 0.0 ? o->ds_m : -o->ds_m) - half;
}

#endif
