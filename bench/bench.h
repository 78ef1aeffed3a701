/* bench.h: small helpers shared by the benchmarks (bench/bench_*.c). Benchmarks print figures and whether each
 * target is met; they exit 0 unless something is broken (a file that does not load, a race that cannot start),
 * because a busy shared machine must not fail a build. */
#ifndef BENCH_H
#define BENCH_H

/* How the benchmark was built (the Makefile says): the figures depend on it, a profile-guided build's by about 5 %. */
#ifndef BENCH_BUILD
#define BENCH_BUILD "unknown build"
#endif

#include "../sim/sim.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static inline double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Peak resident memory of the process so far, MB (Linux reports ru_maxrss in KiB). */
static inline double bench_peak_mb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0.0;
    return (double)ru.ru_maxrss / 1024.0;
}

/* What one measured run produced. */
typedef struct BenchRun {
    int cars;
    long ticks;
    double wall_s;
    double sim_s;                      /* simulated time */
    double stage_ns[SIM_STAGE_COUNT];  /* totals over the run */
    double peak_mb;                    /* the process's peak memory at the end of the run */
} BenchRun;

static inline double bench_car_ticks(const BenchRun *r) { return (double)r->ticks * r->cars; }

/* Steps the world until done or max_ticks (with stage timing when `timed`); fills r. */
static inline void bench_step_world(SimWorld *w, long max_ticks, bool timed, BenchRun *r)
{
    sim_world_set_stage_timing(w, timed);
    long t0 = sim_world_tick(w);
    double start = bench_now_s();
    while (!sim_world_done(w) && sim_world_tick(w) - t0 < max_ticks)
        sim_world_step(w);
    r->wall_s = bench_now_s() - start;
    r->ticks = sim_world_tick(w) - t0;
    r->cars = sim_world_car_count(w);
    r->sim_s = (double)r->ticks / sim_world_def(w)->tick_hz;
    for (int s = 0; s < SIM_STAGE_COUNT; s++)
        r->stage_ns[s] = sim_world_stage_ns(w, (SimStage)s);
    r->peak_mb = bench_peak_mb();
}

/* Keeps the faster of two runs of the same configuration (the machine is shared: the minimum is the signal). */
static inline void bench_keep_best(BenchRun *best, const BenchRun *r)
{
    if (best->ticks == 0 || r->wall_s / bench_car_ticks(r) < best->wall_s / bench_car_ticks(best))
        *best = *r;
}

static inline void bench_header(const char *first_col)
{
    printf("  %-10s %7s %12s %8s", first_col, "ticks", "car-ticks/s", "ns/c-t");
    for (int s = 0; s < SIM_STAGE_COUNT; s++)
        printf(" %8s", sim_stage_name((SimStage)s));
    printf(" %8s %8s\n", "RT-x", "peak MB");
}

/* One row: throughput, ns per car-tick in total and per stage, real-time factor, peak memory at the run's end. */
static inline void bench_row(const char *label, const BenchRun *r)
{
    double ct = bench_car_ticks(r);
    printf("  %-10s %7ld %12.0f %8.0f", label, r->ticks, ct / r->wall_s, 1e9 * r->wall_s / ct);
    for (int s = 0; s < SIM_STAGE_COUNT; s++)
        printf(" %8.0f", r->stage_ns[s] / ct);
    printf(" %8.0f %8.1f\n", r->sim_s / r->wall_s, r->peak_mb);
}

static inline const char *bench_verdict(int met) { return met ? "met" : "MISSED"; }

#endif
