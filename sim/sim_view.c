/* sim_view.c: the sense stage (views and drafting). The running cars are kept sorted by track position (an insertion sort per tick:
 * the order barely changes between ticks, so it costs about n), and each driver's view lists the cars within
 * SIM_VIEW_AHEAD_M ahead and SIM_VIEW_BEHIND_M behind by walking that order from its own place: cost about n times
 * the cars in range, not n^2. Finished and retired cars have left the track and are not shown. */
#include "sim_internal.h"

#include <math.h>

double sim_fwd_dist(const SimWorld *w, double from_s, double to_s)
{
    double f = to_s - from_s;
    if (f < 0.0)
        f += w->length_m;
    if (f >= w->length_m)
        f -= w->length_m;
    return f;
}

static bool sim_s_before(const SimCar *a, const SimCar *b)
{
    return a->s_m < b->s_m || (a->s_m == b->s_m && a->id < b->id);
}

void sim_sort_by_s(SimWorld *w)
{
    int *o = w->by_s;
    for (int i = 1; i < w->active_count; i++) {
        int id = o[i], j = i;
        while (j > 0 && sim_s_before(&w->cars[id], &w->cars[o[j - 1]])) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = id;
    }
}

/* (int)floor(v) without the library call; exact for |v| < 2^31 (clamped beyond: only nonsense states get there). */
static int sim_floor_int(double v)
{
    if (!(v > -1e9 && v < 1e9))
        return v > 0.0 ? 1000000000 : -1000000000;
    int k = (int)v;
    return v < (double)k ? k - 1 : k;
}

/* Another car as `me` sees it; ds is the signed shortest distance along the track. */
static void sim_other(const SimWorld *w, const SimCar *me, const SimCar *c, double ds, DrvOther *o)
{
    o->id = c->id;
    o->ds_m = ds;
    o->d_m = c->d_m;
    o->speed_mps = c->speed_mps;
    o->lat_speed_mps = c->lat_speed_mps;
    o->length_m = c->spec.length_m;
    o->width_m = c->spec.width_m;
    /* the race distance difference minus the physical one is a whole number of laps */
    o->laps_ahead = sim_floor_int((c->race_dist_m - me->race_dist_m - ds) * w->inv_length + 0.5);
}

/* Walks the s order from the car at index k: behind first, then ahead; writes them in ascending ds. Drafting uses
 * the same walk: the wake of the cars ahead within SIM_DRAFT_RANGE_M. Indices wrap by comparison, not modulo (this
 * is the innermost loop of the sense stage). */
static int sim_collect_others(SimWorld *w, int k, DrvOther *out)
{
    SimCar *me = &w->cars[w->by_s[k]];
    const int *by_s = w->by_s;
    int n = w->active_count;
    double half = 0.5 * w->length_m;
    double ahead_max = SIM_VIEW_AHEAD_M < half ? SIM_VIEW_AHEAD_M : half;
    double behind_max = SIM_VIEW_BEHIND_M < half ? SIM_VIEW_BEHIND_M : half;
    int behind = 0;
    for (int step = 1, j = k; step < n && behind < SIM_VIEW_MAX_OTHERS; step++) {
        j = j > 0 ? j - 1 : n - 1;
        if (sim_fwd_dist(w, w->cars[by_s[j]].s_m, me->s_m) > behind_max)
            break;
        behind++;
    }
    /* the farthest behind first: start `behind` places back and walk forward to k */
    int j = k - behind;
    if (j < 0)
        j += n;
    for (int i = 0; i < behind; i++) {
        const SimCar *c = &w->cars[by_s[j]];
        sim_other(w, me, c, -sim_fwd_dist(w, c->s_m, me->s_m), &out[i]);
        j = j + 1 < n ? j + 1 : 0;
    }
    int count = behind;
    double draft = 1.0, draft_reach = SIM_DRAFT_RANGE_M + w->max_len_m;
    for (int step = 1, a = k; step < n - behind && count < SIM_VIEW_MAX_OTHERS; step++) {
        a = a + 1 < n ? a + 1 : 0;
        const SimCar *c = &w->cars[by_s[a]];
        double f = sim_fwd_dist(w, me->s_m, c->s_m);
        if (f >= ahead_max)
            break;
        if (f < draft_reach) {
            double df = sim_draft_of(me, c, f); /* in [1 - SIM_DRAFT_MAX, 1]: never NaN, so < is fmin */
            if (df < draft)
                draft = df;
        }
        sim_other(w, me, c, f, &out[count++]);
    }
    w->priv[me->id].draft_factor = draft;
    me->drafting_now = draft < 1.0;
    return count;
}

void sim_build_views(SimWorld *w)
{
    for (int k = 0; k < w->active_count; k++) {
        int id = w->by_s[k];
        const SimCar *c = &w->cars[id];
        DrvView *v = &w->views[id];
        DrvOther *others = &w->others[(size_t)id * SIM_VIEW_MAX_OTHERS];
        v->track = w->track;
        v->tick = w->tick;
        v->dt_s = w->dt_s;
        v->s_m = c->s_m;
        v->d_m = c->d_m;
        v->speed_mps = c->speed_mps;
        v->lat_speed_mps = c->lat_speed_mps;
        v->length_m = c->spec.length_m;
        v->width_m = c->spec.width_m;
        v->car = &c->spec.dyn;
        v->other_count = sim_collect_others(w, k, others);
        v->others = others;
    }
}
