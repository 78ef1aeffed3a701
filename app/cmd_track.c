/* cmd_track.c: `racesim track FILE...`: validates track files and prints a summary of each; `--export` writes one
 * track's racing line and speed plan as CSV. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"
#include "cli.h"

#include "../track/trk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
}

/* The racing line and its speed plan, one row a metre; time_s integrates the line's own arc length. */
static int cmd_track_export(const TrkTrack *t, double grip_use, FILE *f)
{
    TrkCarParams car = trk_default_car();
    TrkSpeedProfile *p = trk_speed_profile_create(t, &car, TRK_PATH_RACING_LINE, grip_use);
    if (!p)
        return 1;
    fprintf(f, "s_m,centre_x_m,centre_y_m,line_d_m,line_x_m,line_y_m,line_kappa_1pm,width_left_m,width_right_m,"
               "speed_mps,time_s\n");
    double len = trk_length(t), time_s = 0.0, px = 0.0, py = 0.0, pv = 0.0;
    int hint = -1, rows = (int)floor(len);
    for (int i = 0; i <= rows; i++) {
        double s_m = i < rows ? (double)i : len; /* the last row closes the lap */
        double q = i < rows ? s_m : 0.0;
        TrkPose pose = trk_pose_at(t, q, &hint);
        TrkSpot spot = trk_spot_at(t, q, &hint);
        double lx, ly, v = trk_speed_at(p, q, &hint);
        trk_to_world(t, q, spot.line_d_m, &lx, &ly, &hint);
        if (i > 0) {
            double ds = hypot(lx - px, ly - py), vm = 0.5 * (v + pv);
            time_s += vm > 0.0 ? ds / vm : 0.0;
        }
        px = lx, py = ly, pv = v;
        fprintf(f, "%.3f,%.3f,%.3f,%.4f,%.3f,%.3f,%.6f,%.3f,%.3f,%.3f,%.4f\n", s_m, pose.x_m, pose.y_m, spot.line_d_m,
                lx, ly, spot.line_kappa, spot.left_m, spot.right_m, v, time_s);
    }
    trk_speed_profile_free(p);
    return ferror(f) ? 1 : 0;
}

int cmd_track(int argc, char **argv)
{
    CliTrackOpts o;
    int rc = cli_track_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    TrkDef def = trk_default_def();
    def.strict = o.strict;
    def.line_method = o.line;
    const char *export_path = o.export_path;
    char err[TRK_ERR_LEN + 4096];
    AppOut out;
    if (export_path) {
        const char *inputs[1] = {o.files[0]};
        if (app_out_check(export_path, inputs, 1, NULL, 0, err, sizeof err) != 0) {
            fprintf(stderr, "racesim track: %s\n", err);
            return 2;
        }
    }
    int status = 0;
    for (int i = 0; i < o.file_count; i++) {
        TrkTrack *t = trk_load(o.files[i], &def, err, sizeof err);
        if (!t) {
            fprintf(stderr, "%s\n", err);
            status = 2;
            continue;
        }
        if (!export_path)
            cmd_track_print(o.files[i], t);
        fflush(stdout); /* each file's warnings under its summary */
        fputs(trk_warning(t), stderr);
        if (!export_path) {
        } else if (app_out_open(&out, export_path, err, sizeof err) != 0) {
            fprintf(stderr, "racesim track: %s\n", err);
            status = 2;
        } else if (cmd_track_export(t, o.grip_use, out.f) != 0) {
            app_out_abort(&out);
            fprintf(stderr, "racesim track: cannot write '%s'\n", export_path);
            status = 1;
        } else if (app_out_commit(&out, err, sizeof err) != 0) {
            fprintf(stderr, "racesim track: %s\n", err);
            status = 1;
        }
        trk_free(t);
    }
    return status;
}
