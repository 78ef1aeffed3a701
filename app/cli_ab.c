/* cli_ab.c: the command line of `racesim ab` (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void cli_ab_usage(FILE *out)
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
            cli_default_jobs());
}

static int cli_ab_value(CliAbOpts *o, const char *a, const char *v)
{
    if (strcmp(a, "--races") == 0)
        return cli_parse_long(v, 1, 100000000, &o->races);
    if (strcmp(a, "--seed") == 0) {
        o->has_seed = true;
        return cli_parse_u64(v, &o->seed);
    }
    if (strcmp(a, "--jobs") == 0)
        return cli_parse_long(v, 1, 256, &o->jobs);
    if (strcmp(a, "--seat") == 0)
        return cli_parse_long(v, 1, SIM_MAX_CARS, &o->seat);
    if (strcmp(a, "--laps") == 0)
        return cli_parse_long(v, 1, 1000, &o->laps);
    if (strcmp(a, "--shard") == 0)
        return cli_parse_shard(v, &o->shard_index, &o->shard_count);
    if (strcmp(a, "--metric") == 0)
        return (o->metric = lab_ab_metric_parse(v)) < 0;
    if (strcmp(a, "--max-races") == 0)
        return cli_parse_long(v, 1, 100000000, &o->max_races);
    double *numbers[] = {&o->sprt_def.h0, &o->sprt_def.h1, &o->sprt_def.alpha, &o->sprt_def.beta};
    bool *given[] = {&o->has_h0, &o->has_h1, &o->has_error_rate, &o->has_error_rate};
    const char *number_names[] = {"--h0", "--h1", "--alpha", "--beta"};
    for (int i = 0; i < 4; i++)
        if (strcmp(a, number_names[i]) == 0) {
            *given[i] = true;
            return cli_parse_double(v, numbers[i]);
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
static const char *cli_ab_sprt_options(CliAbOpts *o, char *err, size_t err_len)
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

int cli_ab_parse(int argc, char **argv, CliAbOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->jobs = cli_default_jobs();
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
    cli_getopt_reset();
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":h", longs, &index)) != -1) {
        if (c == 'h') {
            cli_ab_usage(out);
            return 0;
        }
        if (c == 's') {
            o->sprt = true;
        } else if (c == 'r') {
            o->resume = true;
        } else if (c == 'v') {
            char name[32];
            snprintf(name, sizeof name, "--%s", longs[index].name);
            if (cli_ab_value(o, name, optarg)) {
                fprintf(err, "racesim ab: %s: expected %s, got '%s'\n(see racesim ab --help)\n", name,
                        cli_option_expects(name), optarg);
                return 2;
            }
        } else {
            cli_opt_error(err, "ab", c, argv, longs);
            fprintf(err, "(see racesim ab --help)\n");
            return 2;
        }
        index = -1;
    }
    for (int i = optind; i < argc; i++) {
        if (o->race_path) {
            fprintf(err, "racesim ab: one race file at a time ('%s' and '%s')\n(see racesim ab --help)\n",
                    o->race_path, argv[i]);
            return 2;
        }
        o->race_path = argv[i];
    }
    const char *paths[] = {o->race_path, o->a_path, o->b_path, o->out_path, o->chart_path};
    const char *whats[] = {"RACE.ini", "--a", "--b", "--out", "--chart"};
    for (int i = 0; i < 5; i++)
        if (cli_path_given(err, "ab", whats[i], paths[i])) {
            fprintf(err, "(see racesim ab --help)\n");
            return 2;
        }
    char why[256];
    const char *missing = cli_ab_sprt_options(o, why, sizeof why);
    if (!missing)
        missing = !o->race_path                ? "no race file given"
                  : !o->a_path || !o->b_path ? "--a and --b are required"
                  : o->races < 1             ? "--races N is required"
                  : o->resume && (!o->out_path || strcmp(o->out_path, "-") == 0)
                      ? "--resume needs --out FILE (the file to continue)"
                      : NULL;
    if (missing) {
        fprintf(err, "racesim ab: %s\n(see racesim ab --help)\n", missing);
        return 2;
    }
    return CLI_GO;
}

