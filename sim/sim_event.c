/* sim_event.c: what the stages of a step share with the world: the event list, the clock, a car leaving the
 * track. Kept apart from sim_world.c so that the stages (collide, score) depend on it and not on the orchestrator. */
#include "sim_internal.h"

#include <stdlib.h>


SimEvent *sim_event_push(SimWorld *w, SimEventType type, int a, int b, int lap, double value)
{
    if (w->event_count == w->event_cap) {
        int cap = w->event_cap * 2;
        SimEvent *ev = realloc(w->events, sizeof *ev * (size_t)cap);
        if (!ev)
            return NULL; /* out of memory: the event is lost, the race goes on */
        w->events = ev;
        w->event_cap = cap;
    }
    SimEvent *e = &w->events[w->event_count++];
    if (w->event_count > w->event_known)
        w->event_known = w->event_count;
    e->tick = w->tick;
    e->type = type;
    e->a = a;
    e->b = b;
    e->lap = lap;
    e->value = value;
    e->kind = SIM_KIND_NONE;
    e->race_lap = w->order && w->car_count > 0 ? w->cars[w->order[0]].laps + 1 : 1;
    return e;
}

double sim_time_at(const SimWorld *w, long tick)
{
    return (double)tick * w->dt_s;
}

void sim_car_leave(SimWorld *w, int id)
{
    if (!w->priv[id].active)
        return;
    w->priv[id].active = false;
    w->priv[id].pose_stale = true; /* its pose now comes from the saved state (sim_pose_refresh) */
    w->cars[id].off_track_now = false;
    w->cars[id].drafting_now = false;
    int k = 0;
    for (int i = 0; i < w->active_count; i++)
        if (w->by_s[i] != id)
            w->by_s[k++] = w->by_s[i];
    w->active_count = k;
}
