/* sim_collide.c: car-car contact.
 *
 * Cars are boxes aligned with the track in (s, d): length along s, width along d (near-parallel cars, which is what
 * racing cars are). The running cars are sorted by s, so each car only tests the cars after it in that order while
 * their centres are closer than the longest car: about linear in the number of cars. The seam at s = 0 is handled
 * by walking the order cyclically with forward distances.
 *
 * A touching pair is separated along the axis of least penetration (each car moved by the other's share of the
 * mass) and, if closing along that axis, exchanges momentum with restitution SIM_RESTITUTION. A contact counts as a
 * new collision when the pair had no contact for SIM_COLLISION_GAP_S before it; the event carries the relative
 * speed at impact (magnitude of the relative velocity in (s, d), m/s).
 */
#include "sim_internal.h"

#include <math.h>

/* Counts the contact of a and b (before their separation) as a collision when it is a new one. The relative speed
 * is computed only then: a pack in contact touches every tick, and the hypot was most of a contact's cost. */
static void sim_collision_count(SimWorld *w, SimCar *a, SimCar *b)
{
    int lo = a->id < b->id ? a->id : b->id, hi = a->id < b->id ? b->id : a->id;
    SimPair *pair = &w->pairs[(size_t)lo * (size_t)w->car_count + (size_t)hi];
    if (pair->last_contact_tick < 0 || w->tick - pair->last_contact_tick - 1 >= w->contact_gap_ticks) {
        a->collisions++;
        b->collisions++;
        double rel = hypot(b->speed_mps - a->speed_mps, b->lat_speed_mps - a->lat_speed_mps);
        SimEvent *e = sim_event_push(w, SIM_EV_COLLISION, lo, hi, 0, rel);
        /* rear-end: the boxes overlap less along the track than across it (the contact is nose to tail) */
        double along = 0.5 * (a->spec.length_m + b->spec.length_m) - fabs(trk_delta_s(w->track, a->s_m, b->s_m));
        double across = 0.5 * (a->spec.width_m + b->spec.width_m) - fabs(a->d_m - b->d_m);
        if (e)
            e->kind = along < across ? SIM_KIND_REAR_END : SIM_KIND_SIDE;
        w->priv[a->id].mistake_tick = w->priv[b->id].mistake_tick = w->tick;
    }
    pair->last_contact_tick = w->tick;
}

/* A push never moves a car through the wall SIM_OFF_MAX_M beyond the edge (the limit integration keeps); the
 * widths are those read at the end of this tick's integration. */
static double sim_inside_world(const SimWorld *w, const SimCar *c, double d)
{
    const SimCarPriv *p = &w->priv[c->id];
    double hi = p->width_left_m + SIM_OFF_MAX_M, lo = -p->width_right_m - SIM_OFF_MAX_M;
    return d > hi ? hi : (d < lo ? lo : d);
}

/* Impulse along one axis: va, vb are the velocities along it, b ahead of a (positive direction a -> b). */
static void sim_impulse(double *va, double *vb, double ma, double mb)
{
    double closing = *vb - *va;
    if (closing >= 0.0)
        return; /* already separating */
    double j = -(1.0 + SIM_RESTITUTION) * closing / (1.0 / ma + 1.0 / mb);
    *va -= j / ma;
    *vb += j / mb;
}

/* b is ahead of a by the forward distance f. */
static void sim_resolve(SimWorld *w, SimCar *a, SimCar *b, double f)
{
    double pen_s = 0.5 * (a->spec.length_m + b->spec.length_m) - f;
    double dd = b->d_m - a->d_m;
    double pen_d = 0.5 * (a->spec.width_m + b->spec.width_m) - fabs(dd);
    if (pen_s <= 0.0 || pen_d <= 0.0)
        return;
    sim_collision_count(w, a, b);
    double ma = a->spec.dyn.mass_kg, mb = b->spec.dyn.mass_kg;
    double share_a = mb / (ma + mb), share_b = ma / (ma + mb);
    if (pen_s < pen_d) {
        /* nose to tail: push apart along the track; race distance moves with s */
        w->s_moved = true;
        a->s_m = sim_wrap_s(w, a->s_m - share_a * pen_s);
        a->race_dist_m -= share_a * pen_s;
        b->s_m = sim_wrap_s(w, b->s_m + share_b * pen_s);
        b->race_dist_m += share_b * pen_s;
        sim_impulse(&a->speed_mps, &b->speed_mps, ma, mb);
        a->speed_mps = trk_fmax(a->speed_mps, 0.0);
        b->speed_mps = trk_fmax(b->speed_mps, 0.0);
    } else {
        /* side by side: push apart across the track; equal offsets split by id so the result is defined */
        double dir = dd > 0.0 || (dd == 0.0 && b->id > a->id) ? 1.0 : -1.0;
        a->d_m = sim_inside_world(w, a, a->d_m - dir * share_a * pen_d);
        b->d_m = sim_inside_world(w, b, b->d_m + dir * share_b * pen_d);
        double va = dir * a->lat_speed_mps, vb = dir * b->lat_speed_mps;
        sim_impulse(&va, &vb, ma, mb);
        a->lat_speed_mps = dir * va;
        b->lat_speed_mps = dir * vb;
    }
}

void sim_collide(SimWorld *w)
{
    sim_resort_by_s(w); /* integration moved the cars; nearly always they keep their order */
    w->s_moved = false;
    int n = w->active_count;
    double reach = w->max_len_m;
    for (int k = 0; k < n; k++) {
        SimCar *a = &w->cars[w->by_s[k]];
        for (int step = 1, j = k; step < n; step++) {
            j = j + 1 < n ? j + 1 : 0; /* (k + step) % n without a division */
            SimCar *b = &w->cars[w->by_s[j]];
            double f = sim_fwd_dist(w, a->s_m, b->s_m);
            if (f >= reach)
                break;
            sim_resolve(w, a, b, f);
        }
    }
}
