/* sim_baseline.h: regression baselines of a race: per-seed counts (overtakes, collisions, off-tracks) and finishing
 * orders, recorded once and compared with a rerun.
 *
 * File format (text, one record per line, fields separated by single spaces, written by sim_baseline_write):
 *   racesim-baseline 1                       format and version (first line)
 *   race PATH                                the race file, as given when recording (rest of the line)
 *   track LENGTH_M NAME                      "%.3f" length, then the track's name (rest of the line)
 *   laps N / tick_hz HZ / cars N / shuffle_grid 0|1
 *   driver K NAME                            one per car, K = 1..cars in race-file order
 *   files HASH                               FNV-1a 64 of the race, track, car and driver files' bytes (16 hex)
 *   tolerance overtakes=N collisions=N offtracks=N orders=N
 *   seed S overtakes=N collisions=N offtracks=N order=E,E,...   one per seed, ascending; E = race entry (1-based),
 *                                            finishing order, with an 'r' suffix for a retired car
 *   total seeds=N overtakes=N collisions=N offtracks=N
 *   checksum HASH                            FNV-1a 64 of every byte before this line (16 hex); the last line
 *
 * Tolerances: |total now - total recorded| may be at most the tolerance of each count, and at most `orders` seeds
 * may change their finishing order. All zero (the default) means exact: any change of any seed fails, since runs
 * are deterministic. A file is stale when its track (name, length), laps, tick rate, car count, grid option or
 * driver names differ from the race now; a changed `files` hash alone is only a note (personalities were tuned).
 */
#ifndef SIM_BASELINE_H
#define SIM_BASELINE_H

#include "sim_race.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_BASELINE_VERSION 1
#define SIM_BASELINE_MAX_SEEDS 100000

typedef struct SimBaselineRun {
    uint64_t seed;
    int overtakes, collisions, offtracks;
    int car_count;
    uint8_t order[SIM_MAX_CARS];      /* race entries (0-based) in finishing order */
    bool retired[SIM_MAX_CARS];       /* by finishing place */
} SimBaselineRun;

typedef struct SimBaselineTol {
    int overtakes, collisions, offtracks; /* allowed change of each total */
    int orders;                       /* seeds allowed to change their finishing order */
} SimBaselineTol;

typedef struct SimBaseline {
    char race_path[SIM_PATH_LEN];
    char track_name[128];
    char track_length[32];            /* "%.3f" m, compared as text */
    int laps;
    char tick_hz[32];                 /* "%g" */
    int cars;
    bool shuffle_grid;
    char drivers[SIM_MAX_CARS][DRV_NAME_LEN];
    uint64_t files_hash;
    SimBaselineTol tol;
    int run_count;
    SimBaselineRun *runs;             /* malloc'd, run_count long */
} SimBaseline;

/* The fingerprint of a race as it is now (track loaded for its name and length; files hashed), no runs.
 * Returns 0, or nonzero with err "path:0: ...". */
int sim_baseline_init(SimBaseline *b, const SimRace *race, bool shuffle_grid, char *err, size_t err_len);
void sim_baseline_free(SimBaseline *b);
/* Makes room for `count` runs (zeroed). Returns 0, nonzero when out of memory. */
int sim_baseline_alloc_runs(SimBaseline *b, int count);
/* The run of a finished session. */
void sim_baseline_run_from_session(const SimSession *session, SimBaselineRun *out);

/* The file's text (malloc'd, NUL-terminated) or NULL when out of memory. */
char *sim_baseline_write(const SimBaseline *b);
/* Parses a baseline; `path` is for messages. Errors are "path:line: what is wrong": a missing checksum line
 * (truncated), a checksum that does not match (edited or damaged), any malformed or inconsistent line. */
int sim_baseline_parse(const char *text, size_t len, const char *path, SimBaseline *out, char *err, size_t err_len);
int sim_baseline_load(const char *path, SimBaseline *out, char *err, size_t err_len);

/* Whether the recorded baseline still describes the race now (fingerprints from sim_baseline_init). Returns 0, or
 * nonzero with err "path:line: stale baseline: ..." (path and line of the baseline file). */
int sim_baseline_check_stale(const SimBaseline *recorded, const SimBaseline *now, const char *path, char *err,
                             size_t err_len);

/* Verdict of a rerun (same seeds in the same order). */
typedef struct SimBaselineVerdict {
    int d_overtakes, d_collisions, d_offtracks; /* now - recorded totals */
    int changed_seeds;                /* seeds with any difference */
    int changed_orders;               /* seeds whose finishing order differs */
    bool exact;                       /* every tolerance is zero */
    bool pass;
} SimBaselineVerdict;

/* Whether run a and b differ in counts / in finishing order. */
bool sim_baseline_run_counts_differ(const SimBaselineRun *a, const SimBaselineRun *b);
bool sim_baseline_run_order_differs(const SimBaselineRun *a, const SimBaselineRun *b);
/* Compares a rerun with the recorded runs under the recorded tolerances. Both must hold the same seeds. */
SimBaselineVerdict sim_baseline_compare(const SimBaseline *recorded, const SimBaseline *now);

#endif
