/* app_exp.h: what `racesim batch`, `ab` and `merge` share: seeds of a shard, the progress bar,
 * and running one race of a batch into a record. */
#ifndef APP_EXP_H
#define APP_EXP_H

#include "../lab/lab.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* sim_race_load, and a scenario's [expect] lines checked too (lab_expect_load), so every command refuses a bad
 * scenario file the same way. Same return and message as sim_race_load. Prints the track's warnings (a repaired
 * fold, a bridge) on stderr. */
int app_race_load(const char *path, SimRace *race, char *err, size_t err_len);

/* SIGINT and SIGTERM set a flag (the first time; a second signal ends the program as usual) that long runs poll
 * between races; app_stop_signal is the signal that set it, or 0. */
void app_stop_install(void);
const volatile sig_atomic_t *app_stop_flag(void);
int app_stop_signal(void);

/* 0 when seeds first..first+races-1 all exist (no wrap past 2^64-1); else 1 and a message. */
int app_seed_range_check(uint64_t first, long races, char *err, size_t err_len);
/* The seeds of shard `index` of `count` (1-based) of the batch S..S+races-1: seed S+k for k = index-1 (mod count).
 * Returns a malloc'd array (possibly of length 0 but non-NULL) and its length in *n; NULL when out of memory. */
uint64_t *app_shard_seeds(uint64_t first, long races, int index, int count, long *n);

/* --resume: the complete lines at the start of an existing output file that are this run's first records, checked
 * by `matches` (index, the parsed record; returns NULL or what is wrong). Returns how many are kept, their text in
 * *kept_text (freed by the caller; NULL when none), or -1 with the message printed as "racesim CMD: ...". A missing
 * file keeps nothing; a cut last line (the process was killed while writing it) is dropped with a note. */
typedef const char *AppResumeMatchFn(void *ctx, long index, const LabRecord *rec);
long app_resume_read(const char *cmd, const char *path, long n, LabRecord *scratch, AppResumeMatchFn *matches,
                     void *ctx, char **kept_text);
/* Feeds the kept lines to a batch consumer as if just run (written again in order, tallied); 0 or the consumer's
 * first nonzero return, with err filled. */
int app_resume_feed(const char *kept_text, long kept, LabBatchConsumeFn *consume, void *ctx, char *err,
                    size_t err_len);

/* A progress bar on stderr, only when stderr is a terminal: races done, races/s, time left. */
typedef struct AppProgress {
    bool on;
    const char *unit;  /* "races" or "pairs" */
    double start_s, last_s;
} AppProgress;

void app_progress_begin(AppProgress *p, const char *unit);
void app_progress_update(AppProgress *p, long done, long total);
void app_progress_end(AppProgress *p, long done);
/* A progress line without a total (a sequential test): count done, a caller's text, rate. */
void app_progress_note(AppProgress *p, long done, const char *text);

/* Runs one race exactly as `racesim run RACE --seed SEED --shuffle-grid [--laps L]` would (laps 0 = the file's),
 * with an optional personality in the seats flagged by seat_mask, on the lent track with the lent drivers' tables
 * (SimSessionDef.track and .tables; either may be NULL). Returns the finished session or NULL. */
SimSession *app_exp_run_race(const SimRace *race, const TrkTrack *track, const DrvTableCache *tables, uint64_t seed,
                             int laps, const DrvPersonality *override, const bool *seat_mask, char *err,
                             size_t err_len);
/* Prints the A/B report for `ab` and `merge` and writes the chart when chart_path is set; returns an exit code.
 * With `sprt`, the report ends with the sequential test's state on the metric (position when metric < 0), the
 * pairs fed to it in seed order. */
struct LabAbTally;
int app_ab_report(const struct LabAbTally *tally, int metric, const char *chart_path, const LabSprtDef *sprt);
/* The metric a sequential test runs on. */
int app_sprt_metric(int metric);

/* `run --chart` (app_chart.c). Each returns an exit code or NULL with the message printed.
 * app_chart_check_path: only .svg is written (checked before any race runs).
 * app_chart_trace / app_chart_write: a run that samples its world after every step charts itself.
 * app_chart_race: replays the race defined by race and def with a trace (after a window or a screenshot). */
struct SimTrace;
int app_chart_check_path(const char *cmd, const char *path);
/* Writes a chart through the atomic writer: draw(ctx, f) fills it. "racesim CMD: message" and 1 on failure. */
int app_chart_save(const char *cmd, const char *path, void (*draw)(const void *ctx, FILE *out), const void *ctx);
struct SimTrace *app_chart_trace(const SimWorld *world);
int app_chart_write(const struct SimTrace *trace, const SimRace *race, const SimSessionDef *def,
                    const SimWorld *world, const char *path);
int app_chart_race(const SimRace *race, const SimSessionDef *def, const char *path);

/* The command that opens a race in the viewer at a moment, which `check` and `baseline compare` print for a
 * failure: "<lead>racesim run PATH --seed S[ --shuffle-grid][ --at T]\n" (no --at when at_s < 0), the path quoted
 * for a shell when it needs it. */
void app_print_open_command(FILE *out, const char *lead, const char *race_path, uint64_t seed, bool shuffle,
                            double at_s);
/* The same command without the lead and the newline, into buf (cut short when it does not fit:
 * APP_OPEN_COMMAND_LEN always holds it, a path being at most SIM_PATH_LEN bytes, each quoted in at most 4). */
#define APP_OPEN_COMMAND_LEN (4 * SIM_PATH_LEN + 96)
void app_open_command(char *buf, size_t len, const char *race_path, uint64_t seed, bool shuffle, double at_s);

/* The record's JSON line as a malloc'd string, or NULL. */
char *app_record_text(const LabRecord *rec);

#endif
