/* sim_world.c: the world's lifetime and the step pipeline
 *   sense (sort by s, drafting, views) -> think -> integrate -> collide -> score.
 * Cars are added before the first step; the first step allocates every per-step buffer, so stepping allocates
 * nothing (except when the event list grows). */
#include "sim_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*----------------------------------------------------------------------------------------------------------------
 * Defaults and names
 *--------------------------------------------------------------------------------------------------------------*/

SimWorldDef sim_default_world_def(void)
{
    SimWorldDef def;
    memset(&def, 0, sizeof def);
    def.track = NULL;
    def.tick_hz = 100.0;
    def.laps = 5;
    def.duration_s = 0.0;
    def.time_limit_s = 0.0; /* 0: 120 s + laps * length / (10 m/s), set at creation */
    def.stall_timeout_s = 20.0;
    def.seed = 1;
    return def;
}

const char *sim_event_name(SimEventType type)
{
    static const char *names[SIM_EV_COUNT] = {"overtake", "lapping", "collision", "offtrack",
                                              "lap",      "finish",  "retire"};
    return (type >= 0 && type < SIM_EV_COUNT) ? names[type] : "unknown";
}

const char *sim_event_kind_name(SimEventKind kind)
{
    static const char *names[SIM_KIND_COUNT] = {"", "mistake", "braking", "drafting", "corner", "pace",
                                                "rear-end", "side"};
    return (kind >= 0 && kind < SIM_KIND_COUNT) ? names[kind] : "";
}

/*----------------------------------------------------------------------------------------------------------------
 * Lifetime
 *--------------------------------------------------------------------------------------------------------------*/

static long sim_ticks_for(double seconds, double tick_hz)
{
    return (long)ceil(seconds * tick_hz - 1e-9);
}

/* A world definition that can run: a track, a finite positive tick rate (at most 100 kHz), no negative or
 * non-finite times (0 keeps their "none" or "default" meaning) and a lap count of 0..1000000. */
static bool sim_world_def_ok(const SimWorldDef *def)
{
    if (!def || !def->track || !isfinite(def->tick_hz) || def->tick_hz <= 0.0 || def->tick_hz > 1e5)
        return false;
    const double times[] = {def->duration_s, def->time_limit_s, def->stall_timeout_s};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (!isfinite(times[i]) || times[i] < 0.0 || times[i] > 1e9)
            return false;
    return def->laps >= 0 && def->laps <= 1000000;
}

SimWorld *sim_world_create(const SimWorldDef *def)
{
    if (!sim_world_def_ok(def))
        return NULL;
    SimWorld *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->def = *def;
    w->track = def->track;
    w->length_m = trk_length(def->track);
    w->inv_length = 1.0 / w->length_m;
    w->dt_s = 1.0 / def->tick_hz;
    int laps = def->laps > 0 ? def->laps : 1;
    w->time_limit_s = def->time_limit_s > 0.0 ? def->time_limit_s : 120.0 + laps * w->length_m / 10.0;
    /* a timed race ends at its duration: the default safety limit must not cut it first */
    if (def->time_limit_s <= 0.0 && def->duration_s > 0.0 && w->time_limit_s < def->duration_s + 1.0)
        w->time_limit_s = def->duration_s + 1.0;
    w->def.time_limit_s = w->time_limit_s;
    double stall = def->stall_timeout_s > 0.0 ? def->stall_timeout_s : 20.0;
    w->def.stall_timeout_s = stall;
    w->stall_ticks = sim_ticks_for(stall, def->tick_hz);
    w->pass_ticks = sim_ticks_for(SIM_PASS_CONFIRM_S, def->tick_hz);
    w->contact_gap_ticks = sim_ticks_for(SIM_COLLISION_GAP_S, def->tick_hz);
    return w;
}

void sim_world_destroy(SimWorld *w)
{
    if (!w)
        return;
    free(w->cars);
    free(w->priv);
    free(w->views);
    free(w->others);
    free(w->by_s);
    free(w->sensed);
    free(w->order);
    free(w->pairs);
    free(w->pending);
    free(w->crossings);
    free(w->cross_t);
    free(w->events);
    free(w);
}

static int sim_grow_cars(SimWorld *w)
{
    int cap = w->car_cap ? w->car_cap * 2 : 16;
    if (cap > SIM_WORLD_MAX_CARS)
        cap = SIM_WORLD_MAX_CARS;
    SimCar *cars = realloc(w->cars, sizeof *cars * (size_t)cap);
    if (!cars)
        return 1;
    w->cars = cars;
    SimCarPriv *priv = realloc(w->priv, sizeof *priv * (size_t)cap);
    if (!priv)
        return 1;
    w->priv = priv;
    int *order = realloc(w->order, sizeof *order * (size_t)cap);
    if (!order)
        return 1;
    w->order = order;
    w->car_cap = cap;
    return 0;
}

/* A car the physics can integrate: positive mass, size and grip, no negative or non-finite coefficient. */
static bool sim_car_spec_ok(const SimCarSpec *spec)
{
    const TrkCarParams *c = &spec->dyn;
    const double nonneg[] = {c->power_w, c->drag_area_m2, c->rolling_coeff, c->downforce_area_m2,
                             c->air_density_kgpm3};
    for (size_t i = 0; i < sizeof nonneg / sizeof nonneg[0]; i++)
        if (!isfinite(nonneg[i]) || nonneg[i] < 0.0)
            return false;
    const double positive[] = {c->mass_kg, c->mu, spec->length_m, spec->width_m};
    for (size_t i = 0; i < sizeof positive / sizeof positive[0]; i++)
        if (!isfinite(positive[i]) || positive[i] <= 0.0)
            return false;
    return true;
}

/* Start state: finite, and race distances within a million laps (so lap counts fit an int). */
static bool sim_car_def_ok(const SimWorld *w, const SimCarDef *def)
{
    const double v[] = {def->s_m, def->d_m, def->speed_mps, def->race_dist_m};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]) || fabs(v[i]) > 1e6 * w->length_m)
            return false;
    return fabs(def->d_m) <= 1e4 && def->speed_mps <= 1e4 && sim_car_spec_ok(&def->spec);
}

int sim_world_add_car(SimWorld *w, const SimCarDef *def)
{
    if (!w || !def || w->started || w->car_count >= SIM_WORLD_MAX_CARS)
        return -1;
    if (!sim_car_def_ok(w, def))
        return -1;
    if (w->car_count == w->car_cap && sim_grow_cars(w) != 0)
        return -1;
    int id = w->car_count++;
    SimCar *c = &w->cars[id];
    SimCarPriv *p = &w->priv[id];
    memset(c, 0, sizeof *c);
    memset(p, 0, sizeof *p);
    c->id = id;
    snprintf(c->name, sizeof c->name, "%s", def->name ? def->name : "car");
    c->number = def->number;
    memcpy(c->colour, def->colour, sizeof c->colour);
    c->spec = def->spec;
    c->s_m = trk_wrap_s(w->track, def->s_m);
    c->d_m = def->d_m;
    c->speed_mps = def->speed_mps > 0.0 ? def->speed_mps : 0.0;
    c->race_dist_m = def->race_dist_m;
    /* a car placed laps into the race has those laps done (a lapping scenario) */
    c->laps = def->race_dist_m > 0.0 ? (int)floor(def->race_dist_m / w->length_m) : 0;
    c->position = id + 1;
    c->status = SIM_RUNNING;
    p->think = def->think;
    p->driver = def->driver;
    p->plan = def->plan;
    p->lap_alone_s = def->plan ? trk_profile_lap_time(def->plan) : NAN;
    p->hint = -1;
    p->hold_d_m = c->d_m;
    p->hold_speed_mps = c->speed_mps;
    p->draft_factor = 1.0;
    p->geo_s_m = -1.0; /* s is never negative: the track is read on the first tick */
    p->lap_mark_m = (c->laps + 1) * w->length_m;
    p->progress_next_m = c->race_dist_m + SIM_STALL_PROGRESS_M;
    p->stall_tick = w->stall_ticks; /* progress last seen at tick 0 */
    p->active = true;
    p->braked_tick = p->drafted_tick = p->mistake_tick = LONG_MIN / 2; /* long before the start */
    if (c->spec.length_m > w->max_len_m)
        w->max_len_m = c->spec.length_m;
    sim_pose_save(c, p);
    if (w->keep_poses)
        sim_refresh_poses(w);
    w->order[id] = id; /* before the start, the order is the grid's */
    return id;
}

/* The per-step buffers, sized once the car list is final. */
int sim_world_start(SimWorld *w)
{
    size_t n = (size_t)(w->car_count > 0 ? w->car_count : 1);
    w->views = calloc(n, sizeof *w->views);
    w->others = calloc(n * SIM_VIEW_MAX_OTHERS, sizeof *w->others);
    w->by_s = calloc(n, sizeof *w->by_s);
    w->sensed = calloc(n, sizeof *w->sensed);
    free(w->order); /* the grid order kept while cars were added */
    w->order = calloc(n, sizeof *w->order);
    w->pairs = calloc(n * n, sizeof *w->pairs);
    w->pending = calloc(n * n, sizeof *w->pending);
    w->crossings = calloc(n, sizeof *w->crossings);
    w->cross_t = calloc(n, sizeof *w->cross_t);
    w->event_cap = 256;
    w->events = calloc((size_t)w->event_cap, sizeof *w->events);
    if (!w->views || !w->others || !w->by_s || !w->sensed || !w->order || !w->pairs || !w->pending ||
        !w->crossings || !w->cross_t || !w->events)
        return 1;
    sim_views_init(w);
    for (size_t i = 0; i < n * n; i++) {
        w->pairs[i].last_contact_tick = -1;
        w->pairs[i].seen_tick = -2;
    }
    w->active_count = 0;
    for (int i = 0; i < w->car_count; i++) {
        w->by_s[w->active_count++] = i;
        w->order[i] = i;
    }
    w->started = true;
    sim_sort_by_s(w); /* from then on each tick's score stage leaves it sorted for the next sense stage */
    sim_update_order(w);
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * Step
 *--------------------------------------------------------------------------------------------------------------*/

/* The built-in driver of cars without one: holds its start offset and speed. */
static void sim_hold_think(const SimCarPriv *p, const DrvView *v, DrvControls *out)
{
    out->lat_accel_mps2 = 4.0 * (p->hold_d_m - v->d_m) - 4.0 * v->lat_speed_mps;
    out->long_accel_mps2 = 2.0 * (p->hold_speed_mps - v->speed_mps);
    out->target_d_m = p->hold_d_m;
    out->target_speed_mps = p->hold_speed_mps;
}

/* Every driver decides from the views built from the same snapshot, so the order of the calls does not matter. */
static void sim_think(SimWorld *w)
{
    for (int i = 0; i < w->car_count; i++) {
        SimCarPriv *p = &w->priv[i];
        if (!p->active)
            continue;
        /* the driver writes into the car's own record, which integration reads: no copy of the controls */
        DrvControls *out = &w->cars[i].last_controls;
        memset(out, 0, sizeof *out);
        if (p->think)
            p->think(p->driver, &w->views[i], out);
        else
            sim_hold_think(p, &w->views[i], out);
        if (out->long_accel_mps2 < -SIM_BRAKING_MPS2)
            p->braked_tick = w->tick;
    }
}

/*----------------------------------------------------------------------------------------------------------------
 * Stage timing (benchmarks only; nothing reads the clock unless w->timing)
 *--------------------------------------------------------------------------------------------------------------*/

static double sim_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* Adds the time since *mark to the stage and moves the mark. */
static void sim_stage_end(SimWorld *w, SimStage stage, double *mark)
{
    if (!w->timing)
        return;
    double now = sim_clock_ns();
    w->stage_ns[stage] += now - *mark;
    *mark = now;
}

const char *sim_stage_name(SimStage stage)
{
    static const char *names[SIM_STAGE_COUNT] = {"sense", "think", "physics", "collide", "score"};
    return (stage >= 0 && stage < SIM_STAGE_COUNT) ? names[stage] : "unknown";
}

void sim_world_set_stage_timing(SimWorld *w, bool on)
{
    if (!w)
        return;
    w->timing = on;
    memset(w->stage_ns, 0, sizeof w->stage_ns);
}

double sim_world_stage_ns(const SimWorld *w, SimStage stage)
{
    return (w && stage >= 0 && stage < SIM_STAGE_COUNT) ? w->stage_ns[stage] : 0.0;
}

void sim_world_step(SimWorld *w)
{
    if (!w || w->done)
        return;
    if (!w->started && sim_world_start(w) != 0) {
        w->done = true; /* out of memory: nothing can run */
        return;
    }
    double mark = w->timing ? sim_clock_ns() : 0.0;
    /* sense (by_s is sorted: the start or the last score stage sorted it, and cars leaving keep the order) */
    sim_build_views(w); /* and the drafting factors, from the same walk */
    sim_stage_end(w, SIM_STAGE_SENSE, &mark);
    /* think */
    sim_think(w);
    sim_stage_end(w, SIM_STAGE_THINK, &mark);
    /* integrate, collide, score: the state and the events of this step belong to the next tick */
    w->tick++;
    sim_integrate(w);
    sim_stage_end(w, SIM_STAGE_PHYSICS, &mark);
    sim_collide(w);
    sim_stage_end(w, SIM_STAGE_COLLIDE, &mark);
    sim_score(w);
    sim_stage_end(w, SIM_STAGE_SCORE, &mark);
    if (w->keep_poses)
        sim_refresh_poses(w);
}

void sim_world_keep_poses(SimWorld *w, bool on)
{
    w->keep_poses = on;
    if (on)
        sim_refresh_poses(w);
}

bool sim_world_done(const SimWorld *w)
{
    return w->done;
}

void sim_world_run(SimWorld *w)
{
    while (!w->done)
        sim_world_step(w);
}

/*----------------------------------------------------------------------------------------------------------------
 * Queries
 *--------------------------------------------------------------------------------------------------------------*/

long sim_world_tick(const SimWorld *w) { return w->tick; }
double sim_world_time(const SimWorld *w) { return sim_time_at(w, w->tick); }
const TrkTrack *sim_world_track(const SimWorld *w) { return w->track; }
const SimWorldDef *sim_world_def(const SimWorld *w) { return &w->def; }
int sim_world_car_count(const SimWorld *w) { return w->car_count; }

const SimCar *sim_world_car(const SimWorld *w, int id)
{
    if (id < 0 || id >= w->car_count)
        return NULL;
    return &w->cars[id];
}

const int *sim_world_order(const SimWorld *w)
{
    return w->order;
}

const SimEvent *sim_world_events(const SimWorld *w, int *count)
{
    if (count)
        *count = w->event_count;
    return w->events;
}

/*----------------------------------------------------------------------------------------------------------------
 * Hash
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct SimHash { uint64_t h; } SimHash;

static void sim_hash_bytes(SimHash *h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) {
        h->h ^= b[i];
        h->h *= 1099511628211ULL;
    }
}

static void sim_hash_d(SimHash *h, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    sim_hash_bytes(h, &bits, sizeof bits);
}

static void sim_hash_i(SimHash *h, long v)
{
    int64_t x = v;
    sim_hash_bytes(h, &x, sizeof x);
}

static void sim_hash_car(SimHash *h, const SimCar *c)
{
    const double d[] = {c->s_m, c->d_m, c->speed_mps, c->lat_speed_mps, c->x_m, c->y_m, c->heading_rad,
                        c->last_controls.long_accel_mps2, c->last_controls.lat_accel_mps2,
                        c->last_controls.target_d_m, c->last_controls.target_speed_mps, c->race_dist_m,
                        c->last_lap_s, c->best_lap_s, c->finish_time_s, c->offtrack_s};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        sim_hash_d(h, d[i]);
    const long n[] = {c->id, c->laps, c->position, c->status, c->overtakes, c->positions_lost, c->lappings,
                      c->collisions, c->offtracks, c->off_track_now, c->drafting_now};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        sim_hash_i(h, n[i]);
    sim_hash_bytes(h, c->dnf_reason, strlen(c->dnf_reason));
}

uint64_t sim_world_hash(const SimWorld *w)
{
    SimHash h = {14695981039346656037ULL};
    sim_hash_i(&h, w->tick);
    for (int i = 0; i < w->car_count; i++) {
        SimCar c = w->cars[i];
        sim_pose_of(w, i, &c.x_m, &c.y_m, &c.heading_rad);
        sim_hash_car(&h, &c);
    }
    for (int i = 0; i < w->event_count; i++) {
        const SimEvent *e = &w->events[i];
        const long n[] = {e->tick, e->type, e->a, e->b, e->lap};
        for (size_t k = 0; k < sizeof n / sizeof n[0]; k++)
            sim_hash_i(&h, n[k]);
        sim_hash_d(&h, e->value);
    }
    return h.h;
}

/*----------------------------------------------------------------------------------------------------------------
 * Invariants (soak tests, fuzzing)
 *--------------------------------------------------------------------------------------------------------------*/

static int sim_check_car(const SimWorld *w, const SimCar *c, char *err, size_t err_len)
{
    const double v[] = {c->s_m, c->d_m, c->speed_mps, c->lat_speed_mps, c->x_m, c->y_m, c->heading_rad,
                        c->race_dist_m, c->last_lap_s, c->best_lap_s, c->finish_time_s, c->offtrack_s};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i])) {
            snprintf(err, err_len, "car %d (%s): state value %zu is not finite", c->id, c->name, i);
            return 1;
        }
    if (c->s_m < 0.0 || c->s_m >= w->length_m) {
        snprintf(err, err_len, "car %d (%s): s = %g m outside [0, %g)", c->id, c->name, c->s_m, w->length_m);
        return 1;
    }
    if (c->speed_mps < 0.0) {
        snprintf(err, err_len, "car %d (%s): negative speed %g m/s", c->id, c->name, c->speed_mps);
        return 1;
    }
    /* The wall is enforced with the width where the tick's integration started; the edge may narrow a little
     * within one tick of travel, hence the tolerance. */
    double edge = c->d_m >= 0.0 ? trk_width_left(w->track, c->s_m, NULL) : trk_width_right(w->track, c->s_m, NULL);
    double limit = edge + SIM_OFF_MAX_M;
    if (fabs(c->d_m) > limit + SIM_WORLD_LIMIT_TOL_M) {
        snprintf(err, err_len, "car %d (%s): d = %.3f m beyond the world limit (%.3f m)", c->id, c->name, c->d_m,
                 limit);
        return 1;
    }
    /* a collision just after the line may push a car back a little behind it */
    if (c->laps < 0 || (c->laps > 0 && c->race_dist_m < c->laps * w->length_m - 2.0 * w->max_len_m)) {
        snprintf(err, err_len, "car %d (%s): %d laps but race distance %.1f m", c->id, c->name, c->laps,
                 c->race_dist_m);
        return 1;
    }
    return 0;
}

int sim_world_check(const SimWorld *w, char *err, size_t err_len)
{
    if (!w) {
        snprintf(err, err_len, "no world");
        return 1;
    }
    for (int i = 0; i < w->car_count; i++) {
        SimCar c = w->cars[i];
        sim_pose_of(w, i, &c.x_m, &c.y_m, &c.heading_rad);
        if (sim_check_car(w, &c, err, err_len))
            return 1;
    }
    return 0;
}
