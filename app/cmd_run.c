/* cmd_run.c: `racesim run RACE.ini [options]`: runs a race in a window, or headless with a results table, JSON and
 * CSV. Without --headless it opens the viewer when a display is available and falls back to headless otherwise. */
#include "app.h"
#include "app_exp.h" /* app_chart_* (--chart) */

#include "../sim/sim.h"
#include "app_out.h"
#include "app_trace.h"
#include "app_view.h"


#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct CmdRunOpts {
    const char *race_path;
    bool headless, shuffle, quiet, timing;
    bool have_seed;
    uint64_t seed;
    int laps;
    const char *json_path, *csv_path;
    const char *screenshot_path, *font_path;
    const char *camera;     /* --camera: overview | follow | chase | director */
    double at_s;
    const char *chart_path; /* --chart: lap and gap chart (experiments) */
    const char *trace_path; /* --trace: every car every tick, CSV */
} CmdRunOpts;

static void cmd_run_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim run [RACE.ini] [options]\n\n"
            "Runs a race (default %s). With a display it opens the viewer; with --headless, or when no\n"
            "display is available, it runs as fast as the machine allows and prints a results table.\n"
            "The same race file and seed always give the same results.\n\n"
            "options:\n"
            "  --headless          no window: run to the end and print the results table\n"
            "  --seed N            the race's seed (default: the race file's)\n"
            "  --laps N            laps, 1..1000 (default: the race file's)\n"
            "  --shuffle-grid      permute the grid with the seed\n"
            "  --json FILE|-       write the results as JSON (with the event list); - = stdout; also after the\n"
            "                      viewer or a screenshot (the same race, run again headless)\n"
            "  --csv FILE|-        write one CSV row per car; - = stdout\n"
            "  --chart FILE.svg    write a lap chart and a gap chart of the race (SVG)\n"
            "  --trace FILE.csv    write every running car at every tick (position, speed, targets, requests,\n"
            "                      alone/braking/drafting/off-track flags) as CSV\n"
            "  --screenshot FILE   render one frame at --at seconds to a PNG (BMP for a .bmp name; no display\n"
            "                      needed) and exit\n"
            "  --at SECONDS        sim time of the screenshot (default 0)\n"
            "  --camera MODE       overview | follow | chase | director: the first camera (default: director in a\n"
            "                      window, overview in a screenshot)\n"
            "  --font PATH         TTF font for the viewer (default: DejaVu Sans)\n"
            "  -q, --quiet         no results table\n"
            "  --timing            print ticks and wall time of the headless run on stderr\n"
            "  -h, --help          this text\n\n"
            "Exit status: 0 ok, 1 the run failed, 2 bad usage or a bad file (`path:line: what is wrong`).\n",
            APP_DEFAULT_RACE);
}

static int cmd_run_bad(const char *opt, const char *what, const char *got)
{
    fprintf(stderr, "racesim run: %s: expected %s, got '%s'\n", opt, what, got);
    return 2;
}

static int cmd_run_int(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return 1;
    *out = v;
    return 0;
}

static int cmd_run_u64(const char *text, uint64_t *out)
{
    char *end;
    if (text[0] < '0' || text[0] > '9')
        return 1;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return 1;
    *out = (uint64_t)v;
    return 0;
}

/* One option with a value; returns 0, or the exit code for bad usage. */
static int cmd_run_value_opt(CmdRunOpts *o, const char *opt, const char *val)
{
    long n;
    if (strcmp(opt, "--seed") == 0) {
        if (cmd_run_u64(val, &o->seed) != 0)
            return cmd_run_bad(opt, "an integer 0..18446744073709551615", val);
        o->have_seed = true;
    } else if (strcmp(opt, "--laps") == 0) {
        if (cmd_run_int(val, 1, 1000, &n) != 0)
            return cmd_run_bad(opt, "an integer 1..1000", val);
        o->laps = (int)n;
    } else if (strcmp(opt, "--at") == 0) {
        char *end;
        double t = strtod(val, &end);
        if (end == val || *end != '\0' || !isfinite(t) || t < 0.0 || t > 1e6)
            return cmd_run_bad(opt, "a number of seconds 0..1000000", val);
        o->at_s = t;
    } else if (strcmp(opt, "--json") == 0) {
        o->json_path = val;
    } else if (strcmp(opt, "--csv") == 0) {
        o->csv_path = val;
    } else if (strcmp(opt, "--screenshot") == 0) {
        o->screenshot_path = val;
    } else if (strcmp(opt, "--font") == 0) {
        o->font_path = val;
    } else if (strcmp(opt, "--camera") == 0) {
        if (strcmp(val, "overview") != 0 && strcmp(val, "follow") != 0 && strcmp(val, "director") != 0 &&
            strcmp(val, "chase") != 0)
            return cmd_run_bad(opt, "overview, follow, chase or director", val);
        o->camera = val;
    } else if (strcmp(opt, "--chart") == 0) {
        o->chart_path = val;
    } else if (strcmp(opt, "--trace") == 0) {
        o->trace_path = val;
    }
    if ((strcmp(opt, "--json") == 0 || strcmp(opt, "--csv") == 0 || strcmp(opt, "--screenshot") == 0 ||
         strcmp(opt, "--font") == 0 || strcmp(opt, "--trace") == 0) &&
        val[0] == '\0')
        return cmd_run_bad(opt, "a file path", val);
    return 0;
}

/* Returns -1 to go on, else an exit code (0 after --help). */
static int cmd_run_parse(int argc, char **argv, CmdRunOpts *o)
{
    static const struct option longs[] = {
        {"headless", no_argument, NULL, 'H'},       {"shuffle-grid", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},          {"timing", no_argument, NULL, 'T'},
        {"seed", required_argument, NULL, 's'},     {"laps", required_argument, NULL, 'l'},
        {"json", required_argument, NULL, 'j'},     {"csv", required_argument, NULL, 'c'},
        {"screenshot", required_argument, NULL, 'p'}, {"at", required_argument, NULL, 'a'},
        {"font", required_argument, NULL, 'f'},     {"chart", required_argument, NULL, 'g'},
        {"trace", required_argument, NULL, 't'},    {"help", no_argument, NULL, 'h'},
        {"camera", required_argument, NULL, 'C'},
        {NULL, 0, NULL, 0},
    };
    bool have_at = false;
    optind = 0; /* GNU: start afresh (the tests call commands more than once) */
    opterr = 0;
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":hq", longs, &index)) != -1) {
        switch (c) {
        case 'h':
            cmd_run_usage(stdout);
            return 0;
        case 'H':
            o->headless = true;
            break;
        case 'S':
            o->shuffle = true;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'T':
            o->timing = true;
            break;
        case 's': case 'l': case 'j': case 'c': case 'p': case 'a': case 'f': case 'g': case 't': case 'C': {
            char opt[32];
            snprintf(opt, sizeof opt, "--%s", longs[index].name);
            int rc = cmd_run_value_opt(o, opt, optarg);
            if (rc != 0)
                return rc;
            have_at |= c == 'a';
            break;
        }
        default:
            app_opt_error("run", c, argv);
            fprintf(stderr, "(see racesim run --help)\n");
            return 2;
        }
        index = -1;
    }
    for (int i = optind; i < argc; i++) {
        if (o->race_path) {
            fprintf(stderr, "racesim run: more than one race file ('%s' and '%s')\n", o->race_path, argv[i]);
            return 2;
        }
        o->race_path = argv[i];
    }
    const char *conflict = have_at && !o->screenshot_path ? "--at only sets the time of a --screenshot"
                           : o->headless && o->screenshot_path
                               ? "--screenshot renders the viewer's frame: it cannot be --headless"
                               : NULL;
    if (conflict) {
        fprintf(stderr, "racesim run: %s\n", conflict);
        return 2;
    }
    if (!o->race_path)
        o->race_path = app_default_race();
    return -1;
}

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

static int cmd_run_write(const SimSession *s, const CmdRunOpts *o)
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

static int cmd_run_headless(const SimRace *race, const SimSessionDef *def, const CmdRunOpts *o)
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
    CmdRunOpts o;
    memset(&o, 0, sizeof o);
    int rc = cmd_run_parse(argc, argv, &o);
    if (rc >= 0)
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
    const char *outputs[] = {o.json_path, o.csv_path, o.trace_path, o.chart_path, o.screenshot_path};
    for (int k = 0; k < 5; k++) {
        if (outputs[k] == NULL)
            continue;
        if (app_out_check(outputs[k], inputs, n_in, outputs, 5, err, sizeof err) != 0) {
            fprintf(stderr, "racesim run: %s\n", err);
            free(race);
            return 2;
        }
    }
    SimSessionDef def = sim_default_session_def(race);
    if (o.have_seed)
        def.seed = o.seed;
    def.laps = o.laps;
    def.shuffle_grid = o.shuffle;
    AppViewOpts view;
    memset(&view, 0, sizeof view);
    view.session = def;
    view.font_path = o.font_path;
    view.camera = o.camera;
    view.screenshot_path = o.screenshot_path;
    view.screenshot_at_s = o.at_s;
    bool viewed = true;
    if (o.screenshot_path)
        rc = app_view_screenshot(race, &view);
    else if (!o.headless && app_view_available())
        rc = app_view_window(race, &view);
    else {
        rc = cmd_run_headless(race, &def, &o); /* samples its own chart */
        viewed = false;
    }
    if (rc == 0 && o.chart_path && viewed) /* the viewer stepped the race: replay it, traced (see app_chart.c) */
        rc = app_chart_race(race, &def, o.chart_path);
    /* likewise the trace and the results files: the same race replayed headless gives the same ticks */
    if (rc == 0 && viewed && (o.trace_path || o.json_path || o.csv_path)) {
        CmdRunOpts replay = o;
        replay.quiet = true;
        replay.chart_path = NULL;
        rc = cmd_run_headless(race, &def, &replay);
    }
    free(race);
    return rc;
}
