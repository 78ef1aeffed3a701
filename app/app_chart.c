/* app_chart.c: `racesim run ... --chart FILE.svg`: the lap and gap chart of a race; writing any chart.
 *
 * A headless run samples its own world into a trace while it steps (app_chart_trace / app_chart_write), so the race
 * runs once. After a window or a screenshot, the race is replayed with a trace (app_chart_race): the same race file,
 * seed and options give the same race, since the sim is deterministic. The trace only reads the world. */
#include "app_exp.h"
#include "app_out.h"

#include "../lab/lab.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int app_chart_save(const char *cmd, const char *path, void (*draw)(const void *ctx, FILE *out), const void *ctx)
{
    AppOut out;
    char err[SIM_PATH_LEN + 256];
    if (app_out_open(&out, path, err, sizeof err) == 0) {
        draw(ctx, out.f);
        if (app_out_commit(&out, err, sizeof err) == 0)
            return 0;
    }
    fprintf(stderr, "racesim %s: %s\n", cmd, err);
    return 1;
}

int app_chart_check_path(const char *cmd, const char *path)
{
    size_t len = strlen(path);
    if (len >= 4 && strcmp(path + len - 4, ".svg") == 0)
        return 0;
    fprintf(stderr, "racesim %s: --chart %s: only SVG charts are written (name the file .svg; convert with e.g. "
            "`rsvg-convert -o chart.png chart.svg`)\n", cmd, path);
    return 2;
}

SimTrace *app_chart_trace(const SimWorld *world)
{
    SimTrace *trace = sim_trace_create(world, 10);
    if (!trace)
        fprintf(stderr, "racesim run: --chart needs a race with a lap count\n");
    return trace;
}

typedef struct RaceChart {
    const SimTrace *trace;
    char title[SIM_PATH_LEN + 128];
} RaceChart;

static void race_chart_draw(const void *ctx, FILE *out)
{
    const RaceChart *c = ctx;
    lab_chart_race_svg(c->trace, c->title, out);
}

int app_chart_write(const SimTrace *trace, const SimRace *race, const SimSessionDef *def, const SimWorld *world,
                    const char *path)
{
    RaceChart chart = {trace, ""};
    snprintf(chart.title, sizeof chart.title, "%s  seed %" PRIu64 "%s  %d laps of %s", race->path, def->seed,
             def->shuffle_grid ? " (grid shuffled)" : "", trace->laps, trk_name(sim_world_track(world)));
    return app_chart_save("run", path, race_chart_draw, &chart);
}

int app_chart_race(const SimRace *race, const SimSessionDef *def, const char *path)
{
    char err[2048];
    SimSession *s = sim_session_create(race, def, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    SimWorld *w = sim_session_world(s);
    SimTrace *trace = app_chart_trace(w);
    if (!trace) {
        sim_session_destroy(s);
        return 2;
    }
    while (!sim_world_done(w)) {
        sim_world_step(w);
        sim_trace_sample(trace, w);
    }
    int rc = app_chart_write(trace, race, def, w, path);
    sim_trace_free(trace);
    sim_session_destroy(s);
    return rc;
}
