/* rnd_timing.c: broadcast timing for the standings tower and the director. The view records when the leading
 * position first reached each distance mark (every RND_GAP_STEP_M from where the leader started); a car's gap to
 * the leader is the time since the leader was where the car is now, and its interval the difference of its gap and
 * the gap of the car ahead. Until a car reaches the leader's starting spot (the first timing point) its gap is not
 * known: the tower then shows the grid order without figures. Everything here is read from the world after each
 * step, so it depends on the race alone, never on frame times. */
#include "rnd_internal.h"

#include <math.h>
#include <stdlib.h>

void rnd_timing_reset(RndTiming *t, const SimWorld *world)
{
    double *keep = t->lead_time_s;
    int cap = t->lead_cap;
    *t = (RndTiming){0};
    t->lead_time_s = keep;
    t->lead_cap = cap;
    int n = sim_world_car_count(world);
    n = n < SIM_MAX_CARS ? n : SIM_MAX_CARS;
    /* the grid order by race distance (the world's order is not kept before its first step), ties by id */
    for (int i = 0; i < n; i++) {
        double d = sim_world_car(world, i)->race_dist_m;
        int pos = 1;
        for (int j = 0; j < n; j++) {
            double e = sim_world_car(world, j)->race_dist_m;
            pos += e > d || (e == d && j < i);
        }
        t->grid_pos[i] = pos;
        t->base_m = i == 0 ? d : fmax(t->base_m, d);
    }
}

void rnd_timing_free(RndTiming *t)
{
    free(t->lead_time_s);
    *t = (RndTiming){0};
}

static bool rnd_timing_grow(RndTiming *t, int need)
{
    if (need <= t->lead_cap)
        return true;
    int cap = t->lead_cap ? t->lead_cap : 1024;
    while (cap < need)
        cap *= 2;
    double *p = realloc(t->lead_time_s, sizeof(double) * (size_t)cap);
    if (!p)
        return false;
    t->lead_time_s = p;
    t->lead_cap = cap;
    return true;
}

/* Records the time the leading car reached every mark passed since the last call, interpolated in the step. */
void rnd_timing_observe(RndTiming *t, const SimWorld *world)
{
    double now = sim_world_time(world);
    double dist = -1e300;
    /* the furthest car, not order[0]: the order confirms passes with a delay */
    for (int i = 0; i < sim_world_car_count(world); i++) {
        const SimCar *c = sim_world_car(world, i);
        if (c->status == SIM_RUNNING && c->race_dist_m > dist)
            dist = c->race_dist_m;
    }
    if (dist < t->base_m || dist > 1e7)
        return;
    t->lead_dist_m = dist;
    t->lead_seen_s = now;
    int marks = (int)((dist - t->base_m) / RND_GAP_STEP_M) + 1;
    if (marks <= t->lead_marks || !rnd_timing_grow(t, marks))
        return;
    double prev_t = t->lead_marks > 0 ? t->lead_time_s[t->lead_marks - 1] : now;
    double prev_d = (t->lead_marks - 1) * RND_GAP_STEP_M;
    double d_now = dist - t->base_m;
    for (int m = t->lead_marks; m < marks; m++) {
        double d = m * RND_GAP_STEP_M;
        double f = d_now > prev_d ? (d - prev_d) / (d_now - prev_d) : 1.0;
        f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
        t->lead_time_s[m] = t->lead_marks > 0 ? prev_t + (now - prev_t) * f : now;
    }
    t->lead_marks = marks;
}

/* The time since the leader was at race distance dist_m; false before the first timing point. */
static bool rnd_timing_behind(const RndTiming *t, const SimWorld *world, double dist_m, double *gap_s)
{
    double m = (dist_m - t->base_m) / RND_GAP_STEP_M;
    if (m < 0.0 || t->lead_marks < 1)
        return false;
    int i = (int)floor(m);
    double t_lead;
    if (i + 1 >= t->lead_marks) { /* past the last mark: between it and where the leader was last seen */
        int last = t->lead_marks - 1;
        double span_m = t->lead_dist_m - (t->base_m + last * RND_GAP_STEP_M);
        double f = span_m > 1e-9 ? (m - last) * RND_GAP_STEP_M / span_m : 1.0;
        f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
        t_lead = t->lead_time_s[last] + (t->lead_seen_s - t->lead_time_s[last]) * f;
    } else {
        t_lead = t->lead_time_s[i] + (t->lead_time_s[i + 1] - t->lead_time_s[i]) * (m - i);
    }
    *gap_s = fmax(sim_world_time(world) - t_lead, 0.0);
    return true;
}

static int rnd_timing_fastest(const SimWorld *world, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++) {
        double b = sim_world_car(world, i)->best_lap_s;
        if (b > 0.0 && (best < 0 || b < sim_world_car(world, best)->best_lap_s))
            best = i;
    }
    return best;
}

/* Laps between two cars by race distance (0 when within a lap). */
static int rnd_laps_between(const SimWorld *world, const SimCar *ahead, const SimCar *car)
{
    double lap_m = trk_length(sim_world_track(world));
    double behind_m = ahead->race_dist_m - car->race_dist_m;
    return lap_m > 0.0 && behind_m >= lap_m ? (int)(behind_m / lap_m) : 0;
}

static void rnd_timing_row(const RndTiming *t, const SimWorld *world, int k, RndTimingRow *row, const RndTimingRow *ahead)
{
    const int *order = sim_world_order(world);
    const SimCar *car = sim_world_car(world, order[k]);
    const SimCar *lead = sim_world_car(world, order[0]);
    *row = (RndTimingRow){0};
    row->car = car->id;
    row->gained = t->grid_pos[car->id] > 0 ? t->grid_pos[car->id] - (k + 1) : 0;
    if (k == 0 || car->status == SIM_DNF)
        return;
    const SimCar *prev = sim_world_car(world, order[k - 1]);
    if (car->status == SIM_FINISHED && lead->status == SIM_FINISHED) {
        row->has_gap = true;
        row->gap_s = car->finish_time_s - lead->finish_time_s;
        if (prev->status == SIM_FINISHED) {
            row->has_interval = true;
            row->interval_s = car->finish_time_s - prev->finish_time_s;
        }
        return;
    }
    if (lead->status != SIM_FINISHED)
        row->laps_down = rnd_laps_between(world, lead, car);
    if (prev->status != SIM_FINISHED)
        row->laps_behind_ahead = rnd_laps_between(world, prev, car);
    row->has_gap = rnd_timing_behind(t, world, car->race_dist_m, &row->gap_s);
    if (row->has_gap && prev->status == SIM_RUNNING && (k == 1 || ahead->has_gap)) {
        row->has_interval = true;
        row->interval_s = fmax(row->gap_s - (k == 1 ? 0.0 : ahead->gap_s), 0.0);
        row->battle = car->status == SIM_RUNNING && row->laps_behind_ahead == 0 && row->interval_s < RND_BATTLE_S;
    }
}

int rnd_timing_rows(const RndTiming *t, const SimWorld *world, RndTimingRow *rows)
{
    int n = sim_world_car_count(world);
    n = n < SIM_MAX_CARS ? n : SIM_MAX_CARS;
    const int *order = sim_world_order(world);
    if (!order)
        return 0;
    for (int k = 0; k < n; k++)
        rnd_timing_row(t, world, k, &rows[k], k > 0 ? &rows[k - 1] : NULL);
    int fastest = rnd_timing_fastest(world, n);
    for (int k = 0; k < n; k++)
        rows[k].fastest = rows[k].car == fastest;
    return n;
}
