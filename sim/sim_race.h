/* sim_race.h: race files and race sessions.
 *
 * A race file (INI) names a track, a lap count, a seed, a tick rate, an optional car spec, and a grid of driver
 * personality files. A session is one race instance built from it: the loaded track, one driver per car and the
 * world, ready to step. Every tool (headless run, viewer, batch, A/B, checks) builds races through a session, so a
 * race of a batch can be replayed alone and watched.
 */
#ifndef SIM_RACE_H
#define SIM_RACE_H

#include "sim.h"
#include "sim_expect.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_PATH_LEN 1024
#define SIM_MAX_CARS 128

typedef struct SimRaceEntry {
    char driver_path[SIM_PATH_LEN]; /* resolved relative to the race file */
    DrvPersonality personality;     /* loaded and validated with the race */
    /* explicit start ([start] section of a scenario); unused on a grid */
    bool placed;
    double s_m, d_m, speed_mps;
    bool hold;                      /* [start] `car = ..., hold`: no driver, the car holds its line and speed */
} SimRaceEntry;

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
    SimExpect expect;               /* [expect] of a scenario (expect.present = false when none) */
} SimRace;

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
     * Batches build them once (sim_race_tables_create): a race's drivers cost ~73 M instructions of tables. */
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

/* ---- results ----------------------------------------------------------------------------------------------- */

/* The headless results table: position, number, name, laps, total time, gap, best lap, overtakes, positions lost,
 * collisions, off-track seconds, status. */
void sim_results_print_table(const SimSession *session, FILE *out);
/* The JSON record (keys documented in the README); events included when with_events. One line when compact. */
void sim_results_write_json(const SimSession *session, FILE *out, bool with_events, bool compact);
void sim_results_write_csv(const SimSession *session, FILE *out);

#endif
