/* cmd_batch.c: `racesim batch RACE.ini --races N ...`: many races with consecutive seeds on worker threads, one
 * JSON line per race, and a per-driver table with confidence intervals. The table is computed from the records
 * read back from their JSON lines in seed order, by the same tally `racesim merge` uses. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"
#include "cli.h"

#include "../lab/lab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct BatchRun {
    const CliBatchOpts *opts;
    const SimRace *race;
    const uint64_t *seeds;
    FILE *out;
    FILE *csv; /* --csv, or NULL */
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
    /* flushed record by record: a reader of --out - (or of the file, once renamed) never waits for a buffer */
    if (run->out && (fputs(text, run->out) == EOF || fflush(run->out) != 0)) {
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
    /* the CSV rows come from the record too, so a resumed batch writes them for its kept races as well */
    if (!rc && run->csv &&
        ((index == 0 && fputs(SIM_CSV_HEADER "\n", run->csv) == EOF) || lab_record_write_csv(run->scratch, run->csv) ||
         fflush(run->csv) != 0)) {
        snprintf(err, err_len, "%s: write error", run->opts->csv_path);
        rc = 1;
    }
    free(text);
    return rc;
}

static void cmd_batch_progress(void *ctx, long done, long total)
{
    app_progress_update(&((BatchRun *)ctx)->progress, done, total);
}

/* --resume: a kept line must be this batch's race K (same race file, lap count and seed). */
static const char *cmd_batch_resume_match(void *ctx, long index, const LabRecord *rec)
{
    const BatchRun *run = ctx;
    int laps = run->opts->laps > 0 ? (int)run->opts->laps : run->race->laps;
    if (rec->kind != LAB_RECORD_RACE || strcmp(rec->race, run->race->path) != 0 || rec->laps != laps)
        return "a race of another batch (race file or laps differ)";
    if (rec->seed != run->seeds[index])
        return "a seed out of this batch's order";
    return NULL;
}

static int cmd_batch_execute(const CliBatchOpts *o, const SimRace *race, const TrkTrack *track,
                             const DrvTableCache *tables, FILE *out, FILE *csv)
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
    BatchRun ctx = {o, race, seeds, out, csv, tally, scratch, {false, NULL, 0.0, 0.0}, track, tables};
    char err[1024];
    int rc = 0;
    long kept = 0, consumed = 0;
    char *kept_text = NULL;
    if (o->resume && (kept = app_resume_read("batch", o->out_path, n, scratch, cmd_batch_resume_match, &ctx,
                                              &kept_text)) < 0)
        rc = 1;
    /* the kept races go through the consumer as if just run: written again in order and tallied */
    if (!rc && kept > 0 && (rc = app_resume_feed(kept_text, kept, cmd_batch_consume, &ctx, err, sizeof err)) != 0)
        fprintf(stderr, "racesim batch: %s\n", err);
    free(kept_text);
    if (!rc && kept > 0)
        fprintf(stderr, "racesim batch: resuming %s: %ld of %ld races kept, %ld to run\n", o->out_path, kept, n,
                n - kept);
    LabBatchDef def = lab_batch_default_def();
    def.count = n;
    def.start = kept;
    def.stop = app_stop_flag();
    def.consumed = &consumed;
    def.threads = (int)o->jobs;
    def.work = cmd_batch_work;
    def.consume = cmd_batch_consume;
    def.progress = cmd_batch_progress;
    def.ctx = &ctx;
    if (!rc) {
        app_progress_begin(&ctx.progress, "races");
        rc = lab_batch_run(&def, err, sizeof err);
        app_progress_end(&ctx.progress, tally->races);
        if (rc == 1)
            fprintf(stderr, "racesim batch: %s\n", err);
    }
    if (rc == LAB_BATCH_INTERRUPTED) {
        fprintf(stderr, "racesim batch: stopped by %s after %ld of %ld races", strsignal(app_stop_signal()),
                consumed, n);
        if (o->out_path && strcmp(o->out_path, "-") != 0)
            fprintf(stderr, ": they are in %s; the same command with --resume runs the other %ld\n", o->out_path,
                    n - consumed);
        else
            fprintf(stderr, "\n");
    } else if (!rc && out != stdout && csv != stdout) {
        if (tally->races > 0)
            lab_batch_tally_print(tally, stdout);
        else
            printf("shard %d/%d of %ld races holds no seeds\n", o->shard_index, o->shard_count, o->races);
    }
    free(seeds), free(tally), free(scratch);
    return rc;
}

int cmd_batch(int argc, char **argv)
{
    CliBatchOpts o;
    int rc = cli_batch_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    app_stop_install();
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
    FILE *out = NULL, *csv = NULL;
    AppOut aout, acsv;
    const char *inputs[SIM_MAX_CARS + 2], *outs[] = {o.out_path, o.csv_path};
    int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
    for (int k = 0; k < 2; k++) {
        if (!outs[k])
            continue;
        AppOut *ao = k == 0 ? &aout : &acsv;
        if (app_out_check(outs[k], inputs, n_in, outs, 2, err, sizeof err) != 0 ||
            app_out_open(ao, outs[k], err, sizeof err) != 0) {
            fprintf(stderr, "racesim batch: %s\n", err);
            if (out)
                app_out_abort(&aout);
            free(race);
            return 2;
        }
        *(k == 0 ? &out : &csv) = ao->f;
    }
    TrkDef tdef = sim_race_track_def(race);
    TrkTrack *track = trk_load(race->track_path, &tdef, err, sizeof err);
    if (!track) {
        fprintf(stderr, "%s\n", err);
        if (out)
            app_out_abort(&aout);
        if (csv)
            app_out_abort(&acsv);
        free(race);
        return 2;
    }
    /* every race's drivers' tables, built here before the workers start so that they only read them */
    DrvTableCache *tables = sim_race_tables_create(race, track, NULL, 0);
    if (!tables)
        fprintf(stderr, "racesim batch: out of memory\n");
    rc = tables ? cmd_batch_execute(&o, race, track, tables, out, csv) : 1;
    drv_table_cache_destroy(tables);
    trk_free(track);
    /* a failed batch leaves an existing file as it was; a stopped one keeps the races it finished */
    for (int k = 0; k < 2; k++) {
        AppOut *ao = k == 0 ? &aout : &acsv;
        if (!(k == 0 ? out : csv))
            continue;
        if (rc == 1) {
            app_out_abort(ao);
        } else if (app_out_commit(ao, err, sizeof err) != 0) {
            fprintf(stderr, "racesim batch: %s\n", err);
            rc = 1;
        }
    }
    free(race);
    if (rc == LAB_BATCH_INTERRUPTED)
        return 128 + app_stop_signal(); /* as a shell reports a program its signal ended */
    return rc;
}
