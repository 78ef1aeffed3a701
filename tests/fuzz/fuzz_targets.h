/* fuzz_targets.h: one function per parser that must accept or reject any bytes without crashing. The libFuzzer
 * harnesses (tests/fuzz/fuzz_*.c) call one each; tests/test_fuzz_regress.c replays the saved inputs of
 * tests/fuzz/regress/<target>/ through the same functions, so every crash found stays fixed.
 *
 * Inputs that load also go through the queries their users make (a track answers pose and Frenet queries, a race
 * builds a session and steps it a little), so the fuzzer reaches past the parsers. */
#ifndef FUZZ_TARGETS_H
#define FUZZ_TARGETS_H

#include "../../app/app.h"
#include "../../app/cli.h"
#include "../../drivers/drv.h"
#include "../../lab/lab.h"
#include "../../sim/sim.h"
#include "../../track/trk.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes as a NUL-terminated string (the text parsers' input); NULL when out of memory. */
static char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

/* A track that loads must answer queries anywhere, including at absurd arc lengths. */
static void fuzz_track_queries(TrkTrack *t)
{
    int hint = -1;
    double s = 0, d = 0, L = trk_length(t);
    const double at[] = {0.0, L * 0.37, L, -L * 2.5, 1e300, -1e300, NAN, INFINITY};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        TrkPose p = trk_pose_at(t, at[i], &hint);
        trk_to_frenet(t, p.x_m, p.y_m, &s, &d, &hint);
        trk_curvature(t, at[i], &hint);
        trk_width_left(t, at[i], NULL);
        trk_line_d(t, at[i], &hint);
    }
    trk_summary(t);
}

static int fuzz_track_ini(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_ini_string(text, "fuzz.ini", NULL, err, sizeof err);
    if (t)
        fuzz_track_queries(t);
    trk_free(t);
    free(text);
    return 0;
}

static int fuzz_track_csv(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_csv_string(text, "fuzz.csv", NULL, err, sizeof err);
    if (t)
        fuzz_track_queries(t);
    trk_free(t);
    free(text);
    return 0;
}

static int fuzz_track_xml(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_xml_string(text, "fuzz.xml", NULL, err, sizeof err);
    if (t)
        fuzz_track_queries(t);
    trk_free(t);
    free(text);
    return 0;
}

static int fuzz_driver_ini(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    DrvPersonality p;
    drv_personality_parse_string(text, "fuzz.ini", &p, err, sizeof err);
    free(text);
    return 0;
}

static int fuzz_car_ini(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    SimCarSpec spec;
    sim_car_spec_parse_string(text, "fuzz.ini", &spec, err, sizeof err);
    free(text);
    return 0;
}

/* Race files and scenarios ([race], [grid], [start], [expect]). `path` decides where the relative paths inside
 * resolve (the harness uses a sandbox of small tracks; the regression test the repository's data/races/). A race of
 * at most four cars that loads is built into a session and stepped for half a simulated second, checking the world's
 * invariants (bigger fields cost each driver's plans to build, which would slow the fuzzer to a crawl). */
static int fuzz_race_at(const uint8_t *data, size_t size, const char *path)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    static SimRace race; /* large; static keeps it off the fuzzer's stack */
    char err[1024];
    if (sim_race_parse_string(text, path, &race, err, sizeof err) == 0 && race.entry_count <= 4) {
        SimSessionDef def = sim_default_session_def(&race);
        SimSession *s = sim_session_create(&race, &def, err, sizeof err);
        if (s) {
            SimWorld *w = sim_session_world(s);
            for (int i = 0; i < 50 && !sim_world_done(w); i++)
                sim_world_step(w);
            if (sim_world_check(w, err, sizeof err) != 0) {
                fprintf(stderr, "fuzz_race: %s\n", err);
                abort();
            }
            sim_session_destroy(s);
        }
    }
    free(text);
    return 0;
}

/* FNV-1a 64, as the baseline format's checksum line. */
static uint64_t fuzz_fnv(const char *b, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Baseline files. A mutated file almost never keeps a valid checksum, so when the input has a checksum line its
 * value is recomputed first: the fuzzer then reaches the header and run lines (and, untouched, the checksum code
 * is fuzzed by inputs without that line's exact form). */
static int fuzz_baseline(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *mark = NULL;
    for (char *p = strstr(text, "\nchecksum "); p; p = strstr(p + 1, "\nchecksum "))
        mark = p;
    if (mark && strlen(mark + 10) >= 16) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fuzz_fnv(text, (size_t)(mark + 1 - text)));
        memcpy(mark + 10, hex, 16);
    }
    LabBaseline b;
    memset(&b, 0, sizeof b);
    char err[1024];
    if (lab_baseline_parse(text, size, "fuzz.baseline", &b, err, sizeof err) == 0) {
        char *again = lab_baseline_write(&b);
        free(again);
    }
    lab_baseline_free(&b);
    free(text);
    return 0;
}

/* One JSON-lines record of `racesim batch` / `racesim ab` (the bytes exactly, not NUL-terminated). */
static int fuzz_record(const uint8_t *data, size_t size)
{
    static LabRecord rec;
    char err[1024];
    const char *text = size ? (const char *)data : "";
    lab_record_parse(text, size, "fuzz.jsonl", 1, &rec, err, sizeof err);
    LabJsonDoc doc;
    memset(&doc, 0, sizeof doc);
    lab_json_parse(text, size, &doc, err, sizeof err);
    lab_json_free(&doc);
    return 0;
}

/* ---- command lines (app/cli.h) -------------------------------------------------------------------------------
 * The input is words separated by newlines or NULs (a final empty word dropped): the first names the command (its
 * name, else its first byte picks one), the rest are its arguments, at most FUZZ_CLI_MAX_WORDS. The command's parse
 * runs twice on fresh copies of the line and must say the same both times (getopt_long keeps global state between
 * calls). A refused line returns 2 with a message and no usage text; --help returns 0 with the usage; an accepted
 * line gives options inside the ranges cli.h documents, with every string pointing into the line. */
#define FUZZ_CLI_MAX_WORDS 64

static char *const fuzz_cli_names[] = {"run", "batch", "ab", "tune", "merge", "check", "baseline", "track"};
#define FUZZ_CLI_COMMANDS ((int)(sizeof fuzz_cli_names / sizeof fuzz_cli_names[0]))

typedef union FuzzCliOpts {
    CliRunOpts run;
    CliBatchOpts batch;
    CliAbOpts ab;
    CliTuneOpts tune;
    CliMergeOpts merge;
    CliCheckOpts check;
    CliBaselineOpts baseline;
    CliTrackOpts track;
} FuzzCliOpts;

static int fuzz_cli_parse(int cmd, int argc, char **argv, FuzzCliOpts *o, FILE *out, FILE *err)
{
    switch (cmd) {
    case 0: return cli_run_parse(argc, argv, &o->run, out, err);
    case 1: return cli_batch_parse(argc, argv, &o->batch, out, err);
    case 2: return cli_ab_parse(argc, argv, &o->ab, out, err);
    case 3: return cli_tune_parse(argc, argv, &o->tune, out, err);
    case 4: return cli_merge_parse(argc, argv, &o->merge, out, err);
    case 5: return cli_check_parse(argc, argv, &o->check, out, err);
    case 6: return cli_baseline_parse(argc, argv, &o->baseline, out, err);
    default: return cli_track_parse(argc, argv, &o->track, out, err);
    }
}

static void fuzz_cli_fail(const char *cmd, const char *what)
{
    fprintf(stderr, "fuzz_cli: racesim %s: %s\n", cmd, what);
    abort();
}

/* A string option: NULL, or one of the line's words or the tail of one (`--out=F`): the parse copies nothing. */
static bool fuzz_cli_word(const char *s, char **argv, int argc)
{
    if (!s)
        return true;
    for (int i = 0; i < argc; i++)
        if (s >= argv[i] && s <= argv[i] + strlen(argv[i]))
            return true;
    return false;
}

static bool fuzz_cli_range(long v, long lo, long hi) { return v >= lo && v <= hi; }

static bool fuzz_cli_shard(int index, int count) { return index >= 1 && index <= count && count <= 1000000; }

static bool fuzz_cli_sprt_ok(const LabSprtDef *def)
{
    char why[256];
    return lab_sprt_check_def(def, why, sizeof why) == 0;
}

/* What an accepted line promises (cli.h); NULL or the first broken promise. */
static const char *fuzz_cli_run_bad(const CliRunOpts *o, char **argv, int argc)
{
    if (!o->race_path || (!fuzz_cli_word(o->race_path, argv, argc) && strcmp(o->race_path, app_default_race()) != 0))
        return "race path";
    if (!fuzz_cli_range(o->laps, 0, 1000) || !(o->at_s >= 0.0 && o->at_s <= 1e6))
        return "--laps or --at out of range";
    if (o->at_s != 0.0 && o->headless)
        return "--at with --headless";
    if (o->headless && o->screenshot_path)
        return "--headless with --screenshot";
    if (o->video_path) {
        if (!cli_video_format(o->video_path))
            return "--video not .mp4, .mkv, .webm or .mov";
        if (o->headless || o->screenshot_path || o->at_s != 0.0)
            return "--video with --headless, --screenshot or --at";
        if (!(o->from_s >= 0.0 && o->from_s <= 1e6) || !(o->to_s > o->from_s) ||
            !(o->have_to ? o->to_s <= 1e6 : o->to_s == o->from_s + 10.0))
            return "--from or --to out of range (0..1e6, from < to, to = from + 10 when not given)";
    } else if (o->from_s != 0.0 || o->to_s != 0.0 || o->have_to) {
        return "--from or --to without --video";
    }
    if (o->fps != 0 && (!o->video_path || !fuzz_cli_range(o->fps, 1, 120)))
        return "--fps out of 1..120 or without --video";
    if ((o->width != 0) != (o->height != 0) ||
        (o->width != 0 && (o->headless || !fuzz_cli_range(o->width, CLI_MIN_W, CLI_MAX_W) ||
                           !fuzz_cli_range(o->height, CLI_MIN_H, CLI_MAX_H) ||
                           (o->video_path && (o->width % 2 != 0 || o->height % 2 != 0)))))
        return "--size out of range, odd for a --video, or with --headless";
    if (o->camera && strcmp(o->camera, "overview") != 0 && strcmp(o->camera, "follow") != 0 &&
        strcmp(o->camera, "chase") != 0 && strcmp(o->camera, "director") != 0)
        return "--camera";
    const char *paths[] = {o->json_path, o->csv_path, o->screenshot_path, o->font_path, o->trace_path,
                           o->chart_path, o->camera, o->video_path};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (!fuzz_cli_word(paths[i], argv, argc) || (paths[i] && !paths[i][0]))
            return "a path that is empty or not a word of the line";
    return NULL;
}

static const char *fuzz_cli_batch_bad(const CliBatchOpts *o, char **argv, int argc)
{
    if (!o->race_path || !fuzz_cli_word(o->race_path, argv, argc) || !fuzz_cli_word(o->out_path, argv, argc) ||
        !fuzz_cli_word(o->csv_path, argv, argc) || !fuzz_cli_word(o->chart_path, argv, argc))
        return "a path that is not a word of the line";
    if ((o->out_path && !o->out_path[0]) || (o->csv_path && !o->csv_path[0]) ||
        (o->chart_path && !o->chart_path[0]))
        return "an empty path";
    if (!fuzz_cli_range(o->races, 1, 100000000) || !fuzz_cli_range(o->jobs, 1, 256) ||
        !fuzz_cli_range(o->laps, 0, 1000) || !fuzz_cli_shard(o->shard_index, o->shard_count))
        return "a number out of range";
    if (o->resume && (!o->out_path || strcmp(o->out_path, "-") == 0))
        return "--resume without an --out file";
    return NULL;
}

static const char *fuzz_cli_ab_bad(const CliAbOpts *o, char **argv, int argc)
{
    const char *paths[] = {o->race_path, o->a_path, o->b_path, o->out_path, o->chart_path};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (!fuzz_cli_word(paths[i], argv, argc) || (paths[i] && !paths[i][0]) || (i < 3 && !paths[i]))
            return "a path that is missing, empty or not a word of the line";
    if (!fuzz_cli_range(o->races, 1, 100000000) || !fuzz_cli_range(o->jobs, 1, 256) ||
        !fuzz_cli_range(o->seat, 0, SIM_MAX_CARS) || !fuzz_cli_range(o->laps, 0, 1000) ||
        !fuzz_cli_range(o->max_races, 0, 100000000) || !fuzz_cli_range(o->metric, -1, LAB_AB_METRIC_COUNT - 1) ||
        !fuzz_cli_shard(o->shard_index, o->shard_count))
        return "a number out of range";
    if (o->has_h0 != o->has_h1 || (o->has_h0 && !fuzz_cli_sprt_ok(&o->sprt_def)) || (o->sprt && !o->has_h0) ||
        (o->sprt && o->shard_count > 1) || (o->max_races && !o->sprt) || (o->has_error_rate && !o->has_h0))
        return "the sequential test's options";
    if (o->resume && (!o->out_path || strcmp(o->out_path, "-") == 0))
        return "--resume without an --out file";
    return NULL;
}

static const char *fuzz_cli_tune_bad(const CliTuneOpts *o, char **argv, int argc)
{
    if (!o->race_path || !o->driver_path || !fuzz_cli_word(o->race_path, argv, argc) ||
        !fuzz_cli_word(o->driver_path, argv, argc) || !fuzz_cli_word(o->out_path, argv, argc))
        return "a path that is missing or not a word of the line";
    if ((o->driver_path && !o->driver_path[0]) || (o->out_path && !o->out_path[0]))
        return "an empty path";
    if (!fuzz_cli_range(o->param_count, 1, LAB_SPSA_MAX_PARAMS) || !fuzz_cli_range(o->iterations, 1, 1000000) ||
        !fuzz_cli_range(o->pairs, 1, 1000000) || !fuzz_cli_range(o->jobs, 1, 256) ||
        !fuzz_cli_range(o->seat, 0, SIM_MAX_CARS) || !fuzz_cli_range(o->laps, 0, 1000))
        return "a number out of range";
    if (o->metric != LAB_AB_POINTS && o->metric != LAB_AB_POSITION && o->metric != LAB_AB_TIME)
        return "--metric";
    for (int i = 0; i < o->param_count; i++) {
        const AppTuneParam *p = &o->params[i];
        if (!memchr(p->section, 0, sizeof p->section) || !memchr(p->key, 0, sizeof p->key) || !p->section[0] ||
            !p->key[0] || !isfinite(p->lo) || !isfinite(p->hi) || !(p->lo < p->hi))
            return "a --param";
    }
    return NULL;
}

static const char *fuzz_cli_merge_bad(const CliMergeOpts *o, char **argv, int argc)
{
    if (o->path_count < 1 || o->path_count > argc || !o->paths || o->paths + o->path_count != argv + argc ||
        !fuzz_cli_word(o->chart_path, argv, argc))
        return "the files";
    if (!fuzz_cli_range(o->metric, -1, LAB_AB_METRIC_COUNT - 1) || (o->has_sprt && !fuzz_cli_sprt_ok(&o->sprt_def)))
        return "--metric or the sequential test";
    return NULL;
}

static const char *fuzz_cli_check_bad(const CliCheckOpts *o, char **argv, int argc)
{
    if (o->path_count < 1 || o->path_count > argc || !o->paths || o->paths + o->path_count != argv + argc)
        return "the files";
    if (!fuzz_cli_range(o->jobs, 1, 256) ||
        (o->have_seeds && (o->seed_first > o->seed_last || o->seed_last - o->seed_first >= 100000)))
        return "--jobs or --seeds";
    return NULL;
}

static const char *fuzz_cli_baseline_bad(const CliBaselineOpts *o, char **argv, int argc)
{
    if (!o->mode || !o->file || !fuzz_cli_word(o->mode, argv, argc) || !fuzz_cli_word(o->file, argv, argc) ||
        !fuzz_cli_word(o->out, argv, argc) || (o->out && !o->out[0]))
        return "a path that is missing, empty or not a word of the line";
    bool record = strcmp(o->mode, "record") == 0;
    if (!record && strcmp(o->mode, "compare") != 0)
        return "the mode";
    if (record ? !o->have_seeds || !o->out
               : o->have_seeds || o->out || o->shuffle || o->has_tol || o->tol.overtakes || o->tol.collisions ||
                     o->tol.offtracks || o->tol.orders)
        return "options of the other mode";
    if (!fuzz_cli_range(o->jobs, 1, 256) || !fuzz_cli_range(o->tol.overtakes, 0, 1000000000) ||
        !fuzz_cli_range(o->tol.collisions, 0, 1000000000) || !fuzz_cli_range(o->tol.offtracks, 0, 1000000000) ||
        !fuzz_cli_range(o->tol.orders, 0, 1000000000) ||
        (o->have_seeds && (o->seed_first > o->seed_last || o->seed_last - o->seed_first >= 100000)))
        return "a number out of range";
    return NULL;
}

static const char *fuzz_cli_track_bad(const CliTrackOpts *o, char **argv, int argc)
{
    if (o->file_count < 1 || o->file_count > argc || !o->files || o->files + o->file_count != argv + argc ||
        !fuzz_cli_word(o->export_path, argv, argc))
        return "the files";
    if ((o->export_path && o->file_count != 1) || !(o->grip_use >= 0.5 && o->grip_use <= 1.0))
        return "--export or --grip-use";
    if (o->line != TRK_LINE_CLASSIC && o->line != TRK_LINE_MIN_CURVATURE)
        return "--line";
    return NULL;
}

static const char *fuzz_cli_bad(int cmd, const FuzzCliOpts *o, char **argv, int argc)
{
    switch (cmd) {
    case 0: return fuzz_cli_run_bad(&o->run, argv, argc);
    case 1: return fuzz_cli_batch_bad(&o->batch, argv, argc);
    case 2: return fuzz_cli_ab_bad(&o->ab, argv, argc);
    case 3: return fuzz_cli_tune_bad(&o->tune, argv, argc);
    case 4: return fuzz_cli_merge_bad(&o->merge, argv, argc);
    case 5: return fuzz_cli_check_bad(&o->check, argv, argc);
    case 6: return fuzz_cli_baseline_bad(&o->baseline, argv, argc);
    default: return fuzz_cli_track_bad(&o->track, argv, argc);
    }
}

/* One parse of the line (copied, since getopt_long reorders argv); its exit code, what it wrote to each stream, and
 * with CLI_GO the options checked. */
typedef struct FuzzCliResult {
    int rc;
    char *out, *err; /* malloc'd */
    size_t out_len, err_len;
} FuzzCliResult;

static void fuzz_cli_once(int cmd, char **words, int argc, FuzzCliResult *r)
{
    char *argv[FUZZ_CLI_MAX_WORDS + 2];
    memcpy(argv, words, (size_t)argc * sizeof *argv);
    argv[argc] = NULL;
    static FuzzCliOpts opts; /* CliTuneOpts is large; static keeps it off the fuzzer's stack */
    memset(&opts, 0xa5, sizeof opts); /* the parse must set every field it promises, not find them zeroed */
    r->out = r->err = NULL;
    FILE *out = open_memstream(&r->out, &r->out_len), *err = open_memstream(&r->err, &r->err_len);
    if (!out || !err)
        abort();
    r->rc = fuzz_cli_parse(cmd, argc, argv, &opts, out, err);
    fclose(out);
    fclose(err);
    const char *name = fuzz_cli_names[cmd];
    if (r->rc == CLI_GO) {
        const char *bad = fuzz_cli_bad(cmd, &opts, argv, argc);
        if (bad)
            fuzz_cli_fail(name, bad);
        if (r->out_len || r->err_len)
            fuzz_cli_fail(name, "an accepted line wrote a message");
    } else if (r->rc == 0) {
        if (strncmp(r->out, "usage: racesim ", 15) != 0 || r->err_len)
            fuzz_cli_fail(name, "--help without the usage on `out` alone");
    } else if (r->rc == 2) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "racesim %s: ", name);
        if (strncmp(r->err, prefix, strlen(prefix)) != 0 || r->err[r->err_len - 1] != '\n' || r->out_len)
            fuzz_cli_fail(name, "a refused line without its `racesim CMD: ` message on `err` alone");
        const char *unknown = r->err + strlen(prefix); /* a message that quotes a word may quote anything */
        if (strncmp(unknown, "unknown option '", 16) == 0 && unknown[16] != '-')
            fuzz_cli_fail(name, "an unknown option named by a word that is not an option");
    } else {
        fuzz_cli_fail(name, "an exit code other than CLI_GO, 0 or 2");
    }
}

static int fuzz_cli(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *words[FUZZ_CLI_MAX_WORDS + 2];
    int n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size && n < FUZZ_CLI_MAX_WORDS + 1; i++) {
        if (i < size && text[i] != '\n' && text[i] != '\0')
            continue;
        text[i] = '\0';
        if (i < size || i > start) /* a final empty word (a last newline) is dropped */
            words[n++] = text + start;
        start = i + 1;
    }
    int cmd = 0;
    if (n > 0) {
        cmd = (unsigned char)words[0][0] % FUZZ_CLI_COMMANDS;
        for (int k = 0; k < FUZZ_CLI_COMMANDS; k++)
            if (strcmp(words[0], fuzz_cli_names[k]) == 0)
                cmd = k;
    }
    words[0] = fuzz_cli_names[cmd]; /* argv[0], as main passes it */
    int argc = n > 0 ? n : 1;
    FuzzCliResult a, b;
    fuzz_cli_once(cmd, words, argc, &a);
    fuzz_cli_once(cmd, words, argc, &b);
    if (a.rc != b.rc || a.out_len != b.out_len || a.err_len != b.err_len || memcmp(a.out, b.out, a.out_len) != 0 ||
        memcmp(a.err, b.err, a.err_len) != 0)
        fuzz_cli_fail(fuzz_cli_names[cmd], "a second parse of the same line says something else");
    free(a.out), free(a.err), free(b.out), free(b.err);
    free(text);
    return 0;
}

#endif
