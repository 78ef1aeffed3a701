/* cli.h: the commands' command lines, read without running anything. cli_CMD_parse reads `racesim CMD ...` (argv[0]
 * is the command name) into its options struct, defaults first, and returns CLI_GO when the command should run,
 * else its exit code: 0 after --help (the usage written to `out`), 2 on bad usage (the message, and where it helps a
 * pointer to --help, written to `err`). A parse may be called any number of times in one process (getopt_long's
 * state is reset on entry, nothing else is kept); it reorders argv as getopt_long does, and the strings in the
 * options point into argv. The fuzzer (tests/fuzz/fuzz_cli.c) holds the parsers to these promises. */
#ifndef CLI_H
#define CLI_H

#include "app_tune.h"

#include "../lab/lab.h"
#include "../track/trk.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_GO (-1)

/* Parses a whole string as an integer in lo..hi / an unsigned 64-bit seed. Returns 0 on success. */
int cli_parse_long(const char *s, long lo, long hi, long *out);
int cli_parse_u64(const char *s, uint64_t *out);
/* A whole string as a finite double. */
int cli_parse_double(const char *s, double *out);
/* The container ffmpeg writes for a --video file name, by its extension (case-insensitive): "mp4", "matroska",
 * "webm" or "mov" for a .mp4, .mkv, .webm or .mov name (more than the extension); NULL for another. */
const char *cli_video_format(const char *path);
/* A frame size "WxH" (or "WXH"), CLI_MIN_W x CLI_MIN_H .. CLI_MAX_W x CLI_MAX_H pixels. Returns 0 on success. */
#define CLI_MIN_W 960
#define CLI_MIN_H 540
#define CLI_MAX_W 3840
#define CLI_MAX_H 2160
int cli_parse_size(const char *s, int *w, int *h);
/* "I/N" with 1 <= I <= N <= 1000000. */
int cli_parse_shard(const char *s, int *index, int *count);
/* What an experiment option accepts, for error messages ("an integer 1..256"). */
const char *cli_option_expects(const char *option);
/* getopt_long's global state reset before a parse: the next call starts at argv[1], silently. */
void cli_getopt_reset(void);
/* The message for getopt_long's '?' or ':' (opterr = 0, optstring starting with ':'; longs the table it was given):
 * an unknown option, one that needs a value or one that takes none, named as the user typed it. */
struct option;
void cli_opt_error(FILE *err, const char *cmd, int c, char **argv, const struct option *longs);
/* An empty string names no file: 2 with "racesim CMD: WHAT: expected a file path, got ''" written to err, else 0
 * (also for NULL, an option not given). */
int cli_path_given(FILE *err, const char *cmd, const char *what, const char *path);
/* The number of online processors, 1..256 (the default --jobs). */
int cli_default_jobs(void);

/* racesim run [RACE.ini] */
typedef struct CliRunOpts {
    const char *race_path;  /* the default race when none is given */
    bool headless, shuffle, quiet, timing;
    bool have_seed;
    uint64_t seed;
    int laps;               /* 1..1000, 0 = the race file's */
    const char *json_path, *csv_path;
    const char *screenshot_path, *font_path;
    const char *camera;     /* --camera: overview | follow | chase | director, or NULL */
    double at_s;            /* --at, 0..1e6 s: the screenshot's moment, or the window opens there (never headless) */
    const char *video_path; /* --video: a clip of [from_s, to_s]; a name cli_video_format knows */
    double from_s, to_s;    /* --from, --to, 0..1e6 s, only with --video: from_s < to_s (default from_s + 10) */
    bool have_to;           /* --to given */
    int fps;                /* --fps 1..120, only with --video; 0 = the default (APP_VIDEO_FPS) */
    int width, height;      /* --size WxH, 960x540..3840x2160 (even with --video), never with --headless; 0 = default */
    const char *chart_path; /* --chart: lap and gap chart (experiments) */
    const char *trace_path; /* --trace: every car every tick, CSV */
} CliRunOpts;
int cli_run_parse(int argc, char **argv, CliRunOpts *o, FILE *out, FILE *err);

/* racesim batch RACE.ini --races N */
typedef struct CliBatchOpts {
    const char *race_path;
    long races;             /* 1..1e8 */
    bool has_seed;
    uint64_t seed;
    long jobs;              /* 1..256 */
    const char *out_path, *csv_path;
    const char *chart_path; /* --chart FILE.svg (the .svg name is checked by the command) */
    bool resume;            /* only with an --out file */
    int shard_index, shard_count; /* 1 <= index <= count */
    long laps;              /* 1..1000, 0 = the race file's */
} CliBatchOpts;
int cli_batch_parse(int argc, char **argv, CliBatchOpts *o, FILE *out, FILE *err);

/* racesim ab RACE.ini --a A.ini --b B.ini (--races N | --sprt ...) */
typedef struct CliAbOpts {
    const char *race_path, *a_path, *b_path, *out_path, *chart_path;
    long races;             /* pairs, 1..1e8 (with --sprt: --max-races, default 10000) */
    long jobs, seat, laps, max_races; /* 1..256; 0 or 1..SIM_MAX_CARS; 0 or 1..1000; 0 or 1..1e8 */
    bool sprt, has_h0, has_h1, has_error_rate, resume;
    LabSprtDef sprt_def;    /* checked by lab_sprt_check_def when has_h0 */
    bool has_seed;
    uint64_t seed;
    int metric;             /* a LabAbMetric, -1 = all */
    int shard_index, shard_count;
} CliAbOpts;
int cli_ab_parse(int argc, char **argv, CliAbOpts *o, FILE *out, FILE *err);

/* racesim tune RACE.ini --driver FILE --param S.K=LO:HI... --iterations N */
typedef struct CliTuneOpts {
    const char *race_path, *driver_path, *out_path;
    AppTuneParam params[LAB_SPSA_MAX_PARAMS];
    int param_count;        /* 1..LAB_SPSA_MAX_PARAMS */
    long iterations, pairs, jobs, seat, laps; /* 1..1e6; 1..1e6; 1..256; 0 or 1..SIM_MAX_CARS; 0 or 1..1000 */
    bool has_seed;
    uint64_t seed;
    int metric;             /* LAB_AB_POINTS, LAB_AB_POSITION or LAB_AB_TIME */
} CliTuneOpts;
int cli_tune_parse(int argc, char **argv, CliTuneOpts *o, FILE *out, FILE *err);

/* racesim merge PART.jsonl... */
typedef struct CliMergeOpts {
    char **paths;           /* argv's files, at least one */
    int path_count;
    const char *chart_path;
    int metric;             /* a LabAbMetric, -1 = all */
    bool has_sprt;          /* the SPRT state asked for: sprt_def checked by lab_sprt_check_def */
    LabSprtDef sprt_def;
} CliMergeOpts;
int cli_merge_parse(int argc, char **argv, CliMergeOpts *o, FILE *out, FILE *err);

/* racesim check FILE_OR_DIR... */
typedef struct CliCheckOpts {
    bool have_seeds, json, verbose;
    uint64_t seed_first, seed_last; /* with have_seeds: first <= last, at most 100000 seeds */
    int jobs;               /* 1..256 */
    char **paths;           /* argv's files and directories, at least one */
    int path_count;
} CliCheckOpts;
int cli_check_parse(int argc, char **argv, CliCheckOpts *o, FILE *out, FILE *err);

/* racesim baseline record RACE.ini ... | racesim baseline compare FILE */
typedef struct CliBaselineOpts {
    const char *mode;       /* "record" or "compare" */
    const char *file;       /* RACE.ini (record) or the baseline (compare) */
    const char *out;        /* record only */
    bool have_seeds, shuffle; /* record only */
    uint64_t seed_first, seed_last;
    int jobs;               /* 1..256 */
    bool has_tol;           /* a --tol-* given (record only) */
    LabBaselineTol tol;     /* each 0..1e9 */
} CliBaselineOpts;
int cli_baseline_parse(int argc, char **argv, CliBaselineOpts *o, FILE *out, FILE *err);

/* racesim track FILE... */
typedef struct CliTrackOpts {
    char **files;           /* argv's track files, at least one (exactly one with --export) */
    int file_count;
    const char *export_path;
    double grip_use;        /* 0.5..1 */
    bool strict;
    TrkLineMethod line;     /* --line (default classic); a track file's [track] line replaces it */
} CliTrackOpts;
int cli_track_parse(int argc, char **argv, CliTrackOpts *o, FILE *out, FILE *err);

#endif
