/* cmd_track.c: `racesim track FILE...`: validates track files and prints a summary of each. */
#include "app.h"

#include "../track/trk.h"

#include <stdio.h>
#include <string.h>

static void cmd_track_usage(FILE *out)
{
    fprintf(out, "usage: racesim track FILE...\n\n"
                 "Validates track files (.csv centrelines or INI) and prints for each: name, length, width range,\n"
                 "tightest radius, number of corners, and the theoretical lap time of the default car on the\n"
                 "centre line and on the racing line.\n"
                 "A bad file gives `path:line: what is wrong` on stderr and exit status 2.\n\n"
                 "options:\n"
                 "  -h, --help   this text\n");
}

static void cmd_track_lap(char *buf, size_t len, double t_s)
{
    int min = (int)(t_s / 60.0);
    snprintf(buf, len, "%d:%06.3f", min, t_s - 60.0 * min);
}

static double cmd_track_lap_time(const TrkTrack *t, const TrkCarParams *car, TrkPath path)
{
    TrkSpeedProfile *p = trk_speed_profile_create(t, car, path, 1.0);
    double lap = p ? trk_profile_lap_time(p) : 0.0;
    trk_speed_profile_free(p);
    return lap;
}

static void cmd_track_print(const char *path, const TrkTrack *t)
{
    TrkSummary s = trk_summary(t);
    TrkCarParams car = trk_default_car();
    double centre = cmd_track_lap_time(t, &car, TRK_PATH_CENTRE);
    double line = cmd_track_lap_time(t, &car, TRK_PATH_RACING_LINE);
    char c_buf[32], l_buf[32];
    cmd_track_lap(c_buf, sizeof c_buf, centre);
    cmd_track_lap(l_buf, sizeof l_buf, line);
    printf("%s\n", path);
    printf("  name:             %s\n", trk_name(t));
    printf("  length:           %.0f m\n", s.length_m);
    printf("  width:            %.1f to %.1f m\n", s.min_width_m, s.max_width_m);
    printf("  tightest radius:  %.1f m\n", s.tightest_radius_m);
    printf("  corners:          %d\n", s.corners);
    printf("  control points:   %d\n", s.control_points);
    printf("  lap, centre line: %s (default car)\n", c_buf);
    printf("  lap, racing line: %s (%.1f s faster)\n", l_buf, centre - line);
    if (trk_warning(t)[0])
        printf("  warning:          %s\n", trk_warning(t));
}

int cmd_track(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            cmd_track_usage(stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "racesim track: unknown option '%s'\n", argv[i]);
            cmd_track_usage(stderr);
            return 2;
        }
        files++;
    }
    if (files == 0) {
        fprintf(stderr, "racesim track: no track file given\n");
        cmd_track_usage(stderr);
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        char err[TRK_ERR_LEN];
        TrkTrack *t = trk_load(argv[i], NULL, err, sizeof err);
        if (!t) {
            fprintf(stderr, "%s\n", err);
            status = 2;
            continue;
        }
        cmd_track_print(argv[i], t);
        trk_free(t);
    }
    return status;
}
