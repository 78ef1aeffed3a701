/* sim_trace.h: a race's history for charts: when each car crossed each of a fixed set of distance markers (every
 * lap line and `per_lap` points per lap), read from the world after every step. The sim itself is untouched: the
 * trace only observes. */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include "sim.h"

typedef struct SimTraceCar {
    char name[DRV_NAME_LEN];
    int number;
    uint8_t colour[3];
    int grid;            /* 1-based start position */
    SimStatus status;    /* at the last sample */
    int position;        /* at the last sample */
} SimTraceCar;

typedef struct SimTrace {
    int car_count;
    int laps;
    int per_lap;         /* markers per lap; marker k sits at race distance (k + 1) * lap / per_lap */
    int markers;         /* laps * per_lap */
    double lap_m;
    SimTraceCar *cars;
    double *cross_s;     /* [car * markers + k]: sim time of crossing marker k, or -1 if never */
    double *prev_dist_m; /* per car, at the previous sample */
    double prev_time_s;
    int *next_marker;    /* per car */
} SimTrace;

/* Starts a trace of a world before its first step (the grid order is read here). NULL on allocation failure or a
 * world without a lap count. */
SimTrace *sim_trace_create(const SimWorld *world, int per_lap);
/* Call after every sim_world_step. */
void sim_trace_sample(SimTrace *trace, const SimWorld *world);
void sim_trace_free(SimTrace *trace);

/* Position of `car` among the cars that crossed marker k, by crossing
 * time (1-based), or 0 if the car never crossed it. */
int sim_trace_position_at(const SimTrace *trace, int car, int marker);

#endif
