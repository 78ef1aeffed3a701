/* cli_baseline.c: the command line of `racesim baseline` (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cli_baseline_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim baseline record RACE.ini --seeds A-B --out FILE [options]\n"
            "       racesim baseline compare FILE [--jobs J]\n\n"
            "record runs the race once per seed and stores the per-seed counts (overtakes, collisions,\n"
            "off-tracks) and finishing orders, with a fingerprint of the race and a checksum. compare reruns the\n"
            "same seeds, prints every change (per seed, then the totals against the tolerances) and fails when a\n"
            "total moves beyond its tolerance or more seeds change their order than allowed. Tolerances are exact\n"
            "(0) by default, since runs are deterministic: then any change fails. Under each changed seed,\n"
            "`watch: racesim run RACE --seed S --at T` opens it in the viewer where the change shows: an event\n"
            "past a recorded count that grew, or where the finishing order parted from the recorded one (the\n"
            "rerun's running order followed tick by tick), else the end of the race.\n\n"
            "options (record):\n"
            "  --seeds A-B            seeds to record (required)\n"
            "  --out FILE             the baseline file to write (required)\n"
            "  --shuffle-grid         permute the grid with each seed (as `racesim run --shuffle-grid`)\n"
            "  --tol-overtakes N      allowed change of the total overtakes (default 0)\n"
            "  --tol-collisions N     allowed change of the total collisions (default 0)\n"
            "  --tol-offtracks N      allowed change of the total off-tracks (default 0)\n"
            "  --tol-orders N         seeds allowed to change their finishing order (default 0)\n"
            "options (both):\n"
            "  --jobs J               races at a time (threads; results do not depend on J; default: all cores, here %d)\n"
            "  -h, --help             this text\n\n"
            "Exit status: 0 recorded / no change beyond the tolerances, 1 a change beyond them (or a run\n"
            "failed), 2 bad usage, a bad race file, or a bad or stale baseline file.\n",
            cli_default_jobs());
}

static int cli_baseline_int(FILE *err, const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || n < lo || n > hi) {
        fprintf(err, "racesim baseline: %s: expected an integer %ld..%ld, got '%s'\n", opt, lo, hi, v);
        return 2;
    }
    *out = n;
    return 0;
}

static int cli_baseline_value(CliBaselineOpts *o, const char *opt, const char *v, FILE *err)
{
    long n = 0;
    int *tol = strcmp(opt, "--tol-overtakes") == 0    ? &o->tol.overtakes
               : strcmp(opt, "--tol-collisions") == 0 ? &o->tol.collisions
               : strcmp(opt, "--tol-offtracks") == 0  ? &o->tol.offtracks
               : strcmp(opt, "--tol-orders") == 0     ? &o->tol.orders
                                                      : NULL;
    if (tol) {
        if (cli_baseline_int(err, opt, v, 0, 1000000000L, &n) != 0)
            return 2;
        *tol = (int)n;
        o->has_tol = true;
    } else if (strcmp(opt, "--jobs") == 0) {
        if (cli_baseline_int(err, opt, v, 1, 256, &n) != 0)
            return 2;
        o->jobs = (int)n;
    } else if (strcmp(opt, "--seeds") == 0) {
        if (lab_expect_parse_seeds(v, &o->seed_first, &o->seed_last) != 0) {
            fprintf(err, "racesim baseline: --seeds: expected A-B with A <= B (at most 100000), got '%s'\n", v);
            return 2;
        }
        o->have_seeds = true;
    } else if (strcmp(opt, "--out") == 0) {
        if (v[0] == '\0') {
            fprintf(err, "racesim baseline: --out: expected a file path, got ''\n");
            return 2;
        }
        o->out = v;
    } else {
        return -1;
    }
    return 0;
}

int cli_baseline_parse(int argc, char **argv, CliBaselineOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->jobs = cli_default_jobs();
    static const struct option longs[] = {
        {"shuffle-grid", no_argument, NULL, 'S'},        {"tol-overtakes", required_argument, NULL, 'v'},
        {"tol-collisions", required_argument, NULL, 'v'}, {"tol-offtracks", required_argument, NULL, 'v'},
        {"tol-orders", required_argument, NULL, 'v'},    {"jobs", required_argument, NULL, 'v'},
        {"seeds", required_argument, NULL, 'v'},         {"out", required_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},                {NULL, 0, NULL, 0},
    };
    cli_getopt_reset();
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":h", longs, &index)) != -1) {
        if (c == 'h') {
            cli_baseline_usage(out);
            return 0;
        }
        if (c == 'S') {
            o->shuffle = true;
        } else if (c == 'v') {
            char name[32];
            snprintf(name, sizeof name, "--%s", longs[index].name);
            int rc = cli_baseline_value(o, name, optarg, err);
            if (rc > 0)
                return rc;
        } else {
            cli_opt_error(err, "baseline", c, argv, longs);
            fprintf(err, "(see racesim baseline --help)\n");
            return 2;
        }
        index = -1;
    }
    for (int i = optind; i < argc; i++) {
        const char *a = argv[i];
        if (!o->mode) {
            o->mode = a;
        } else if (!o->file) {
            o->file = a;
        } else {
            fprintf(err, "racesim baseline: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!o->mode || (strcmp(o->mode, "record") != 0 && strcmp(o->mode, "compare") != 0)) {
        fprintf(err, "racesim baseline: expected 'record' or 'compare' (see racesim baseline --help)\n");
        return 2;
    }
    bool record = strcmp(o->mode, "record") == 0;
    if (cli_path_given(err, "baseline", record ? "RACE.ini" : "FILE", o->file))
        return 2;
    if (!o->file || (record && (!o->have_seeds || !o->out))) {
        fprintf(err, "racesim baseline: %s\n",
                record ? "record needs RACE.ini, --seeds A-B and --out FILE" : "compare needs the baseline FILE");
        return 2;
    }
    if (!record && (o->have_seeds || o->out || o->shuffle || o->has_tol)) {
        fprintf(err, "racesim baseline: compare takes only --jobs (seeds, grid and tolerances are in the file)\n");
        return 2;
    }
    return CLI_GO;
}

