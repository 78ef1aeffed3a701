/* cli_check.c: the command line of `racesim check` (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void cli_check_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim check FILE_OR_DIR... [options]\n\n"
            "Runs every scenario (a race file with an [expect] section; a directory means every *.ini directly in\n"
            "it) headless, for each seed, and prints one line per scenario: PASS or FAIL, then each check as\n"
            "`name measured (limit)`, the measured figure being the worst over the seeds, then the checks across\n"
            "seeds (collisions_mean_max, offtrack_s_mean_max, overtakes_after_lap1_mean_min,\n"
            "overtakes_after_lap1_on_merit_mean_min, overtakes_on_merit_mean_min: the mean over the seeds).\n"
            "Under a failed scenario, `watch: racesim run FILE --seed S --at T` opens its first failed seed in\n"
            "the viewer at the moment the failure shows. The last line reads \"N passed, N failed\" (scenarios).\n\n"
            "options:\n"
            "  --seeds A-B     seeds to run every scenario with (default: the scenario's [expect] seeds, else\n"
            "                  its race seed)\n"
            "  --jobs J        run J races at a time (threads; the output does not depend on J; default: all cores, here %d)\n"
            "  --json          one JSON object per scenario (every seed, every check, and the checks across\n"
            "                  seeds in \"across_seeds\"), then a summary object; a failed seed and each of its\n"
            "                  failed checks carry \"at_s\" (the moment, or null) and \"watch\" (the command)\n"
            "  -v, --verbose   also one line per seed (per-seed checks only), and a watch line per failed seed\n"
            "  -h, --help      this text\n\n"
            "Exit status: 0 every scenario passed, 1 a scenario failed, 2 bad usage or a bad scenario file.\n",
            cli_default_jobs());
}

int cli_check_parse(int argc, char **argv, CliCheckOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->jobs = cli_default_jobs();
    static const struct option longs[] = {
        {"json", no_argument, NULL, 'J'},         {"verbose", no_argument, NULL, 'v'},
        {"seeds", required_argument, NULL, 's'},  {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    cli_getopt_reset();
    int c;
    long j;
    while ((c = getopt_long(argc, argv, ":hv", longs, NULL)) != -1) {
        switch (c) {
        case 'h':
            cli_check_usage(out);
            return 0;
        case 'J':
            o->json = true;
            break;
        case 'v':
            o->verbose = true;
            break;
        case 's':
            if (lab_expect_parse_seeds(optarg, &o->seed_first, &o->seed_last) != 0) {
                fprintf(err, "racesim check: --seeds: expected A-B with A <= B (at most 100000), got '%s'\n",
                        optarg);
                return 2;
            }
            o->have_seeds = true;
            break;
        case 'j':
            if (cli_parse_long(optarg, 1, 256, &j) != 0) {
                fprintf(err, "racesim check: --jobs: expected an integer 1..256, got '%s'\n", optarg);
                return 2;
            }
            o->jobs = (int)j;
            break;
        default:
            cli_opt_error(err, "check", c, argv, longs);
            fprintf(err, "(see racesim check --help)\n");
            return 2;
        }
    }
    o->paths = argv + optind;
    o->path_count = argc - optind;
    for (int i = 0; i < o->path_count; i++)
        if (cli_path_given(err, "check", "FILE_OR_DIR", o->paths[i]))
            return 2;
    if (o->path_count == 0) {
        fprintf(err, "racesim check: no scenario file or directory (see racesim check --help)\n");
        return 2;
    }
    return CLI_GO;
}

