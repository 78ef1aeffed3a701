/* sim.h: the race simulation (public API of the sim module).
 *
 * A SimWorld steps cars on a track at a fixed tick. One step is a pipeline of named stages:
 *   sense (build each driver's view from the state at the start of the tick)
 *   -> think (every driver decides from the same snapshot, in car order)
 *   -> integrate (physics: power, drag and drafting, friction circle, sliding, off-track)
 *   -> collide (neighbour search by track position, separate, exchange momentum)
 *   -> score (laps, positions, overtakes, lappings, collisions, off-tracks, finish, retirements).
 * Events of a step are appended to an event list read afterwards; nothing calls back in the middle of a step.
 *
 * Depends on drivers/ and track/; never on SDL. No globals; errors are returned, never printed.
 */
#ifndef SIM_H
#define SIM_H

#include "../drivers/drv.h"
#include "../track/trk.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- cars -------------------------------------------------------------------------------------------------- */

typedef struct SimCarSpec {
    TrkCarParams dyn;
    double length_m; /* default 4.6 */
    double width_m;  /* default 2.0 */
} SimCarSpec;

SimCarSpec sim_default_car_spec(void);

typedef enum SimStatus { SIM_RUNNING = 0, SIM_FINISHED, SIM_DNF } SimStatus;

/* A car's public state. The viewer and tools read it; only the sim writes it. */
typedef struct SimCar {
    int id;                   /* index in the world, also grid order */
    char name[DRV_NAME_LEN];
    int number;
    uint8_t colour[3];
    SimCarSpec spec;
    /* motion */
    double s_m;               /* wrapped arc length */
    double d_m;               /* lateral offset, left positive */
    double speed_mps;         /* along the track */
    double lat_speed_mps;     /* lateral, left positive */
    double x_m, y_m, heading_rad; /* for drawing: derived from this tick's state when read via sim_world_car */
    DrvControls last_controls;
    /* race */
    double race_dist_m;       /* distance covered since the start line, negative on the grid */
    int laps;                 /* completed laps */
    int position;             /* 1-based, by race distance (finished cars by finishing order) */
    double last_lap_s, best_lap_s; /* 0 when none yet */
    double finish_time_s;     /* valid when status == SIM_FINISHED */
    SimStatus status;
    char dnf_reason[64];
    /* counts */
    int overtakes, positions_lost, lappings, collisions, offtracks;
    double offtrack_s;
    bool off_track_now;
    bool drafting_now;        /* in another car's wake this tick */
} SimCar;

/* ---- events ------------------------------------------------------------------------------------------------ */

typedef enum SimEventType {
    SIM_EV_OVERTAKE = 0, /* a = passer, b = passed */
    SIM_EV_LAPPING,      /* a = lapping car, b = lapped car */
    SIM_EV_COLLISION,    /* a, b; value = relative speed at impact, m/s */
    SIM_EV_OFFTRACK,     /* a; value = 0 at start (the duration is added to the car's offtrack_s) */
    SIM_EV_LAP,          /* a; value = lap time, s; lap = lap number completed */
    SIM_EV_FINISH,       /* a; value = race time, s */
    SIM_EV_RETIRE,       /* a; text in the car's dnf_reason */
    SIM_EV_COUNT
} SimEventType;

typedef struct SimEvent {
    long tick;
    SimEventType type;
    int a, b;     /* car ids, b = -1 when not used */
    int lap;
    double value;
} SimEvent;

const char *sim_event_name(SimEventType type); /* "overtake", "lapping", "collision", ... */

/* ---- the world --------------------------------------------------------------------------------------------- */

typedef struct SimWorldDef {
    const TrkTrack *track;  /* borrowed; must outlive the world */
    double tick_hz;         /* default 100 */
    int laps;               /* default 5; 0 = no lap target (scenarios with a duration) */
    double duration_s;      /* 0 = none; otherwise the race ends at this sim time */
    double time_limit_s;    /* safety limit, default: generous for the lap count */
    double stall_timeout_s; /* a car that makes no progress this long is retired, default 20 */
    uint64_t seed;
} SimWorldDef;

SimWorldDef sim_default_world_def(void);

/* One car entering the world. */
typedef struct SimCarDef {
    const char *name;
    int number;
    uint8_t colour[3];
    SimCarSpec spec;
    double s_m, d_m, speed_mps; /* start position; s may be behind the line (it is wrapped) */
    double race_dist_m;         /* start race distance (negative behind the line on a grid) */
    DrvThinkFn *think;          /* the driver; NULL = a car that holds its line and speed */
    void *driver;               /* passed to think; borrowed */
} SimCarDef;

typedef struct SimWorld SimWorld;

SimWorld *sim_world_create(const SimWorldDef *def);
void sim_world_destroy(SimWorld *world);
int sim_world_add_car(SimWorld *world, const SimCarDef *def); /* returns the car id, or -1 */

void sim_world_step(SimWorld *world);
bool sim_world_done(const SimWorld *world);
/* Steps until done. */
void sim_world_run(SimWorld *world);

long sim_world_tick(const SimWorld *world);
double sim_world_time(const SimWorld *world); /* s */
const TrkTrack *sim_world_track(const SimWorld *world);
const SimWorldDef *sim_world_def(const SimWorld *world);
int sim_world_car_count(const SimWorld *world);
const SimCar *sim_world_car(const SimWorld *world, int id);
/* Car ids in race order (index 0 = leader). */
const int *sim_world_order(const SimWorld *world);
const SimEvent *sim_world_events(const SimWorld *world, int *count);
/* FNV-1a over the full state (bit patterns of every double), for determinism tests. */
uint64_t sim_world_hash(const SimWorld *world);

/* Checks the invariants of every car: finite state, s in [0, length), speed >= 0, not beyond the world limit
 * (the track edge plus the off-track margin), race distance consistent with completed laps. Returns 0 when all
 * hold; otherwise nonzero with err holding e.g. "car 3 (Ace): d = 14.2 m beyond the world limit (11.0 m)".
 * For soak tests and fuzzing; the sim itself never needs it. */
int sim_world_check(const SimWorld *world, char *err, size_t err_len);

/* ---- stage timing (benchmarks only) ------------------------------------------------------------------------ */

/* The stages of sim_world_step, in order. */
typedef enum SimStage {
    SIM_STAGE_SENSE = 0, /* sort by s, views, drafting */
    SIM_STAGE_THINK,     /* every driver's think (behaviours, post-processing, resolve, control) */
    SIM_STAGE_PHYSICS,   /* integrate */
    SIM_STAGE_COLLIDE,
    SIM_STAGE_SCORE,     /* laps, passes, order, poses */
    SIM_STAGE_COUNT
} SimStage;

const char *sim_stage_name(SimStage stage); /* "sense", "think", ... */
/* Per-stage wall-clock timing, off by default: a run without it never reads a clock, and results never depend on
 * it. Turning it on resets the totals. */
void sim_world_set_stage_timing(SimWorld *world, bool on);
/* Nanoseconds spent in a stage since timing was turned on (0 when off). */
double sim_world_stage_ns(const SimWorld *world, SimStage stage);

#endif
