/* drv_follow.c: safe following, in the manner of Gipps: the fastest a car may be now behind a car ahead whose lane
 * it aims for, so that it can still stay behind it whatever that car does within reason.
 *
 * Two rules, one per phase of a race:
 * - In the start's pack on the first lap (drv_follow_points; drv_first_lap_manners says when) the follower must pass
 *   every point of the lead's predicted way no faster than the lead will, braking as its plan brakes after a reaction
 *   time. The pack is dense and every car brakes for the cars ahead of it; this rule keeps the start clean, but a
 *   follower can never gain on a slower car through a braking zone or a corner: its speed is the lead's, shifted by
 *   the gap.
 * - Clear of the pack, and from the second lap (drv_follow_time), the follower must be able to stay a headway behind
 *   where the lead will be at each moment: it may carry more speed into a braking zone than the lead as long as it
 *   can still brake in time, which is how a faster car closes up on a slower one and gets alongside. Behind a lead
 *   with no braking foreseen (in its tow on a straight) no reaction time is counted, and the full one once its
 *   braking is near; the headway behind a lead off its racing line, whose braking its plan does not foretell, grows
 *   as that braking comes nearer.
 * Both predict the lead braking at the limit from now, but never below a share of its pace on its plan (its speed now
 * over the speed plan its driver aims for, which the view shows: drv_beh_plan_of): it brakes for the corners it
 * brakes for, where its plan brakes for them, not to a stop. */
#include "drv_follow.h"
#include "drv_beh.h"
#include "drv_lanes.h"
#include "drv_math.h"

#include <math.h>

#define DRV_FOLLOW_ROOM_M 2.0           /* bumper gap the follower keeps at the end of its escape, m */
#define DRV_POINTS_REACTION_S 0.4       /* same points: our reaction time to the lead's braking, s */
#define DRV_POINTS_WAKE_REACTION_S 0.15 /* the same behind a lead with no braking foreseen, s */
#define DRV_POINTS_BRAKING_MPS 0.5      /* a drop of its predicted speed by this much is braking foreseen */
#define DRV_POINTS_PACE_SHARE 0.99      /* the lead's predicted speed: this share of its pace on its plan */
#define DRV_POINTS_SAMPLES 8            /* points of the lead's predicted way checked */
#define DRV_POINTS_EXTRA_M 20.0         /* read this far beyond its braking distance, m */
#define DRV_POINTS_MAX_REACH_M 200.0
/* In time: our reaction time to the lead's braking, s, counted in whole steps of the escape (DRV_TIME_DT_S). Its
 * braking for a corner is foreseen (it brakes where its plan does), so the reaction is a driver's to brake lights it
 * expects; a longer one holds a follower back to half a second at every braking point, too far to brake later than
 * the lead and get alongside. */
#define DRV_TIME_REACTION_S 0.2
#define DRV_TIME_HEADWAY_S 0.1          /* time headway kept all through the escape, s */
/* Behind a lead with no braking foreseen (in its wake on a straight, where the tow is) no reaction is counted, and the
 * headway is shorter: braking it does not foresee is met by pulling out beside it. A reaction of 0.15 s there (counted
 * to the part of a step) held followers further back: fewer passes, and following cost more (docs/research.md,
 * fifteenth round). */
#define DRV_TIME_WAKE_REACTION_S 0.0
#define DRV_TIME_WAKE_HEADWAY_S 0.05
/* The headway stays the wake's into a braking zone behind a lead on its racing line, which brakes where its plan
 * says: doubled there, it took a follower out of the tow (6 m of bumper gap to 14 m at 75 m/s) in the two seconds
 * before the braking point it might have attacked at. A lead further than this off its line (defending, held in a
 * lane) brakes for that lane's caps, earlier than its plan: the full headway, m. */
#define DRV_TIME_OFF_LINE_M 1.0
/* Braking foreseen: the lead's pace on its plan drops within DRV_TIME_FORESEE_S (foreseen further ahead, a follower
 * in the tow dropped back long before the braking zone it might have attacked in)... */
#define DRV_TIME_FORESEE_S 2.5
#define DRV_TIME_FORESEE_MPS 0.5        /* ...by more than this, m/s... */
#define DRV_TIME_FORESEE_FULL_S 1.0     /* ...and the full reaction time and headway from this near in time */
#define DRV_TIME_FORESEE_SAMPLES 8
#define DRV_TIME_MIN_GRIP_SHARE 0.3     /* the lead's braking counted on in a corner: at least this share of the grip */
#define DRV_TIME_DT_S 0.2               /* step of the predicted ways, s */
#define DRV_TIME_STEPS 20               /* steps: the ways are predicted this far (4 s) */
#define DRV_TIME_ITERATIONS 8           /* at most this many steps of the root search... */
#define DRV_TIME_TOLERANCE_MPS 0.05     /* ...which stops once the bracket is this narrow, m/s, */
#define DRV_TIME_CLOSE_M 0.2            /* ...or at a speed whose escape holds by less than this, m */
#define DRV_TIME_ABOVE_MPS 5.0          /* the bracket's top: this much over our speed or plan */
#define DRV_LEAD_ACCEL_DT_S 0.2         /* the lead's acceleration on its plan: over this far ahead in time, s */
#define DRV_TRAIN_M 100.0               /* cars this far ahead of the lead, in its lane, set its pace too, m... */
#define DRV_TRAIN_SHARE 0.8             /* ...at this share of theirs: a lead in a train brakes for the car ahead */

/* Whether every point's limit in drv_follow_points_below is above cap_mps whatever the lead's plan says there: the
 * lead's speed at a point (v_k there) is at least the lower of its braking curve vb_k and its speed now, and the
 * reaction time at most react_max. A point's limit, sqrt(v^2 + 2 b max(room + x - react, 0)), rises with v >= 0 and
 * falls with react, and so does its rounded value (IEEE rounding is monotonic), so each is at least the bound
 * computed here. False for a negative or NaN speed or braking (then the bound says nothing). */
static bool drv_points_above(const double *x_k, const double *vb_k, double v_lead, double b, double room,
                             double react_max, double cap_mps)
{
    if (!(v_lead >= 0.0 && b >= 0.0 && react_max >= 0.0))
        return false;
    for (int k = 0; k < DRV_POINTS_SAMPLES; k++) {
        double v = vb_k[k] < v_lead ? vb_k[k] : v_lead;
        if (!(sqrt(v * v + 2.0 * b * drv_fmax(room + x_k[k] - react_max, 0.0)) > cap_mps))
            return false;
    }
    return true;
}

/* drv_follow_points, or INFINITY when the limit is surely above cap_mps (drv_points_above), without reading the
 * lead's plan: the same value whenever it is cap_mps or below. */
static double drv_follow_points_below(const DrvView *view, const DrvDriver *driver, const DrvHere *here,
                                      const DrvOther *o, double cap_mps)
{
    double b = driver->p.grip_use * here->grip_mps2;
    double b_lead = here->grip_mps2;
    double room = drv_fmax(drv_beh_gap_m(view, o) - DRV_FOLLOW_ROOM_M, 0.0);
    double v_lead = o->speed_mps, s_lead = view->s_m + o->ds_m;
    double reach = drv_fmin(v_lead * v_lead / (2.0 * b_lead) + DRV_POINTS_EXTRA_M, DRV_POINTS_MAX_REACH_M);
    /* the points of the lead's way and its braking curve there, then its pace on its plan at each */
    double x_k[DRV_POINTS_SAMPLES], vb_k[DRV_POINTS_SAMPLES], v_k[DRV_POINTS_SAMPLES];
    for (int k = 0; k < DRV_POINTS_SAMPLES; k++) {
        x_k[k] = reach * k / (DRV_POINTS_SAMPLES - 1.0);
        double v_brake2 = v_lead * v_lead - 2.0 * b_lead * x_k[k];
        vb_k[k] = v_brake2 > 0.0 ? sqrt(v_brake2) : 0.0;
    }
    double react_max = view->speed_mps * DRV_POINTS_REACTION_S; /* the longer of the two reaction times below */
    if (drv_points_above(x_k, vb_k, v_lead, b, room, react_max, cap_mps))
        return INFINITY;
    const TrkSpeedProfile *plan_o = drv_beh_plan_of(driver->profile, o);
    double plan_lead = trk_speed_at(plan_o, s_lead, NULL); /* the pace's reading, and the first sample's (x_k[0] = 0) */
    double pace = drv_beh_pace_at(plan_lead, o);
    bool braking_ahead = false;
    for (int k = 0; k < DRV_POINTS_SAMPLES; k++) {
        double plan_k = k == 0 ? plan_lead : trk_speed_at(plan_o, s_lead + x_k[k], NULL);
        double v_pace = DRV_POINTS_PACE_SHARE * pace * plan_k;
        v_k[k] = drv_fmin(drv_fmax(v_pace, vb_k[k]), v_lead);
        braking_ahead |= v_k[k] < v_lead - DRV_POINTS_BRAKING_MPS;
    }
    /* a lead with a corner ahead will brake soon and is given the full reaction time; one with no reason to brake
     * (a straight, no corner within its braking distance) is followed closely, in its wake */
    double react = view->speed_mps * (braking_ahead ? DRV_POINTS_REACTION_S : DRV_POINTS_WAKE_REACTION_S);
    double v_max = INFINITY;
    for (int k = 0; k < DRV_POINTS_SAMPLES; k++)
        v_max = drv_fmin(v_max, sqrt(v_k[k] * v_k[k] + 2.0 * b * drv_fmax(room + x_k[k] - react, 0.0)));
    return v_max;
}

double drv_follow_points(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o)
{
    return drv_follow_points_below(view, driver, here, o, INFINITY);
}

/* Braking left at speed v on curvature k once the corner is held (friction circle), never counted below
 * DRV_TIME_MIN_GRIP_SHARE of the grip g, m/s^2. */
static double drv_corner_braking(double g, double v, double k)
{
    double lat = v * v * fabs(k);
    return drv_fmax(sqrt(drv_fmax(g * g - lat * lat, 0.0)), DRV_TIME_MIN_GRIP_SHARE * g);
}

/* The lead's predicted way, stepped on demand: at each step of DRV_TIME_DT_S it brakes at b_mps2 but never below its
 * floor, its pace on its own plan (drv_beh_plan_of; a lead below its plan, held or lifting, has that pace): a margin
 * below that floor held a faster car back through every corner behind a slower one. A lead off its racing line
 * (attacking, held in a lane) drives its lane's cap where that is lower: its plan brakes later than it will, and
 * most of the rear-ends of a full field were a follower behind a car attacking into the hairpin. Its lanes are
 * taken as ours (drv_lanes.h), at its pace. An escape that ends early never pays for the rest. */
typedef struct DrvLeadWay {
    const TrkSpeedProfile *plan;
    double s_m, pace, b_mps2;
    const DrvLanes *lanes; /* the caps of the lane the lead is on when it is off its line, else NULL */
    DrvLanesRow lane;
    int n; /* steps predicted so far */
    double x[DRV_TIME_STEPS + 1], v[DRV_TIME_STEPS + 1];
} DrvLeadWay;

/* The way's next step (n to n + 1) with plan_mps, its plan at the lead's predicted place (s_m + x[n]). */
static inline void drv_lead_way_step_at(DrvLeadWay *w, double plan_mps)
{
    int i = w->n++;
    double floor_v = w->pace * plan_mps;
    if (w->lanes != NULL)
        floor_v = drv_fmin(floor_v, w->pace * drv_lanes_row_speed(w->lanes, &w->lane, w->s_m + w->x[i]));
    w->v[i + 1] = drv_fmax(drv_fmin(w->v[i], floor_v), w->v[i] - w->b_mps2 * DRV_TIME_DT_S);
    w->x[i + 1] = w->x[i] + 0.5 * (w->v[i] + w->v[i + 1]) * DRV_TIME_DT_S;
}

/* The way's next step: the escape asks for one step at a time, so no loop to set up for it. */
static inline void drv_lead_way_step(DrvLeadWay *w)
{
    drv_lead_way_step_at(w, trk_speed_at(w->plan, w->s_m + w->x[w->n], NULL));
}

/* The steps of an escape that fall within the reaction time react_s: the k >= 1 with k * DRV_TIME_DT_S <= react_s,
 * which are 1 .. the count returned, since k * DRV_TIME_DT_S grows with k (a rounded product of a positive constant
 * is monotonic). react_s is never NaN here (drv_follow_time clamps its weight with drv_fmax). */
static int drv_reaction_steps(double react_s)
{
    int steps = 0;
    while (steps < DRV_TIME_STEPS && (steps + 1) * DRV_TIME_DT_S <= react_s)
        steps++;
    return steps;
}

/* The follower's braking in its escape: its share of the grip at each speed on the way down, since the grip falls
 * with the downforce as the car slows (counted at the speed it starts from, the escape promised braking the car no
 * longer had by the time it needed it). The grip is counted whole, as on a straight, not what the corner leaves: the
 * lead's braking is the corner's (drv_corner_braking at its place), so in a corner the escape only has to shed the
 * difference in speed. Counted at what the corner left the follower (the curvature at the car and half a second
 * ahead: the apex's, all through a corner's entry), it held cars back behind slower ones, out of the tow and too far
 * back to attack at the next braking point (docs/research.md, sixteenth round). */
typedef struct DrvEscapeBrake {
    TrkCarParams car; /* a copy, not a pointer: with the escape's restrict, its fields stay in registers for a whole
                       * escape instead of being read again after each store to the lead's way */
    double share;     /* the driver's grip use */
} DrvEscapeBrake;

static inline double drv_escape_brake(const DrvEscapeBrake *br, double v)
{
    return br->share * trk_car_grip_mps2(&br->car, v);
}

/* The escape, judged in time: a follower at speed v, `room` metres behind the lead, reacts for react_steps steps
 * (drv_reaction_steps of DRV_TIME_REACTION_S or less) and then brakes as br allows at each speed, never below the
 * lead's speed. Returns its smallest margin, m, over the way: how far it stays behind the point headway_s behind the
 * lead's predicted position (negative: it comes too close). The margin falls as v rises. */
static double drv_escape_margin(double v, double room, const DrvEscapeBrake *restrict br, int react_steps,
                                double headway_s, DrvLeadWay *restrict way)
{
    double x = 0.0, vf = v, margin = INFINITY;
    /* two loops for the two phases (the same steps in the same order): the braking loop computes the brake every
     * step, so the compiler keeps the car's values in registers instead of reading them again each step */
    int k = 1;
    for (; k <= react_steps; k++) {
        if (way->n < k)
            drv_lead_way_step(way);
        double vn = vf;
        x += 0.5 * (vf + vn) * DRV_TIME_DT_S;
        vf = vn;
        margin = drv_fmin(margin, room + way->x[k] - headway_s * vf - x);
    }
    for (; k <= DRV_TIME_STEPS; k++) {
        if (way->n < k)
            drv_lead_way_step(way);
        double vn = drv_fmax(vf - drv_escape_brake(br, vf) * DRV_TIME_DT_S, way->v[k]);
        x += 0.5 * (vf + vn) * DRV_TIME_DT_S;
        vf = vn;
        margin = drv_fmin(margin, room + way->x[k] - headway_s * vf - x);
        if (vf <= way->v[k])
            break; /* down to the lead's speed: from here we only fall back */
    }
    return margin;
}

/* The escape's reaction and headway at most, whatever the lead's braking weight: DRV_TIME_REACTION_S and
 * DRV_TIME_HEADWAY_S, which their mix with the wake's values exceeds by a rounding at most. */
#define DRV_TIME_MAX_SHARE (1.0 + 1e-9)
#define DRV_TIME_SURE_SLACK_M 1e-3 /* far more than the rounding of an escape's sums */

/* How far a follower reacting at hi and then braking (br) gains on a lead that keeps lo_v or more, m, until it is
 * down to the lead's speed: the reaction's gain plus the continuous braking's at bmin, the least braking over
 * speeds from lo_v to hi (the grip at the slower end of its monotonic law), and 1/8 bmin dt^2 by which the last
 * step's trapezoid overshoots that. NaN or INFINITY when it says nothing. */
static double drv_escape_gain(double hi, double lo_v, const DrvEscapeBrake *br)
{
    double g = drv_fmin(trk_car_grip_mps2(&br->car, lo_v), trk_car_grip_mps2(&br->car, hi));
    double bmin = br->share * g;
    if (!(g >= 0.0 && br->share >= 0.0 && bmin > 0.0))
        return INFINITY;
    double over = hi > lo_v ? hi - lo_v : 0.0;
    double react = DRV_TIME_REACTION_S * DRV_TIME_MAX_SHARE; /* its reaction steps last no longer */
    return over * react + over * over / (2.0 * bmin) + 0.125 * bmin * DRV_TIME_DT_S * DRV_TIME_DT_S;
}

/* Whether drv_escape_margin(hi, ...) is surely >= 0 whatever the reaction and headway drv_follow_time_below gives it,
 * without the lead's way (nor its braking b_mps2, not set yet): the way's speed never rises (drv_corner_braking is
 * never negative: an fmax of the square root of an fmax with 0, NaN operands included) nor falls below lo_v, the
 * lower of its speed now and its pace times the plan's floor over the way's reach, so the follower's speed is at
 * most the larger of hi and the lead's, and the distance it gains at most drv_escape_gain. Every step of the escape
 * is monotonic in the values bounded, and the slack covers the rounding of its sums. A lead on a lane's caps may go
 * below that floor: no proof for it. */
static bool drv_escape_surely_holds(double hi, double room, const DrvEscapeBrake *br, const DrvLeadWay *way)
{
    double v0 = way->v[0];
    if (way->lanes != NULL)
        return false;
    if (!(v0 >= 0.0 && hi >= 0.0 && isfinite(hi) && way->pace >= 0.0))
        return false;
    double spare = room - DRV_TIME_HEADWAY_S * DRV_TIME_MAX_SHARE * drv_fmax(hi, v0) - DRV_TIME_SURE_SLACK_M;
    if (!(spare > 0.0))
        return false; /* the gain is positive */
    double reach = (DRV_TIME_STEPS - 1) * DRV_TIME_DT_S * v0 * DRV_TIME_MAX_SHARE;
    double floor_mps = trk_speed_floor(way->plan, way->s_m, reach);
    if (!(floor_mps >= 0.0))
        return false; /* no floor (-INFINITY), which a pace of 0 would turn into NaN and fmin into v0 */
    double lo_v = drv_fmin(v0, way->pace * floor_mps);
    return lo_v >= 0.0 && drv_escape_gain(hi, lo_v, br) <= spare;
}

/* The weight of the wake's values against the full ones for a lead that brakes for a corner in t_brake s: 0 from
 * DRV_TIME_FORESEE_S on (INFINITY: no braking foreseen), 1 within DRV_TIME_FORESEE_FULL_S, linear between. */
static double drv_foresee_weight(double t_brake)
{
    double w = (DRV_TIME_FORESEE_S - t_brake) / (DRV_TIME_FORESEE_S - DRV_TIME_FORESEE_FULL_S);
    return drv_fmin(drv_fmax(w, 0.0), 1.0);
}

/* drv_foresee_weight of when the lead's pace on its plan (its predicted speed) first drops by DRV_TIME_FORESEE_MPS
 * below its speed now, within DRV_TIME_FORESEE_S: the braking it will do for a corner. The last sample, at
 * DRV_TIME_FORESEE_S itself, is not read: braking found there or never weighs 0 either way (+0.0 both). */
static double drv_lead_braking_weight(const TrkSpeedProfile *plan, double s_lead, double pace, double v_lead)
{
    for (int k = 1; k < DRV_TIME_FORESEE_SAMPLES; k++) {
        double t = DRV_TIME_FORESEE_S * k / DRV_TIME_FORESEE_SAMPLES;
        if (pace * trk_speed_at(plan, s_lead + v_lead * t, NULL) < v_lead - DRV_TIME_FORESEE_MPS)
            return drv_foresee_weight(t);
    }
    return drv_foresee_weight(INFINITY);
}

/* drv_follow_time, the search stopping once its bracket's safe end is above cap_mps: the limit is at least that end
 * (the safe end only ever rises), so above cap_mps too. The value is the same whenever it is cap_mps or below. */
static double drv_follow_time_below(const DrvView *view, const DrvDriver *driver, const DrvHere *here,
                                    const DrvOther *o, double cap_mps)
{
    double g = here->grip_mps2, v = view->speed_mps, s_lead = view->s_m + o->ds_m;
    const DrvEscapeBrake br = {driver->car, driver->p.grip_use};
    double room = drv_fmax(drv_beh_gap_m(view, o) - DRV_FOLLOW_ROOM_M, 0.0);
    /* the root is searched between rest and the bracket's top */
    double lo = 0.0, hi = drv_fmax(v, here->line_speed_mps) + DRV_TIME_ABOVE_MPS;
    /* the least it brakes at any speed up to the top (the grip at rest is the least): the early return stays safe */
    double b = br.share * trk_car_grip_mps2(&br.car, 0.0);
    /* a lead further than we need to stop dead from the bracket's top cannot limit us (the escape below never ends
     * further on): most leads in view, and neither the train nor the prediction is needed */
    if (room >= hi * (DRV_TIME_REACTION_S + DRV_TIME_HEADWAY_S) + hi * hi / (2.0 * b))
        return INFINITY;
    const TrkSpeedProfile *plan_o = drv_beh_plan_of(driver->profile, o);
    double plan_lead = trk_speed_at(plan_o, s_lead, NULL); /* drv_beh_pace's reading, and the way's first step's */
    DrvLeadWay way; /* field by field: the steps are written as they are predicted and never read before */
    way.plan = plan_o, way.s_m = s_lead, way.pace = drv_beh_pace_at(plan_lead, o), way.n = 0;
    way.x[0] = 0.0, way.v[0] = o->speed_mps;
    double line_lead;
    trk_line_d_n(driver->track, &s_lead, &line_lead, 1);
    bool off_line = fabs(o->d_m - line_lead) > DRV_TIME_OFF_LINE_M;
    way.lanes = off_line ? driver->lanes : NULL;
    if (way.lanes != NULL)
        way.lane = drv_lanes_row(way.lanes, o->d_m);
    /* a lead in a train goes no faster than the train: the cars ahead of it in its lane */
    for (const DrvOther *c = o + 1; c < view->others + view->other_count && c->ds_m - o->ds_m < DRV_TRAIN_M; c++)
        if (fabs(c->d_m - o->d_m) < 0.5 * (c->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M)
            way.pace = drv_fmin(way.pace, DRV_TRAIN_SHARE * drv_beh_pace(plan_o, view->s_m, c));
    if (drv_escape_surely_holds(hi, room, &br, &way))
        return INFINITY; /* as the escape from hi below would */
    way.b_mps2 = drv_corner_braking(g, o->speed_mps, trk_line_curvature(driver->track, s_lead, NULL));
    drv_lead_way_step_at(&way, plan_lead); /* every escape takes the first step: at s_lead + x[0], s_lead + 0.0 */
    /* A lead whose pace on its plan holds for the next seconds (a straight, no corner it brakes for) is followed
     * closely, in its wake: a faster car held 0.2 s behind it never came into the tow that lets it pull alongside.
     * Braking it does not foresee is met by pulling out beside it (drv_beh_attack.c judges whether that works). */
    /* from the wake's values to the full ones as the braking comes nearer, so a follower drops back gently: the
     * headway (behind a lead off its line) over the weight's whole range, the reaction, in whole steps, once the
     * braking is within DRV_TIME_FORESEE_FULL_S */
    double w = drv_lead_braking_weight(plan_o, s_lead, way.pace, o->speed_mps);
    double react = DRV_TIME_WAKE_REACTION_S + w * (DRV_TIME_REACTION_S - DRV_TIME_WAKE_REACTION_S);
    double headway = off_line ? DRV_TIME_WAKE_HEADWAY_S + w * (DRV_TIME_HEADWAY_S - DRV_TIME_WAKE_HEADWAY_S)
                              : DRV_TIME_WAKE_HEADWAY_S;
    int react_steps = drv_reaction_steps(react);
    /* the fastest speed whose escape holds: the margin's root, by regula falsi (Illinois), kept on the safe side */
    double m_hi = drv_escape_margin(hi, room, &br, react_steps, headway, &way);
    if (m_hi >= 0.0)
        return INFINITY;
    /* at rest: room plus the lead's first step, never negative */
    double m_lo = drv_escape_margin(lo, room, &br, react_steps, headway, &way);
    int side = 0;
    for (int it = 0; it < DRV_TIME_ITERATIONS && hi - lo > DRV_TIME_TOLERANCE_MPS; it++) {
        double mid = (lo * m_hi - hi * m_lo) / (m_hi - m_lo);
        mid = drv_fmin(drv_fmax(mid, lo + 0.01 * (hi - lo)), hi - 0.01 * (hi - lo));
        double m = drv_escape_margin(mid, room, &br, react_steps, headway, &way);
        if (m >= 0.0) {
            lo = mid, m_lo = m;
            if (m < DRV_TIME_CLOSE_M)
                break; /* a speed whose escape only just holds: the limit */
            if (lo > cap_mps)
                break; /* the limit is above the cap: the caller needs no more of it */
            if (side == 1)
                m_hi *= 0.5;
            side = 1;
        } else {
            hi = mid, m_hi = m;
            if (side == -1)
                m_lo *= 0.5;
            side = -1;
        }
    }
    return lo;
}

double drv_follow_time(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o)
{
    return drv_follow_time_below(view, driver, here, o, INFINITY);
}

double drv_follow_safe_speed(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o)
{
    return drv_follow_safe_speed_below(view, driver, here, o, INFINITY);
}

double drv_follow_safe_speed_below(const DrvView *view, const DrvDriver *driver, const DrvHere *here,
                                   const DrvOther *o, double cap_mps)
{
    return drv_first_lap_manners(driver, view) ? drv_follow_points_below(view, driver, here, o, cap_mps)
                                               : drv_follow_time_below(view, driver, here, o, cap_mps);
}

double drv_follow_lead_accel(const DrvDriver *driver, const DrvView *view, const DrvOther *o)
{
    const TrkSpeedProfile *plan_o = drv_beh_plan_of(driver->profile, o);
    double s_lead = view->s_m + o->ds_m;
    double plan_now = trk_speed_at(plan_o, s_lead, NULL);
    double plan_next = trk_speed_at(plan_o, s_lead + o->speed_mps * DRV_LEAD_ACCEL_DT_S, NULL);
    return drv_beh_pace_at(plan_now, o) * (plan_next - plan_now) / DRV_LEAD_ACCEL_DT_S;
}
