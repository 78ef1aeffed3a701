/* bench_sim.c: the cost of the simulation itself, without the drivers' think time: cars with a cheap scripted
 * driver (follow the racing line at the speed profile) on the grand-prix track, all starting in one pack (the
 * densest traffic, so the most work for views, drafting, collisions and pass detection).
 *
 * Prints the time of a ten-car five-lap race at 100 Hz (target: under 50 ms of one core), then for 10, 40 and 100
 * cars: car-ticks per second, ns per car-tick in total and per stage, real-time factor and peak memory; and the
 * cost per car-tick with 100 cars relative to 10 (target: at most 2x). Exits 0 whether targets are met or not.
 * `bench_sim hash` prints the world hashes of the ten-car race and of 100 cars after 60 s (to check that an
 * optimisation changed nothing); `bench_sim race` runs the ten-car race once (for callgrind). */
#include "bench.h"
#include "../track/trk_fast.h" /* the scripted driver reads its plan per tick, inlined as the real drivers do */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

typedef struct BenchField {
    SimWorld *world;
    BenchDriver *drivers;
} BenchField;

/* n cars on a two-by-two grid behind the line, `laps` laps (0: no lap target). */
static int bench_field(BenchField *f, const TrkTrack *t, const TrkSpeedProfile *prof, int n, int laps)
{
    SimWorldDef def = sim_default_world_def();
    def.track = t;
    def.laps = laps;
    f->world = sim_world_create(&def);
    f->drivers = calloc((size_t)n, sizeof *f->drivers);
    if (!f->world || !f->drivers)
        return 1;
    for (int k = 0; k < n; k++) {
        f->drivers[k] = (BenchDriver){prof, t, -1, -1, (k % 2 ? -1.0 : 1.0) * 0.3 * (k % 5)};
        SimCarDef c;
        memset(&c, 0, sizeof c);
        c.name = "bench";
        c.spec = sim_default_car_spec();
        c.race_dist_m = -(4.0 + 8.0 * k);
        c.s_m = c.race_dist_m;
        c.d_m = k % 2 ? -2.5 : 2.5;
        c.think = bench_think;
        c.driver = &f->drivers[k];
        if (sim_world_add_car(f->world, &c) != k)
            return 1;
    }
    return 0;
}

static void bench_field_free(BenchField *f)
{
    sim_world_destroy(f->world);
    free(f->drivers);
}

/* Best of `reps` runs of n cars for `laps` laps or max_ticks. Returns nonzero when the world cannot be built. */
static int bench_best(const TrkTrack *t, const TrkSpeedProfile *prof, int n, int laps, long max_ticks, int reps,
                      BenchRun *best, uint64_t *hash)
{
    memset(best, 0, sizeof *best);
    for (int rep = 0; rep < reps; rep++) {
        BenchField f;
        if (bench_field(&f, t, prof, n, laps) != 0) {
            bench_field_free(&f);
            return 1;
        }
        BenchRun r;
        bench_step_world(f.world, max_ticks, hash == NULL, &r);
        if (hash)
            *hash = sim_world_hash(f.world);
        bench_field_free(&f);
        bench_keep_best(best, &r);
    }
    return 0;
}

int main(int argc, char **argv)
{
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    if (!t) {
        fprintf(stderr, "bench_sim: %s\n", err);
        return 1;
    }
    TrkCarParams car = trk_default_car();
    TrkSpeedProfile *prof = trk_speed_profile_create(t, &car, TRK_PATH_RACING_LINE, 0.9);
    BenchRun race;
    uint64_t hash = 0;
    bool race_mode = argc > 1 && strcmp(argv[1], "race") == 0; /* the ten-car race once, for profilers */
    bool hash_mode = race_mode || (argc > 1 && strcmp(argv[1], "hash") == 0);
    if (!prof || bench_best(t, prof, 10, 5, 1000000, hash_mode ? 1 : 3, &race, hash_mode ? &hash : NULL) != 0) {
        fprintf(stderr, "bench_sim: cannot build the race\n");
        return 1;
    }
    if (race_mode) {
        printf("%016llx\n", (unsigned long long)hash);
        return 0;
    }
    if (hash_mode) {
        uint64_t hash100 = 0;
        bench_best(t, prof, 100, 0, 6000, 1, &race, &hash100);
        printf("%016llx %016llx\n", (unsigned long long)hash, (unsigned long long)hash100);
        return 0;
    }
    printf("bench_sim: the simulation alone (scripted drivers follow the racing line), %s (%.0f m), 100 Hz; %s\n",
           trk_name(t), trk_length(t), BENCH_BUILD);
    printf("  10 cars, 5 laps: %ld ticks in %.1f ms (target < 50 ms: %s)\n", race.ticks, race.wall_s * 1e3,
           bench_verdict(race.wall_s < 0.050));
    bench_header("cars");
    bench_row("race", &race);
    static const int counts[] = {10, 40, 100};
    double per[3];
    for (int i = 0; i < 3; i++) {
        BenchRun r;
        /* the first 60 s: the field is still one pack, the densest traffic of a race */
        if (bench_best(t, prof, counts[i], 0, 6000, 3, &r, NULL) != 0) {
            fprintf(stderr, "bench_sim: cannot build a %d-car field\n", counts[i]);
            return 1;
        }
        char label[16];
        snprintf(label, sizeof label, "%d", counts[i]);
        bench_row(label, &r);
        per[i] = r.wall_s / bench_car_ticks(&r);
    }
    printf("  per car-tick, 100 cars vs 10: %.2fx (target <= 2x: %s)\n", per[2] / per[0],
           bench_verdict(per[2] <= 2.0 * per[0]));
    trk_speed_profile_free(prof);
    trk_free(t);
    return 0;
}
