/* cmd_batch.c: `racesim batch RACE.ini --races N ...`: many races with consecutive seeds on worker threads, one
 * JSON line per race, and a per-driver table with confidence intervals. The table is computed from the records
 * read back from their JSON lines in seed order, by the same tally `racesim merge` uses. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"

#include "../lab/lab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cmd_batch_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim batch RACE.ini --races N [--seed S] [--jobs J] [--out FILE.jsonl] [--shard I/N]\n"
            "                     [--laps L]\n\n"
            "Runs N races with seeds S..S+N-1. Race K is exactly `racesim run RACE.ini --seed K --shuffle-grid`\n"
            "(the seed also shuffles the grid), so any race can be replayed alone and watched. Prints per driver:\n"
            "mean finishing position, wins, podiums, overtakes, positions lost, collisions, off-track seconds,\n"
            "DNFs and best lap, each with a 95%% interval. Results do not depend on --jobs.\n\n"
            "options:\n"
            "  --races N        number of races (required)\n"
            "  --seed S         first seed (default: the race file's seed)\n"
            "  --jobs J         worker threads (default: all cores, here %d)\n"
            "  --out FILE       write one JSON line per race, in seed order (`-` for stdout, then no table)\n"
            "  --shard I/N      run only shard I of N: seeds S+k with k = I-1 (mod N); `racesim merge` the parts\n"
            "  --laps L         override the race's lap count\n"
            "  -h, --help       this text\n",
            app_default_jobs());
}

typedef struct BatchOpts {
    const char *race_path;
    long races;
    bool has_seed;
    uint64_t seed;
    long jobs;
    const char *out_path;
    int shard_index, shard_count;
    long laps;
} BatchOpts;

/* Parses the options; returns 0, 1 for --help, or 2 on bad usage (message printed). */
static int cmd_batch_options(int argc, char **argv, BatchOpts *o)
{
    memset(o, 0, sizeof *o);
    o->jobs = app_default_jobs();
    o->shard_index = o->shard_count = 1;
    o->races = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (a[0] != '-' && !o->race_path) {
            o->race_path = a;
            continue;
        }
        if (!v && a[0] == '-') {
            fprintf(stderr, "racesim batch: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--races") == 0)
            bad = app_parse_long(v, 1, 100000000, &o->races);
        else if (strcmp(a, "--seed") == 0) {
            bad = app_parse_u64(v, &o->seed);
            o->has_seed = true;
        }
        else if (strcmp(a, "--jobs") == 0)
            bad = app_parse_long(v, 1, 256, &o->jobs);
        else if (strcmp(a, "--out") == 0)
            o->out_path = v;
        else if (strcmp(a, "--shard") == 0)
            bad = app_parse_shard(v, &o->shard_index, &o->shard_count);
        else if (strcmp(a, "--laps") == 0)
            bad = app_parse_long(v, 1, 10000, &o->laps);
        else {
            fprintf(stderr, "racesim batch: unknown argument '%s'\n", a);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "racesim batch: %s: expected %s, got '%s'\n", a, app_option_expects(a), v);
            return 2;
        }
        i++;
    }
    if (!o->race_path || o->races < 1) {
        fprintf(stderr, "racesim batch: %s\n", o->race_path ? "--races N is required" : "no race file given");
        return 2;
    }
    return 0;
}

typedef struct BatchRun {
    const BatchOpts *opts;
    const SimRace *race;
    const uint64_t *seeds;
    FILE *out;
    LabBatchTally *tally;
    LabRecord *scratch; /* the consumer's record (consumption is serial) */
    AppProgress progress;
    const TrkTrack *track; /* loaded once, shared read-only by every worker */
    const DrvTableCache *tables; /* the drivers' tables on it, built once, shared read-only by every worker */
} BatchRun;

/* One race as the compact `run --json` record without events: exactly the line `racesim run` would write. */
static char *cmd_batch_work(void *ctx, long index, char *err, size_t err_len)
{
    const BatchRun *run = ctx;
    SimSession *s = app_exp_run_race(run->race, run->track, run->tables, run->seeds[index], (int)run->opts->laps, NULL,
                                     NULL, err, err_len);
    if (!s)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        sim_results_write_json(s, f, false, true);
        if (fclose(f) != 0) {
            free(text);
            text = NULL;
        }
    }
    if (!text)
        snprintf(err, err_len, "out of memory");
    sim_session_destroy(s);
    return text;
}

static int cmd_batch_consume(void *ctx, long index, char *text, char *err, size_t err_len)
{
    BatchRun *run = ctx;
    size_t len = strlen(text);
    int rc = 0;
    if (run->out && fputs(text, run->out) == EOF) {
        snprintf(err, err_len, "%s: write error", run->opts->out_path);
        rc = 1;
    }
    /* the table is built from the line as written, exactly as `merge` will read it */
    char perr[1024];
    if (!rc && lab_record_parse(text, len - 1, "(batch)", index + 1, run->scratch, perr, sizeof perr)) {
        snprintf(err, err_len, "internal error: %s", perr);
        rc = 1;
    }
    if (!rc && lab_batch_tally_add(run->tally, run->scratch, perr, sizeof perr)) {
        snprintf(err, err_len, "internal error: %s", perr);
        rc = 1;
    }
    free(text);
    return rc;
}

static void cmd_batch_progress(void *ctx, long done, long total)
{
    app_progress_update(&((BatchRun *)ctx)->progress, done, total);
}

static int cmd_batch_execute(const BatchOpts *o, const SimRace *race, const TrkTrack *track,
                             const DrvTableCache *tables, FILE *out)
{
    long n = 0;
    uint64_t first = o->has_seed ? o->seed : race->seed;
    uint64_t *seeds = app_shard_seeds(first, o->races, o->shard_index, o->shard_count, &n);
    LabBatchTally *tally = malloc(sizeof *tally);
    LabRecord *scratch = malloc(sizeof *scratch);
    if (!seeds || !tally || !scratch) {
        fprintf(stderr, "racesim batch: out of memory\n");
        free(seeds), free(tally), free(scratch);
        return 1;
    }
    lab_batch_tally_init(tally);
    BatchRun ctx = {o, race, seeds, out, tally, scratch, {false, NULL, 0.0, 0.0}, track, tables};
    LabBatchDef def = lab_batch_default_def();
    def.count = n;
    def.threads = (int)o->jobs;
    def.work = cmd_batch_work;
    def.consume = cmd_batch_consume;
    def.progress = cmd_batch_progress;
    def.ctx = &ctx;
    char err[1024];
    app_progress_begin(&ctx.progress, "races");
    int rc = lab_batch_run(&def, err, sizeof err);
    app_progress_end(&ctx.progress, tally->races);
    if (rc)
        fprintf(stderr, "racesim batch: %s\n", err);
    else if (out != stdout) {
        if (tally->races > 0)
            lab_batch_tally_print(tally, stdout);
        else
            printf("shard %d/%d of %ld races holds no seeds\n", o->shard_index, o->shard_count, o->races);
    }
    free(seeds), free(tally), free(scratch);
    return rc ? 1 : 0;
}

int cmd_batch(int argc, char **argv)
{
    BatchOpts o;
    int rc = cmd_batch_options(argc, argv, &o);
    if (rc == 1) {
        cmd_batch_usage(stdout);
        return 0;
    }
    if (rc) {
        fprintf(stderr, "(see racesim batch --help)\n");
        return 2;
    }
    SimRace *race = malloc(sizeof *race);
    char err[1024];
    if (!race || app_race_load(o.race_path, race, err, sizeof err)) {
        fprintf(stderr, "%s\n", race ? err : "racesim batch: out of memory");
        free(race);
        return 2;
    }
    if (app_seed_range_check(o.has_seed ? o.seed : race->seed, o.races, err, sizeof err)) {
        fprintf(stderr, "racesim batch: %s\n", err);
        free(race);
        return 2;
    }
    FILE *out = NULL;
    AppOut aout;
    if (o.out_path) {
        const char *inputs[SIM_MAX_CARS + 2];
        int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
        if (app_out_check(o.out_path, inputs, n_in, NULL, 0, err, sizeof err) != 0 ||
            app_out_open(&aout, o.out_path, err, sizeof err) != 0) {
            fprintf(stderr, "racesim batch: %s\n", err);
            free(race);
            return 2;
        }
        out = aout.f;
    }
    TrkTrack *track = trk_load(race->track_path, NULL, err, sizeof err);
    if (!track) {
        fprintf(stderr, "%s\n", err);
        if (out)
            app_out_abort(&aout);
        free(race);
        return 2;
    }
    /* every race's drivers' tables, built here before the workers start so that they only read them */
    DrvTableCache *tables = sim_race_tables_create(race, track, NULL, 0);
    if (!tables)
        fprintf(stderr, "racesim batch: out of memory\n");
    rc = tables ? cmd_batch_execute(&o, race, track, tables, out) : 1;
    drv_table_cache_destroy(tables);
    trk_free(track);
    if (out && rc != 0) {
        app_out_abort(&aout); /* a failed batch leaves an existing file as it was */
    } else if (out && app_out_commit(&aout, err, sizeof err) != 0) {
        fprintf(stderr, "racesim batch: %s\n", err);
        rc = 1;
    }
    free(race);
    return rc;
}
