/* sim_trace.c: marker crossing times (see sim_trace.h). */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

SimTrace *sim_trace_create(const SimWorld *world, int per_lap)
{
    const SimWorldDef *def = sim_world_def(world);
    int n = sim_world_car_count(world);
    if (def->laps <= 0 || n <= 0 || per_lap <= 0)
        return NULL;
    SimTrace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->car_count = n;
    t->laps = def->laps;
    t->per_lap = per_lap;
    t->markers = def->laps * per_lap;
    t->lap_m = trk_length(sim_world_track(world));
    t->cars = calloc((size_t)n, sizeof *t->cars);
    t->cross_s = malloc((size_t)n * (size_t)t->markers * sizeof *t->cross_s);
    t->prev_dist_m = calloc((size_t)n, sizeof *t->prev_dist_m);
    t->next_marker = calloc((size_t)n, sizeof *t->next_marker);
    if (!t->cars || !t->cross_s || !t->prev_dist_m || !t->next_marker) {
        sim_trace_free(t);
        return NULL;
    }
    const int *order = sim_world_order(world);
    for (int i = 0; i < n; i++)
        t->cars[order[i]].grid = i + 1;
    for (int c = 0; c < n; c++) {
        const SimCar *car = sim_world_car(world, c);
        SimTraceCar *tc = &t->cars[c];
        snprintf(tc->name, sizeof tc->name, "%s", car->name);
        tc->number = car->number;
        memcpy(tc->colour, car->colour, 3);
        tc->position = tc->grid;
        t->prev_dist_m[c] = car->race_dist_m;
    }
    for (long i = 0; i < (long)n * t->markers; i++)
        t->cross_s[i] = -1.0;
    t->prev_time_s = sim_world_time(world);
    sim_world_events(world, &t->events_seen); /* markers start with the trace */
    return t;
}

/* The step's overtakes and collisions, placed where the passer (car a) is now. An allocation failure drops the
 * markers, never the race. */
static void sim_trace_events(SimTrace *t, const SimWorld *world)
{
    int n = 0;
    const SimEvent *ev = sim_world_events(world, &n);
    for (; t->events_seen < n; t->events_seen++) {
        const SimEvent *e = &ev[t->events_seen];
        if ((e->type != SIM_EV_OVERTAKE && e->type != SIM_EV_COLLISION) || e->a < 0 || e->a >= t->car_count)
            continue;
        if (t->event_count == t->event_cap) {
            int cap = t->event_cap ? 2 * t->event_cap : 64;
            SimTraceEvent *grown = realloc(t->events, (size_t)cap * sizeof *grown);
            if (!grown)
                continue;
            t->events = grown;
            t->event_cap = cap;
        }
        const SimCar *car = sim_world_car(world, e->a);
        t->events[t->event_count++] = (SimTraceEvent){e->type, e->a, e->b, sim_world_time(world),
                                                      car->race_dist_m / t->lap_m, car->position};
    }
}

void sim_trace_sample(SimTrace *t, const SimWorld *world)
{
    double now = sim_world_time(world);
    for (int c = 0; c < t->car_count; c++) {
        const SimCar *car = sim_world_car(world, c);
        double d0 = t->prev_dist_m[c], d1 = car->race_dist_m;
        while (t->next_marker[c] < t->markers) {
            double at = (t->next_marker[c] + 1) * t->lap_m / t->per_lap;
            if (d1 < at)
                break;
            /* linear interpolation inside the tick: sub-tick gaps instead of 10 ms steps */
            double f = d1 > d0 ? (at - d0) / (d1 - d0) : 1.0;
            f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
            t->cross_s[(long)c * t->markers + t->next_marker[c]] = t->prev_time_s + f * (now - t->prev_time_s);
            t->next_marker[c]++;
        }
        t->prev_dist_m[c] = d1;
        t->cars[c].status = car->status;
        t->cars[c].position = car->position;
    }
    t->prev_time_s = now;
    sim_trace_events(t, world);
}

void sim_trace_free(SimTrace *t)
{
    if (!t)
        return;
    free(t->cars);
    free(t->cross_s);
    free(t->prev_dist_m);
    free(t->next_marker);
    free(t->events);
    free(t);
}

int sim_trace_position_at(const SimTrace *t, int car, int marker)
{
    double mine = t->cross_s[(long)car * t->markers + marker];
    if (mine < 0.0)
        return 0;
    int pos = 1;
    for (int o = 0; o < t->car_count; o++) {
        double other = t->cross_s[(long)o * t->markers + marker];
        if (o != car && other >= 0.0 && (other < mine || (other == mine && o < car)))
            pos++;
    }
    return pos;
}
