/* drv_drive.c: the per-tick control both driver models share, so that comparisons between them are fair: the speed
 * (the plan, safe following of the car ahead on our course, the caps of a lane off the line or of the way back to
 * it), the steering toward the chosen offset (tracking the racing line with its slope fed forward when that is the
 * choice) and the friction circle shared between them. Nothing allocates. */
#include "drv_drive.h"
#include "drv_follow.h"
#include "drv_beh.h"
#include "drv_control.h"
#include "drv_math.h"

#include "drv_lanes.h"

#include <math.h>
#include <string.h>

#define DRV_LINE_TRACK_TOL_M 0.5         /* this close to the line counts as on it (tracking error, slot size) */
#define DRV_DODGE_SHARE 0.3              /* of the grip, always left for lateral moves even under braking */
#define DRV_BRAKE_FIRST_MPS2 3.0         /* braking beyond the plan's own that still comes before the corner */
#define DRV_GRIP_MARGIN 0.97             /* of the grip, what the driver's combined demand may use */
#define DRV_EDGE_KEEP_M 0.3              /* a lateral drift is stopped this far inside the edge (car centre) */
#define DRV_EDGE_STOP_SHARE 0.5          /* of the grip, counted on to stop a drift toward an edge */
#define DRV_REJOIN_LAT_MPS 2.0          /* fastest lateral speed back onto the track from off it */
#define DRV_EDGE_TAU_S 0.15              /* s: how fast a drift toward an edge is brought back to a safe speed */
#define DRV_PROFILE_LOOKAHEAD_S 0.1      /* speed targets anticipate the profile by this much */
#define DRV_FOLLOW_MIN_GAP_M 2.0
#define DRV_FOLLOW_GAIN 0.8              /* 1/s: speed asked per metre of gap error */
#define DRV_FOLLOW_BRAKE_MPS2 8.0        /* assumed braking for the stopping-distance limit */
#define DRV_CLEAR_LAT_MPS2 4.0          /* assumed lateral acceleration when judging whether a move clears a car */
#define DRV_COURSE_MEET_MAX_S 3.0        /* the line is followed this far in time to where we would catch a car */
#define DRV_COURSE_SAMPLES 4             /* points of the line looked at on the way */
#define DRV_COURSE_RANGE_M 80.0          /* cars further ahead than this are not followed yet... */
#define DRV_COURSE_REACT_S 0.2           /* ...unless crawling within our stopping distance, after this reaction, s */
#define DRV_CRAWL_SHARE 0.5              /* crawling: below this share of our speed and of its pace on its plan */
#define DRV_COURSE_LAT_S 1.0             /* a car moving across is followed where its lateral speed takes it within
                                          * the time we take to reach it, this long at most, s */
#define DRV_FILE_GAP_M 1.0             /* single file: a bumper gap below this counts as beside... */
#define DRV_FILE_RANGE_M 8.0           /* ...and a car ahead nearer than this may be beside us where the sweep begins */
#define DRV_FILE_AHEAD_M 20.0          /* centre to centre, cars further ahead are beyond that range (any car's length) */
#define DRV_FILE_SIDE_M 2.5            /* lateral clearance beyond the half-widths within which it counts */
#define DRV_FILE_MIN_LOOK_M 30.0       /* the sweep is read at least this far ahead, m */
#define DRV_FILE_LOOK_SHARE 1.0        /* of the driver's lookahead: how far ahead the line's sweep is read */
#define DRV_FILE_SAMPLES 8             /* points of the line read over that reach */
#define DRV_FILE_SWEEP_M 2.0           /* the line spanning this much across the track within the reach: a sweep */
#define DRV_FILE_MIN_TIME_S 0.5        /* the least time counted on to drop back, s (none is left in the sweep) */
#define DRV_HELD_BRAKE_SHARE 0.8       /* of the lanes' grip: the braking counted on to come down to a lane's cap */
#define DRV_HELD_MIN_REACH_S 0.5       /* s: the line is read at least this far ahead in time */
#define DRV_REJOIN_SAMPLES 8           /* points of the way back checked */
#define DRV_REJOIN_DRIFT_M2PS 0.5      /* offset times lateral speed away from the line: a drift */
#define DRV_TOW_MAX_CURVATURE 0.002    /* 1/m: where the car may beat its plan's acceleration (a radius of 500 m) */
#define DRV_MOVE_ENGINE_SHARE 0.35     /* of the grip, left to the throttle by an attack's move on a straight */
#define DRV_FULL_THROTTLE_MPS2 20.0    /* more than any engine gives: the sim clips it to the engine's power */

static double drv_follow_speed(const DrvView *view, const DrvPersonality *p, const DrvOther *o)
{
    double gap = drv_beh_gap_m(view, o);
    /* aggressive drivers sit closer */
    double headway_s = 0.2 + 0.4 * (1.0 - p->aggression);
    double want_gap = DRV_FOLLOW_MIN_GAP_M + o->speed_mps * headway_s;
    double v_gap = o->speed_mps + DRV_FOLLOW_GAIN * (gap - want_gap);
    /* and never faster than we could still stop behind it if it stopped at our braking */
    double v_stop2 = o->speed_mps * o->speed_mps + 2.0 * DRV_FOLLOW_BRAKE_MPS2 * drv_fmax(gap - 1.0, 0.0);
    return drv_fmax(0.0, drv_fmin(v_gap, sqrt(v_stop2)));
}

/* Where the cars ahead start in the view: the index of its first car whose ds_m is not <= 0.0. The loops below look
 * at cars ahead only and skip every car with ds_m <= 0.0; the view lists the cars behind first (sorted by ds), so
 * they start here, found once a tick, instead of stepping over the cars behind each time. Exact for any view, sorted
 * or not: what is left out is a run of cars each of those loops skips. */
static int drv_first_ahead(const DrvView *view)
{
    int i = 0;
    while (i < view->other_count && view->others[i].ds_m <= 0.0)
        i++;
    return i;
}

/* The nearest car ahead that overlaps, laterally, the lane of offsets [lo, hi]. NULL when none. `first`:
 * drv_first_ahead. The lateral test comes first: most cars fail it (they are in other lanes), and each test is pure,
 * so the order cannot change the car returned. */
static const DrvOther *drv_car_in_lane(const DrvView *view, int first, double lo, double hi)
{
    for (int i = first; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        if (o->d_m + half > lo && o->d_m - half < hi && !(o->ds_m <= 0.0 || drv_beh_gap_m(view, o) < 0.0))
            return o;
    }
    return NULL;
}

/* The nearest car ahead in the lane swept from our offset to the target (the car we would run into by holding
 * speed). NULL when none. */
static const DrvOther *drv_car_in_path(const DrvView *view, int first, double target_d_m)
{
    return drv_car_in_lane(view, first, drv_fmin(view->d_m, target_d_m), drv_fmax(view->d_m, target_d_m));
}

/* Whether car o is standing or crawling: slower than DRV_CRAWL_SHARE of our speed and of its own plan where it is (a
 * car stopped or spun, not one braking for a corner: its plan says it; nor, in the start's pack, a car getting away
 * from the grid). Such a car is followed from as far as we need to stop, which at racing speed is beyond
 * DRV_COURSE_RANGE_M; every car followed from that far brought collisions (docs/research.md, sixteenth round). */
static bool drv_crawling(const DrvDriver *driver, const DrvView *view, const DrvOther *o)
{
    return !drv_first_lap_manners(driver, view) && o->speed_mps < DRV_CRAWL_SHARE * view->speed_mps &&
           drv_beh_pace(drv_beh_plan_of(driver->profile, o), view->s_m, o) < DRV_CRAWL_SHARE;
}

/* How far ahead a crawling car is followed: our stopping distance, after DRV_COURSE_REACT_S, at our share of the grip
 * at rest (the least it gives), m. */
static double drv_stop_reach_m(const DrvDriver *driver, const DrvView *view)
{
    double v = view->speed_mps;
    return v * DRV_COURSE_REACT_S + v * v / (2.0 * driver->p.grip_use * trk_car_grip_mps2(&driver->car, 0.0));
}

/* Weight of "following the racing line" for a chosen offset: 1 on the line, 0 a band's width away. */
static double drv_line_weight(double target_d, double line_ahead_d)
{
    double w = 1.0 - fabs(target_d - line_ahead_d) / DRV_LINE_FOLLOW_BAND_M;
    return w < 0.0 ? 0.0 : w;
}

/* The nearest car ahead on our course: in the lane we aim for or, when we aim for the racing line (which the
 * steering then tracks, drv_drive_steer), on the line between here and it. Through a chicane the line sweeps
 * across the whole track in a few car lengths, so a car that is clear of the line's offset ahead now can still be
 * on the line's way across. A car moving across the track is in our lane too when its lateral speed takes it there
 * (or across it) by the time we reach it, within DRV_COURSE_LAT_S: of two cars crossing the track toward the same
 * lane, the faster one behind held its speed until the one ahead was in that lane just ahead of it. NULL when none.
 * `first`: drv_first_ahead.
 *
 * The tests are ordered by cost, each one pure, so the order cannot change which car is returned: a car outside
 * the lane and not moving into it, when the line's way is the lane itself (w 0), is dropped before anything else,
 * whether passed beside or not; a car passed beside (the lateral-time test) is dropped before the line is sampled
 * for it, and a car in the lane we aim for (target_d lies inside every [lo, hi] of the line's way) needs no samples
 * to be on our course. The samples (a track look-up each) are read only for a car that is neither: most of this
 * function's cost in a dense pack. */
static const DrvOther *drv_car_on_course(const DrvDriver *driver, const DrvView *view, int first, double target_d,
                                         double line_ahead_d)
{
    double w = drv_line_weight(target_d, line_ahead_d);
    /* a crawling car is followed from as far as we need to stop, any other from DRV_COURSE_RANGE_M */
    const double reach = drv_fmax(drv_stop_reach_m(driver, view), DRV_COURSE_RANGE_M);
    for (int i = first; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        double gap = drv_beh_gap_m(view, o);
        if (o->ds_m <= 0.0 || gap < 0.0)
            continue;
        if (o->ds_m > reach)
            break;
        if (o->ds_m > DRV_COURSE_RANGE_M && !drv_crawling(driver, view, o))
            continue;
        double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
        double closing = view->speed_mps - o->speed_mps;
        bool in_lane = o->d_m + half > target_d && o->d_m - half < target_d;
        if (!in_lane) {
            double t = closing > 0.1 ? drv_fmin(gap / closing, DRV_COURSE_LAT_S) : DRV_COURSE_LAT_S;
            double d_then = o->d_m + o->lat_speed_mps * t;
            in_lane = (d_then + half > target_d && d_then - half < target_d) ||
                      (o->d_m - target_d) * (d_then - target_d) < 0.0;
        }
        if (!in_lane && !(w > 0.0))
            continue; /* not on the line's way: the lane alone is our course (passed beside or not) */
        /* a car we would reach before we could be in its lane is one we would pass beside, not follow: being
         * beside it is the avoid behaviour's business (following it would mean a sudden, useless stop). Asked only
         * when closing, and of a car clear of us sideways: for one that overlaps us, t_lat is sqrt(0) = 0, which no
         * time to reach it (gap >= 0 over closing > 0) is below (and a NaN offset counts as 0 too). */
        double clear = fabs(view->d_m - o->d_m) - half;
        if (closing > 0.1 && clear > 0.0) {
            double t_lat = sqrt(2.0 * drv_fmax(clear, 0.0) / DRV_CLEAR_LAT_MPS2);
            if (gap / closing < t_lat)
                continue;
        }
        if (in_lane)
            return o; /* in the lane we aim for */
        /* where the line runs from the car's position now to where we would catch it */
        double t_meet = closing > 0.1 ? drv_fmin(gap / closing, DRV_COURSE_MEET_MAX_S) : 0.0;
        /* not closing in (t_meet 0): every sample is the same point, and the min and max of one are those of all */
        int samples = t_meet > 0.0 ? DRV_COURSE_SAMPLES : 1;
        double s_k[DRV_COURSE_SAMPLES], line_k[DRV_COURSE_SAMPLES];
        for (int k = 0; k < samples; k++)
            s_k[k] = view->s_m + o->ds_m + o->speed_mps * t_meet * k / (DRV_COURSE_SAMPLES - 1.0);
        trk_line_d_n(driver->track, s_k, line_k, samples);
        double lo = target_d, hi = target_d;
        for (int k = 0; k < samples; k++) {
            double at = w * line_k[k] + (1.0 - w) * target_d;
            lo = drv_fmin(lo, at), hi = drv_fmax(hi, at);
        }
        if (o->d_m + half > lo && o->d_m - half < hi)
            return o;
    }
    return NULL;
}

/* Would we hit the car straight ahead before a lateral move clears it? Returns the speed limit that avoids it, or
 * INFINITY. This is what stops a car from trusting a free lane it cannot reach in time. */
static double drv_no_time_to_clear(const DrvView *view, int first, const DrvPersonality *p)
{
    const DrvOther *o = drv_car_in_path(view, first, view->d_m);
    if (o == NULL)
        return INFINITY;
    double closing = view->speed_mps - o->speed_mps;
    double gap = drv_beh_gap_m(view, o);
    double half = 0.5 * (view->width_m + o->width_m) + DRV_BEH_SIDE_MARGIN_M;
    double overlap = half - fabs(view->d_m - o->d_m);
    double t_clear = sqrt(2.0 * drv_fmax(overlap, 0.0) / DRV_CLEAR_LAT_MPS2);
    double t_contact = closing > 0.05 ? gap / closing : INFINITY;
    /* close following is the safe-following limit's business (drv_follow.c), not a fixed share of a gap */
    if (t_contact > t_clear + 0.3)
        return INFINITY;
    return drv_follow_speed(view, p, o);
}

/* The racing line at n points spread evenly over reach_m ahead of the car, the first at the car. */
static void drv_line_ahead(const DrvDriver *driver, const DrvView *view, double reach_m, int n, double *s_k,
                           double *line_k)
{
    for (int k = 0; k < n; k++)
        s_k[k] = view->s_m + reach_m * k / (n - 1.0);
    trk_line_d_n(driver->track, s_k, line_k, n);
}

/* The time until we reach the start of a sweep of the racing line across the track (a chicane, an S-bend) within
 * the driver's lookahead, s; INFINITY when the line does not sweep. */
static double drv_sweep_time(const DrvDriver *driver, const DrvView *view, const DrvPersonality *p)
{
    double reach = drv_fmax(DRV_FILE_MIN_LOOK_M, view->speed_mps * p->lookahead_s * DRV_FILE_LOOK_SHARE);
    double s_k[DRV_FILE_SAMPLES], line_k[DRV_FILE_SAMPLES];
    drv_line_ahead(driver, view, reach, DRV_FILE_SAMPLES, s_k, line_k);
    double lo = line_k[0], hi = line_k[0];
    for (int k = 1; k < DRV_FILE_SAMPLES; k++) {
        lo = drv_fmin(lo, line_k[k]), hi = drv_fmax(hi, line_k[k]);
        if (hi - lo >= DRV_FILE_SWEEP_M)
            return (s_k[k - 1] - view->s_m) / drv_fmax(view->speed_mps, 1.0);
    }
    return INFINITY;
}

/* Single file where the racing line sweeps across the track: two cars side by side there cannot both hold their
 * lanes, since the line (which both track in part) crosses them within a few car lengths. The car behind (the
 * other's nose ahead of ours) must be a bumper gap behind it where the sweep begins. The limit is a braking curve
 * to that point: the speed that drops back by what is missing in the time left. A limit that only began once the
 * other car was beside us in the sweep dropped our target by 15 m/s at once, and the braking mid-bend took the grip
 * the bend needed: the car slid into the one beside it. Returns the speed limit, or INFINITY. */
static double drv_single_file_speed(const DrvDriver *driver, const DrvView *view, int first, const DrvPersonality *p)
{
    double t_sweep = NAN; /* read once, for the first car that needs it */
    double cap = INFINITY;
    for (int i = first; i < view->other_count; i++) {
        const DrvOther *o = &view->others[i];
        if (o->ds_m > DRV_FILE_AHEAD_M)
            break; /* sorted by ds: every later car is further ahead */
        double gap = drv_beh_gap_m(view, o);
        if (o->ds_m <= 0.0 || !(gap < DRV_FILE_RANGE_M))
            continue;
        if (fabs(o->d_m - view->d_m) > 0.5 * (view->width_m + o->width_m) + DRV_FILE_SIDE_M)
            continue;
        if (isnan(t_sweep))
            t_sweep = drv_sweep_time(driver, view, p);
        if (t_sweep == INFINITY)
            return INFINITY;
        double missing = DRV_FILE_GAP_M - gap;
        cap = drv_fmin(cap, drv_fmax(0.0, o->speed_mps - missing / drv_fmax(t_sweep, DRV_FILE_MIN_TIME_S)));
    }
    return cap;
}

/* Off the racing line the line's speed plan does not hold: a car holding another offset through a corner follows
 * another path. The caps of the lane it aims for (which brake for every corner ahead on that lane, with grip left
 * to steer back: drv_lanes.h) and of the path under it right now. */
/* v, or less where the path under the car right now (a constant offset at its own offset) is too tight for it with
 * the lanes' share of the grip, m/s. */
static double drv_path_cap(const DrvDriver *driver, const DrvView *view, const DrvHere *here, double v)
{
    double k_here = here->spot.kappa;
    double kp = fabs(k_here / trk_path_scale(k_here, view->d_m));
    double g = driver->p.grip_use * DRV_LANES_GRIP_SHARE * here->grip_mps2;
    return kp > 1e-6 ? drv_fmin(v, sqrt(g / kp)) : v;
}

double drv_offline_speed(const DrvDriver *driver, const DrvView *view, double target_d, const DrvHere *here)
{
    return drv_path_cap(driver, view, here, drv_lanes_speed(driver->lanes, view->s_m, target_d));
}

/* The braking a car held on a lane counts on to come down to the lane's cap, m/s^2. */
double drv_held_brake_mps2(const DrvDriver *driver, const DrvHere *here)
{
    return DRV_HELD_BRAKE_SHARE * driver->p.grip_use * DRV_LANES_GRIP_SHARE * here->grip_mps2;
}

/* How far ahead a car held on a lane must read the racing line: the distance it needs to come down from the speed
 * plan (or its speed, when faster) to the lane's cap `v_off_mps` braking at `a`, m. A car that will leave the line
 * within it must already be at the lane's cap; one that leaves it later still has room to brake. */
double drv_held_reach(const DrvView *view, double v_plan, double v_off_mps, double a)
{
    double v = drv_fmax(view->speed_mps, v_plan);
    double shed = v > v_off_mps && a > 0.0 ? (v * v - v_off_mps * v_off_mps) / (2.0 * a) : 0.0;
    return drv_fmax(shed, view->speed_mps * DRV_HELD_MIN_REACH_S);
}

/* Reads the racing line and the speed plan at the held line's points over `reach_m` ahead (drv_line_ahead's points)
 * from point k0 on; the line and the plan at a point from one look-up (trk_line_speed_n), each value as its own
 * query gives it. */
void drv_held_read(const DrvDriver *driver, const DrvView *view, double reach_m, int k0, DrvHeldLine *held)
{
    for (int k = 0; k < DRV_HELD_SAMPLES; k++)
        held->s_m[k] = view->s_m + reach_m * k / (DRV_HELD_SAMPLES - 1.0);
    trk_fast_line_speed_grid_n(driver->track, driver->profile, driver->plan_on_grid, held->s_m + k0,
                               held->line_d_m + k0, held->plan_mps + k0, DRV_HELD_SAMPLES - k0);
}

/* Whether this tick's decision read the held line for the lane `target_d` (the same bits: the very offset it chose).
 * Everything else the read depends on (the view, the track at the car, the noise) is the same within a tick, so its
 * values are those a read now would give. */
static bool drv_held_is_for(const DrvHeldLine *held, double target_d)
{
    return held->valid && memcmp(&held->target_d_m, &target_d, sizeof target_d) == 0;
}

/* The racing line over the held line's points: the furthest it runs from the offsets [lo_d, hi_d], m (0 when it
 * stays inside). */
double drv_line_outside(const DrvHeldLine *held, double lo_d, double hi_d)
{
    double out = 0.0;
    for (int k = 0; k < DRV_HELD_SAMPLES; k++)
        out = drv_fmax(out, drv_fmax(lo_d - held->line_d_m[k], held->line_d_m[k] - hi_d));
    return out;
}

/* drv_fmin(v, cap), and the limit that set it when cap is below v (a trace tells what slowed the car). */
static double drv_cap(double v, double cap, DrvLimit kind, DrvLimit *limit)
{
    double r = drv_fmin(v, cap);
    if (r < v)
        *limit = kind;
    return r;
}

const char *drv_limit_name(DrvLimit limit)
{
    static const char *const names[DRV_LIMIT_COUNT] = {
        [DRV_LIMIT_NONE] = "none",
        [DRV_LIMIT_PLAN] = "plan",
        [DRV_LIMIT_TOW] = "tow",
        [DRV_LIMIT_DANGER] = "danger",
        [DRV_LIMIT_FOLLOW] = "follow",
        [DRV_LIMIT_CLEAR] = "clear",
        [DRV_LIMIT_SINGLE_FILE] = "single_file",
        [DRV_LIMIT_HELD] = "held",
        [DRV_LIMIT_REJOIN] = "rejoin",
        [DRV_LIMIT_LANE] = "lane",
    };
    return (int)limit >= 0 && limit < DRV_LIMIT_COUNT ? names[limit] : "none";
}

/* The speed plan pulled toward a lane's cap (when below it) by how far off the line the car is: `w_line` 1 on the
 * line (the plan), 0 a band's width off it (the cap), m/s. */
static double drv_capped_plan(double v_plan, double v_cap, double w_line)
{
    return v_cap < v_plan ? v_plan - (1.0 - w_line) * (v_plan - v_cap) : v_plan;
}

/* A car held on lane target_d: at every point of the braking distance ahead, the speed it may have there (the plan,
 * less the lane's cap in proportion to how far the line then runs from the lane), with room to brake down to it
 * from here, m/s. */
static double drv_held_speed(const DrvDriver *driver, const DrvView *view, double target_d, double v_plan,
                             double v_off_mps, const DrvHere *here)
{
    double a = drv_held_brake_mps2(driver, here);
    /* the points this tick's decision read for this lane, or a read of them now (the one at the car, k = 0, is not
     * used here) */
    const DrvHeldLine *held = &here->held;
    DrvHeldLine fresh;
    if (!drv_held_is_for(held, target_d)) {
        drv_held_read(driver, view, drv_held_reach(view, v_plan, v_off_mps, a), 1, &fresh);
        held = &fresh;
    }
    /* the lane's place among the lanes (the same offset at every point) found once */
    DrvLanesRow lane = drv_lanes_row(driver->lanes, target_d);
    double v_max = INFINITY;
    for (int k = 1; k < DRV_HELD_SAMPLES; k++) {
        double w = drv_line_weight(drv_fmax(fabs(target_d - held->line_d_m[k]) - DRV_LINE_TRACK_TOL_M, 0.0), 0.0);
        if (w >= 1.0)
            continue;
        double plan_k = held->plan_mps[k] * driver->noise.speed_scale;
        double v_k = drv_capped_plan(plan_k, drv_lanes_row_speed(driver->lanes, &lane, held->s_m[k]), w);
        v_max = drv_fmin(v_max, sqrt(v_k * v_k + 2.0 * a * (held->s_m[k] - view->s_m)));
    }
    return v_max;
}

/* A car off the racing line that aims for it: its way back is the line plus an error that shrinks to nothing over
 * the rejoin distance; at each point of that way the plan holds, slowed where the way runs inside the line (a
 * parallel curve e inside a line of curvature k has curvature k / (1 - k e)), with room to brake to it. m/s. */
static double drv_rejoin_speed(const DrvDriver *driver, const DrvView *view, const DrvHere *here, double err_m)
{
    double reach = drv_fmax(DRV_BEH_REJOIN_MIN_M, view->speed_mps * DRV_BEH_REJOIN_S);
    double a = drv_held_brake_mps2(driver, here);
    double v_max = INFINITY;
    int hint = -1;
    for (int k = 0; k < DRV_REJOIN_SAMPLES; k++) {
        double x = reach * k / (DRV_REJOIN_SAMPLES - 1.0);
        double e = err_m * (1.0 - x / reach);
        TrkSpot sp = trk_spot_at(driver->track, view->s_m + x, &hint);
        double plan_k = trk_speed_at(driver->profile, view->s_m + x, NULL) * driver->noise.speed_scale;
        double scale = drv_fmin(trk_path_scale(sp.line_kappa, e), 1.0);
        double v_k = plan_k * sqrt(scale);
        if (k == 0 || scale < 1.0)
            v_max = drv_fmin(v_max, sqrt(v_k * v_k + 2.0 * a * x));
    }
    /* and, for a car far off the line or drifting away from it, the path under it right now (it cannot turn back
     * onto the line's curve before it has stopped the drift) */
    bool drifting = fabs(err_m) > DRV_LINE_FOLLOW_BAND_M || err_m * view->lat_speed_mps > DRV_REJOIN_DRIFT_M2PS;
    return drifting ? drv_path_cap(driver, view, here, v_max) : v_max;
}

/* The path the steering follows, in the track's frame: its lateral speed and its lateral acceleration relative to
 * the centre line (d' and d'' in time), what the car's own are judged against when it drifts toward an edge. Zero
 * for a constant offset; the racing line's, in proportion to how much of it is followed, while the car is on it. */
typedef struct DrvSteerRef {
    double lat_mps;
    double acc_mps2;
} DrvSteerRef;

/* Steering. When the chosen offset is the racing line, the car tracks the line itself with its lateral speed and
 * acceleration fed forward (the line's d' and d''), so it is on the line when the speed plan expects it there;
 * elsewhere it steers to the chosen offset. Between the two the weights blend. *ref: the path followed (above). */
static double drv_drive_steer(const DrvDriver *driver, const DrvView *view, double target_d, double line_ahead_d,
                              const DrvHere *here, DrvSteerRef *ref)
{
    double v = view->speed_mps, k_here = here->spot.kappa, grip = here->control_grip.steer_mps2;
    double w = drv_line_weight(target_d, line_ahead_d);
    /* a line that runs on into lanes the decision found closed (a car beside us where the line sweeps across) is not
     * followed there: the car steers for its chosen offset and stops at it */
    if (driver->plan.bounded && (line_ahead_d > driver->plan.free_hi_d_m || line_ahead_d < driver->plan.free_lo_d_m))
        w = 0.0;
    double line_here = here->spot.line_d_m;
    *ref = (DrvSteerRef){0.0, 0.0};
    if (w <= 0.0)
        return drv_control_steer(view, target_d, 0.0, 0.0, k_here, grip);
    double k_line = here->spot.line_kappa;
    double scale = trk_path_scale(k_here, line_here);
    double lat_ff = (v / scale) * (here->line_next_d_m - here->line_prev_d_m) / DRV_LINE_FF_STEP_M;
    double acc_ff = v * v * (k_line - k_here / scale);
    double d = w * line_here + (1.0 - w) * target_d;
    /* the line's motion is the car's reference only while the car is on it: one a few metres off that kept the
     * line's lateral speed toward an edge would reach the edge before the line turns back */
    double w_on = w * drv_line_weight(drv_fmax(fabs(view->d_m - line_here) - DRV_LINE_TRACK_TOL_M, 0.0), 0.0);
    *ref = (DrvSteerRef){w_on * lat_ff, w_on * acc_ff};
    return drv_control_steer(view, d, w * lat_ff, w * acc_ff, k_here, grip);
}

/* The fastest lateral speed toward an edge `room_m` away (car centre, less DRV_EDGE_KEEP_M) from which the car can
 * still stop before it with DRV_EDGE_STOP_SHARE of the grip `g`, m/s. */
static double drv_edge_speed(double room_m, double g)
{
    return sqrt(2.0 * DRV_EDGE_STOP_SHARE * g * drv_fmax(room_m - DRV_EDGE_KEEP_M, 0.0));
}

/* The friction circle, shared deliberately instead of leaving it to the sim (which scales an overlong demand back
 * keeping its direction, so a car that asks for full braking and a lateral move gets neither and arrives too fast).
 * Priorities: (1) staying on the track: no drift toward an edge faster than the car could still stop, the drift
 * measured against the path the steering follows (`ref`: the racing line, when the car is on it; a constant offset
 * otherwise). Through an S-bend the racing line itself crosses the track at 10-20 m/s relative to the centre line,
 * and turns back before the edge as the centre line's curvature changes sign: measured against the centre line,
 * that was a drift, and the rule steered the car off the line into the grip it needed a moment later; (2) braking,
 * up to brake_first_mps2 (the plan's own braking and a margin, or any braking to stay behind a car ahead): the
 * lateral move gets what is left, but never less than a dodge share; braking beyond that (for a lane's cap) comes
 * after the corner; (3) otherwise the lateral demand (path plus move) first, and the throttle gets what is left. The
 * longitudinal request always gets what the lateral leaves, so the total stays inside the circle and the car does
 * what its plan assumed. In: the speed control's ax and the steering's lateral request (d''); both are rewritten. */
static void drv_share_grip(const DrvDriver *driver, const DrvView *view, const DrvHere *here, const DrvSteerRef *ref,
                           double brake_first_mps2, double *ax, double *lat)
{
    double v = view->speed_mps, d = view->d_m, lat_v = view->lat_speed_mps, k_here = here->spot.kappa;
    /* a driver whose plan uses more than the margin (a late braker) may use what its plan uses */
    double g = drv_fmin(drv_fmax(driver->p.grip_use + 0.01, DRV_GRIP_MARGIN), 1.0) * here->grip_mps2;
    double corner = v * v * k_here / trk_path_scale(k_here, d); /* the path's own need at this offset */
    double ay = corner + *lat;                                    /* what the tyres are asked for sideways */
    double cap = g;
    if (*ax < 0.0) {
        double b = drv_fmin(-*ax, brake_first_mps2);
        cap = sqrt(drv_fmax(g * g - b * b, DRV_DODGE_SHARE * DRV_DODGE_SHARE * g * g));
    }
    else if (driver->plan.attacking && *ax > 0.0 && fabs(k_here) < DRV_TOW_MAX_CURVATURE) {
        /* an attack's pull-out on a straight keeps some throttle: asked for the whole grip sideways, the move left
         * the engine nothing and the car fell back out of the tow it was leaving */
        double keep = drv_fmin(*ax, DRV_MOVE_ENGINE_SHARE * g);
        cap = sqrt(g * g - keep * keep);
    }
    ay = drv_fmax(-cap, drv_fmin(cap, ay));
    /* staying on the track comes before braking */
    double wl = here->spot.left_m, wr = here->spot.right_m;
    double ref_ay = corner + ref->acc_mps2, drift = lat_v - ref->lat_mps;
    ay = drv_fmin(ay, ref_ay + (drv_edge_speed(wl - d, g) - drift) / DRV_EDGE_TAU_S);
    ay = drv_fmax(ay, ref_ay + (-drv_edge_speed(d + wr, g) - drift) / DRV_EDGE_TAU_S);
    /* off the track, rejoin at a walking pace across the track: the grass pushes the car back as well, and it
     * holds only half its grip there, so a brisk move could not be stopped before the cars on the track */
    if (d > wl)
        ay = drv_fmax(ay, corner + (-DRV_REJOIN_LAT_MPS - lat_v) / DRV_EDGE_TAU_S);
    else if (d < -wr)
        ay = drv_fmin(ay, corner + (DRV_REJOIN_LAT_MPS - lat_v) / DRV_EDGE_TAU_S);
    ay = drv_fmax(-g, drv_fmin(g, ay));
    double rest = sqrt(drv_fmax(g * g - ay * ay, 0.0));
    *ax = drv_fmax(-rest, drv_fmin(rest, *ax));
    *lat = ay - corner;
}

/* The track, the line, the plan and the grip at the car, read once a tick: the decision and the control (speed
 * plan, off-line caps, steering, friction circle) all read them, each look-up a separate search before. The track,
 * the plan and the plan's limit at the car share one sample look-up. */
void drv_drive_here(DrvDriver *driver, const DrvView *view, double s_ahead_m, DrvHere *here)
{
    DrvHints *h = &driver->hints;
    here->spot = trk_fast_spot_speed_limit_grid(driver->track, driver->profile, driver->plan_on_grid, view->s_m,
                                                &h->here, &here->line_speed_mps, &here->line_limit_mps);
    h->line_here = h->here; /* the same sample: the racing line at the car, and the speed plan's */
    h->profile = h->here;
    /* one point each: the inline look-up then needs no loop over a stack array */
    double s_next = view->s_m + 0.5 * DRV_LINE_FF_STEP_M, s_prev = view->s_m - 0.5 * DRV_LINE_FF_STEP_M;
    trk_line_d_n(driver->track, &s_ahead_m, &here->line_ahead_d_m, 1);
    trk_line_d_n(driver->track, &s_next, &here->line_next_d_m, 1);
    trk_line_d_n(driver->track, &s_prev, &here->line_prev_d_m, 1);
    here->held.valid = false;
    here->grip_mps2 = trk_car_grip_mps2(&driver->car, view->speed_mps);
    here->control_grip = drv_control_grip(view);
}

/* Speed and steering toward a chosen offset, shared by both driver models so comparisons are fair: the speed plan,
 * then the car ahead when `braking` (no lane free enough), the no-time-to-clear limit, the off-line limit; then the
 * friction-circle split between braking and steering, and line-tracking steering. */
void drv_drive_control(DrvDriver *driver, const DrvView *view, double target_d, double line_d_m,
                       const DrvHere *here, bool braking, DrvControls *out)
{
    const DrvPersonality *p = &driver->p;
    DrvHints *h = &driver->hints;
    double s = view->s_m, v = view->speed_mps;
    /* speed: the plan, then the car ahead when no lane is free enough */
    /* the constant second: drv_fmax then needs no NaN test (the same result: 1.0 for a NaN speed) */
    double ahead_m = drv_fmax(v * DRV_PROFILE_LOOKAHEAD_S, 1.0);
    double v_plan = here->line_speed_mps * driver->noise.speed_scale;
    double v_next = trk_speed_at(driver->profile, s + ahead_m, &h->profile_ahead) * driver->noise.speed_scale;
    /* the plan's own acceleration at our speed: v dv/ds */
    double a_plan = v * (v_next - v_plan) / ahead_m;
    double target_v = v_plan;
    DrvLimit limit = DRV_LIMIT_PLAN;
    /* The braking the plan does here was worked out with the corner's grip: it goes first in the friction circle,
     * and so does braking to stay behind a car ahead. More than that, for a lane's cap, comes after the corner
     * (drv_share_grip): braking for a cap mid-corner took the grip the corner needed and slid the car wide. */
    double brake_first = drv_fmax(-a_plan, 0.0) + DRV_BRAKE_FIRST_MPS2;
    /* The plan accelerates as the engine would alone; in another car's tow it pulls harder. Where the plan is the
     * engine's limit (below the corners' and braking's limit) on a straight, the car asks for full throttle up to
     * that limit, so a tow turns into speed instead of into a lifted throttle. */
    if (fabs(here->spot.kappa) < DRV_TOW_MAX_CURVATURE) {
        double v_limit = here->line_limit_mps * driver->noise.speed_scale;
        if (v_limit > v_plan) {
            target_v = v_limit;
            limit = DRV_LIMIT_TOW;
            a_plan = DRV_FULL_THROTTLE_MPS2;
        }
    }
    const double v_free = target_v; /* what the car aims for with nobody around */
    int first = drv_first_ahead(view);
    if (braking) {
        const DrvOther *o = drv_car_in_path(view, first, target_d);
        target_v = drv_cap(target_v, o ? drv_follow_speed(view, p, o) : 0.97 * v, DRV_LIMIT_DANGER, &limit);
    }
    /* a car ahead in the lane we aim for: we mean to stay behind it, so we follow it now, while there is still
     * room to shed the speed (the danger of a car ahead passes the aggression only when contact is close) */
    double a_follow = 0.0; /* the safe-following limit's own slope, when it sets our speed */
    const DrvOther *lead = drv_car_on_course(driver, view, first, target_d, line_d_m);
    if (lead != NULL) {
        /* only a limit below target_v changes anything below: the search may stop once it is above it */
        double v_safe = drv_follow_safe_speed_below(view, driver, here, lead, target_v);
        if (v_safe < target_v) {
            brake_first = INFINITY;
            a_follow = drv_fmin(drv_follow_lead_accel(driver, view, lead), 0.0);
            /* behind a crawling car the limit falls at our braking as we close, not with its (nil) acceleration:
             * tracked by its error alone, it was overrun into a car standing in a braking zone */
            if (drv_crawling(driver, view, lead) && v_safe > 1.0)
                a_follow -= p->grip_use * trk_car_grip_mps2(&driver->car, v_safe) * (v - lead->speed_mps) / v_safe;
        }
        target_v = drv_cap(target_v, v_safe, DRV_LIMIT_FOLLOW, &limit);
    }
    target_v = drv_cap(target_v, drv_no_time_to_clear(view, first, p), DRV_LIMIT_CLEAR, &limit);
    target_v = drv_cap(target_v, drv_single_file_speed(driver, view, first, p), DRV_LIMIT_SINGLE_FILE, &limit);
    /* off the line now, or aiming off it: the lanes' caps, in proportion */
    double line_here = here->spot.line_d_m;
    double off_here = drv_fmax(fabs(view->d_m - line_here) - DRV_LINE_TRACK_TOL_M, 0.0);
    double off_aim = drv_fmax(fabs(target_d - line_d_m) - DRV_LINE_TRACK_TOL_M, 0.0);
    /* a target between the line and an edge too near it for a car to pass there is the line: the map's edge slot
     * beside a line that runs along the edge */
    double edge_l = here->spot.left_m - 0.5 * view->width_m, edge_r = 0.5 * view->width_m - here->spot.right_m;
    if ((target_d > line_d_m && edge_l - line_d_m < view->width_m) ||
        (target_d < line_d_m && line_d_m - edge_r < view->width_m))
        off_aim = 0.0;
    double w_line = drv_line_weight(drv_fmax(off_here, off_aim), 0.0);
    /* the lane's cap is read only when one of its two uses below needs it (most ticks neither does), and taken from
     * this tick's decision when it read it for this lane */
    bool attacking = driver->plan.attacking;
    double v_off = 0.0;
    if (w_line < 1.0 || driver->plan.line_blocked || attacking)
        v_off = drv_held_is_for(&here->held, target_d) ? here->held.v_off_mps
                                                        : drv_offline_speed(driver, view, target_d, here);
    if (attacking) {
        /* an attack drives its lane at the lane's own cap, which brakes for every corner ahead on it and lets the tow
         * take the car above its plan on a straight: the held lane's and the way back's caps are for a car that
         * rejoins the line behind the car beside it, and capped at the plan they cost the pull-out its throttle */
        target_v = drv_cap(target_v, v_off, DRV_LIMIT_LANE, &limit);
    } else {
        /* a target held off the line by danger is a lane the line only crosses: judged at one point it counts as on
         * the line where they cross, and the lane's cap took over a few metres later, too late to brake for it
         * without the grip to stop a sideways slide (the S-bend's lap-1 contacts). So it is judged over the braking
         * distance. */
        if (driver->plan.line_blocked)
            target_v = drv_cap(target_v, drv_held_speed(driver, view, target_d, v_plan, v_off, here), DRV_LIMIT_HELD,
                               &limit);
        if (off_aim <= 0.0 && !driver->plan.line_blocked) {
            /* aiming for the line: the way back to it, not a lane of constant offset through every corner ahead */
            if (off_here > 0.0)
                target_v = drv_cap(target_v, drv_rejoin_speed(driver, view, here, view->d_m - line_here),
                                   DRV_LIMIT_REJOIN, &limit);
        } else if (w_line < 1.0) {
            target_v = drv_cap(target_v, drv_capped_plan(v_plan, v_off, w_line), DRV_LIMIT_LANE, &limit);
        }
    }
    if (target_v < v_free)
        a_plan = drv_fmin(a_plan, 0.0); /* following a car: the plan's slope no longer applies, only its braking */
    /* a limit that falls as fast as the lead brakes, tracked without its slope, was overrun by several m/s (the
     * speed control's lag): into a braking zone the follower closed on the lead it meant to stay behind */
    if (limit == DRV_LIMIT_FOLLOW)
        a_plan = drv_fmin(a_plan, a_follow);

    double ax = drv_control_speed(view, target_v, a_plan, here->control_grip.speed_mps2);
    DrvSteerRef ref;
    double lat = drv_drive_steer(driver, view, target_d, line_d_m, here, &ref);
    drv_share_grip(driver, view, here, &ref, brake_first, &ax, &lat);
    out->long_accel_mps2 = ax;
    out->lat_accel_mps2 = lat;
    out->target_d_m = target_d;
    out->target_speed_mps = target_v;
    out->limit = limit;
}
