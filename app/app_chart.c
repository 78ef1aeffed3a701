/* app_chart.c: `racesim run ... --chart FILE.svg`: replays the race with a trace attached and writes the lap and gap
 * chart. The replay is the same race (same race file, seed and options: the sim is deterministic), so the charted
 * race is the one whose results were printed; the trace only reads the world after each step. */
#include "app_exp.h"

#include "../sim/sim_chart.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int app_chart_race(const SimRace *race, const SimSessionDef *def, const char *path)
{
    size_t len = strlen(path);
    if (len < 4 || strcmp(path + len - 4, ".svg") != 0) {
        fprintf(stderr, "racesim run: --chart %s: only SVG charts are written (name the file .svg; convert with e.g. "
                "`rsvg-convert -o chart.png chart.svg`)\n", path);
        return 2;
    }
    char err[2048];
    SimSession *s = sim_session_create(race, def, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    SimWorld *w = sim_session_world(s);
    SimTrace *trace = sim_trace_create(w, 10);
    if (!trace) {
        fprintf(stderr, "racesim run: --chart needs a race with a lap count\n");
        sim_session_destroy(s);
        return 2;
    }
    while (!sim_world_done(w)) {
        sim_world_step(w);
        sim_trace_sample(trace, w);
    }
    char title[SIM_PATH_LEN + 128];
    snprintf(title, sizeof title, "%s  seed %" PRIu64 "%s  %d laps of %s", race->path, def->seed,
             def->shuffle_grid ? " (grid shuffled)" : "", trace->laps, trk_name(sim_world_track(w)));
    int rc = sim_chart_race_write(trace, title, path, err, sizeof err);
    if (rc)
        fprintf(stderr, "racesim run: %s\n", err);
    sim_trace_free(trace);
    sim_session_destroy(s);
    return rc ? 1 : 0;
}
