/* cmd_check.c: `racesim check FILE_OR_DIR... [--seeds A-B] [--jobs J] [--json] [--verbose]`: runs scenarios (race
 * files with an [expect] section) headless and prints one line per scenario: PASS or FAIL and, for each check, the
 * measured figure (the worst over the seeds) next to its limit, then the checks across seeds (means over the
 * seeds). Every (scenario, seed) run is one job of a lab_batch; results are stored by job index and summarised in
 * file and seed order afterwards, so the output does not depend on --jobs. */
#include "app.h"
#include "app_exp.h"
#include "cli.h"

#include "../lab/lab.h"
#include "../sim/sim.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHECK_MAX_FILES 1024
#define CHECK_MAX_RUNS 10000 /* scenarios x seeds; each run's report (about 10 kB) is kept for the summary */

typedef struct CheckScenario {
    char path[SIM_PATH_LEN];
    SimRace *race;           /* NULL when it did not load */
    LabExpect expect;        /* its [expect] section */
    TrkTrack *track;         /* its track, loaded once and lent to every run */
    char error[2048];        /* why it did not load, or why it cannot be checked */
    uint64_t seed_first, seed_last;
    long first_job;          /* index of its first run in CheckCtx.reports */
} CheckScenario;

typedef struct CheckCtx {
    CheckScenario *scenarios;
    int count;
    long job_count;
    int *job_scenario;       /* scenario of each job */
    LabExpectReport *reports; /* one per job */
    char (*job_error)[2048]; /* a run that could not start */
} CheckCtx;

static int cmd_check_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the *.ini files directly in dir, sorted by name. Returns 0, or 2 with a message printed. */
static int cmd_check_dir(const char *dir, char **files, int *n)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "racesim check: cannot open directory '%s': %s\n", dir, strerror(errno));
        return 2;
    }
    int first = *n;
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0 || e->d_name[0] == '.')
            continue;
        char path[SIM_PATH_LEN];
        struct stat st;
        int k = snprintf(path, sizeof path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        if (k < 0 || (size_t)k >= sizeof path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (*n >= CHECK_MAX_FILES)
            break;
        files[(*n)++] = strdup(path);
    }
    closedir(d);
    qsort(files + first, (size_t)(*n - first), sizeof *files, cmd_check_cmp);
    return 0;
}

static int cmd_check_files(const CliCheckOpts *o, char **files, int *n)
{
    for (int i = 0; i < o->path_count; i++) {
        struct stat st;
        if (stat(o->paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (cmd_check_dir(o->paths[i], files, n) != 0)
                return 2;
        } else if (*n < CHECK_MAX_FILES) {
            files[(*n)++] = strdup(o->paths[i]); /* a missing file is reported when it is loaded */
        }
    }
    return 0;
}

/* Loads one scenario and picks its seeds; on failure sc->race stays NULL and sc->error says why. */
static void cmd_check_load(CheckScenario *sc, const CliCheckOpts *o)
{
    sc->race = malloc(sizeof *sc->race);
    if (!sc->race) {
        snprintf(sc->error, sizeof sc->error, "%s:0: out of memory", sc->path);
        return;
    }
    sc->error[0] = '\0';
    if (sim_race_load(sc->path, sc->race, sc->error, sizeof sc->error) != 0 ||
        lab_expect_load(&sc->expect, sc->race, sc->error, sizeof sc->error) != 0 || !sc->expect.present) {
        if (sc->error[0] == '\0')
            snprintf(sc->error, sizeof sc->error, "%s:0: no expectations (the [expect] section is missing or empty): nothing to check",
                     sc->path);
        free(sc->race);
        sc->race = NULL;
        return;
    }
    TrkDef tdef = sim_race_track_def(sc->race);
    sc->track = trk_load(sc->race->track_path, &tdef, sc->error, sizeof sc->error);
    if (!sc->track) {
        free(sc->race);
        sc->race = NULL;
        return;
    }
    fputs(sc->race->track_warning, stderr);
    const LabExpect *ex = &sc->expect;
    sc->seed_first = o->have_seeds ? o->seed_first : ex->have_seeds ? ex->seed_first : sc->race->seed;
    sc->seed_last = o->have_seeds ? o->seed_last : ex->have_seeds ? ex->seed_last : sc->race->seed;
}

/*----------------------------------------------------------------------------------------------------------------
 * Runs
 *--------------------------------------------------------------------------------------------------------------*/

/* One job: scenario job_scenario[index] with its k-th seed; the report goes to reports[index]. */
static char *cmd_check_work(void *vctx, long index, char *err, size_t err_len)
{
    CheckCtx *ctx = vctx;
    (void)err;
    (void)err_len;
    const CheckScenario *sc = &ctx->scenarios[ctx->job_scenario[index]];
    SimSessionDef def = sim_default_session_def(sc->race);
    def.seed = sc->seed_first + (uint64_t)(index - sc->first_job);
    def.track = sc->track;
    LabExpectFacts *facts = malloc(sizeof *facts);
    SimSession *s = facts ? sim_session_create(sc->race, &def, ctx->job_error[index], sizeof ctx->job_error[index])
                          : NULL;
    if (!s) {
        if (!facts)
            snprintf(ctx->job_error[index], sizeof ctx->job_error[index], "%s:0: out of memory", sc->path);
        free(facts);
        return strdup(""); /* reported with the scenario, the other runs go on */
    }
    lab_expect_run_session(s, facts);
    lab_expect_eval(&sc->expect, facts, &ctx->reports[index]);
    sim_session_destroy(s);
    free(facts);
    return strdup("");
}

static int cmd_check_consume(void *vctx, long index, char *text, char *err, size_t err_len)
{
    (void)vctx;
    (void)index;
    (void)err;
    (void)err_len;
    free(text);
    return 0;
}

static int cmd_check_run_all(CheckCtx *ctx, int jobs)
{
    ctx->job_count = 0;
    for (int i = 0; i < ctx->count; i++) {
        CheckScenario *sc = &ctx->scenarios[i];
        sc->first_job = ctx->job_count;
        if (sc->race)
            ctx->job_count += (long)(sc->seed_last - sc->seed_first) + 1;
    }
    if (ctx->job_count > CHECK_MAX_RUNS) { /* every run keeps its report until the end */
        fprintf(stderr, "racesim check: %ld runs (scenarios x seeds); at most %d at a time\n", ctx->job_count,
                CHECK_MAX_RUNS);
        return 2;
    }
    size_t n = (size_t)(ctx->job_count > 0 ? ctx->job_count : 1);
    ctx->job_scenario = calloc(n, sizeof *ctx->job_scenario);
    ctx->reports = calloc(n, sizeof *ctx->reports);
    ctx->job_error = calloc(n, sizeof *ctx->job_error);
    if (!ctx->job_scenario || !ctx->reports || !ctx->job_error) {
        fprintf(stderr, "racesim check: out of memory\n");
        return 1;
    }
    for (int i = 0; i < ctx->count; i++) {
        const CheckScenario *sc = &ctx->scenarios[i];
        for (long k = 0; sc->race && k <= (long)(sc->seed_last - sc->seed_first); k++)
            ctx->job_scenario[sc->first_job + k] = i;
    }
    LabBatchDef bd = lab_batch_default_def();
    bd.count = ctx->job_count;
    bd.threads = jobs;
    bd.work = cmd_check_work;
    bd.consume = cmd_check_consume;
    bd.ctx = ctx;
    char err[512];
    if (lab_batch_run(&bd, err, sizeof err) != 0) {
        fprintf(stderr, "racesim check: %s\n", err);
        return 1;
    }
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * Output
 *--------------------------------------------------------------------------------------------------------------*/

static void cmd_check_seeds_text(const CheckScenario *sc, char *buf, size_t len)
{
    if (sc->seed_first == sc->seed_last)
        snprintf(buf, len, "seed %llu", (unsigned long long)sc->seed_first);
    else
        snprintf(buf, len, "seeds %llu-%llu", (unsigned long long)sc->seed_first, (unsigned long long)sc->seed_last);
}

/* The first run of a scenario that could not start, or NULL. */
static const char *cmd_check_run_error(const CheckCtx *ctx, const CheckScenario *sc, long runs)
{
    for (long k = 0; k < runs; k++)
        if (ctx->job_error[sc->first_job + k][0])
            return ctx->job_error[sc->first_job + k];
    return NULL;
}

/* Prints each check's worst run as "; name measured (limit)" (":" before the first of the line, when `printed`
 * checks came before none). Returns how many checks the line holds now. */
static int cmd_check_print_checks(const LabExpectReport *reports, long runs, uint64_t seed0, bool show_seed,
                                  int printed)
{
    const LabExpectReport *r0 = &reports[0];
    for (int j = 0; j < r0->count; j++) {
        int w = lab_expect_worst_run(reports, (int)runs, j);
        const LabExpectCheck *c = &reports[w].checks[j];
        printf("%s %s %s (%s", printed + j == 0 ? ":" : ";", c->name, c->measured_text, c->limit_text);
        if (show_seed && !c->pass)
            printf(", seed %llu", (unsigned long long)(seed0 + (uint64_t)w));
        printf(")%s", c->pass ? "" : " FAIL");
    }
    return printed + r0->count;
}

/* One scenario's line (and its per-seed lines when verbose). Returns 1 when it passed. */
static int cmd_check_print_text(const CheckCtx *ctx, const CheckScenario *sc, bool verbose)
{
    if (!sc->race) {
        printf("ERROR %s\n", sc->error);
        return 0;
    }
    long runs = (long)(sc->seed_last - sc->seed_first) + 1;
    const char *run_err = cmd_check_run_error(ctx, sc, runs);
    if (run_err) {
        printf("ERROR %s\n", run_err);
        return 0;
    }
    const LabExpectReport *reports = &ctx->reports[sc->first_job];
    long failed = 0;
    for (long k = 0; k < runs; k++)
        failed += !reports[k].pass;
    LabExpectReport across;
    lab_expect_eval_across(&sc->expect, reports, (int)runs, &across);
    char seeds[64];
    cmd_check_seeds_text(sc, seeds, sizeof seeds);
    printf("%s %s (%s)", failed || !across.pass ? "FAIL" : "PASS", sc->path, seeds);
    int printed = cmd_check_print_checks(reports, runs, sc->seed_first, runs > 1, 0);
    cmd_check_print_checks(&across, 1, sc->seed_first, false, printed);
    if (failed)
        printf(" [%ld of %ld seeds failed]", failed, runs);
    printf("\n");
    bool shown = false; /* the first failed run, in the viewer at the moment its failure shows */
    for (long k = 0; k < runs; k++) {
        uint64_t seed = sc->seed_first + (uint64_t)k;
        if (verbose) {
            printf("    seed %llu %s", (unsigned long long)seed, reports[k].pass ? "PASS" : "FAIL");
            cmd_check_print_checks(&reports[k], 1, seed, false, 0);
            printf("\n");
        }
        if (!reports[k].pass && (verbose || !shown))
            app_print_open_command(stdout, "    watch: ", sc->path, seed, false, reports[k].at_s);
        shown |= !reports[k].pass;
    }
    return failed == 0 && across.pass;
}

/* The moment a failure shows and the command that opens it there, as the text's "watch:" line gives them:
 * ',"at_s":T,"watch":"racesim run PATH --seed S --at T"' (at_s null, and no --at, when the failure has no moment).
 * at_s is rounded as the command's --at is, so the two agree. */
static void cmd_check_json_watch(const CheckScenario *sc, uint64_t seed, double at_s)
{
    char cmd[APP_OPEN_COMMAND_LEN];
    char at[32];
    app_open_command(cmd, sizeof cmd, sc->path, seed, false, at_s);
    if (at_s >= 0.0)
        snprintf(at, sizeof at, "%.2f", at_s);
    printf(",\"at_s\":%s,\"watch\":", at_s >= 0.0 ? at : "null");
    sim_json_write_string(stdout, cmd);
}

/* The checks of a report as the elements of a JSON array; with a scenario (a seed's checks, not the means across
 * seeds), each failed check carries its moment and watch command. */
static void cmd_check_json_checks(const LabExpectReport *r, const CheckScenario *sc, uint64_t seed)
{
    for (int j = 0; j < r->count; j++) {
        const LabExpectCheck *c = &r->checks[j];
        printf("%s{\"name\":", j ? "," : "");
        sim_json_write_string(stdout, c->name);
        printf(",\"line\":%d,\"measured\":%.17g,\"limit\":%.17g,\"pass\":%s,\"measured_text\":", c->line, c->measured,
               c->limit, c->pass ? "true" : "false");
        sim_json_write_string(stdout, c->measured_text);
        printf(",\"limit_text\":");
        sim_json_write_string(stdout, c->limit_text);
        if (sc && !c->pass)
            cmd_check_json_watch(sc, seed, c->at_s);
        printf("}");
    }
}

/* A seed's run; a failed one carries the moment and command the text prints under it (its earliest failure). */
static void cmd_check_json_report(const LabExpectReport *r, const CheckScenario *sc, uint64_t seed)
{
    printf("{\"seed\":%llu,\"pass\":%s,\"checks\":[", (unsigned long long)seed, r->pass ? "true" : "false");
    cmd_check_json_checks(r, sc, seed);
    printf("]");
    if (!r->pass)
        cmd_check_json_watch(sc, seed, r->at_s);
    printf("}");
}

static int cmd_check_print_json(const CheckCtx *ctx, const CheckScenario *sc)
{
    printf("{\"scenario\":");
    sim_json_write_string(stdout, sc->path);
    long runs = sc->race ? (long)(sc->seed_last - sc->seed_first) + 1 : 0;
    const char *err = sc->race ? cmd_check_run_error(ctx, sc, runs) : sc->error;
    if (err) {
        printf(",\"pass\":false,\"error\":");
        sim_json_write_string(stdout, err);
        printf("}\n");
        return 0;
    }
    const LabExpectReport *reports = &ctx->reports[sc->first_job];
    LabExpectReport across;
    lab_expect_eval_across(&sc->expect, reports, (int)runs, &across);
    bool pass = across.pass;
    for (long k = 0; k < runs; k++)
        pass = pass && reports[k].pass;
    printf(",\"pass\":%s,\"seeds\":[", pass ? "true" : "false");
    for (long k = 0; k < runs; k++) {
        if (k)
            putchar(',');
        cmd_check_json_report(&reports[k], sc, sc->seed_first + (uint64_t)k);
    }
    printf("],\"across_seeds\":[");
    cmd_check_json_checks(&across, NULL, 0);
    printf("]}\n");
    return pass;
}

/*----------------------------------------------------------------------------------------------------------------
 * Command
 *--------------------------------------------------------------------------------------------------------------*/

static int cmd_check_report(const CheckCtx *ctx, const CliCheckOpts *o)
{
    int passed = 0, failed = 0;
    bool bad_file = false;
    for (int i = 0; i < ctx->count; i++) {
        const CheckScenario *sc = &ctx->scenarios[i];
        int ok = o->json ? cmd_check_print_json(ctx, sc) : cmd_check_print_text(ctx, sc, o->verbose);
        passed += ok;
        failed += !ok;
        bad_file = bad_file || !sc->race;
    }
    if (o->json)
        printf("{\"passed\":%d,\"failed\":%d}\n", passed, failed);
    else
        printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return bad_file ? 2 : failed ? 1 : 0;
}

int cmd_check(int argc, char **argv)
{
    CliCheckOpts o;
    int rc = cli_check_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    char **files = calloc(CHECK_MAX_FILES, sizeof *files);
    CheckCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    int n = 0;
    rc = files ? cmd_check_files(&o, files, &n) : 1;
    if (rc == 0 && n == 0) {
        fprintf(stderr, "racesim check: no scenario files (*.ini) found\n");
        rc = 2;
    }
    ctx.scenarios = rc == 0 ? calloc((size_t)n, sizeof *ctx.scenarios) : NULL;
    if (rc == 0 && ctx.scenarios) {
        ctx.count = n;
        for (int i = 0; i < n; i++) {
            snprintf(ctx.scenarios[i].path, sizeof ctx.scenarios[i].path, "%s", files[i] ? files[i] : "?");
            cmd_check_load(&ctx.scenarios[i], &o);
        }
        rc = cmd_check_run_all(&ctx, o.jobs);
        if (rc == 0)
            rc = cmd_check_report(&ctx, &o);
    } else if (rc == 0) {
        rc = 1;
    }
    for (int i = 0; i < ctx.count; i++) {
        free(ctx.scenarios[i].race);
        trk_free(ctx.scenarios[i].track);
    }
    for (int i = 0; files && i < n; i++)
        free(files[i]);
    free(files);
    free(ctx.scenarios);
    free(ctx.job_scenario);
    free(ctx.reports);
    free(ctx.job_error);
    return rc;
}
