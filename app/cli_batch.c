/* cli_batch.c: the command line of `racesim batch` (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void cli_batch_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim batch RACE.ini --races N [--seed S] [--jobs J] [--out FILE.jsonl [--resume]]\n"
            "                     [--shard I/N] [--laps L]\n\n"
            "Runs N races with seeds S..S+N-1. Race K is exactly `racesim run RACE.ini --seed K --shuffle-grid`\n"
            "(the seed also shuffles the grid), so any race can be replayed alone and watched. Prints per driver:\n"
            "mean finishing position, wins, podiums, overtakes, positions lost, collisions, off-track seconds,\n"
            "DNFs and best lap, each with a 95%% interval. Results do not depend on --jobs.\n\n"
            "Ctrl-C (or SIGTERM) stops cleanly: the races under way finish, --out keeps every finished race in\n"
            "seed order, and the same command with --resume runs the rest; the file is then the same as if the\n"
            "batch had never stopped. A second Ctrl-C ends at once.\n\n"
            "options:\n"
            "  --races N        number of races (required)\n"
            "  --seed S         first seed (default: the race file's seed)\n"
            "  --jobs J         worker threads (default: all cores, here %d)\n"
            "  --out FILE       write one JSON line per race, in seed order (`-` for stdout, then no table)\n"
            "  --csv FILE       also write one CSV row per car per race (the columns of `run --csv`), in seed\n"
            "                   order (`-` for stdout, then no table)\n"
            "  --resume         keep the races already in --out FILE (checked: same race, seeds in order) and\n"
            "                   run only the rest\n"
            "  --shard I/N      run only shard I of N: seeds S+k with k = I-1 (mod N); `racesim merge` the parts\n"
            "  --laps L         override the race's lap count\n"
            "  -h, --help       this text\n",
            cli_default_jobs());
}

int cli_batch_parse(int argc, char **argv, CliBatchOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->jobs = cli_default_jobs();
    o->shard_index = o->shard_count = 1;
    o->races = -1;
    static const struct option longs[] = {
        {"races", required_argument, NULL, 'n'}, {"seed", required_argument, NULL, 's'},
        {"jobs", required_argument, NULL, 'j'},  {"out", required_argument, NULL, 'o'},
        {"resume", no_argument, NULL, 'r'},      {"shard", required_argument, NULL, 'k'},
        {"csv", required_argument, NULL, 'c'},
        {"laps", required_argument, NULL, 'l'},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        int bad = 0;
        const char *name = NULL;
        switch (c) {
        case 'h':
            cli_batch_usage(out);
            return 0;
        case 'n':
            bad = cli_parse_long(optarg, 1, 100000000, &o->races), name = "--races";
            break;
        case 's':
            bad = cli_parse_u64(optarg, &o->seed), name = "--seed";
            o->has_seed = true;
            break;
        case 'j':
            bad = cli_parse_long(optarg, 1, 256, &o->jobs), name = "--jobs";
            break;
        case 'o':
            o->out_path = optarg;
            break;
        case 'r':
            o->resume = true;
            break;
        case 'c':
            o->csv_path = optarg;
            break;
        case 'k':
            bad = cli_parse_shard(optarg, &o->shard_index, &o->shard_count), name = "--shard";
            break;
        case 'l':
            bad = cli_parse_long(optarg, 1, 1000, &o->laps), name = "--laps";
            break;
        default:
            cli_opt_error(err, "batch", c, argv, longs);
            fprintf(err, "(see racesim batch --help)\n");
            return 2;
        }
        if (bad) {
            fprintf(err, "racesim batch: %s: expected %s, got '%s'\n", name, cli_option_expects(name), optarg);
            fprintf(err, "(see racesim batch --help)\n");
            return 2;
        }
    }
    for (int i = optind; i < argc; i++) {
        if (o->race_path) {
            fprintf(err, "racesim batch: one race file at a time ('%s' and '%s')\n", o->race_path, argv[i]);
            fprintf(err, "(see racesim batch --help)\n");
            return 2;
        }
        o->race_path = argv[i];
    }
    if (cli_path_given(err, "batch", "RACE.ini", o->race_path) || cli_path_given(err, "batch", "--out", o->out_path) ||
        cli_path_given(err, "batch", "--csv", o->csv_path)) {
        fprintf(err, "(see racesim batch --help)\n");
        return 2;
    }
    const char *missing = !o->race_path ? "no race file given"
                          : o->races < 1 ? "--races N is required"
                          : o->resume && (!o->out_path || strcmp(o->out_path, "-") == 0)
                              ? "--resume needs --out FILE (the file to continue)"
                              : NULL;
    if (missing) {
        fprintf(err, "racesim batch: %s\n(see racesim batch --help)\n", missing);
        return 2;
    }
    return CLI_GO;
}

