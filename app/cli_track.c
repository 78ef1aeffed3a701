/* cli_track.c: the command line of `racesim track` (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cli_track_usage(FILE *out)
{
    fprintf(out, "usage: racesim track FILE... [--strict] [--line METHOD] [--export LINE.csv [--grip-use G]]\n\n"
                 "Validates track files (.csv centrelines, TORCS / Speed Dreams .xml tracks or INI) and prints\n"
                 "for each: name, length, width range, tightest radius, number of corners, and the theoretical lap\n"
                 "time of the default car on the centre line and on the racing line.\n"
                 "A bad file gives `path:line: what is wrong` on stderr and exit status 2; warnings (a repaired\n"
                 "fold, a bridge) give `path:line: warning: what` on stderr.\n\n"
                 "options:\n"
                 "  --export FILE   (one track) write the racing line and its speed plan, one row a metre:\n"
                 "                  s_m, centre x_m/y_m, line_d_m, line x_m/y_m, line_kappa_1pm, width_left_m,\n"
                 "                  width_right_m, speed_mps (default car), time_s along the line; - = stdout\n"
                 "  --grip-use G    the speed plan's share of the grip, 0.5..1 (default 1; drivers use their\n"
                 "                  grip_use)\n"
                 "  --line METHOD   the racing line's optimiser: classic (default) or min-curvature (the\n"
                 "                  line's own curvature; docs/formats.md); a track file's [track] line wins\n"
                 "  --strict        refuse edges that fold over (the width on the inside of a corner beyond its\n"
                 "                  radius) instead of pulling the inside edge in with a warning\n"
                 "  -h, --help      this text\n");
}

int cli_track_parse(int argc, char **argv, CliTrackOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->grip_use = 1.0;
    o->line = TRK_LINE_CLASSIC;
    static const struct option longs[] = {
        {"export", required_argument, NULL, 'e'},
        {"grip-use", required_argument, NULL, 'g'},
        {"strict", no_argument, NULL, 's'},
        {"line", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        if (c == 'h') {
            cli_track_usage(out);
            return 0;
        } else if (c == 's') {
            o->strict = true;
        } else if (c == 'l') {
            if (!trk_line_method_parse(optarg, &o->line)) {
                fprintf(err, "racesim track: --line: expected classic or min-curvature, got '%s'\n", optarg);
                return 2;
            }
        } else if (c == 'e') {
            o->export_path = optarg;
        } else if (c == 'g') {
            char *end;
            o->grip_use = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || !(o->grip_use >= 0.5 && o->grip_use <= 1.0)) {
                fprintf(err, "racesim track: --grip-use: expected a number 0.5..1, got '%s'\n", optarg);
                return 2;
            }
        } else {
            cli_opt_error(err, "track", c, argv, longs);
            cli_track_usage(err);
            return 2;
        }
    }
    o->files = argv + optind;
    o->file_count = argc - optind;
    for (int i = 0; i < o->file_count; i++)
        if (cli_path_given(err, "track", "FILE", o->files[i]))
            return 2;
    if (cli_path_given(err, "track", "--export", o->export_path))
        return 2;
    if (o->file_count == 0) {
        fprintf(err, "racesim track: no track file given\n");
        cli_track_usage(err);
        return 2;
    }
    if (o->export_path && o->file_count != 1) {
        fprintf(err, "racesim track: --export writes one track's line: give one track file\n");
        return 2;
    }
    return CLI_GO;
}
