/* cmd_ab.c: `racesim ab RACE.ini --a A.ini --b B.ini --races N ...`: a paired A/B test of two personalities.
 * Each seed runs twice, identical (same shuffled grid, same opponents, same seed) except that the tested grid line
 * drives personality A in one run and B in the other. The report comes from the pair records read back in seed
 * order, by the same analysis `racesim merge` uses. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"
#include "cli.h"

#include "../lab/lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct AbRun {
    const CliAbOpts *opts;
    const SimRace *race;
    const DrvPersonality *pa, *pb;
    const uint64_t *seeds;
    FILE *out;
    LabAbTally *tally;
    LabRecord *scratch;
    AppProgress progress;
    LabSprt *seq;          /* --sprt: the test, fed in seed order as pairs are consumed; NULL otherwise */
    const TrkTrack *track; /* loaded once, shared read-only by every worker */
    const DrvTableCache *tables; /* the drivers' tables on it (A and B too), built once, read-only for workers */
} AbRun;

/* Runs one side of a pair and records the tested car. */
static int cmd_ab_side(const AbRun *run, uint64_t seed, int seat, const DrvPersonality *p, const char *path,
                       LabCarRecord *out, char *err, size_t err_len)
{
    bool mask[SIM_MAX_CARS] = {false};
    mask[seat] = true;
    SimSession *s = app_exp_run_race(run->race, run->track, run->tables, seed, (int)run->opts->laps, p, mask, err,
                                     err_len);
    if (!s)
        return 1;
    int cars = sim_world_car_count(sim_session_world(s)), found = 0;
    for (int id = 0; id < cars && !found; id++)
        if (sim_session_entry_of(s, id) == seat) {
            lab_car_record_from_session(s, id, out);
            snprintf(out->driver, sizeof out->driver, "%s", path);
            found = 1;
        }
    sim_session_destroy(s);
    if (!found)
        snprintf(err, err_len, "internal error: grid line %d has no car", seat + 1);
    return !found;
}

static char *cmd_ab_work(void *ctx, long index, char *err, size_t err_len)
{
    const AbRun *run = ctx;
    uint64_t seed = run->seeds[index];
    LabRecord *rec = calloc(1, sizeof *rec);
    if (!rec) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    int cars = run->race->entry_count;
    rec->kind = LAB_RECORD_AB;
    snprintf(rec->race, sizeof rec->race, "%s", run->race->path);
    rec->seed = seed;
    rec->laps = run->opts->laps > 0 ? (int)run->opts->laps : run->race->laps;
    rec->seat = run->opts->seat > 0 ? (int)run->opts->seat - 1 : (int)(seed % (uint64_t)cars);
    rec->points_count = run->race->points_count;
    memcpy(rec->points, run->race->points, sizeof rec->points);
    char *text = NULL;
    if (!cmd_ab_side(run, seed, rec->seat, run->pa, run->opts->a_path, &rec->a, err, err_len) &&
        !cmd_ab_side(run, seed, rec->seat, run->pb, run->opts->b_path, &rec->b, err, err_len)) {
        text = app_record_text(rec);
        if (!text)
            snprintf(err, err_len, "out of memory");
    }
    free(rec);
    return text;
}

/* After each consumed pair: feeds the test (pairs where the metric has a value) and stops at a decision. */
static int cmd_ab_sequential(AbRun *run)
{
    int m = app_sprt_metric(run->opts->metric);
    const LabAbTally *t = run->tally;
    if (t->n[m] > run->seq->d.n && lab_sprt_add(run->seq, t->diff[m][t->n[m] - 1]) != LAB_SPRT_CONTINUE)
        return LAB_BATCH_ENOUGH;
    LabEstimate e = lab_estimate(&run->seq->d);
    char text[160];
    snprintf(text, sizeof text, "LLR %.2f in [%.2f, %.2f]  B-A %+.3f +- %.3f", run->seq->llr, run->seq->lower,
             run->seq->upper, e.mean, e.hi - e.mean);
    app_progress_note(&run->progress, t->pairs, text);
    return 0;
}

static int cmd_ab_consume(void *ctx, long index, char *text, char *err, size_t err_len)
{
    AbRun *run = ctx;
    int rc = 0;
    char perr[1024];
    if (run->out && fputs(text, run->out) == EOF) {
        snprintf(err, err_len, "%s: write error", run->opts->out_path);
        rc = 1;
    }
    if (!rc && (lab_record_parse(text, strlen(text) - 1, "(ab)", index + 1, run->scratch, perr, sizeof perr) ||
                lab_ab_tally_add(run->tally, run->scratch, perr, sizeof perr))) {
        snprintf(err, err_len, "internal error: %s", perr);
        rc = 1;
    }
    free(text);
    return rc ? rc : run->seq ? cmd_ab_sequential(run) : 0;
}

static void cmd_ab_progress(void *ctx, long done, long total)
{
    app_progress_update(&((AbRun *)ctx)->progress, done, total);
}

int app_sprt_metric(int metric) { return metric >= 0 ? metric : LAB_AB_POSITION; }

/* The report and the chart, shared with `racesim merge`. */
int app_ab_report(const LabAbTally *tally, int metric, const char *chart_path, const LabSprtDef *sprt)
{
    lab_ab_tally_print(tally, metric, stdout);
    if (sprt) {
        int m = app_sprt_metric(metric);
        LabSprt s;
        lab_sprt_init(&s, sprt);
        for (long i = 0; i < tally->n[m]; i++)
            lab_sprt_add(&s, tally->diff[m][i]);
        lab_sprt_print(&s, lab_ab_metric_name((LabAbMetric)m), stdout);
    }
    if (!chart_path)
        return 0;
    char err[512];
    if (lab_chart_ab_write(tally, metric, chart_path, err, sizeof err)) {
        fprintf(stderr, "racesim: %s\n", err);
        return 1;
    }
    return 0;
}

/* --resume: a kept line must be this test's pair K (same race, laps, seed, tested seat and personality files). */
static const char *cmd_ab_resume_match(void *ctx, long index, const LabRecord *rec)
{
    const AbRun *run = ctx;
    const CliAbOpts *o = run->opts;
    int laps = o->laps > 0 ? (int)o->laps : run->race->laps;
    if (rec->kind != LAB_RECORD_AB || strcmp(rec->race, run->race->path) != 0 || rec->laps != laps ||
        strcmp(rec->a.driver, o->a_path) != 0 || strcmp(rec->b.driver, o->b_path) != 0)
        return "a pair of another test (race file, laps or personality files differ)";
    if (rec->seed != run->seeds[index])
        return "a seed out of this test's order";
    int seat = o->seat > 0 ? (int)o->seat - 1 : (int)(rec->seed % (uint64_t)run->race->entry_count);
    if (rec->seat != seat)
        return "another tested grid line";
    return NULL;
}

static int cmd_ab_execute(AbRun *run)
{
    const CliAbOpts *o = run->opts;
    long n = 0;
    uint64_t first = o->has_seed ? o->seed : run->race->seed;
    uint64_t *seeds = app_shard_seeds(first, o->races, o->shard_index, o->shard_count, &n);
    run->tally = malloc(sizeof *run->tally);
    run->scratch = malloc(sizeof *run->scratch);
    LabSprt seq;
    if (o->sprt) {
        lab_sprt_init(&seq, &o->sprt_def);
        run->seq = &seq;
    }
    int rc = 1;
    char err[1024];
    if (seeds && run->tally && run->scratch) {
        lab_ab_tally_init(run->tally);
        run->seeds = seeds;
        long kept = 0, consumed = 0;
        char *kept_text = NULL;
        int fed = 0;
        if (o->resume && (kept = app_resume_read("ab", o->out_path, n, run->scratch, cmd_ab_resume_match, run,
                                                 &kept_text)) < 0) {
            free(seeds), free(run->tally), free(run->scratch);
            return 1;
        }
        /* the kept pairs go through the consumer as if just run: written again, tallied, judged by the SPRT */
        if (kept > 0 && (fed = app_resume_feed(kept_text, kept, cmd_ab_consume, run, err, sizeof err)) > 0)
            fprintf(stderr, "racesim ab: %s\n", err);
        free(kept_text);
        if (kept > 0 && fed <= 0)
            fprintf(stderr, "racesim ab: resuming %s: %ld of %ld pairs kept\n", o->out_path, kept, n);
        LabBatchDef def = lab_batch_default_def();
        def.count = fed == LAB_BATCH_ENOUGH ? kept : n; /* the SPRT decided within the kept pairs */
        def.start = kept;
        def.stop = app_stop_flag();
        def.consumed = &consumed;
        def.threads = (int)o->jobs;
        def.work = cmd_ab_work;
        def.consume = cmd_ab_consume;
        def.progress = o->sprt ? NULL : cmd_ab_progress; /* --sprt: a line of its own, drawn as pairs are judged */
        def.ctx = run;
        app_progress_begin(&run->progress, "pairs");
        rc = fed > 0 ? 1 : lab_batch_run(&def, err, sizeof err);
        app_progress_end(&run->progress, run->tally->pairs);
        if (rc == LAB_BATCH_INTERRUPTED) {
            fprintf(stderr, "racesim ab: stopped by %s after %ld of %ld pairs", strsignal(app_stop_signal()),
                    consumed, n);
            if (o->out_path && strcmp(o->out_path, "-") != 0)
                fprintf(stderr, ": they are in %s; the same command with --resume runs the rest\n", o->out_path);
            else
                fprintf(stderr, "\n");
        } else if (rc == 1) {
            if (fed <= 0) /* a failed feed printed its own message */
                fprintf(stderr, "racesim ab: %s\n", err);
        } else if (run->tally->pairs == 0)
            printf("shard %d/%d of %ld pairs holds no seeds\n", o->shard_index, o->shard_count, o->races);
        else if (run->out != stdout)
            rc = app_ab_report(run->tally, o->metric, o->chart_path, o->has_h0 ? &o->sprt_def : NULL);
        lab_ab_tally_free(run->tally);
    } else
        fprintf(stderr, "racesim ab: out of memory\n");
    free(seeds), free(run->tally), free(run->scratch);
    return rc;
}

/* Loads the race and both personalities; prints the error and returns 2 on failure. */
static int cmd_ab_load(const CliAbOpts *o, SimRace *race, DrvPersonality *pa, DrvPersonality *pb)
{
    char err[1024];
    if (app_race_load(o->race_path, race, err, sizeof err) || drv_personality_load(o->a_path, pa, err, sizeof err) ||
        drv_personality_load(o->b_path, pb, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    if (app_seed_range_check(o->has_seed ? o->seed : race->seed, o->races, err, sizeof err)) {
        fprintf(stderr, "racesim ab: %s\n", err);
        return 2;
    }
    if (o->seat > race->entry_count) {
        fprintf(stderr, "racesim ab: --seat %ld, but %s has %d cars\n", o->seat, o->race_path, race->entry_count);
        return 2;
    }
    return 0;
}

int cmd_ab(int argc, char **argv)
{
    CliAbOpts o;
    int rc = cli_ab_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    app_stop_install();
    SimRace *race = malloc(sizeof *race);
    DrvPersonality pa, pb;
    if (!race || cmd_ab_load(&o, race, &pa, &pb)) {
        free(race);
        return 2;
    }
    char err[1024];
    TrkDef tdef = sim_race_track_def(race);
    TrkTrack *track = trk_load(race->track_path, &tdef, err, sizeof err);
    if (!track) {
        fprintf(stderr, "%s\n", err);
        free(race);
        return 2;
    }
    /* every race's drivers' tables, built here before the workers start so that they only read them */
    const DrvPersonality *candidates[2] = {&pa, &pb};
    DrvTableCache *tables = sim_race_tables_create(race, track, candidates, 2);
    if (!tables) {
        fprintf(stderr, "racesim ab: out of memory\n");
        trk_free(track);
        free(race);
        return 2;
    }
    AbRun run = {&o, race, &pa, &pb, NULL, NULL, NULL, NULL, {false, NULL, 0.0, 0.0}, NULL, track, tables};
    AppOut aout;
    /* both outputs checked before the first pair runs (the chart is written only after the last) */
    const char *inputs[SIM_MAX_CARS + 4];
    int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
    inputs[n_in++] = o.a_path;
    inputs[n_in++] = o.b_path;
    const char *outs[] = {o.out_path, o.chart_path};
    if ((o.out_path && app_out_check(o.out_path, inputs, n_in, outs, 2, err, sizeof err) != 0) ||
        (o.chart_path && app_out_check(o.chart_path, inputs, n_in, outs, 2, err, sizeof err) != 0)) {
        fprintf(stderr, "racesim ab: %s\n", err);
        drv_table_cache_destroy(tables);
        trk_free(track);
        free(race);
        return 2;
    }
    if (o.out_path) {
        if (app_out_open(&aout, o.out_path, err, sizeof err) != 0) {
            fprintf(stderr, "racesim ab: %s\n", err);
            drv_table_cache_destroy(tables);
            trk_free(track);
            free(race);
            return 2;
        }
        run.out = aout.f;
    }
    rc = cmd_ab_execute(&run);
    drv_table_cache_destroy(tables);
    trk_free(track);
    /* a failed test leaves an existing file as it was; a stopped one keeps the pairs it finished */
    if (run.out && rc == 1) {
        app_out_abort(&aout);
    } else if (run.out && app_out_commit(&aout, err, sizeof err) != 0) {
        fprintf(stderr, "racesim ab: %s\n", err);
        rc = 1;
    }
    free(race);
    if (rc == LAB_BATCH_INTERRUPTED)
        return 128 + app_stop_signal(); /* as a shell reports a program its signal ended */
    return rc;
}
