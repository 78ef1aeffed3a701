/* cli_merge.c: the command line of `racesim merge` (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void cli_merge_usage(FILE *out)
{
    fprintf(out, "usage: racesim merge PART.jsonl... [--metric NAME] [--chart FILE.svg]\n"
                 "                     [[--sprt] --h0 X --h1 Y [--alpha A] [--beta B]]\n\n"
                 "Reads the --out files of `racesim batch` or `racesim ab` runs (typically the shards of one run,\n"
                 "--shard 1/N .. N/N) and prints the table (batch) or report (ab) that one unsharded run prints,\n"
                 "byte for byte. Every file must be in seed order; a seed may appear only once; batch and ab files\n"
                 "cannot be mixed. Bad lines give `path:line: what is wrong` and exit status 2.\n\n"
                 "options:\n"
                 "  --metric NAME     ab files: report only NAME (position, time, overtakes, collisions, offtrack,\n"
                 "                    points)\n"
                 "  --chart FILE.svg  ab files: chart of the paired differences\n"
                 "  --h0 X, --h1 Y    ab files: end with the state of the sequential test (SPRT) on the metric\n"
                 "                    (--metric, default position) over the union of the files in seed order:\n"
                 "                    LLR, bounds, the pair where it first crossed one if it did (--sprt: the same)\n"
                 "  --alpha A, --beta B  error rates in (0, 0.5) (default 0.05 each)\n"
                 "  -h, --help        this text\n");
}

/* The sequential test asked for by --sprt, --h0, --h1, --alpha or --beta (bits 4, 1, 2, 8 of `given`): 0, or 2
 * on a bad combination (message written). */
static int cli_merge_sprt_check(CliMergeOpts *o, int given, FILE *err)
{
    char why[256];
    if (given == 0)
        return 0;
    if ((given & 3) != 3) {
        fprintf(err, "racesim merge: --sprt, --alpha and --beta need both --h0 and --h1\n");
        return 2;
    }
    if (lab_sprt_check_def(&o->sprt_def, why, sizeof why)) {
        fprintf(err, "racesim merge: %s\n", why);
        return 2;
    }
    o->has_sprt = true;
    return 0;
}

int cli_merge_parse(int argc, char **argv, CliMergeOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->metric = -1;
    o->sprt_def = lab_sprt_default_def();
    int sprt_given = 0;
    static const struct option longs[] = {
        {"metric", required_argument, NULL, 'm'}, {"chart", required_argument, NULL, 'c'},
        {"sprt", no_argument, NULL, 's'},         {"h0", required_argument, NULL, '0'},
        {"h1", required_argument, NULL, '1'},     {"alpha", required_argument, NULL, 'a'},
        {"beta", required_argument, NULL, 'b'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_getopt_reset();
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":h", longs, &index)) != -1) {
        double *number = c == '0' ? &o->sprt_def.h0 : c == '1' ? &o->sprt_def.h1 : c == 'a' ? &o->sprt_def.alpha
                         : c == 'b' ? &o->sprt_def.beta : NULL;
        if (c == 'h') {
            cli_merge_usage(out);
            return 0;
        } else if (c == 'c') {
            o->chart_path = optarg;
        } else if (c == 'm') {
            if ((o->metric = lab_ab_metric_parse(optarg)) < 0) {
                fprintf(err, "racesim merge: unknown metric '%s'\n", optarg);
                return 2;
            }
        } else if (c == 's') {
            sprt_given |= 4;
        } else if (number) {
            char name[16];
            snprintf(name, sizeof name, "--%s", longs[index].name);
            if (cli_parse_double(optarg, number)) {
                fprintf(err, "racesim merge: %s: expected %s, got '%s'\n", name, cli_option_expects(name), optarg);
                return 2;
            }
            sprt_given |= c == '0' ? 1 : c == '1' ? 2 : 8;
        } else {
            cli_opt_error(err, "merge", c, argv, longs);
            cli_merge_usage(err);
            return 2;
        }
        index = -1;
    }
    o->paths = argv + optind;
    o->path_count = argc - optind;
    for (int i = 0; i < o->path_count; i++)
        if (cli_path_given(err, "merge", "PART.jsonl", o->paths[i]))
            return 2;
    if (cli_path_given(err, "merge", "--chart", o->chart_path))
        return 2;
    if (cli_merge_sprt_check(o, sprt_given, err))
        return 2;
    if (o->path_count == 0) {
        fprintf(err, "racesim merge: no files given\n");
        cli_merge_usage(err);
        return 2;
    }
    return CLI_GO;
}
