/* sim_internal.h: private layout of the sim module, shared by its .c files (never included outside sim/).
 *
 * The world keeps its public SimCar array plus a parallel array of private per-car state, the scratch buffers of
 * one step (views, others) allocated once when the first step starts, a list of running cars sorted by track
 * position (the neighbour search of drafting, views, collisions and overtakes), and a per-pair table for the
 * collision and overtake state machines.
 */
#ifndef SIM_INTERNAL_H
#define SIM_INTERNAL_H

#include "sim.h"
#include "../track/trk_fast.h" /* the track look-ups of every car and tick, inlined */

#include <stddef.h>

/*----------------------------------------------------------------------------------------------------------------
 * Constants (documented in docs/design.md; tests check the behaviour they describe)
 *--------------------------------------------------------------------------------------------------------------*/

#define SIM_WORLD_MAX_CARS 256 /* the pair table is n*n entries */

/* Drafting: drag factor = 1 - SIM_DRAFT_MAX * closeness * overlap. closeness is 1 when the bumper-to-bumper gap to
 * the car ahead is at most one car length and falls linearly to 0 at SIM_DRAFT_RANGE_M; overlap is the lateral
 * overlap of the two cars divided by their mean width. The strongest wake counts (wakes do not add up). */
#define SIM_DRAFT_MAX 0.35
#define SIM_DRAFT_RANGE_M 40.0

/* Off-track (car centre beyond an edge): grip is scaled, a grass deceleration applies, a push brings the car back,
 * and it never gets further than SIM_OFF_MAX_M beyond the edge (a wall). */
#define SIM_GRASS_GRIP_SCALE 0.5
#define SIM_GRASS_DECEL_MPS2 3.0    /* constant part of the grass drag */
#define SIM_GRASS_DECEL_PER_MPS 0.04 /* plus this times the speed, 1/s */
#define SIM_GRASS_PUSH_MPS2 4.0     /* lateral acceleration toward the track while off */
#define SIM_OFF_MAX_M 5.0
/* sim_world_check's tolerance on that limit: the wall uses the width where a tick starts, and the edge can narrow by
 * a few centimetres over one tick of travel. */
#define SIM_WORLD_LIMIT_TOL_M 0.1

/* Collisions: restitution of the normal relative velocity; a pair's contact counts as a new collision after this
 * long without contact. */
#define SIM_RESTITUTION 0.3
#define SIM_COLLISION_GAP_S 0.5

/* Overtakes: the passer must stay ahead this long after getting one car length ahead. */
#define SIM_PASS_CONFIRM_S 1.0

/* Progress needed within stall_timeout_s to avoid retirement, m. */
#define SIM_STALL_PROGRESS_M 1.0

/* Sensing range of the view, m of track distance; at most SIM_VIEW_MAX_OTHERS others. */
#define SIM_VIEW_AHEAD_M 200.0
#define SIM_VIEW_BEHIND_M 50.0
#define SIM_VIEW_MAX_OTHERS 64

/*----------------------------------------------------------------------------------------------------------------
 * Types
 *--------------------------------------------------------------------------------------------------------------*/

/* Private per-car state. */
typedef struct SimCarPriv {
    DrvThinkFn *think;
    void *driver;
    const TrkSpeedProfile *plan; /* SimCarDef.plan */
    double lap_alone_s;      /* the plan's flying lap, s: the car's pace alone, to judge its passes; NaN = unknown */
    int hint;                /* track sample hint, kept along the lap */
    double hold_d_m;         /* target of the built-in "hold" driver (think == NULL) */
    double hold_speed_mps;
    double draft_factor;     /* drag factor of this tick (1 = clean air) */
    double geo_s_m;          /* the s at which kappa and the widths below were read (-1: not yet) */
    double kappa, width_left_m, width_right_m;
    double prev_race_dist_m; /* at the start of the tick */
    double lap_mark_m;       /* race distance of the next line crossing, (laps + 1) * length: kept, not recomputed
                              * each tick, since it changes only when a lap is done */
    double lap_start_s;      /* sim time the current lap started (crossing interpolated) */
    double progress_next_m;  /* stall detection: race distance that counts as progress (the distance last time
                              * progress was seen + SIM_STALL_PROGRESS_M, summed when it changes) */
    long stall_tick;         /* the tick at which the car retires without progress (last progress + stall_ticks) */
    int finish_rank;         /* 1-based finishing order; 0 while not finished */
    bool stall_due;          /* found stalled this tick, to retire once the line crossings are handled */
    bool sliding;            /* the path needed more grip than there was this tick */
    bool was_off;            /* off the track at the end of the previous tick */
    bool active;             /* on track: running (finished and retired cars leave the track) */
    /* The pose (SimCar x_m, y_m, heading_rad) is derived at the end of a step (sim_refresh_poses) for the cars
     * whose state changed. A car that leaves the track keeps the pose of the tick before: the state it derives
     * from is saved as each integration starts (the end of the tick before), where the integration reads it. */
    bool pose_stale;
    double pose_s_m, pose_d_m, pose_speed_mps, pose_lat_speed_mps;
    /* when the car last braked, drafted, or went off / touched another car: to classify overtakes (SimEventKind) */
    long braked_tick, drafted_tick, mistake_tick;
} SimCarPriv;

typedef enum SimPairState {
    SIM_PAIR_UNKNOWN = 0, /* not observed settled since they came near */
    SIM_PAIR_LO_BEHIND,   /* the lower id is at least a car length behind the higher (modulo laps) */
    SIM_PAIR_LO_AHEAD,
    SIM_PAIR_LO_PASSING,  /* the lower id got a length ahead from behind; confirming */
    SIM_PAIR_HI_PASSING
} SimPairState;

/* State of one unordered pair (lo < hi), at pairs[lo * n + hi]. */
typedef struct SimPair {
    long last_contact_tick; /* -1: never */
    long seen_tick;         /* last tick the overtake state machine looked at the pair */
    long pass_tick;         /* tick the pending pass reached one car length ahead */
    unsigned char state;    /* SimPairState */
} SimPair;

/* A running car as the sense stage sees it, rebuilt in s order each tick: the DrvOther fields that do not depend
 * on the viewer (copied whole into every view that shows the car), and what ds and laps_ahead come from. Walking
 * this compact array instead of the big SimCar structs is most of the sense stage's speed. */
typedef struct SimSensed {
    DrvOther other; /* ds_m and laps_ahead are filled per viewer */
    double s_m, race_dist_m;
    int lap_key;    /* the whole laps of race_dist_m - s_m, for laps_ahead (sim_view.c: sim_lap_key) */
} SimSensed;

struct SimWorld {
    SimWorldDef def;
    const TrkTrack *track;
    double length_m;
    double inv_length; /* 1 / length_m */
    double dt_s;
    long tick;
    bool started, done, chequered;
    bool keep_poses;        /* SimCar poses kept up to date at the end of each step (sim_world_keep_poses) */
    int finished_count;
    double time_limit_s;
    long stall_ticks, pass_ticks, contact_gap_ticks;
    double max_len_m; /* longest car */

    int car_count, car_cap;
    SimCar *cars;
    SimCarPriv *priv;

    /* step scratch, allocated at the first step */
    DrvView *views;
    DrvOther *others; /* car_count * SIM_VIEW_MAX_OTHERS */
    int *by_s;        /* running cars sorted by s (ties by id) */
    int active_count;
    bool s_moved;     /* a collision moved a car along s this tick (so by_s may need sorting again) */
    SimSensed *sensed; /* active_count entries in by_s order (the sense stage's snapshot) */
    bool sense_fast;  /* this tick's walks take the fast way (sim_view.c: sim_sense_snapshot) */
    int sense_shown;  /* others shown in all views on the last tick */
    int *order;       /* all cars in race order */
    bool positions_set; /* the cars' positions were written from order (sim_update_order) */
    SimPair *pairs;   /* car_count * car_count, upper triangle used */
    int *pending;     /* pair indices with a pass being confirmed */
    int pending_count;
    int *crossings;   /* cars that crossed the line this tick */
    double *cross_t;

    SimEvent *events;
    int event_count, event_cap;
    /* events[0, event_known) are this race's: a restore to an earlier keyframe (sim_snapshot.c) lowers event_count
     * and keeps the later events, which the race, going on, writes again the same; so a restore to a later keyframe
     * finds its events in place */
    int event_known;

    /* benchmarks only: per-stage wall time (sim_world_set_stage_timing) */
    bool timing;
    double stage_ns[SIM_STAGE_COUNT];
};

/*----------------------------------------------------------------------------------------------------------------
 * Stages and helpers (one file each)
 *--------------------------------------------------------------------------------------------------------------*/

/* sim_world.c */
/* a requested deceleration beyond this counts as braking, for classifying overtakes, m/s^2 */
#define SIM_BRAKING_MPS2 3.0
/* tighter than this (radius 250 m) the track is a corner, for classifying overtakes, 1/m */
#define SIM_CORNER_CURVATURE (1.0 / 250.0)

/* Allocates the per-step buffers and sorts the cars: the first step does it, and so does the first snapshot
 * (sim_snapshot.c). Nonzero when out of memory. */
int sim_world_start(SimWorld *w);

/* sim_session.c: the driver of a car, to save and restore its state (sim_snapshot.c); NULL for scripted cars. */
DrvDriver *sim_session_driver_rw(SimSession *session, int car_id);

/* sim_event.c */
/* Appends an event; NULL when out of memory (the event is lost, the race goes on). */
SimEvent *sim_event_push(SimWorld *w, SimEventType type, int a, int b, int lap, double value);
double sim_time_at(const SimWorld *w, long tick);
/* Removes a car from the running set (finished or retired): it leaves the track. */
void sim_car_leave(SimWorld *w, int id);

/* trk_wrap_s with its own fast path (s still on the lap: s + 0.0, as it returns) inline: integration wraps every car
 * every tick, and a call costs more than the test. */
static inline double sim_wrap_s(const SimWorld *w, double s_m)
{
    return s_m >= 0.0 && s_m < w->length_m ? s_m + 0.0 : trk_wrap_s(w->track, s_m);
}

/* Forward track distance from a to b in [0, length) (inline: the neighbour walks of three stages run on it). */
static inline double sim_fwd_dist(const SimWorld *w, double from_s, double to_s)
{
    double f = to_s - from_s;
    if (f < 0.0)
        f += w->length_m;
    if (f >= w->length_m)
        f -= w->length_m;
    return f;
}

/* sim_view.c: keeps the running cars sorted by s, and builds every driver's view (and the drafting factors) from
 * the snapshot at the start of the tick. */
void sim_sort_by_s(SimWorld *w);
/* The parts of each car's view that never change once the world has started (its track, tick length, car, the car's
 * length and width, and the others' buffer), set once by sim_world_start; sim_build_views writes the rest every
 * tick. */
void sim_views_init(SimWorld *w);
void sim_build_views(SimWorld *w);
/* Sorts by_s only when it is out of order (nearly always it holds after a tick). */
void sim_resort_by_s(SimWorld *w);
/* The drafting drag factor of a follower given the bumper gap and lateral overlap (for tests and the viewer). */
double sim_draft_factor(double gap_m, double overlap_frac, double car_len_m);

/* sim_physics.c */
void sim_integrate(SimWorld *w);
/* Saves the state the pose of a car that leaves the track this tick derives from (the start of its integration:
 * the end of the tick before), and marks the pose stale (the car moves); the pose is computed at the end of the
 * step. */
static inline void sim_pose_save(const SimCar *c, SimCarPriv *p)
{
    p->pose_s_m = c->s_m;
    p->pose_d_m = c->d_m;
    p->pose_speed_mps = c->speed_mps;
    p->pose_lat_speed_mps = c->lat_speed_mps;
    p->pose_stale = true;
}
/* Computes the pose (SimCar x_m, y_m, heading_rad) of every car whose pose is stale, from its state (running) or
 * from the saved state (left the track). Called at the end of each step and when a car is added while the world
 * keeps poses (sim_world_keep_poses), so readers of a const world only read. */
void sim_refresh_poses(SimWorld *w);
/* The pose of car `id` as sim_refresh_poses would store it, without storing it. */
void sim_pose_of(const SimWorld *w, int id, double *x_m, double *y_m, double *heading_rad);

/* sim_collide.c */
void sim_collide(SimWorld *w);

/* sim_score.c */
void sim_score(SimWorld *w);
void sim_update_order(SimWorld *w);

/* sim_car.c: one [car] key; returns 0 when known and valid, 1 when the key is unknown, 2 when the value is bad
 * (what is wrong written to err, without path or line). */
int sim_car_set_key(SimCarSpec *spec, const char *key, const char *value, char *err, size_t err_len);

#endif
