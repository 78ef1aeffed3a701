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
#include <stddef.h>
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
    double x_m, y_m, heading_rad; /* for drawing: while the world keeps poses (sim_world_keep_poses) */
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
    SIM_EV_OVERTAKE = 0, /* a = passer, b = passed; value = the pace gap: b's lap alone minus a's (each driver's
                          * speed plan's flying lap), s; > 0: the faster driver passed (a pass on merit); NaN when
                          * either has no plan (a scripted car) */
    SIM_EV_LAPPING,      /* a = lapping car, b = lapped car */
    SIM_EV_COLLISION,    /* a, b; value = relative speed at impact, m/s */
    SIM_EV_OFFTRACK,     /* a; value = 0 at start (the duration is added to the car's offtrack_s) */
    SIM_EV_LAP,          /* a; value = lap time, s; lap = lap number completed */
    SIM_EV_FINISH,       /* a; value = race time, s */
    SIM_EV_RETIRE,       /* a; text in the car's dnf_reason */
    SIM_EV_COUNT
} SimEventType;

/* What kind of overtake or collision an event was (SIM_KIND_NONE for the other events). An overtake is put in the
 * first class that fits, in this order: gained from the passed car's mistake (it went off the track or had a
 * contact within SIM_MISTAKE_S before), a braking-zone pass (either car braked within SIM_BRAKING_S before), a
 * drafting pass (the passer was in a wake within SIM_DRAFTED_S before), a corner pass (in a corner), else a pass on
 * pace. A collision is rear-end when the cars overlapped less along the track than across it, else side by side. */
typedef enum SimEventKind {
    SIM_KIND_NONE = 0,
    SIM_KIND_MISTAKE,
    SIM_KIND_BRAKING,
    SIM_KIND_DRAFTING,
    SIM_KIND_CORNER,
    SIM_KIND_PACE,
    SIM_KIND_REAR_END,
    SIM_KIND_SIDE,
    SIM_KIND_COUNT
} SimEventKind;
#define SIM_MISTAKE_S 5.0
#define SIM_BRAKING_S 2.0
#define SIM_DRAFTED_S 3.0

typedef struct SimEvent {
    long tick;
    SimEventType type;
    int a, b;     /* car ids, b = -1 when not used */
    int lap;
    double value;
    SimEventKind kind; /* overtakes and collisions */
    int race_lap;      /* the lap the leader was on (1-based) */
} SimEvent;

const char *sim_event_name(SimEventType type); /* "overtake", "lapping", "collision", ... */
const char *sim_event_kind_name(SimEventKind kind); /* "mistake", "braking", "drafting", "corner", "pace",
                                                       "rear-end", "side"; "" for none */

/* ---- the world --------------------------------------------------------------------------------------------- */

typedef struct SimWorldDef {
    const TrkTrack *track;  /* borrowed; must outlive the world */
    double tick_hz;         /* default 100 */
    int laps;               /* default 5; 0 = no lap target (scenarios with a duration) */
    double duration_s;      /* 0 = none; otherwise the race ends at this sim time */
    double time_limit_s;    /* safety limit, default: generous for the lap count, past duration_s */
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
    const TrkSpeedProfile *plan; /* its driver's speed plan (drv_plan), shown to the others; NULL = unknown */
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
/* A car's state. Its pose (x_m, y_m, heading_rad) is kept up to date only while the world keeps poses: computing
 * it every tick costs a headless run several per cent for what only a viewer reads. */
const SimCar *sim_world_car(const SimWorld *world, int id);
/* Keeps every car's pose up to date from now on (at the end of each step), or stops doing so. */
void sim_world_keep_poses(SimWorld *world, bool on);
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

/* ==== File reading: strict numbers and paths (race and car files here, baselines and expectations in lab/) ====== */

/* Race and car files are INI files read by the project's INI reader (trk_ini_parse), and small: anything bigger than
 * this is not one (see trk_file_read). */
#define SIM_MAX_INI_BYTES ((size_t)1 << 20)

/* Strict conversions: the whole text (surrounding blanks allowed) must be the number; finite doubles only.
 * Return 0 on success. */
int sim_parse_double(const char *text, double *out);
int sim_parse_long(const char *text, long *out);
int sim_parse_u64(const char *text, uint64_t *out);

/* Joins a path relative to the directory of `base_file` (absolute paths are kept). Returns nonzero when the result
 * does not fit. */
int sim_path_join(char *out, size_t out_len, const char *base_file, const char *rel);

/* ==== Race files, car files and sessions ================================================================== */

/* race files and race sessions.
 *
 * A race file (INI) names a track, a lap count, a seed, a tick rate, an optional car spec, and a grid of driver
 * personality files. A session is one race instance built from it: the loaded track, one driver per car and the
 * world, ready to step. Every tool (headless run, viewer, batch, A/B, checks) builds races through a session, so a
 * race of a batch can be replayed alone and watched.
 */

#define SIM_PATH_LEN 1024
#define SIM_MAX_CARS 128
#define SIM_TRACK_WARN_LEN 4096

typedef struct SimRaceEntry {
    char driver_path[SIM_PATH_LEN]; /* resolved relative to the race file */
    DrvPersonality personality;     /* loaded and validated with the race */
    /* explicit start ([start] section of a scenario); unused on a grid */
    bool placed;
    double s_m, d_m, speed_mps;
    bool hold;                      /* [start] `car = ..., hold`: no driver, the car holds its line and speed */
} SimRaceEntry;

/* The lines of a section the simulation does not read itself (a scenario's [expect], read by lab/), kept as
 * written with their line numbers. */
#define SIM_SECTION_MAX_LINES 64
#define SIM_SECTION_KEY_LEN 64
#define SIM_SECTION_VALUE_LEN 256
typedef struct SimSectionLine {
    int line;
    char key[SIM_SECTION_KEY_LEN];
    char value[SIM_SECTION_VALUE_LEN];
} SimSectionLine;
typedef struct SimSection {
    bool present;           /* the section header appeared */
    int count;
    SimSectionLine lines[SIM_SECTION_MAX_LINES];
} SimSection;

/* Championship points by finishing position ([race] points = 25,18,...); places past the list score 0. */
#define SIM_MAX_POINTS 40
#define SIM_DEFAULT_POINTS {25, 18, 15, 12, 10, 8, 6, 4, 2, 1}
#define SIM_DEFAULT_POINTS_COUNT 10

typedef struct SimRace {
    char path[SIM_PATH_LEN];
    char track_path[SIM_PATH_LEN];  /* resolved relative to the race file */
    int laps;
    double duration_s;              /* 0 = none */
    uint64_t seed;
    double tick_hz;
    SimCarSpec car;
    int entry_count;
    SimRaceEntry entries[SIM_MAX_CARS];
    SimSection expect;              /* the [expect] lines of a scenario, read by lab/ (lab_expect_load) */
    int points_count;               /* points[i]: points for finishing position i + 1 */
    int points[SIM_MAX_POINTS];
    bool strict_track;              /* [race] strict_track: refuse a track whose edges fold (TrkDef.strict) */
    bool shuffle_grid;              /* [race] shuffle_grid: sim_default_session_def permutes the grid by seed */
    /* the track's load warnings (trk_warning: "path:line: warning: ..." lines, each ending in a newline), "" if none,
     * for the caller to print once; cut at a line's end when longer */
    char track_warning[SIM_TRACK_WARN_LEN];
} SimRace;

/* The options every loader of the race's track passes to trk_load ([race] strict_track). */
TrkDef sim_race_track_def(const SimRace *race);

/* Loads and validates a race file and every driver file it names. On error returns nonzero and err holds
 * "path:line: what is wrong" (the path of whichever file is wrong). The track is checked by loading it. */
int sim_race_load(const char *path, SimRace *out, char *err, size_t err_len);
/* The same on in-memory text; `path` is used in messages and to resolve the relative paths inside. */
int sim_race_parse_string(const char *text, const char *path, SimRace *out, char *err, size_t err_len);

/* A car file (a [car] section: mass_kg, power_kw, drag_area_m2, rolling_coeff, mu, downforce_area_m2,
 * air_density_kgpm3, length_m, width_m; unset keys keep sim_default_car_spec's values). Same error style. */
int sim_car_spec_load(const char *path, SimCarSpec *out, char *err, size_t err_len);
int sim_car_spec_parse_string(const char *text, const char *path, SimCarSpec *out, char *err, size_t err_len);

/* Options for one race instance. */
typedef struct SimSessionDef {
    uint64_t seed;          /* the race's seed (the race file's unless overridden) */
    bool shuffle_grid;      /* permute the grid with the seed */
    int laps;               /* 0 = the race file's */
    /* replace the personality of one or more seats (A/B tests); NULL = none */
    const DrvPersonality *seat_override;
    const bool *seat_mask;  /* entry_count flags: which seats get seat_override */
    /* the race's track, already loaded (borrowed; must outlive the session); NULL = load race->track_path.
     * Batches load it once: building a track's racing line costs more than a short race. */
    const TrkTrack *track;
    /* the drivers' track tables, built beforehand for this track (borrowed, only read; must outlive the session);
     * NULL = none. The session shares the tables among its own drivers either way and builds what this lacks.
     * Batches build them once (sim_race_tables_create). */
    const DrvTableCache *tables;
} SimSessionDef;

SimSessionDef sim_default_session_def(const SimRace *race);

/* A table cache holding the tables of every driver of the race's grid and of the `extra_count` personalities in
 * `extra` (A/B candidates), for the race's car on `track`, to lend to sessions (SimSessionDef.tables). NULL on
 * allocation failure. Free with drv_table_cache_destroy after the sessions. */
DrvTableCache *sim_race_tables_create(const SimRace *race, const TrkTrack *track, const DrvPersonality *const *extra,
                                      int extra_count);

typedef struct SimSession SimSession;

/* Builds the track, drivers and world. NULL with err filled on failure. The race must outlive the session. */
SimSession *sim_session_create(const SimRace *race, const SimSessionDef *def, char *err, size_t err_len);
void sim_session_destroy(SimSession *session);
SimWorld *sim_session_world(SimSession *session);
const TrkTrack *sim_session_track(const SimSession *session);
/* The driver of a car (for the viewer's map inspector), NULL for scripted cars. */
const DrvDriver *sim_session_driver(const SimSession *session, int car_id);
/* Which race entry (grid line of the file) each car came from, after any shuffle. */
int sim_session_entry_of(const SimSession *session, int car_id);
/* The race and the options the session was built with. */
const SimRace *sim_session_race(const SimSession *session);
const SimSessionDef *sim_session_def(const SimSession *session);

/* ---- keyframes ---------------------------------------------------------------------------------------------- */

/* A keyframe of a session: the world's state and every driver's at one tick. The race is a pure function of its
 * files and seed, so a session restored to a keyframe goes on exactly as it went from there (the viewer's rewind).
 * A snapshot is sized for one session and restores only into it, to an earlier or a later tick. The events are not
 * copied: the world keeps every event it has made, a restore sets their count back to the keyframe's, and the race
 * going on makes the later ones again, the same. Taking the first snapshot starts the world (as its first step would): no car can be added
 * after it. */
typedef struct SimSnapshot SimSnapshot;

SimSnapshot *sim_snapshot_create(const SimSession *session); /* NULL on allocation failure */
void sim_snapshot_destroy(SimSnapshot *snap);
/* Nonzero when the world cannot start (out of memory). */
int sim_snapshot_take(SimSnapshot *snap, SimSession *session);
/* Nonzero (and the session untouched) when the snapshot was never taken or was taken from another session. */
int sim_snapshot_restore(const SimSnapshot *snap, SimSession *session);
long sim_snapshot_tick(const SimSnapshot *snap); /* -1 before it is taken */
size_t sim_snapshot_bytes(const SimSnapshot *snap); /* memory it holds */

/* ---- results ----------------------------------------------------------------------------------------------- */

/* "finished", "dnf" or "running": a status as results files spell it. */
const char *sim_status_name(SimStatus status);

/* The per-car CSV columns of `run --csv` and `batch --csv` (both write their rows with sim_csv_write_row). */
#define SIM_CSV_HEADER                                                                                               \
    "seed,position,number,name,driver_file,grid,status,laps,time_s,best_lap_s,overtakes,positions_lost,lappings,"   \
    "collisions,offtracks,offtrack_s,dnf_reason"
typedef struct SimCsvRow {
    uint64_t seed;
    int position, number;
    const char *name, *driver_file;
    int grid;
    SimStatus status;
    int laps;
    double time_s, best_lap_s; /* written only when finished / when a lap was completed */
    int overtakes, positions_lost, lappings, collisions, offtracks;
    double offtrack_s;
    const char *dnf_reason; /* written only for a DNF */
} SimCsvRow;
/* One row of SIM_CSV_HEADER's columns, fields quoted as CSV needs them (RFC 4180). */
void sim_csv_write_row(FILE *out, const SimCsvRow *row);

/* The headless results table: position, number, name, laps, total time, gap, best lap, overtakes, positions lost,
 * collisions, off-track seconds, status. */
void sim_results_print_table(const SimSession *session, FILE *out);
/* The JSON record (keys documented in docs/formats.md); events included when with_events. One line when compact. */
void sim_results_write_json(const SimSession *session, FILE *out, bool with_events, bool compact);
/* Writes s as a JSON string literal: quotes and backslashes escaped, \n and \t as such, other control characters
 * and DEL as \u00XX; the project's one JSON string writer (results, records, reports). */
void sim_json_write_string(FILE *out, const char *s);
void sim_results_write_csv(const SimSession *session, FILE *out);

/* ==== A race's history for charts ========================================================================= */

/* a race's history for charts: when each car crossed each of a fixed set of distance markers (every
 * lap line and `per_lap` points per lap), read from the world after every step. The sim itself is untouched: the
 * trace only observes. */
typedef struct SimTraceCar {
    char name[DRV_NAME_LEN];
    int number;
    uint8_t colour[3];
    int grid;            /* 1-based start position */
    SimStatus status;    /* at the last sample */
    int position;        /* at the last sample */
} SimTraceCar;

/* An overtake or a collision as the trace saw it: where car a was at that moment. */
typedef struct SimTraceEvent {
    SimEventType type;   /* SIM_EV_OVERTAKE or SIM_EV_COLLISION */
    int a, b;            /* car ids (a = the passer) */
    double time_s;
    double lap;          /* car a's race distance in laps */
    int position_a;      /* car a's position after the step */
} SimTraceEvent;

typedef struct SimTrace {
    int car_count;
    int laps;
    int per_lap;         /* markers per lap; marker k sits at race distance (k + 1) * lap / per_lap */
    int markers;         /* laps * per_lap */
    double lap_m;
    SimTraceCar *cars;
    double *cross_s;     /* [car * markers + k]: sim time of crossing marker k, or -1 if never */
    double *prev_dist_m; /* per car, at the previous sample */
    double prev_time_s;
    int *next_marker;    /* per car */
    SimTraceEvent *events; /* overtakes and collisions, in the order they happened */
    int event_count, event_cap;
    int events_seen;     /* the world's events already read */
} SimTrace;

/* Starts a trace of a world before its first step (the grid order is read here). NULL on allocation failure or a
 * world without a lap count. */
SimTrace *sim_trace_create(const SimWorld *world, int per_lap);
/* Call after every sim_world_step. */
void sim_trace_sample(SimTrace *trace, const SimWorld *world);
void sim_trace_free(SimTrace *trace);

/* Position of `car` among the cars that crossed marker k, by crossing
 * time (1-based), or 0 if the car never crossed it. */
int sim_trace_position_at(const SimTrace *trace, int car, int marker);

#endif
