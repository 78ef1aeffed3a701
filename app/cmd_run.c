/* cmd_run.c: `racesim run RACE.ini [options]`: runs a race in a window, or headless with a results table, JSON and
 * CSV. Without --headless it opens the viewer when a display is available and falls back to headless otherwise. */
#include "app.h"
#include "app_exp.h" /* app_chart_* (--chart) */
#include "cli.h"

#include "../sim/sim.h"
#include "app_out.h"
#include "app_trace.h"
#include "app_view.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Writes one results file through a temporary file (see app_out.h). */
static int cmd_run_write_one(const SimSession *s, const char *path, bool json)
{
    AppOut out;
    char err[4400];
    if (app_out_open(&out, path, err, sizeof err) != 0) {
        fprintf(stderr, "racesim run: %s\n", err);
        return 1;
    }
    if (json)
        sim_results_write_json(s, out.f, true, false);
    else
        sim_results_write_csv(s, out.f);
    if (app_out_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "racesim run: %s\n", err);
        return 1;
    }
    return 0;
}

static int cmd_run_write(const SimSession *s, const CliRunOpts *o)
{
    int status = 0;
    if (o->json_path)
        status |= cmd_run_write_one(s, o->json_path, true);
    if (o->csv_path)
        status |= cmd_run_write_one(s, o->csv_path, false);
    return status;
}

static double cmd_run_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmd_run_headless(const SimRace *race, const SimSessionDef *def, const CliRunOpts *o)
{
    char err[2048];
    SimSession *s = sim_session_create(race, def, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    SimWorld *w = sim_session_world(s);
    SimTrace *trace = NULL; /* --chart: sampled while the race runs, so it runs once */
    if (o->chart_path && !(trace = app_chart_trace(w))) {
        sim_session_destroy(s);
        return 2;
    }
    FILE *tf = NULL;
    AppOut tout;
    char terr[4400];
    if (o->trace_path) {
        if (app_out_open(&tout, o->trace_path, terr, sizeof terr) != 0) {
            fprintf(stderr, "racesim run: %s\n", terr);
            sim_trace_free(trace);
            sim_session_destroy(s);
            return 1;
        }
        tf = tout.f;
    }
    int trace_err = tf ? app_trace_header(tf) : 0;
    double t0 = cmd_run_now_s();
    if (trace || tf) {
        while (!sim_world_done(w)) {
            if (tf)
                trace_err |= app_trace_tick(tf, s);
            sim_world_step(w);
            if (trace)
                sim_trace_sample(trace, w);
        }
    } else {
        sim_world_run(w);
    }
    if (tf && trace_err) {
        app_out_abort(&tout);
        fprintf(stderr, "racesim run: cannot write '%s'\n", o->trace_path);
    } else if (tf && app_out_commit(&tout, terr, sizeof terr) != 0) {
        fprintf(stderr, "racesim run: %s\n", terr);
        trace_err = 1;
    }
    double wall = cmd_run_now_s() - t0;
    bool to_stdout = (o->json_path && strcmp(o->json_path, "-") == 0) || (o->csv_path && strcmp(o->csv_path, "-") == 0);
    if (!o->quiet && !to_stdout)
        sim_results_print_table(s, stdout);
    if (o->timing)
        fprintf(stderr, "racesim run: %ld ticks, %.2f s simulated in %.1f ms of wall time (%.0fx real time)\n",
                sim_world_tick(w), sim_world_time(w), wall * 1000.0, wall > 0.0 ? sim_world_time(w) / wall : 0.0);
    int status = cmd_run_write(s, o);
    if (trace_err)
        status = 1;
    if (trace) {
        int chart = app_chart_write(trace, race, def, w, o->chart_path);
        status = status ? status : chart;
        sim_trace_free(trace);
    }
    sim_session_destroy(s);
    return status;
}

int cmd_run(int argc, char **argv)
{
    CliRunOpts o;
    int rc = cli_run_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    SimRace *race = malloc(sizeof *race);
    if (!race) {
        fprintf(stderr, "racesim run: out of memory\n");
        return 1;
    }
    char err[2048];
    if (app_race_load(o.race_path, race, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        free(race);
        return 2;
    }
    if (o.chart_path && app_chart_check_path("run", o.chart_path) != 0) {
        free(race);
        return 2;
    }
    /* every output checked before the race runs: writable, not an input, not given twice */
    const char *inputs[SIM_MAX_CARS + 2];
    int n_in = app_race_inputs(race, inputs, SIM_MAX_CARS + 2);
    const char *outputs[] = {o.json_path, o.csv_path, o.trace_path, o.chart_path, o.screenshot_path, o.video_path};
    int n_out = (int)(sizeof outputs / sizeof outputs[0]);
    for (int k = 0; k < n_out; k++) {
        if (outputs[k] == NULL)
            continue;
        if (app_out_check(outputs[k], inputs, n_in, outputs, n_out, err, sizeof err) != 0) {
            fprintf(stderr, "racesim run: %s\n", err);
            free(race);
            return 2;
        }
    }
    SimSessionDef def = sim_default_session_def(race);
    if (o.have_seed)
        def.seed = o.seed;
    def.laps = o.laps;
    def.shuffle_grid |= o.shuffle; /* on top of the race file's shuffle_grid */
    AppViewOpts view;
    memset(&view, 0, sizeof view);
    view.session = def;
    view.font_path = o.font_path;
    view.camera = o.camera;
    view.screenshot_path = o.screenshot_path;
    view.at_s = o.at_s;
    view.video_path = o.video_path;
    view.from_s = o.from_s;
    view.to_s = o.to_s;
    view.fps = o.fps;
    view.width = o.width;
    view.height = o.height;
    bool viewed = true;
    if (o.screenshot_path)
        rc = app_view_screenshot(race, &view);
    else if (o.video_path)
        rc = app_view_video(race, &view);
    else if (!o.headless && app_view_available())
        rc = app_view_window(race, &view);
    else if (o.at_s > 0.0) {
        fprintf(stderr, "racesim run: --at opens the viewer at that moment, and no display is available (for a\n"
                        "picture of it without one: --screenshot FILE.png --at %g)\n",
                o.at_s);
        rc = 2;
        viewed = false;
    } else {
        rc = cmd_run_headless(race, &def, &o); /* samples its own chart */
        viewed = false;
    }
    if (rc == 0 && o.chart_path && viewed) /* the viewer stepped the race: replay it, traced (see app_chart.c) */
        rc = app_chart_race(race, &def, o.chart_path);
    /* likewise the trace and the results files: the same race replayed headless gives the same ticks */
    if (rc == 0 && viewed && (o.trace_path || o.json_path || o.csv_path)) {
        CliRunOpts replay = o;
        replay.quiet = true;
        replay.chart_path = NULL;
        rc = cmd_run_headless(race, &def, &replay);
    }
    free(race);
    return rc;
}
