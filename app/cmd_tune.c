/* cmd_tune.c: `racesim tune RACE.ini --driver FILE.ini --param SECTION.KEY=LO:HI ... --iterations N`: tunes
 * personality keys by SPSA (lab.h) on paired races, then checks the tuned personality against the original on
 * fresh seeds, as `racesim ab` would. Every pair runs on the worker threads of lab_batch_run and is consumed in
 * seed order, so the output is the same for any --jobs. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"
#include "app_tune.h"
#include "cli.h"

#include "../lab/lab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TuneRun {
    const CliTuneOpts *opts;
    const SimRace *race;
    const TrkTrack *track;
    const DrvTableCache *base_tables; /* the grid's and the original's tables, read-only for workers */
    uint64_t seed0;                   /* the first seed of the whole run */
    /* the round under way */
    const DrvTableCache *tables;
    const DrvPersonality *side[2]; /* A, B */
    const char *side_name[2];      /* their "driver" in the records */
    uint64_t first_seed;
    LabAbTally *tally;
    LabRecord *scratch;
} TuneRun;

/* Runs one side of a pair and records the tested car (as `racesim ab` does). */
static int cmd_tune_side(const TuneRun *run, uint64_t seed, int seat, int side, LabCarRecord *out, char *err,
                         size_t err_len)
{
    bool mask[SIM_MAX_CARS] = {false};
    mask[seat] = true;
    SimSession *s = app_exp_run_race(run->race, run->track, run->tables, seed, (int)run->opts->laps, run->side[side],
                                     mask, err, err_len);
    if (!s)
        return 1;
    int cars = sim_world_car_count(sim_session_world(s)), found = 0;
    for (int id = 0; id < cars && !found; id++)
        if (sim_session_entry_of(s, id) == seat) {
            lab_car_record_from_session(s, id, out);
            snprintf(out->driver, sizeof out->driver, "%s", run->side_name[side]);
            found = 1;
        }
    sim_session_destroy(s);
    if (!found)
        snprintf(err, err_len, "internal error: grid line %d has no car", seat + 1);
    return !found;
}

static char *cmd_tune_work(void *ctx, long index, char *err, size_t err_len)
{
    const TuneRun *run = ctx;
    LabRecord *rec = calloc(1, sizeof *rec);
    if (!rec) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    rec->kind = LAB_RECORD_AB;
    snprintf(rec->race, sizeof rec->race, "%s", run->race->path);
    rec->seed = run->first_seed + (uint64_t)index;
    rec->laps = run->opts->laps > 0 ? (int)run->opts->laps : run->race->laps;
    rec->seat = run->opts->seat > 0 ? (int)run->opts->seat - 1 : (int)(rec->seed % (uint64_t)run->race->entry_count);
    rec->points_count = run->race->points_count;
    memcpy(rec->points, run->race->points, sizeof rec->points);
    char *text = NULL;
    if (!cmd_tune_side(run, rec->seed, rec->seat, 0, &rec->a, err, err_len) &&
        !cmd_tune_side(run, rec->seed, rec->seat, 1, &rec->b, err, err_len)) {
        text = app_record_text(rec);
        if (!text)
            snprintf(err, err_len, "out of memory");
    }
    free(rec);
    return text;
}

static int cmd_tune_consume(void *ctx, long index, char *text, char *err, size_t err_len)
{
    TuneRun *run = ctx;
    char perr[1024];
    int rc = lab_record_parse(text, strlen(text) - 1, "(tune)", index + 1, run->scratch, perr, sizeof perr) ||
             lab_ab_tally_add(run->tally, run->scratch, perr, sizeof perr);
    if (rc)
        snprintf(err, err_len, "internal error: %s", perr);
    free(text);
    return rc;
}

/* Races a against b on seeds first..first+pairs-1 into a fresh tally (the caller frees it). */
static int cmd_tune_round(TuneRun *run, const DrvPersonality *a, const DrvPersonality *b, uint64_t first, long pairs)
{
    char err[1024];
    DrvTableCache *tables = drv_table_cache_create(run->base_tables);
    /* the sides' tables are built here, before the workers start, so that they only read them */
    if (!tables || drv_table_cache_add(tables, run->track, &run->race->car.dyn, a->grip_use) ||
        drv_table_cache_add(tables, run->track, &run->race->car.dyn, b->grip_use)) {
        drv_table_cache_destroy(tables);
        fprintf(stderr, "racesim tune: out of memory\n");
        return 1;
    }
    lab_ab_tally_init(run->tally);
    run->tables = tables;
    run->side[0] = a, run->side[1] = b;
    run->first_seed = first;
    LabBatchDef def = lab_batch_default_def();
    def.count = pairs;
    def.threads = (int)run->opts->jobs;
    def.work = cmd_tune_work;
    def.consume = cmd_tune_consume;
    def.ctx = run;
    int rc = lab_batch_run(&def, err, sizeof err);
    if (rc)
        fprintf(stderr, "racesim tune: %s\n", err);
    drv_table_cache_destroy(tables);
    return rc;
}

/* The mean loss of each side (lower is better); false when no pair measured the metric (time: none where both
 * finished). */
static bool cmd_tune_losses(const TuneRun *run, double *loss_a, double *loss_b)
{
    LabAbResult r = lab_ab_result(run->tally, (LabAbMetric)run->opts->metric);
    double sign = lab_ab_metric_higher_better((LabAbMetric)run->opts->metric) ? -1.0 : 1.0;
    *loss_a = r.n > 0 ? sign * r.mean_a : 0.0;
    *loss_b = r.n > 0 ? sign * r.mean_b : 0.0;
    return r.n > 0;
}

/* One SPSA iteration: the two points raced, the step taken, a line on stderr. */
static int cmd_tune_iteration(TuneRun *run, LabSpsa *spsa, const DrvPersonality *driver)
{
    const CliTuneOpts *o = run->opts;
    long k = spsa->k;
    double plus[LAB_SPSA_MAX_PARAMS], minus[LAB_SPSA_MAX_PARAMS], step[LAB_SPSA_MAX_PARAMS];
    lab_spsa_points(spsa, plus, minus, NULL);
    DrvPersonality pp, pm;
    char err[512];
    if (app_tune_personality(driver, o->params, o->param_count, plus, 17, &pp, err, sizeof err) ||
        app_tune_personality(driver, o->params, o->param_count, minus, 17, &pm, err, sizeof err)) {
        fprintf(stderr, "racesim tune: internal error: %s\n", err);
        return 1;
    }
    run->side_name[0] = "plus", run->side_name[1] = "minus";
    if (cmd_tune_round(run, &pp, &pm, run->seed0 + (uint64_t)(k * o->pairs), o->pairs))
        return 1;
    double lp, lm;
    bool measured = cmd_tune_losses(run, &lp, &lm);
    lab_ab_tally_free(run->tally);
    lab_spsa_update(spsa, lp, lm, step);
    const char *metric = lab_ab_metric_name((LabAbMetric)o->metric);
    if (measured)
        fprintf(stderr, "iteration %ld/%ld: %s + %.4f - %.4f;", k + 1, o->iterations, metric,
                lab_ab_metric_higher_better((LabAbMetric)o->metric) ? -lp : lp,
                lab_ab_metric_higher_better((LabAbMetric)o->metric) ? -lm : lm);
    else
        fprintf(stderr, "iteration %ld/%ld: %s not measured (no pair where both finished);", k + 1, o->iterations,
                metric);
    for (int i = 0; i < o->param_count; i++) {
        const AppTuneParam *p = &o->params[i];
        fprintf(stderr, " %s %.6g (step %+.6g)", p->key, app_tune_value(p, spsa->theta[i]), step[i] * (p->hi - p->lo));
    }
    fputc('\n', stderr);
    return 0;
}

/* The summary table: each key's start and tuned values. */
static void cmd_tune_summary(const TuneRun *run, const char *const *tuned)
{
    const CliTuneOpts *o = run->opts;
    uint64_t last = run->seed0 + (uint64_t)(o->iterations * o->pairs) - 1;
    printf("tune %s: driver %s, metric %s, %ld iterations of %ld pairs (seeds %" PRIu64 "..%" PRIu64 ")\n\n",
           run->race->path, o->driver_path, lab_ab_metric_name((LabAbMetric)o->metric), o->iterations, o->pairs,
           run->seed0, last);
    printf("%-28s %12s %12s   %s\n", "key", "start", "tuned", "range");
    for (int i = 0; i < o->param_count; i++) {
        const AppTuneParam *p = &o->params[i];
        char name[80];
        snprintf(name, sizeof name, "[%s] %s", p->section, p->key);
        printf("%-28s %12.6g %12s   %g..%g\n", name, p->start, tuned[i], p->lo, p->hi);
    }
}

/* The tuned driver file, checked to load with the tuned values before it is written. */
static int cmd_tune_write(const CliTuneOpts *o, const char *const *tuned, const DrvPersonality *want)
{
    char err[1024];
    char *orig = trk_file_read(o->driver_path, (size_t)1 << 16, NULL, err, sizeof err); /* a driver file's limit */
    char *text = orig ? app_tune_ini_text(orig, o->params, o->param_count, tuned) : NULL;
    if (!text)
        fprintf(stderr, "racesim tune: %s\n", orig ? "out of memory" : err);
    free(orig);
    if (!text)
        return 1;
    DrvPersonality back;
    int rc = drv_personality_parse_string(text, o->out_path, &back, err, sizeof err);
    for (int i = 0; i < o->param_count && !rc; i++) {
        double got, expect;
        char why[160];
        rc = drv_personality_get_number(&back, o->params[i].section, o->params[i].key, &got, why, sizeof why) ||
             drv_personality_get_number(want, o->params[i].section, o->params[i].key, &expect, why, sizeof why) ||
             got != expect;
        snprintf(err, sizeof err, "[%s] %s does not read back", o->params[i].section, o->params[i].key);
    }
    AppOut out;
    if (rc || app_out_open(&out, o->out_path, err, sizeof err) != 0) {
        fprintf(stderr, "racesim tune: internal error: %s\n", err);
        free(text);
        return 1;
    }
    fputs(text, out.f);
    free(text);
    if (app_out_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "racesim tune: %s\n", err);
        return 1;
    }
    return 0;
}

/* The iterations, the summary, the check and the tuned file. */
static int cmd_tune_execute(TuneRun *run, const DrvPersonality *driver)
{
    const CliTuneOpts *o = run->opts;
    LabSpsaDef def = lab_spsa_default_def(o->param_count, o->iterations, run->seed0);
    double theta0[LAB_SPSA_MAX_PARAMS];
    for (int i = 0; i < o->param_count; i++)
        theta0[i] = (o->params[i].start - o->params[i].lo) / (o->params[i].hi - o->params[i].lo);
    LabSpsa spsa;
    lab_spsa_init(&spsa, &def, theta0);
    while (spsa.k < o->iterations)
        if (cmd_tune_iteration(run, &spsa, driver))
            return 1;
    DrvPersonality best;
    char err[512], values[LAB_SPSA_MAX_PARAMS][40];
    const char *tuned[LAB_SPSA_MAX_PARAMS];
    for (int i = 0; i < o->param_count; i++) {
        snprintf(values[i], sizeof values[i], "%.6g", app_tune_value(&o->params[i], spsa.theta[i]));
        tuned[i] = values[i];
    }
    /* the printed, checked and written values are the same 6-digit ones */
    if (app_tune_personality(driver, o->params, o->param_count, spsa.theta, 6, &best, err, sizeof err)) {
        fprintf(stderr, "racesim tune: internal error: %s\n", err);
        return 1;
    }
    cmd_tune_summary(run, tuned);
    uint64_t first = run->seed0 + (uint64_t)(o->iterations * o->pairs);
    printf("\ncheck: the original (A) against the tuned (B) on seeds %" PRIu64 "..%" PRIu64 "\n", first,
           first + (uint64_t)(2 * o->pairs) - 1);
    run->side_name[0] = o->driver_path, run->side_name[1] = o->out_path ? o->out_path : "tuned";
    if (cmd_tune_round(run, driver, &best, first, 2 * o->pairs))
        return 1;
    lab_ab_tally_print(run->tally, o->metric, stdout);
    lab_ab_tally_free(run->tally);
    return o->out_path ? cmd_tune_write(o, tuned, &best) : 0;
}

/* Loads and checks everything before any race runs; prints the error and returns 2 on failure. */
static int cmd_tune_load(CliTuneOpts *o, SimRace *race, DrvPersonality *driver)
{
    char err[1024];
    if (app_race_load(o->race_path, race, err, sizeof err) || drv_personality_load(o->driver_path, driver, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    for (int i = 0; i < o->param_count; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(o->params[i].section, o->params[j].section) == 0 &&
                strcmp(o->params[i].key, o->params[j].key) == 0) {
                fprintf(stderr, "racesim tune: --param %s.%s given twice\n", o->params[i].section, o->params[i].key);
                return 2;
            }
        if (app_tune_param_check(&o->params[i], driver, o->driver_path, err, sizeof err)) {
            fprintf(stderr, "racesim tune: %s\n", err);
            return 2;
        }
    }
    uint64_t first = o->has_seed ? o->seed : race->seed;
    if (app_seed_range_check(first, (o->iterations + 2) * o->pairs, err, sizeof err)) {
        fprintf(stderr, "racesim tune: %s\n", err);
        return 2;
    }
    if (o->seat > race->entry_count) {
        fprintf(stderr, "racesim tune: --seat %ld, but %s has %d cars\n", o->seat, o->race_path, race->entry_count);
        return 2;
    }
    if (o->out_path) {
        const char *inputs[SIM_MAX_CARS + 4];
        int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
        inputs[n_in++] = o->driver_path;
        if (app_out_check(o->out_path, inputs, n_in, NULL, 0, err, sizeof err) != 0) {
            fprintf(stderr, "racesim tune: %s\n", err);
            return 2;
        }
    }
    return 0;
}

int cmd_tune(int argc, char **argv)
{
    CliTuneOpts o;
    int rc = cli_tune_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    SimRace *race = malloc(sizeof *race);
    DrvPersonality driver;
    if (!race || cmd_tune_load(&o, race, &driver)) {
        free(race);
        return 2;
    }
    char err[1024];
    TrkTrack *track = trk_load(race->track_path, NULL, err, sizeof err);
    if (!track) {
        fprintf(stderr, "%s\n", err);
        free(race);
        return 2;
    }
    const DrvPersonality *candidates[1] = {&driver};
    DrvTableCache *tables = sim_race_tables_create(race, track, candidates, 1);
    TuneRun run;
    memset(&run, 0, sizeof run);
    run.opts = &o, run.race = race, run.track = track, run.base_tables = tables;
    run.seed0 = o.has_seed ? o.seed : race->seed;
    run.tally = malloc(sizeof *run.tally);
    run.scratch = malloc(sizeof *run.scratch);
    if (!tables || !run.tally || !run.scratch) {
        fprintf(stderr, "racesim tune: out of memory\n");
        rc = 2;
    } else
        rc = cmd_tune_execute(&run, &driver);
    free(run.tally), free(run.scratch);
    drv_table_cache_destroy(tables);
    trk_free(track);
    free(race);
    return rc;
}
