/* sim_view.c: the sense stage (views and drafting). The running cars are kept sorted by track position (an insertion sort per tick:
 * the order barely changes between ticks, so it costs about n), and each driver's view lists the cars within
 * SIM_VIEW_AHEAD_M ahead and SIM_VIEW_BEHIND_M behind by walking that order from its own place: cost about n times
 * the cars in range, not n^2. The walk reads a compact snapshot of the running cars in s order (SimSensed), built
 * once per tick, rather than the large public car structs. Finished and retired cars have left the track and are
 * not shown. */
#include "sim_internal.h"

#include <math.h>

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

/*----------------------------------------------------------------------------------------------------------------
 * Drafting
 *--------------------------------------------------------------------------------------------------------------*/

double sim_draft_factor(double gap_m, double overlap_frac, double car_len_m)
{
    if (gap_m < 0.0 || overlap_frac <= 0.0)
        return 1.0; /* alongside or not behind: no wake */
    double closeness;
    if (gap_m <= car_len_m)
        closeness = 1.0;
    else if (gap_m >= SIM_DRAFT_RANGE_M)
        closeness = 0.0;
    else
        closeness = (SIM_DRAFT_RANGE_M - gap_m) / (SIM_DRAFT_RANGE_M - car_len_m);
    if (overlap_frac > 1.0)
        overlap_frac = 1.0;
    return 1.0 - SIM_DRAFT_MAX * closeness * overlap_frac;
}

/* The walker's side of drafting, worked out once per walk rather than for each car ahead (the same operations). */
typedef struct SimDraftMe {
    double d_lo_m, d_hi_m; /* its lateral extent: d -+ half its width */
    double width_m, length_m;
} SimDraftMe;

/* The drag factor the walker gets from car `c` ahead of it by the forward distance f (centre to centre), computed
 * from the snapshot at the start of the tick, so the order of the cars does not matter. The overlap is the lateral
 * overlap of the two cars divided by their mean width, 0..1. Only a factor below 1 counts (the walk keeps the
 * minimum, starting from 1): sim_draft_factor gives 1 or NaN for a car alongside (gap < 0) or a NaN gap, so there
 * the overlap is not worked out and 1.0 stands for the factor. */
static double sim_draft_ahead(const SimDraftMe *dm, const DrvOther *c, double f)
{
    double gap = f - 0.5 * (dm->length_m + c->length_m);
    if (!(gap >= 0.0))
        return 1.0;
    double lo = sim_fmax(dm->d_lo_m, c->d_m - 0.5 * c->width_m);
    double hi = sim_fmin(dm->d_hi_m, c->d_m + 0.5 * c->width_m);
    double mean_w = 0.5 * (dm->width_m + c->width_m);
    return sim_draft_factor(gap, hi > lo ? (hi - lo) / mean_w : 0.0, dm->length_m);
}

/*----------------------------------------------------------------------------------------------------------------
 * Views
 *--------------------------------------------------------------------------------------------------------------*/

/* (int)floor(v) without the library call; exact for |v| < 2^31 (clamped beyond: only nonsense states get there). */
static int sim_floor_int(double v)
{
    if (!(v > -1e9 && v < 1e9))
        return v > 0.0 ? 1000000000 : -1000000000;
    int k = (int)v;
    return v < (double)k ? k - 1 : k;
}

/* What the walk from one car needs, in locals: the views are written through DrvOther pointers, which may alias any
 * double, so the compiler would otherwise reload the world's fields after every store. The walk steps through the
 * snapshot by pointer, wrapping at its ends by comparison (this is the innermost loop of the sense stage). */
typedef struct SimWalk {
    const SimSensed *first, *last; /* the snapshot's first and last entries */
    double length_m, inv_length, s_m, race_dist_m;
} SimWalk;

/* Forward track distance, as sim_fwd_dist. */
static double sim_walk_fwd(const SimWalk *wk, double from_s, double to_s)
{
    double f = to_s - from_s;
    if (f < 0.0)
        f += wk->length_m;
    if (f >= wk->length_m)
        f -= wk->length_m;
    return f;
}

static const SimSensed *sim_walk_next(const SimWalk *wk, const SimSensed *c)
{
    return c == wk->last ? wk->first : c + 1;
}

static const SimSensed *sim_walk_prev(const SimWalk *wk, const SimSensed *c)
{
    return c == wk->first ? wk->last : c - 1;
}

/* Another car as the walker sees it; ds is the signed shortest distance along the track. */
static void sim_other(const SimWalk *wk, const SimSensed *c, double ds, DrvOther *o)
{
    *o = c->other;
    o->ds_m = ds;
    /* the race distance difference minus the physical one is a whole number of laps: nearly always none, where v is
     * about 0.5 and two compares give sim_floor_int's 0 (floor is 0 exactly on [0, 1)) */
    double v = (c->race_dist_m - wk->race_dist_m - ds) * wk->inv_length + 0.5;
    o->laps_ahead = v >= 0.0 && v < 1.0 ? 0 : sim_floor_int(v);
}

/* The snapshot the views are built from, in s order. */
static void sim_sense_snapshot(SimWorld *w)
{
    for (int k = 0; k < w->active_count; k++) {
        const SimCar *c = &w->cars[w->by_s[k]];
        SimSensed *e = &w->sensed[k];
        e->other = (DrvOther){.id = c->id,
                              .d_m = c->d_m,
                              .speed_mps = c->speed_mps,
                              .lat_speed_mps = c->lat_speed_mps,
                              .length_m = c->spec.length_m,
                              .width_m = c->spec.width_m};
        e->s_m = c->s_m;
        e->race_dist_m = c->race_dist_m;
    }
}

/* Walks the s order from the car at index k: behind first, then ahead; writes them in ascending ds. Drafting uses
 * the same walk: the wake of the cars ahead within SIM_DRAFT_RANGE_M. */
static int sim_collect_others(SimWorld *w, int k, DrvOther *out)
{
    const SimSensed *sn = w->sensed, *me = &sn[k];
    int n = w->active_count;
    const SimWalk wk = {sn, sn + n - 1, w->length_m, w->inv_length, me->s_m, me->race_dist_m};
    double half = 0.5 * wk.length_m;
    double ahead_max = SIM_VIEW_AHEAD_M < half ? SIM_VIEW_AHEAD_M : half;
    double behind_max = SIM_VIEW_BEHIND_M < half ? SIM_VIEW_BEHIND_M : half;
    /* behind: at most n - 1 others and SIM_VIEW_MAX_OTHERS */
    int behind = 0, behind_cap = n - 1 < SIM_VIEW_MAX_OTHERS ? n - 1 : SIM_VIEW_MAX_OTHERS;
    const SimSensed *c = me;
    while (behind < behind_cap) {
        c = sim_walk_prev(&wk, c);
        if (sim_walk_fwd(&wk, c->s_m, wk.s_m) > behind_max)
            break;
        behind++;
    }
    /* the farthest behind first: start `behind` places back and walk forward to k */
    int j = k - behind;
    c = &sn[j < 0 ? j + n : j];
    for (int i = 0; i < behind; i++) {
        sim_other(&wk, c, -sim_walk_fwd(&wk, c->s_m, wk.s_m), &out[i]);
        c = sim_walk_next(&wk, c);
    }
    /* ahead: the rest of the n - 1 others and of SIM_VIEW_MAX_OTHERS */
    const SimDraftMe dm = {me->other.d_m - 0.5 * me->other.width_m, me->other.d_m + 0.5 * me->other.width_m,
                           me->other.width_m, me->other.length_m};
    double draft = 1.0, draft_reach = SIM_DRAFT_RANGE_M + w->max_len_m;
    int ahead_cap = n - 1 < SIM_VIEW_MAX_OTHERS ? n - 1 - behind : SIM_VIEW_MAX_OTHERS - behind;
    DrvOther *o = out + behind, *o_end = o + ahead_cap;
    for (c = me; o < o_end; o++) {
        c = sim_walk_next(&wk, c);
        double f = sim_walk_fwd(&wk, wk.s_m, c->s_m);
        if (f >= ahead_max)
            break;
        if (f < draft_reach) {
            double df = sim_draft_ahead(&dm, &c->other, f); /* in [1 - SIM_DRAFT_MAX, 1] or NaN, so < is fmin */
            if (df < draft)
                draft = df;
        }
        sim_other(&wk, c, f, o);
    }
    int id = me->other.id;
    w->priv[id].draft_factor = draft;
    w->cars[id].drafting_now = draft < 1.0;
    return (int)(o - out);
}

void sim_build_views(SimWorld *w)
{
    sim_sense_snapshot(w);
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
