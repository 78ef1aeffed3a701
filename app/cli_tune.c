/* cli_tune.c: the command line of `racesim tune` (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void cli_tune_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim tune RACE.ini --driver FILE.ini --param SECTION.KEY=LO:HI [--param ...]\n"
            "                    --iterations N [--pairs P] [--metric points|position|time] [--seed S]\n"
            "                    [--jobs J] [--seat K] [--laps L] [--out TUNED.ini]\n\n"
            "Tunes real-number keys of a driver personality by SPSA (simultaneous perturbation stochastic\n"
            "approximation). Each iteration perturbs every key at once by +-c_k (a random sign per key), races the\n"
            "two personalities against each other in the tested seat on P paired seeds (as `racesim ab` does) and\n"
            "steps against the measured difference. Iteration k uses seeds S+k*P..S+k*P+P-1; the final check runs\n"
            "the original (A) against the tuned personality (B) on the next 2*P seeds. A line per iteration goes\n"
            "to stderr; the summary and the check to stdout. Results do not depend on --jobs.\n\n"
            "options:\n"
            "  --driver FILE       the personality to tune (required)\n"
            "  --param S.K=LO:HI   a key to tune and its range, inside the key's documented range; the driver's\n"
            "                      value must lie in LO..HI (required; up to %d)\n"
            "  --iterations N      SPSA iterations (required)\n"
            "  --pairs P           paired races per iteration (default 8)\n"
            "  --metric NAME       points, position (default) or time of the tested car\n"
            "  --seed S            first seed (default: the race file's seed)\n"
            "  --jobs J            worker threads (default: all cores, here %d)\n"
            "  --seat K            test grid line K (1-based) in every race (default: seed mod cars)\n"
            "  --laps L            override the race's lap count\n"
            "  --out FILE          write the tuned personality: the driver file with the tuned values\n"
            "  -h, --help          this text\n",
            LAB_SPSA_MAX_PARAMS, cli_default_jobs());
}

static int cli_tune_value(CliTuneOpts *o, int c, const char *v, const char **name, FILE *err)
{
    char why[256];
    switch (c) {
    case 'd':
        o->driver_path = v;
        return 0;
    case 'o':
        o->out_path = v;
        return 0;
    case 'p':
        if (o->param_count == LAB_SPSA_MAX_PARAMS) {
            fprintf(err, "racesim tune: at most %d --param\n", LAB_SPSA_MAX_PARAMS);
            return 2;
        }
        if (app_tune_param_parse(v, &o->params[o->param_count++], why, sizeof why)) {
            fprintf(err, "racesim tune: %s\n", why);
            return 2;
        }
        return 0;
    case 'n':
        return *name = "--iterations", cli_parse_long(v, 1, 1000000, &o->iterations);
    case 'P':
        return *name = "--pairs", cli_parse_long(v, 1, 1000000, &o->pairs);
    case 'm':
        o->metric = lab_ab_metric_parse(v);
        return *name = "--metric",
               o->metric != LAB_AB_POINTS && o->metric != LAB_AB_POSITION && o->metric != LAB_AB_TIME;
    case 's':
        o->has_seed = true;
        return *name = "--seed", cli_parse_u64(v, &o->seed);
    case 'j':
        return *name = "--jobs", cli_parse_long(v, 1, 256, &o->jobs);
    case 'k':
        return *name = "--seat", cli_parse_long(v, 1, SIM_MAX_CARS, &o->seat);
    case 'l':
        return *name = "--laps", cli_parse_long(v, 1, 1000, &o->laps);
    }
    return 2;
}

int cli_tune_parse(int argc, char **argv, CliTuneOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->jobs = cli_default_jobs();
    o->pairs = 8;
    o->metric = LAB_AB_POSITION;
    static const struct option longs[] = {
        {"driver", required_argument, NULL, 'd'}, {"param", required_argument, NULL, 'p'},
        {"iterations", required_argument, NULL, 'n'}, {"pairs", required_argument, NULL, 'P'},
        {"metric", required_argument, NULL, 'm'}, {"seed", required_argument, NULL, 's'},
        {"jobs", required_argument, NULL, 'j'}, {"seat", required_argument, NULL, 'k'},
        {"laps", required_argument, NULL, 'l'}, {"out", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        if (c == 'h') {
            cli_tune_usage(out);
            return 0;
        }
        if (c == '?' || c == ':') {
            cli_opt_error(err, "tune", c, argv, longs);
            fprintf(err, "(see racesim tune --help)\n");
            return 2;
        }
        const char *name = NULL;
        int bad = cli_tune_value(o, c, optarg, &name, err);
        if (bad && name) {
            const char *expects = c == 'm' ? "points, position or time" : cli_option_expects(name);
            fprintf(err, "racesim tune: %s: expected %s, got '%s'\n", name, expects, optarg);
        }
        if (bad) {
            fprintf(err, "(see racesim tune --help)\n");
            return 2;
        }
    }
    for (int i = optind; i < argc; i++) {
        if (o->race_path) {
            fprintf(err, "racesim tune: one race file at a time ('%s' and '%s')\n(see racesim tune --help)\n",
                    o->race_path, argv[i]);
            return 2;
        }
        o->race_path = argv[i];
    }
    if (cli_path_given(err, "tune", "RACE.ini", o->race_path) ||
        cli_path_given(err, "tune", "--driver", o->driver_path) || cli_path_given(err, "tune", "--out", o->out_path)) {
        fprintf(err, "(see racesim tune --help)\n");
        return 2;
    }
    const char *missing = !o->race_path          ? "no race file given"
                          : !o->driver_path      ? "--driver FILE.ini is required"
                          : o->param_count == 0  ? "--param SECTION.KEY=LO:HI is required"
                          : o->iterations < 1    ? "--iterations N is required"
                                                 : NULL;
    if (missing) {
        fprintf(err, "racesim tune: %s\n(see racesim tune --help)\n", missing);
        return 2;
    }
    return CLI_GO;
}

