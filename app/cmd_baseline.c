/* cmd_baseline.c: `racesim baseline record RACE.ini --seeds A-B --out FILE` and `racesim baseline compare FILE`:
 * regression baselines of a race (sim/lab_baseline.h has the file format and the rules). Runs go through
 * lab_batch (--jobs threads) into a table indexed by seed, so the results do not depend on --jobs. */
#include "app.h"
#include "app_out.h"
#include "app_exp.h"
#include "cli.h"

#include "../lab/lab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct BaselineCtx {
    const SimRace *race;
    const TrkTrack *track;  /* loaded once, lent to every session */
    const DrvTableCache *tables; /* the drivers' tables on it, built once, lent read-only to every session */
    bool shuffle;
    LabBaseline *into;      /* runs[i].seed set beforehand; filled by the jobs */
} BaselineCtx;

/*----------------------------------------------------------------------------------------------------------------
 * Runs
 *--------------------------------------------------------------------------------------------------------------*/

static char *cmd_baseline_work(void *vctx, long index, char *err, size_t err_len)
{
    BaselineCtx *ctx = vctx;
    LabBaselineRun *run = &ctx->into->runs[index];
    SimSessionDef def = sim_default_session_def(ctx->race);
    def.seed = run->seed;
    def.shuffle_grid = ctx->shuffle;
    def.track = ctx->track;
    def.tables = ctx->tables;
    SimSession *s = sim_session_create(ctx->race, &def, err, err_len);
    if (!s)
        return NULL;
    sim_world_run(sim_session_world(s));
    lab_baseline_run_from_session(s, run);
    sim_session_destroy(s);
    return strdup("");
}

static int cmd_baseline_consume(void *ctx, long index, char *text, char *err, size_t err_len)
{
    (void)ctx;
    (void)index;
    (void)err;
    (void)err_len;
    free(text);
    return 0;
}

/* Runs every seed already listed in b->runs. Returns 0, or 1 with a message printed. */
static int cmd_baseline_run(const SimRace *race, LabBaseline *b, bool shuffle, int jobs)
{
    char err[2048];
    TrkDef tdef = sim_race_track_def(race);
    TrkTrack *track = trk_load(race->track_path, &tdef, err, sizeof err);
    if (!track) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    DrvTableCache *tables = sim_race_tables_create(race, track, NULL, 0);
    if (!tables) {
        fprintf(stderr, "racesim baseline: out of memory\n");
        trk_free(track);
        return 1;
    }
    BaselineCtx ctx = {race, track, tables, shuffle, b};
    LabBatchDef bd = lab_batch_default_def();
    bd.count = b->run_count;
    bd.threads = jobs;
    bd.work = cmd_baseline_work;
    bd.consume = cmd_baseline_consume;
    bd.ctx = &ctx;
    int rc = lab_batch_run(&bd, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "racesim baseline: %s\n", err);
    drv_table_cache_destroy(tables);
    trk_free(track);
    return rc != 0;
}

static SimRace *cmd_baseline_race(const char *path, const char *context)
{
    SimRace *race = malloc(sizeof *race);
    char err[2048];
    if (!race) {
        fprintf(stderr, "racesim baseline: out of memory\n");
        return NULL;
    }
    if (app_race_load(path, race, err, sizeof err) != 0) {
        fprintf(stderr, "%s%s\n", context, err);
        free(race);
        return NULL;
    }
    return race;
}

/*----------------------------------------------------------------------------------------------------------------
 * record
 *--------------------------------------------------------------------------------------------------------------*/

static int cmd_baseline_record(const CliBaselineOpts *o)
{
    SimRace *race = cmd_baseline_race(o->file, "");
    if (!race)
        return 2;
    LabBaseline b;
    char err[2048];
    int rc = 0;
    if (lab_baseline_init(&b, race, o->shuffle, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        free(race);
        return 2;
    }
    b.tol = o->tol;
    const char *inputs[SIM_MAX_CARS + 2];
    int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
    if (app_out_check(o->out, inputs, n_in, NULL, 0, err, sizeof err) != 0) { /* before the races run */
        fprintf(stderr, "racesim baseline: %s\n", err);
        lab_baseline_free(&b);
        free(race);
        return 2;
    }
    int n = (int)(o->seed_last - o->seed_first) + 1;
    if (lab_baseline_alloc_runs(&b, n) != 0) {
        fprintf(stderr, "racesim baseline: out of memory\n");
        rc = 1;
    }
    for (int i = 0; rc == 0 && i < n; i++)
        b.runs[i].seed = o->seed_first + (uint64_t)i;
    if (rc == 0)
        rc = cmd_baseline_run(race, &b, o->shuffle, o->jobs);
    char *text = rc == 0 ? lab_baseline_write(&b) : NULL;
    if (rc == 0 && !text) {
        fprintf(stderr, "racesim baseline: out of memory\n");
        rc = 1;
    }
    if (text) {
        AppOut out;
        size_t len = strlen(text);
        int bad = app_out_open(&out, o->out, err, sizeof err);
        if (!bad && fwrite(text, 1, len, out.f) != len) {
            app_out_abort(&out);
            snprintf(err, sizeof err, "cannot write '%s': %s", o->out, strerror(errno));
            bad = 1;
        } else if (!bad) {
            bad = app_out_commit(&out, err, sizeof err);
        }
        if (bad) {
            fprintf(stderr, "racesim baseline: %s\n", err);
            rc = 1;
        } else {
            long ov = 0, co = 0, of = 0;
            for (int i = 0; i < n; i++) {
                ov += b.runs[i].overtakes;
                co += b.runs[i].collisions;
                of += b.runs[i].offtracks;
            }
            printf("recorded %s: %d seeds (%" PRIu64 "-%" PRIu64 "), %ld overtakes, %ld collisions, %ld off-tracks\n",
                   o->out, n, o->seed_first, o->seed_last, ov, co, of);
        }
    }
    free(text);
    lab_baseline_free(&b);
    free(race);
    return rc;
}

/*----------------------------------------------------------------------------------------------------------------
 * compare
 *--------------------------------------------------------------------------------------------------------------*/

static void cmd_baseline_count(const char *name, int was, int now, bool *first)
{
    if (was == now)
        return;
    printf("%s %s %d -> %d", *first ? "" : ",", name, was, now);
    *first = false;
}

/* "P2 #7 Vera Lind -> #22 Sam Rookie" (race numbers, as everywhere) for every place that changed. The baseline
 * passed its staleness check, so its entries are the race's. */
static void cmd_baseline_order(const LabBaseline *b, const SimRace *race, const LabBaselineRun *was,
                               const LabBaselineRun *now)
{
    printf(" order:");
    for (int k = 0; k < was->car_count && k < now->car_count; k++) {
        if (was->order[k] == now->order[k] && was->retired[k] == now->retired[k])
            continue;
        printf(" P%d #%d %s%s -> #%d %s%s;", k + 1, race->entries[was->order[k]].personality.number,
               b->drivers[was->order[k]], was->retired[k] ? " (retired)" : "",
               race->entries[now->order[k]].personality.number, b->drivers[now->order[k]],
               now->retired[k] ? " (retired)" : "");
    }
}

/* When a seed's change shows, to watch it: the first event past the recorded count of a count that grew, or the
 * tick from which the finishing order differed from the recorded one for good (lab_order_track_parted: the last
 * change of places of the first pair to settle the other way round, or a new retirement), whichever is earlier;
 * else the end of the race, where a count that fell is settled. The seed is run again for its events and running
 * order (the runs of the comparison keep only their counts and finishing order). -1 when it cannot run. */
static double cmd_baseline_moment(const SimRace *race, bool shuffle, const LabBaselineRun *was,
                                  const LabBaselineRun *now)
{
    SimSessionDef def = sim_default_session_def(race);
    def.seed = now->seed;
    def.shuffle_grid = shuffle;
    char err[2048];
    SimSession *s = sim_session_create(race, &def, err, sizeof err);
    if (!s)
        return -1.0;
    SimWorld *w = sim_session_world(s);
    LabOrderTrack track;
    bool order = lab_baseline_run_order_differs(was, now) && lab_order_track_init(&track) == 0;
    if (order) {
        lab_order_track_session(&track, s);
        while (!sim_world_done(w)) {
            sim_world_step(w);
            lab_order_track_session(&track, s);
        }
    } else {
        sim_world_run(w);
    }
    double at = sim_world_time(w), dt = 1.0 / sim_world_def(w)->tick_hz;
    static const SimEventType types[3] = {SIM_EV_OVERTAKE, SIM_EV_COLLISION, SIM_EV_OFFTRACK};
    const int was_n[3] = {was->overtakes, was->collisions, was->offtracks};
    const int now_n[3] = {now->overtakes, now->collisions, now->offtracks};
    int seen[3] = {0, 0, 0}, count;
    const SimEvent *ev = sim_world_events(w, &count);
    for (int i = 0; i < count; i++)
        for (int k = 0; k < 3; k++) {
            if (ev[i].type != types[k])
                continue;
            if (now_n[k] > was_n[k] && seen[k] == was_n[k] && (double)ev[i].tick * dt < at)
                at = (double)ev[i].tick * dt;
            seen[k]++;
        }
    if (order) {
        long parted = lab_order_track_parted(&track, was);
        if (parted >= 0 && (double)parted * dt < at)
            at = (double)parted * dt;
        lab_order_track_free(&track);
    }
    sim_session_destroy(s);
    return at;
}

static void cmd_baseline_print_changes(const LabBaseline *rec, const SimRace *race, const LabBaseline *now)
{
    for (int i = 0; i < rec->run_count; i++) {
        const LabBaselineRun *a = &rec->runs[i], *b = &now->runs[i];
        bool counts = lab_baseline_run_counts_differ(a, b), order = lab_baseline_run_order_differs(a, b);
        if (!counts && !order)
            continue;
        bool first = true;
        printf("seed %" PRIu64 ":", a->seed);
        cmd_baseline_count("overtakes", a->overtakes, b->overtakes, &first);
        cmd_baseline_count("collisions", a->collisions, b->collisions, &first);
        cmd_baseline_count("offtracks", a->offtracks, b->offtracks, &first);
        if (order) {
            printf("%s", counts ? ";" : "");
            cmd_baseline_order(rec, race, a, b);
        }
        printf("\n");
        app_print_open_command(stdout, "    watch: ", rec->race_path, a->seed, rec->shuffle_grid,
                               cmd_baseline_moment(race, rec->shuffle_grid, a, b));
    }
}

static void cmd_baseline_total(const char *name, const LabBaseline *rec, int delta, int tol)
{
    long was = 0;
    for (int i = 0; i < rec->run_count; i++)
        was += strcmp(name, "overtakes") == 0    ? rec->runs[i].overtakes
               : strcmp(name, "collisions") == 0 ? rec->runs[i].collisions
                                                 : rec->runs[i].offtracks;
    printf("total %-10s %6ld -> %6ld (%+d, tolerance %d) %s\n", name, was, was + delta, delta, tol,
           abs(delta) <= tol ? "ok" : "FAIL");
}

static int cmd_baseline_compare(const CliBaselineOpts *o)
{
    LabBaseline rec, now;
    char err[2048];
    if (lab_baseline_load(o->file, &rec, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    char context[SIM_PATH_LEN + 64];
    snprintf(context, sizeof context, "%s:2: the race of this baseline does not load: ", o->file);
    SimRace *race = cmd_baseline_race(rec.race_path, context);
    int rc = race ? 0 : 2;
    if (rc == 0 && lab_baseline_init(&now, race, rec.shuffle_grid, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        rc = 2;
    } else if (rc == 0) {
        if (lab_baseline_check_stale(&rec, &now, o->file, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            rc = 2;
        } else if (rec.files_hash != now.files_hash) {
            printf("note: the race, track or driver files changed since the baseline was recorded\n");
        }
        if (rc == 0 && lab_baseline_alloc_runs(&now, rec.run_count) != 0)
            rc = 1;
        for (int i = 0; rc == 0 && i < rec.run_count; i++)
            now.runs[i].seed = rec.runs[i].seed;
        if (rc == 0)
            rc = cmd_baseline_run(race, &now, rec.shuffle_grid, o->jobs);
        if (rc == 0) {
            LabBaselineVerdict v = lab_baseline_compare(&rec, &now);
            cmd_baseline_print_changes(&rec, race, &now);
            cmd_baseline_total("overtakes", &rec, v.d_overtakes, rec.tol.overtakes);
            cmd_baseline_total("collisions", &rec, v.d_collisions, rec.tol.collisions);
            cmd_baseline_total("offtracks", &rec, v.d_offtracks, rec.tol.offtracks);
            printf("orders changed on %d of %d seeds (tolerance %d) %s\n", v.changed_orders, rec.run_count,
                   rec.tol.orders, v.changed_orders <= rec.tol.orders ? "ok" : "FAIL");
            printf("baseline %s: %s (%d of %d seeds changed%s)\n", o->file, v.pass ? "PASS" : "FAIL",
                   v.changed_seeds, rec.run_count, v.exact ? "; exact: any change fails" : "");
            rc = v.pass ? 0 : 1;
        }
        lab_baseline_free(&now);
    }
    lab_baseline_free(&rec);
    free(race);
    return rc;
}

int cmd_baseline(int argc, char **argv)
{
    CliBaselineOpts o;
    int rc = cli_baseline_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    return strcmp(o.mode, "record") == 0 ? cmd_baseline_record(&o) : cmd_baseline_compare(&o);
}
