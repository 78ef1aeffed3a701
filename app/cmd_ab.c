/* cmd_ab.c: `racesim ab RACE.ini --a A.ini --b B.ini --races N ...`: a paired A/B test of two personalities.
 * Each seed runs twice, identical (same shuffled grid, same opponents, same seed) except that the tested grid line
 * drives personality A in one run and B in the other. The report comes from the pair records read back in seed
 * order, by the same analysis `racesim merge` uses. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"

#include "../lab/lab.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cmd_ab_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim ab RACE.ini --a A.ini --b B.ini --races N [--seed S] [--jobs J] [--seat K]\n"
            "                  [--metric NAME] [--out FILE.jsonl [--resume]] [--shard I/N] [--laps L]\n"
            "                  [--chart FILE.svg]\n"
            "                  [--h0 X --h1 Y [--alpha A] [--beta B]]\n"
            "       racesim ab RACE.ini --a A.ini --b B.ini --sprt --h0 X --h1 Y [--alpha A] [--beta B]\n"
            "                  [--max-races N] [--metric NAME] [--seed S] [--jobs J] [--seat K] [--out F] ...\n\n"
            "Paired A/B test. For each seed S..S+N-1 the race runs twice with the same shuffled grid and the\n"
            "same opponents: once with personality A in the tested grid line, once with B. The tested line is\n"
            "seed mod cars (every grid line in turn), or K with --seat. Per metric (position, time, overtakes,\n"
            "collisions, offtrack, points): mean of A, mean of B, mean paired difference B - A with its 95%%\n"
            "interval, the two-sided paired t-test p-value (Wilcoxon signed-rank as a second opinion) and a\n"
            "verdict.\n\n"
            "options:\n"
            "  --a FILE, --b FILE  the two personality files (required)\n"
            "  --races N           number of seeds, i.e. pairs (required)\n"
            "  --seed S            first seed (default: the race file's seed)\n"
            "  --jobs J            worker threads (default: all cores, here %d)\n"
            "  --seat K            test grid line K of the race file (1-based) in every pair\n"
            "  --metric NAME       report only NAME: position, time, overtakes, collisions, offtrack or points\n"
            "                      (championship points by position; the race's [race] points table)\n"
            "  --out FILE          write one JSON line per pair, in seed order (- = stdout, without the report)\n"
            "  --resume            keep the pairs already in --out FILE (checked: same test, seeds in order) and\n"
            "                      run only the rest (Ctrl-C or SIGTERM stops a test cleanly, keeping its pairs)\n"
            "  --shard I/N         run only shard I of N: seeds S+k with k = I-1 (mod N); `racesim merge` the parts\n"
            "  --laps L            override the race's lap count\n"
            "  --chart FILE.svg    chart of the paired differences with their intervals\n"
            "  --sprt              sequential test: run pairs in seed order until the SPRT on the metric\n"
            "                      (--metric, default position) accepts H0 or H1, or --max-races pairs ran\n"
            "  --h0 X, --h1 Y      the hypotheses: mean difference B - A in the metric's unit (X != Y); without\n"
            "                      --sprt the report ends with the test's state after the --races pairs\n"
            "  --alpha A, --beta B error rates in (0, 0.5) (default 0.05 each)\n"
            "  --max-races N       with --sprt: stop after N pairs without a decision (default 10000)\n"
            "  -h, --help          this text\n",
            app_default_jobs());
}

typedef struct AbOpts {
    const char *race_path, *a_path, *b_path, *out_path, *chart_path;
    long races, jobs, seat, laps, max_races;
    bool sprt, has_h0, has_h1, has_error_rate, resume;
    LabSprtDef sprt_def;
    bool has_seed;
    uint64_t seed;
    int metric;
    int shard_index, shard_count;
} AbOpts;

static int cmd_ab_value(AbOpts *o, const char *a, const char *v)
{
    if (strcmp(a, "--races") == 0)
        return app_parse_long(v, 1, 100000000, &o->races);
    if (strcmp(a, "--seed") == 0) {
        o->has_seed = true;
        return app_parse_u64(v, &o->seed);
    }
    if (strcmp(a, "--jobs") == 0)
        return app_parse_long(v, 1, 256, &o->jobs);
    if (strcmp(a, "--seat") == 0)
        return app_parse_long(v, 1, SIM_MAX_CARS, &o->seat);
    if (strcmp(a, "--laps") == 0)
        return app_parse_long(v, 1, 1000, &o->laps);
    if (strcmp(a, "--shard") == 0)
        return app_parse_shard(v, &o->shard_index, &o->shard_count);
    if (strcmp(a, "--metric") == 0)
        return (o->metric = lab_ab_metric_parse(v)) < 0;
    if (strcmp(a, "--max-races") == 0)
        return app_parse_long(v, 1, 100000000, &o->max_races);
    double *numbers[] = {&o->sprt_def.h0, &o->sprt_def.h1, &o->sprt_def.alpha, &o->sprt_def.beta};
    bool *given[] = {&o->has_h0, &o->has_h1, &o->has_error_rate, &o->has_error_rate};
    const char *number_names[] = {"--h0", "--h1", "--alpha", "--beta"};
    for (int i = 0; i < 4; i++)
        if (strcmp(a, number_names[i]) == 0) {
            *given[i] = true;
            return app_parse_double(v, numbers[i]);
        }
    const char **paths[] = {&o->a_path, &o->b_path, &o->out_path, &o->chart_path};
    const char *names[] = {"--a", "--b", "--out", "--chart"};
    for (int i = 0; i < 4; i++)
        if (strcmp(a, names[i]) == 0) {
            *paths[i] = v;
            return 0;
        }
    return -1;
}

/* How the sequential options combine; NULL when they do, else what is wrong. Sets races for --sprt. */
static const char *cmd_ab_sprt_options(AbOpts *o, char *err, size_t err_len)
{
    if (o->has_h0 != o->has_h1)
        return "--h0 and --h1 go together";
    if (o->has_error_rate && !o->has_h0)
        return "--alpha and --beta need --h0 and --h1";
    if (o->max_races && !o->sprt)
        return "--max-races needs --sprt (a fixed test takes --races)";
    if (o->sprt && !o->has_h0)
        return "--sprt needs --h0 and --h1";
    if (o->sprt && o->races)
        return "--sprt runs pairs until a decision: give --max-races N, not --races";
    if (o->sprt && o->shard_count > 1)
        return "--sprt cannot be sharded: run shards with --races and `racesim merge --h0 X --h1 Y` their files";
    if (o->has_h0 && lab_sprt_check_def(&o->sprt_def, err, err_len))
        return err;
    if (o->sprt)
        o->races = o->max_races ? o->max_races : 10000;
    return NULL;
}

/* Returns 0, 1 for --help, or 2 on bad usage (message printed). */
static int cmd_ab_options(int argc, char **argv, AbOpts *o)
{
    memset(o, 0, sizeof *o);
    o->jobs = app_default_jobs();
    o->shard_index = o->shard_count = 1;
    o->metric = -1;
    o->sprt_def = lab_sprt_default_def();
    static const struct option longs[] = {
        {"a", required_argument, NULL, 'v'},         {"b", required_argument, NULL, 'v'},
        {"races", required_argument, NULL, 'v'},     {"seed", required_argument, NULL, 'v'},
        {"jobs", required_argument, NULL, 'v'},      {"seat", required_argument, NULL, 'v'},
        {"metric", required_argument, NULL, 'v'},    {"out", required_argument, NULL, 'v'},
        {"shard", required_argument, NULL, 'v'},     {"laps", required_argument, NULL, 'v'},
        {"chart", required_argument, NULL, 'v'},     {"h0", required_argument, NULL, 'v'},
        {"h1", required_argument, NULL, 'v'},        {"alpha", required_argument, NULL, 'v'},
        {"beta", required_argument, NULL, 'v'},      {"max-races", required_argument, NULL, 'v'},
        {"sprt", no_argument, NULL, 's'},            {"resume", no_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
    };
    optind = 0; /* GNU: start afresh (the tests call commands more than once) */
    opterr = 0;
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":h", longs, &index)) != -1) {
        if (c == 'h')
            return 1;
        if (c == 's') {
            o->sprt = true;
        } else if (c == 'r') {
            o->resume = true;
        } else if (c == 'v') {
            char name[32];
            snprintf(name, sizeof name, "--%s", longs[index].name);
            if (cmd_ab_value(o, name, optarg)) {
                fprintf(stderr, "racesim ab: %s: expected %s, got '%s'\n", name, app_option_expects(name), optarg);
                return 2;
            }
        } else {
            app_opt_error("ab", c, argv);
            return 2;
        }
        index = -1;
    }
    for (int i = optind; i < argc; i++) {
        if (o->race_path) {
            fprintf(stderr, "racesim ab: one race file at a time ('%s' and '%s')\n", o->race_path, argv[i]);
            return 2;
        }
        o->race_path = argv[i];
    }
    char err[256];
    const char *missing = cmd_ab_sprt_options(o, err, sizeof err);
    if (!missing)
        missing = !o->race_path                ? "no race file given"
                  : !o->a_path || !o->b_path ? "--a and --b are required"
                  : o->races < 1             ? "--races N is required"
                  : o->resume && (!o->out_path || strcmp(o->out_path, "-") == 0)
                      ? "--resume needs --out FILE (the file to continue)"
                      : NULL;
    if (missing) {
        fprintf(stderr, "racesim ab: %s\n", missing);
        return 2;
    }
    return 0;
}

typedef struct AbRun {
    const AbOpts *opts;
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
        return LAB_BATCH_STOP;
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

typedef struct AbChart {
    const LabAbTally *tally;
    int metric;
} AbChart;

static void ab_chart_draw(const void *ctx, FILE *out)
{
    const AbChart *c = ctx;
    lab_chart_ab_svg(c->tally, c->metric, out);
}

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
    AbChart chart = {tally, metric};
    return app_chart_save("ab", chart_path, ab_chart_draw, &chart);
}

/* --resume: a kept line must be this test's pair K (same race, laps, seed, tested seat and personality files). */
static const char *cmd_ab_resume_match(void *ctx, long index, const LabRecord *rec)
{
    const AbRun *run = ctx;
    const AbOpts *o = run->opts;
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
    const AbOpts *o = run->opts;
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
        def.count = fed == LAB_BATCH_STOP ? kept : n; /* the SPRT decided within the kept pairs */
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
        if (rc == LAB_BATCH_STOPPED) {
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
static int cmd_ab_load(const AbOpts *o, SimRace *race, DrvPersonality *pa, DrvPersonality *pb)
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
    AbOpts o;
    int rc = cmd_ab_options(argc, argv, &o);
    if (rc == 1) {
        cmd_ab_usage(stdout);
        return 0;
    }
    if (rc) {
        fprintf(stderr, "(see racesim ab --help)\n");
        return 2;
    }
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
    if (o.out_path) {
        const char *inputs[SIM_MAX_CARS + 4];
        int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
        inputs[n_in++] = o.a_path;
        inputs[n_in++] = o.b_path;
        const char *outs[] = {o.out_path, o.chart_path};
        if (app_out_check(o.out_path, inputs, n_in, outs, 2, err, sizeof err) != 0 ||
            (o.chart_path && app_out_check(o.chart_path, inputs, n_in, outs, 2, err, sizeof err) != 0) ||
            app_out_open(&aout, o.out_path, err, sizeof err) != 0) {
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
    if (rc == LAB_BATCH_STOPPED)
        return 128 + app_stop_signal(); /* as a shell reports a program its signal ended */
    return rc;
}
