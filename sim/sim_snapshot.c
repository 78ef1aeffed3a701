/* sim_snapshot.c: keyframes of a session (sim.h): the world's state and every driver's, copied whole and put back.
 *
 * What is copied: the world's scalars and every array that carries state from one tick to the next (the cars, their
 * private state, the cars sorted by s, the sense stage's snapshot and the count of cars it showed, the race order,
 * the pair table and the passes being confirmed). Not copied: the views and their others (each sense stage builds
 * them afresh), the line crossings (scratch of one score stage) and the events (a restore sets the count back: the
 * world keeps the later events, which the race makes again the same, sim_internal.h). A test restores keyframes and compares the race's hash and results with an uninterrupted run. */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

struct SimSnapshot {
    const SimSession *session; /* the session it was sized for and restores into */
    int n;                     /* cars */
    bool taken;
    SimWorld world;            /* the scalars (its pointers are not used) */
    SimCar *cars;
    SimCarPriv *priv;
    int *by_s;
    SimSensed *sensed;
    int *order;
    SimPair *pairs;            /* n * n */
    int *pending;              /* n * n, pending_count used */
    unsigned char *drivers;    /* n * drv_state_bytes(); a scripted car's slot is unused */
    bool *has_driver;
    size_t bytes;
};

SimSnapshot *sim_snapshot_create(const SimSession *session)
{
    SimSnapshot *snap = calloc(1, sizeof *snap);
    if (!snap)
        return NULL;
    snap->session = session;
    SimWorld *w = sim_session_world((SimSession *)session); /* only read: the accessor is not const */
    size_t n = (size_t)(w->car_count > 0 ? w->car_count : 1);
    snap->n = w->car_count;
    snap->cars = calloc(n, sizeof *snap->cars);
    snap->priv = calloc(n, sizeof *snap->priv);
    snap->by_s = calloc(n, sizeof *snap->by_s);
    snap->sensed = calloc(n, sizeof *snap->sensed);
    snap->order = calloc(n, sizeof *snap->order);
    snap->pairs = calloc(n * n, sizeof *snap->pairs);
    snap->pending = calloc(n * n, sizeof *snap->pending);
    snap->drivers = calloc(n, drv_state_bytes());
    snap->has_driver = calloc(n, sizeof *snap->has_driver);
    if (!snap->cars || !snap->priv || !snap->by_s || !snap->sensed || !snap->order || !snap->pairs ||
        !snap->pending || !snap->drivers || !snap->has_driver) {
        sim_snapshot_destroy(snap);
        return NULL;
    }
    snap->bytes = sizeof *snap + n * (sizeof *snap->cars + sizeof *snap->priv + sizeof *snap->by_s +
                                      sizeof *snap->sensed + sizeof *snap->order + drv_state_bytes() +
                                      sizeof *snap->has_driver) +
                  n * n * (sizeof *snap->pairs + sizeof *snap->pending);
    return snap;
}

void sim_snapshot_destroy(SimSnapshot *snap)
{
    if (!snap)
        return;
    free(snap->cars);
    free(snap->priv);
    free(snap->by_s);
    free(snap->sensed);
    free(snap->order);
    free(snap->pairs);
    free(snap->pending);
    free(snap->drivers);
    free(snap->has_driver);
    free(snap);
}

int sim_snapshot_take(SimSnapshot *snap, SimSession *session)
{
    SimWorld *w = sim_session_world(session);
    if (session != snap->session || w->car_count != snap->n)
        return 1;
    if (!w->started && sim_world_start(w) != 0)
        return 1;
    size_t n = (size_t)snap->n;
    snap->world = *w;
    memcpy(snap->cars, w->cars, n * sizeof *w->cars);
    memcpy(snap->priv, w->priv, n * sizeof *w->priv);
    memcpy(snap->by_s, w->by_s, n * sizeof *w->by_s);
    memcpy(snap->sensed, w->sensed, (size_t)w->active_count * sizeof *w->sensed);
    memcpy(snap->order, w->order, n * sizeof *w->order);
    memcpy(snap->pairs, w->pairs, n * n * sizeof *w->pairs);
    memcpy(snap->pending, w->pending, (size_t)w->pending_count * sizeof *w->pending);
    for (int i = 0; i < snap->n; i++) {
        DrvDriver *d = sim_session_driver_rw(session, i);
        snap->has_driver[i] = d != NULL;
        if (d)
            drv_state_save(d, snap->drivers + (size_t)i * drv_state_bytes());
    }
    snap->taken = true;
    return 0;
}

int sim_snapshot_restore(const SimSnapshot *snap, SimSession *session)
{
    SimWorld *w = sim_session_world(session);
    if (!snap->taken || session != snap->session || w->car_count != snap->n || !w->started ||
        w->event_known < snap->world.event_count)
        return 1;
    size_t n = (size_t)snap->n;
    SimWorld keep = *w; /* the buffers, and what belongs to the one watching (poses, stage timing) */
    *w = snap->world;
    w->cars = keep.cars;
    w->priv = keep.priv;
    w->views = keep.views;
    w->others = keep.others;
    w->by_s = keep.by_s;
    w->sensed = keep.sensed;
    w->order = keep.order;
    w->pairs = keep.pairs;
    w->pending = keep.pending;
    w->crossings = keep.crossings;
    w->cross_t = keep.cross_t;
    w->events = keep.events;
    w->event_cap = keep.event_cap;
    w->event_known = keep.event_known;
    w->keep_poses = keep.keep_poses;
    w->timing = keep.timing;
    memcpy(w->stage_ns, keep.stage_ns, sizeof w->stage_ns);
    memcpy(w->cars, snap->cars, n * sizeof *w->cars);
    memcpy(w->priv, snap->priv, n * sizeof *w->priv);
    memcpy(w->by_s, snap->by_s, n * sizeof *w->by_s);
    memcpy(w->sensed, snap->sensed, (size_t)w->active_count * sizeof *w->sensed);
    memcpy(w->order, snap->order, n * sizeof *w->order);
    memcpy(w->pairs, snap->pairs, n * n * sizeof *w->pairs);
    memcpy(w->pending, snap->pending, (size_t)w->pending_count * sizeof *w->pending);
    for (int i = 0; i < snap->n; i++) {
        DrvDriver *d = sim_session_driver_rw(session, i);
        if (d && snap->has_driver[i])
            drv_state_restore(d, snap->drivers + (size_t)i * drv_state_bytes());
    }
    if (w->keep_poses) /* the keyframe's poses may date from before the world kept them */
        sim_refresh_poses(w);
    return 0;
}

long sim_snapshot_tick(const SimSnapshot *snap)
{
    return snap->taken ? snap->world.tick : -1;
}

size_t sim_snapshot_bytes(const SimSnapshot *snap)
{
    return snap->bytes;
}
