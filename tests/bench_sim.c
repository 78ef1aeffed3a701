/* bench_sim.c: the cost of the simulation itself, without driver think time: cars with a cheap scripted driver
 * (follow the racing line at the speed profile) on the grand-prix track. Prints the time of a ten-car five-lap race
 * at 100 Hz and the cost per car-tick with 10 and 100 cars. Exits 1 when a target is missed (a race over 50 ms,
 * or 100 cars costing more than 2x per car than 10). */
#include "../sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct BenchDriver {
    const TrkSpeedProfile *profile;
    const TrkTrack *track;
    int hint, line_hint;
    double offset_m;
} BenchDriver;

static void bench_think(void *self, const DrvView *v, DrvControls *out)
{
    BenchDriver *b = self;
    double target_v = trk_speed_at(b->profile, v->s_m + v->speed_mps * 0.3, &b->hint);
    double target_d = trk_line_d(b->track, v->s_m, &b->line_hint) + b->offset_m;
    out->long_accel_mps2 = 4.0 * (target_v - v->speed_mps);
    out->lat_accel_mps2 = 4.0 * (target_d - v->d_m) - 4.0 * v->lat_speed_mps;
    out->target_d_m = target_d;
    out->target_speed_mps = target_v;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs n cars for `laps` laps (or max_ticks); returns seconds per car-tick and fills the tick count. */
static double bench_race(const TrkTrack *t, const TrkSpeedProfile *prof, int n, int laps, long max_ticks,
                         long *ticks_out, double *wall_out)
{
    SimWorldDef def = sim_default_world_def();
    def.track = t;
    def.laps = laps;
    SimWorld *w = sim_world_create(&def);
    BenchDriver *drv = calloc((size_t)n, sizeof *drv);
    for (int k = 0; k < n; k++) {
        drv[k] = (BenchDriver){prof, t, -1, -1, (k % 2 ? -1.0 : 1.0) * 0.3 * (k % 5)};
        SimCarDef c;
        memset(&c, 0, sizeof c);
        c.name = "bench";
        c.spec = sim_default_car_spec();
        c.race_dist_m = -(4.0 + 8.0 * k);
        c.s_m = c.race_dist_m;
        c.d_m = k % 2 ? -2.5 : 2.5;
        c.think = bench_think;
        c.driver = &drv[k];
        sim_world_add_car(w, &c);
    }
    double t0 = now_s();
    while (!sim_world_done(w) && sim_world_tick(w) < max_ticks)
        sim_world_step(w);
    double wall = now_s() - t0;
    *ticks_out = sim_world_tick(w);
    *wall_out = wall;
    sim_world_destroy(w);
    free(drv);
    return wall / ((double)*ticks_out * n);
}

int main(void)
{
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    if (!t) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    TrkCarParams car = trk_default_car();
    TrkSpeedProfile *prof = trk_speed_profile_create(t, &car, TRK_PATH_RACING_LINE, 0.9);
    long ticks;
    double wall;
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) { /* best of three: the machine is shared */
        bench_race(t, prof, 10, 5, 1000000, &ticks, &wall);
        if (wall < best)
            best = wall;
    }
    printf("bench_sim: 10 cars, 5 laps of %s (%.0f m) at 100 Hz: %ld ticks in %.1f ms (scripted drivers)\n",
           trk_name(t), trk_length(t), ticks, best * 1000.0);
    double per10 = 1e9, per100 = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double a = bench_race(t, prof, 10, 0, 20000, &ticks, &wall);
        double b = bench_race(t, prof, 100, 0, 20000, &ticks, &wall);
        per10 = a < per10 ? a : per10;
        per100 = b < per100 ? b : per100;
    }
    printf("bench_sim: per car-tick: %.0f ns with 10 cars, %.0f ns with 100 cars (%.2fx)\n", per10 * 1e9,
           per100 * 1e9, per100 / per10);
    trk_speed_profile_free(prof);
    trk_free(t);
    int ok = best < 0.050 && per100 < 2.0 * per10;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
