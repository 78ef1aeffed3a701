/* sim_score.c: race control after the physics of a tick: off-tracks, laps and the finish, retirements, overtakes
 * and lappings, the end of the race and the running order.
 *
 * Definitions (also in docs/design.md):
 *   - Lap: race distance crosses a whole multiple of the track length (>= 1 lap). Crossing times are interpolated
 *     inside the tick, so lap and finish times are not quantised to the tick.
 *   - Finish: the first car to complete `laps` laps takes the flag; after that every running car finishes when it
 *     next crosses the line. A finished car leaves the track (no longer in views, collisions or drafting).
 *   - Retirement: a car whose race distance has not grown by SIM_STALL_PROGRESS_M in stall_timeout_s is retired
 *     ("no progress for 20 s") and leaves the track. At the time limit, cars still running are retired ("time
 *     limit"); at the end of a timed scenario (duration_s) they are classified as finished where they are.
 *   - Overtake: for a pair of running cars, "one car length" is their mean length and their gap q is the difference
 *     of race distances reduced modulo the lap to [-L/2, L/2) (the physical gap on track). A pass starts when a car
 *     that was settled at least one length behind gets at least one length ahead, and counts when it is still ahead
 *     (q > 0) one second (SIM_PASS_CONFIRM_S) later; falling back behind first cancels it. When the pass counts,
 *     the whole-lap part of the race distance difference says what it was: 0 -> an overtake (they were racing for
 *     position), passer one or more laps ahead -> a lapping, passer laps behind (unlapping itself) -> nothing.
 *     Pairs are only watched while close (a neighbour walk over the s order); a pair that comes close again is
 *     re-settled from its gap, so only passes seen from start to end count.
 */
#include "sim_internal.h"

#include <math.h>
#include <stdio.h>

/*----------------------------------------------------------------------------------------------------------------
 * Off-track, laps, finish, retirement
 *--------------------------------------------------------------------------------------------------------------*/

static void sim_score_offtrack(SimWorld *w, SimCar *c, SimCarPriv *p)
{
    if (c->off_track_now) {
        c->offtrack_s += w->dt_s;
        if (!p->was_off) {
            c->offtracks++;
            p->mistake_tick = w->tick;
            sim_event_push(w, SIM_EV_OFFTRACK, c->id, -1, c->laps + 1, 0.0);
        }
    }
    p->was_off = c->off_track_now;
}

static void sim_retire(SimWorld *w, SimCar *c, const char *reason)
{
    c->status = SIM_DNF;
    snprintf(c->dnf_reason, sizeof c->dnf_reason, "%s", reason);
    sim_event_push(w, SIM_EV_RETIRE, c->id, -1, c->laps + 1, sim_time_at(w, w->tick));
    sim_car_leave(w, c->id);
}

/* Stall detection: progress moves the reference on; otherwise says whether the car has gone stall_ticks without it.
 * The retirement waits until the tick's line crossings are handled (sim_score_stalls). */
static bool sim_stall_due(const SimWorld *w, const SimCar *c, SimCarPriv *p)
{
    if (c->race_dist_m >= p->progress_next_m) {
        p->progress_next_m = c->race_dist_m + SIM_STALL_PROGRESS_M;
        p->stall_tick = w->tick + w->stall_ticks;
        return false;
    }
    return w->tick >= p->stall_tick;
}

/* Retires, in id order, the cars found stalled that are still running after the line crossings (a car that took the
 * flag this tick has left the track). */
static void sim_score_stalls(SimWorld *w)
{
    for (int i = 0; i < w->car_count; i++) {
        SimCarPriv *p = &w->priv[i];
        if (!p->stall_due)
            continue;
        p->stall_due = false;
        if (p->active) {
            char reason[64];
            snprintf(reason, sizeof reason, "no progress for %g s", w->def.stall_timeout_s);
            sim_retire(w, &w->cars[i], reason);
        }
    }
}

/* Time within the tick at which race distance crossed `mark`. */
static double sim_cross_time(const SimWorld *w, double prev, double now, double mark)
{
    double t0 = sim_time_at(w, w->tick - 1), frac = 1.0;
    if (now > prev)
        frac = (mark - prev) / (now - prev);
    frac = frac < 0.0 ? 0.0 : (frac > 1.0 ? 1.0 : frac);
    return t0 + frac * w->dt_s;
}

static void sim_lap_done(SimWorld *w, SimCar *c, SimCarPriv *p, double t)
{
    c->laps++;
    p->lap_mark_m = (c->laps + 1) * w->length_m;
    c->last_lap_s = t - p->lap_start_s;
    if (c->best_lap_s == 0.0 || c->last_lap_s < c->best_lap_s)
        c->best_lap_s = c->last_lap_s;
    p->lap_start_s = t;
    sim_event_push(w, SIM_EV_LAP, c->id, -1, c->laps, c->last_lap_s);
    if (w->def.laps > 0 && (w->chequered || c->laps >= w->def.laps)) {
        w->chequered = true;
        c->status = SIM_FINISHED;
        c->finish_time_s = t;
        p->finish_rank = ++w->finished_count;
        sim_event_push(w, SIM_EV_FINISH, c->id, -1, c->laps, t);
        sim_car_leave(w, c->id);
    }
}

/* The per-car rules of a tick, from one walk over the running cars: off-tracks, stall detection, and the line
 * crossings, which are handled afterwards in the order they happened inside the tick (then by id), so the flag and
 * the finishing order do not depend on car order; then the stalled cars retire. The walk pushes only off-track
 * events, so the events come in the same order as from one walk per rule (off-tracks, laps, retirements). */
static void sim_score_cars(SimWorld *w)
{
    int m = 0;
    bool stalled = false;
    for (int i = 0; i < w->car_count; i++) {
        SimCar *c = &w->cars[i];
        SimCarPriv *p = &w->priv[i];
        if (!p->active)
            continue;
        sim_score_offtrack(w, c, p);
        if (sim_stall_due(w, c, p))
            p->stall_due = stalled = true;
        double mark = p->lap_mark_m;
        if (c->race_dist_m < mark)
            continue;
        double t = sim_cross_time(w, p->prev_race_dist_m, c->race_dist_m, mark);
        int j = m++;
        while (j > 0 && w->cross_t[j - 1] > t) { /* ids come in ascending order: ties keep it */
            w->cross_t[j] = w->cross_t[j - 1];
            w->crossings[j] = w->crossings[j - 1];
            j--;
        }
        w->cross_t[j] = t;
        w->crossings[j] = i;
    }
    for (int k = 0; k < m; k++) {
        int id = w->crossings[k];
        sim_lap_done(w, &w->cars[id], &w->priv[id], w->cross_t[k]);
    }
    if (stalled) /* rare: a walk only then */
        sim_score_stalls(w);
}

/*----------------------------------------------------------------------------------------------------------------
 * Overtakes and lappings
 *--------------------------------------------------------------------------------------------------------------*/

/* The race distance difference reduced modulo the lap to about [-L/2, L/2]: the gap on track. */
static double sim_pair_gap(const SimWorld *w, const SimCar *lo, const SimCar *hi)
{
    double r = lo->race_dist_m - hi->race_dist_m, t = r * w->inv_length + 0.5;
    /* Within half a lap of each other (nearly every pair the walk meets) floor(t) is +0, and r - L * +0 is r itself,
     * signed zero included: the same result without floor, which is most of the pass walk in a dense pack. */
    if (t >= 0.0 && t < 1.0)
        return r;
    return r - w->length_m * floor(t);
}

static unsigned char sim_settle(double q, double len)
{
    return q <= -len ? SIM_PAIR_LO_BEHIND : (q >= len ? SIM_PAIR_LO_AHEAD : SIM_PAIR_UNKNOWN);
}

/* The class of a confirmed overtake (SimEventKind: the first that fits). A pass is confirmed a second after it
 * happened, so the windows count from then. */
static SimEventKind sim_pass_kind(const SimWorld *w, const SimCar *passer, const SimCar *passed)
{
    const SimCarPriv *pa = &w->priv[passer->id], *pb = &w->priv[passed->id];
    long mistake = (long)((SIM_MISTAKE_S + SIM_PASS_CONFIRM_S) / w->dt_s + 0.5);
    long braking = (long)((SIM_BRAKING_S + SIM_PASS_CONFIRM_S) / w->dt_s + 0.5);
    long drafted = (long)((SIM_DRAFTED_S + SIM_PASS_CONFIRM_S) / w->dt_s + 0.5);
    if (w->tick - pb->mistake_tick <= mistake)
        return SIM_KIND_MISTAKE;
    if (w->tick - pa->braked_tick <= braking || w->tick - pb->braked_tick <= braking)
        return SIM_KIND_BRAKING;
    if (w->tick - pa->drafted_tick <= drafted)
        return SIM_KIND_DRAFTING;
    double k = trk_curvature(w->track, passer->s_m, NULL);
    return fabs(k) > SIM_CORNER_CURVATURE ? SIM_KIND_CORNER : SIM_KIND_PACE;
}

/* The pace gap of a pass (SIM_EV_OVERTAKE's value): positive when the passer is the faster alone. NaN when either
 * pace is unknown, set explicitly so that the value (which the world hash reads) does not depend on NaN payloads. */
static double sim_pace_gap(const SimWorld *w, const SimCar *passer, const SimCar *passed)
{
    double mine = w->priv[passer->id].lap_alone_s, theirs = w->priv[passed->id].lap_alone_s;
    return isnan(mine) || isnan(theirs) ? NAN : theirs - mine;
}

static void sim_pass_confirmed(SimWorld *w, SimCar *passer, SimCar *passed)
{
    double r = passer->race_dist_m - passed->race_dist_m;
    long laps = (long)floor(r * w->inv_length + 0.5); /* whole laps between them; the rest is the gap on track */
    if (laps == 0) {
        passer->overtakes++;
        passed->positions_lost++;
        SimEvent *e = sim_event_push(w, SIM_EV_OVERTAKE, passer->id, passed->id, passer->laps + 1,
                                      sim_pace_gap(w, passer, passed));
        if (e)
            e->kind = sim_pass_kind(w, passer, passed);
    } else if (laps > 0) {
        passer->lappings++;
        sim_event_push(w, SIM_EV_LAPPING, passer->id, passed->id, passer->laps + 1, 0.0);
    }
}

/* Advances the passes being confirmed; returns 1 when the pair leaves the pending list. */
static int sim_pending_step(SimWorld *w, int idx)
{
    int n = w->car_count, lo = idx / n, hi = idx % n;
    SimPair *pair = &w->pairs[idx];
    pair->seen_tick = w->tick;
    if (!w->priv[lo].active || !w->priv[hi].active) {
        pair->state = SIM_PAIR_UNKNOWN;
        return 1;
    }
    SimCar *a = &w->cars[lo], *b = &w->cars[hi];
    double q = sim_pair_gap(w, a, b);
    bool lo_passing = pair->state == SIM_PAIR_LO_PASSING;
    if (lo_passing ? q <= 0.0 : q >= 0.0) { /* fell back: the pass did not happen */
        pair->state = lo_passing ? SIM_PAIR_LO_BEHIND : SIM_PAIR_LO_AHEAD;
        return 1;
    }
    if (w->tick - pair->pass_tick < w->pass_ticks)
        return 0;
    if (lo_passing)
        sim_pass_confirmed(w, a, b);
    else
        sim_pass_confirmed(w, b, a);
    pair->state = lo_passing ? SIM_PAIR_LO_AHEAD : SIM_PAIR_LO_BEHIND;
    return 1;
}

static void sim_score_pending(SimWorld *w)
{
    int k = 0;
    for (int i = 0; i < w->pending_count; i++) {
        int idx = w->pending[i];
        if (!sim_pending_step(w, idx))
            w->pending[k++] = idx; /* order kept, so events come in the order the passes started */
    }
    w->pending_count = k;
}

static void sim_watch_pair(SimWorld *w, const SimCar *x, const SimCar *y)
{
    const SimCar *a = x->id < y->id ? x : y, *b = x->id < y->id ? y : x;
    int idx = a->id * w->car_count + b->id;
    SimPair *pair = &w->pairs[idx];
    if (pair->state == SIM_PAIR_LO_PASSING || pair->state == SIM_PAIR_HI_PASSING)
        return; /* handled by the pending list */
    double len = 0.5 * (a->spec.length_m + b->spec.length_m);
    double q = sim_pair_gap(w, a, b);
    bool fresh = pair->seen_tick == w->tick - 1;
    pair->seen_tick = w->tick;
    if (!fresh || pair->state == SIM_PAIR_UNKNOWN) {
        pair->state = sim_settle(q, len);
        return;
    }
    if ((pair->state == SIM_PAIR_LO_BEHIND && q >= len) || (pair->state == SIM_PAIR_LO_AHEAD && q <= -len)) {
        pair->state = pair->state == SIM_PAIR_LO_BEHIND ? SIM_PAIR_LO_PASSING : SIM_PAIR_HI_PASSING;
        pair->pass_tick = w->tick;
        w->pending[w->pending_count++] = idx;
    }
}

/* Watches every pair of running cars closer than the watch distance: a pass takes them through it tick by tick
 * (the distance covers a car length each way plus far more than one tick of relative motion). */
static void sim_score_passes(SimWorld *w)
{
    sim_score_pending(w);
    int n = w->active_count;
    double zone = 2.0 * w->max_len_m + 10.0 + 100.0 * w->dt_s;
    for (int k = 0; k < n; k++) {
        const SimCar *a = &w->cars[w->by_s[k]];
        for (int step = 1, j = k; step < n; step++) {
            j = j + 1 < n ? j + 1 : 0; /* (k + step) % n without a division */
            const SimCar *b = &w->cars[w->by_s[j]];
            if (sim_fwd_dist(w, a->s_m, b->s_m) >= zone)
                break;
            sim_watch_pair(w, a, b);
        }
    }
}

/*----------------------------------------------------------------------------------------------------------------
 * Order and end
 *--------------------------------------------------------------------------------------------------------------*/

static bool sim_ahead_of(const SimWorld *w, int a, int b)
{
    const SimCar *x = &w->cars[a], *y = &w->cars[b];
    if (x->status == SIM_RUNNING && y->status == SIM_RUNNING) /* nearly every comparison: the rules below, shortened */
        return x->race_dist_m != y->race_dist_m ? x->race_dist_m > y->race_dist_m : a < b;
    static const int rank[] = {1, 0, 2}; /* RUNNING, FINISHED, DNF */
    if (rank[x->status] != rank[y->status])
        return rank[x->status] < rank[y->status];
    if (x->status == SIM_FINISHED && w->priv[a].finish_rank != w->priv[b].finish_rank)
        return w->priv[a].finish_rank < w->priv[b].finish_rank;
    if (x->status != SIM_FINISHED && x->race_dist_m != y->race_dist_m)
        return x->race_dist_m > y->race_dist_m;
    return a < b;
}

/* An insertion sort of last tick's order: nearly every tick no car moves, which costs one comparison per car and
 * leaves the positions as they were (so they are written only when a car moved, or the first time). */
void sim_update_order(SimWorld *w)
{
    int *o = w->order;
    bool moved = !w->positions_set;
    const SimCar *y = w->car_count > 0 ? &w->cars[o[0]] : NULL; /* the car at o[i - 1] */
    for (int i = 1; i < w->car_count; i++) {
        int id = o[i], j = i;
        const SimCar *x = &w->cars[id];
        /* running and behind the car before: in place (sim_ahead_of says no), decided without its call */
        bool in_place = x->status == SIM_RUNNING && y->status == SIM_RUNNING && x->race_dist_m < y->race_dist_m;
        if (in_place || !sim_ahead_of(w, id, o[j - 1])) {
            y = x;
            continue;
        }
        do {
            o[j] = o[j - 1];
            j--;
        } while (j > 0 && sim_ahead_of(w, id, o[j - 1]));
        o[j] = id;
        moved = true;
        y = &w->cars[o[i]];
    }
    if (!moved)
        return;
    for (int i = 0; i < w->car_count; i++)
        w->cars[o[i]].position = i + 1;
    w->positions_set = true;
}

static void sim_score_end(SimWorld *w)
{
    double t = sim_time_at(w, w->tick);
    if (w->active_count == 0) {
        w->done = true;
        return;
    }
    bool timed_out = w->def.duration_s > 0.0 && t >= w->def.duration_s - 1e-9;
    bool limit = t >= w->time_limit_s - 1e-9;
    if (!timed_out && !limit)
        return;
    sim_update_order(w);
    for (int i = 0; i < w->car_count; i++) {
        SimCar *c = &w->cars[w->order[i]];
        if (!w->priv[c->id].active)
            continue;
        if (timed_out) {
            c->status = SIM_FINISHED;
            c->finish_time_s = t;
            w->priv[c->id].finish_rank = ++w->finished_count;
            sim_event_push(w, SIM_EV_FINISH, c->id, -1, c->laps, t);
            sim_car_leave(w, c->id);
        } else {
            sim_retire(w, c, "time limit");
        }
    }
    w->done = true;
}

void sim_score(SimWorld *w)
{
    if (w->s_moved) /* only collisions moved cars along s since the collide stage sorted them */
        sim_resort_by_s(w);
    sim_score_cars(w);
    sim_score_passes(w);
    sim_score_end(w);
    sim_update_order(w);
}
