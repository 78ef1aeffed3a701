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

/* Sorts by_s only when it is out of order: a tick moves cars a few decimetres, so nearly always the order holds,
 * and then the insertion sort would move nothing after the same comparisons, each a call and a tie test. Strictly
 * increasing s is checked here (a tie, rare, goes to the sort, which breaks it by id). */
void sim_resort_by_s(SimWorld *w)
{
    const int *o = w->by_s;
    for (int k = 1; k < w->active_count; k++)
        if (!(w->cars[o[k - 1]].s_m < w->cars[o[k]].s_m)) {
            sim_sort_by_s(w);
            return;
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
static inline double sim_draft_ahead(const SimDraftMe *dm, const DrvOther *c, double f)
{
    double gap = f - 0.5 * (dm->length_m + c->length_m);
    if (!(gap >= 0.0))
        return 1.0;
    double lo = trk_fmax(dm->d_lo_m, c->d_m - 0.5 * c->width_m);
    double hi = trk_fmin(dm->d_hi_m, c->d_m + 0.5 * c->width_m);
    double mean_w = 0.5 * (dm->width_m + c->width_m);
    return sim_draft_factor(gap, hi > lo ? (hi - lo) / mean_w : 0.0, dm->length_m);
}

/*----------------------------------------------------------------------------------------------------------------
 * Views
 *--------------------------------------------------------------------------------------------------------------*/

/* The walks take the fast way when the last tick's views showed at least this many others a car (sim_sense_snapshot). */
#define SIM_SENSE_FAST_SHOWN 4

/* Lap keys beyond this many laps are not used (sim_lap_key). */
#define SIM_LAP_KEY_MAX 1048576.0

/* (int)floor(v) without the library call; exact for |v| < 2^31 (clamped beyond: only nonsense states get there). */
static int sim_floor_int(double v)
{
    if (!(v > -1e9 && v < 1e9))
        return v > 0.0 ? 1000000000 : -1000000000;
    int k = (int)v;
    return v < (double)k ? k - 1 : k;
}

/* What the walk from one car needs, in locals: the views are written through DrvOther pointers, which may alias any
 * double, so the compiler would otherwise reload the world's fields after every store. The general walk steps through
 * the snapshot by pointer, wrapping at its ends by comparison (this is the innermost loop of the sense stage); the
 * fast walk goes without those tests up to the ends (sim_walk_fast). */
typedef struct SimWalk {
    const SimSensed *first, *last; /* the snapshot's first and last entries */
    const SimSensed *me;           /* the walker's entry */
    int k, n;                      /* its index, and the snapshot's length */
    double length_m, inv_length, s_m, race_dist_m;
    double ahead_max, behind_max;  /* the view's reach along the track */
    int lap_key;                   /* the walker's (fast ticks only) */
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
static inline void sim_other(const SimWalk *wk, const SimSensed *c, double ds, DrvOther *o)
{
    *o = c->other;
    o->ds_m = ds;
    /* the race distance difference minus the physical one is a whole number of laps: nearly always none, where v is
     * about 0.5 and two compares give sim_floor_int's 0 (floor is 0 exactly on [0, 1)) */
    double v = (c->race_dist_m - wk->race_dist_m - ds) * wk->inv_length + 0.5;
    o->laps_ahead = v >= 0.0 && v < 1.0 ? 0 : sim_floor_int(v);
}

/* sim_other between the walker and the snapshot's ends, on a tick the snapshot certified (SimSensed.lap_key): there
 * ds is c->s_m - s_m itself (no wrap), and laps_ahead is the difference of the lap keys, as sim_other's formula. */
static void sim_other_fast(const SimSensed *c, double ds, int my_lap_key, DrvOther *o)
{
    *o = c->other;
    o->ds_m = ds;
    o->laps_ahead = c->lap_key - my_lap_key;
}

/* The lap key of a car: the whole number of laps nearest to (race_dist - s) / L. It is exact for sim_other's formula
 * when every running car's (race_dist - s) / L, as computed here, is within 1/8 of its key and below 2^20 laps: then
 * between two cars with no wrap between them (ds = c->s_m - s_m, rounded once) the exact (race_dist difference - ds)
 * / L is within 1/4 of the difference of the keys, the formula's roundings (all below 2^-28 at these magnitudes)
 * cannot close the other quarter, and floor(v) is that difference. The sim keeps race_dist - s a whole number of
 * laps (both move by the same ds, and s wraps by L) up to rounding; only a car given a race distance that does not
 * match its position fails the test, and *ok is cleared (the tick's views then all take the general way). */
static int sim_lap_key(double race_dist_m, double s_m, double inv_length, bool *ok)
{
    double r = (race_dist_m - s_m) * inv_length;
    if (!(fabs(r) < SIM_LAP_KEY_MAX)) {
        *ok = false;
        return 0;
    }
    /* floor(r + 0.5) by truncating a positive number; any rounding here would only fail the test below */
    int key = (int)(r + (SIM_LAP_KEY_MAX + 0.5)) - (int)SIM_LAP_KEY_MAX;
    double off = r - (double)key;
    if (!(off >= -0.125 && off <= 0.125))
        *ok = false;
    return key;
}

/* The snapshot the views are built from, in s order. It also decides whether the walks take the fast way between the
 * walker and the snapshot's ends (w->sense_fast). That way has a fixed cost a car per tick (the lap keys, the split
 * walks) and saves work for each car a view shows, so it is taken when the last tick's views showed
 * at least SIM_SENSE_FAST_SHOWN others a car on average (a pack; not a spread-out field), and only when the snapshot
 * allows it: every lap key exact (sim_lap_key), and the s values ascending within [0, L), so that between the walker
 * and the ends c->s_m - s_m is the forward distance without a wrap (it is in [0, L)). Both ways give the same views. */
static void sim_sense_snapshot(SimWorld *w)
{
    bool fast = w->sense_shown >= SIM_SENSE_FAST_SHOWN * w->active_count;
    double prev_s = 0.0;
    for (int k = 0; k < w->active_count; k++) {
        const SimCar *c = &w->cars[w->by_s[k]];
        SimSensed *e = &w->sensed[k];
        /* field by field: ds_m and laps_ahead are the walker's, which each view's copy sets (sim_other) */
        e->other.id = c->id;
        e->other.d_m = c->d_m;
        e->other.speed_mps = c->speed_mps;
        e->other.lat_speed_mps = c->lat_speed_mps;
        e->other.length_m = c->spec.length_m;
        e->other.width_m = c->spec.width_m;
        e->other.plan = w->priv[c->id].plan;
        e->s_m = c->s_m;
        e->race_dist_m = c->race_dist_m;
        if (fast) {
            e->lap_key = sim_lap_key(c->race_dist_m, c->s_m, w->inv_length, &fast);
            fast = fast && c->s_m >= prev_s;
            prev_s = c->s_m;
        }
    }
    w->sense_fast = fast && prev_s < w->length_m;
}

/* The general walk from the car at index k: behind first, then ahead; writes them in ascending ds. Drafting uses the
 * same walk: the wake of the cars ahead within SIM_DRAFT_RANGE_M. Returns the count and the drag factor in *draft. */
static int sim_walk_general(const SimWalk *wk, int cap, double draft_reach, DrvOther *out, double *draft)
{
    int behind = 0;
    const SimSensed *c = wk->me;
    while (behind < cap) {
        c = sim_walk_prev(wk, c);
        if (sim_walk_fwd(wk, c->s_m, wk->s_m) > wk->behind_max)
            break;
        behind++;
    }
    /* the farthest behind first: start `behind` places back and walk forward to k */
    int j = wk->k - behind;
    c = &wk->first[j < 0 ? j + wk->n : j];
    for (int i = 0; i < behind; i++) {
        sim_other(wk, c, -sim_walk_fwd(wk, c->s_m, wk->s_m), &out[i]);
        c = sim_walk_next(wk, c);
    }
    /* ahead: the rest */
    const SimSensed *me = wk->me;
    const SimDraftMe dm = {me->other.d_m - 0.5 * me->other.width_m, me->other.d_m + 0.5 * me->other.width_m,
                           me->other.width_m, me->other.length_m};
    double best = 1.0;
    DrvOther *o = out + behind, *o_end = out + cap;
    for (c = me; o < o_end; o++) {
        c = sim_walk_next(wk, c);
        double f = sim_walk_fwd(wk, wk->s_m, c->s_m);
        if (f >= wk->ahead_max)
            break;
        if (f < draft_reach) {
            double df = sim_draft_ahead(&dm, &c->other, f); /* in [1 - SIM_DRAFT_MAX, 1] or NaN, so < is fmin */
            if (df < best)
                best = df;
        }
        sim_other(wk, c, f, o);
    }
    *draft = best;
    return (int)(o - out);
}

/* How many cars behind the walker the view shows on a fast tick: those within behind_max, at most cap. The cars
 * between it and the snapshot's start are tested without wraps (their distance is s_m - c->s_m); the general walk
 * carries on across the start when all of those were in reach. */
static int sim_count_behind(const SimWalk *wk, int cap)
{
    int behind = 0, fast = wk->k < cap ? wk->k : cap;
    while (behind < fast && !(wk->s_m - wk->me[-behind - 1].s_m > wk->behind_max))
        behind++;
    if (behind < fast)
        return behind; /* one out of reach before the start */
    for (const SimSensed *c = wk->me - behind; behind < cap; behind++) {
        c = sim_walk_prev(wk, c);
        if (sim_walk_fwd(wk, c->s_m, wk->s_m) > wk->behind_max)
            break;
    }
    return behind;
}

/* The fast walk (on a tick the snapshot certified: w->sense_fast), with the general walk's results: the cars between
 * the walker and the snapshot's ends as sim_other_fast, and the draft test there only up to the first car beyond the
 * draft reach (their distance only grows there); the parts across the ends go the general way. */
static int sim_walk_fast(const SimWalk *wk, int cap, double draft_reach, DrvOther *out, double *draft)
{
    /* behind, the farthest first: the part across the start, then the rest */
    int behind = sim_count_behind(wk, cap), j = wk->k - behind, i = 0;
    const SimSensed *c = &wk->first[j < 0 ? j + wk->n : j];
    for (; i < -j; i++) {
        sim_other(wk, c, -sim_walk_fwd(wk, c->s_m, wk->s_m), &out[i]);
        c = sim_walk_next(wk, c);
    }
    for (; i < behind; i++, c++)
        sim_other_fast(c, -(wk->s_m - c->s_m), wk->lap_key, &out[i]);
    /* ahead: up to the end, within the draft reach and beyond it; then across the end */
    const SimSensed *me = wk->me;
    const SimDraftMe dm = {me->other.d_m - 0.5 * me->other.width_m, me->other.d_m + 0.5 * me->other.width_m,
                           me->other.width_m, me->other.length_m};
    double best = 1.0, near = draft_reach < wk->ahead_max ? draft_reach : wk->ahead_max;
    int to_end = wk->n - 1 - wk->k;
    DrvOther *o = out + behind, *o_end = out + cap, *o_fast = o_end - o < to_end ? o_end : o + to_end;
    for (c = me; o < o_fast && c[1].s_m - wk->s_m < near; o++) {
        double f = (++c)->s_m - wk->s_m;
        double df = sim_draft_ahead(&dm, &c->other, f);
        if (df < best)
            best = df;
        sim_other_fast(c, f, wk->lap_key, o);
    }
    for (; o < o_fast && c[1].s_m - wk->s_m < wk->ahead_max; o++) {
        c++;
        sim_other_fast(c, c->s_m - wk->s_m, wk->lap_key, o);
    }
    if (o < o_fast)
        o_end = o; /* one out of reach before the end */
    for (; o < o_end; o++) {
        c = sim_walk_next(wk, c);
        double f = sim_walk_fwd(wk, wk->s_m, c->s_m);
        if (f >= wk->ahead_max)
            break;
        if (f < draft_reach) {
            double df = sim_draft_ahead(&dm, &c->other, f);
            if (df < best)
                best = df;
        }
        sim_other(wk, c, f, o);
    }
    *draft = best;
    return (int)(o - out);
}

/* The others in the view of the car at index k (at most n - 1 and SIM_VIEW_MAX_OTHERS), and its drag factor. */
static int sim_collect_others(SimWorld *w, int k, DrvOther *out)
{
    const SimSensed *sn = w->sensed, *me = &sn[k];
    int n = w->active_count;
    double half = 0.5 * w->length_m;
    const SimWalk wk = {sn, sn + n - 1, me, k, n, w->length_m, w->inv_length, me->s_m, me->race_dist_m,
                        SIM_VIEW_AHEAD_M < half ? SIM_VIEW_AHEAD_M : half,
                        SIM_VIEW_BEHIND_M < half ? SIM_VIEW_BEHIND_M : half, me->lap_key};
    int cap = n - 1 < SIM_VIEW_MAX_OTHERS ? n - 1 : SIM_VIEW_MAX_OTHERS;
    double draft_reach = SIM_DRAFT_RANGE_M + w->max_len_m, draft;
    int count = w->sense_fast ? sim_walk_fast(&wk, cap, draft_reach, out, &draft)
                              : sim_walk_general(&wk, cap, draft_reach, out, &draft);
    int id = me->other.id;
    w->priv[id].draft_factor = draft;
    w->cars[id].drafting_now = draft < 1.0;
    if (draft < 1.0)
        w->priv[id].drafted_tick = w->tick;
    return count;
}

void sim_views_init(SimWorld *w)
{
    for (int id = 0; id < w->car_count; id++) {
        DrvView *v = &w->views[id];
        v->track = w->track;
        v->dt_s = w->dt_s;
        v->car = &w->cars[id].spec.dyn;
        v->length_m = w->cars[id].spec.length_m;
        v->width_m = w->cars[id].spec.width_m;
        v->others = &w->others[(size_t)id * SIM_VIEW_MAX_OTHERS];
    }
}

void sim_build_views(SimWorld *w)
{
    sim_sense_snapshot(w);
    int shown = 0;
    for (int k = 0; k < w->active_count; k++) {
        int id = w->by_s[k];
        const SimCar *c = &w->cars[id];
        DrvView *v = &w->views[id];
        DrvOther *others = &w->others[(size_t)id * SIM_VIEW_MAX_OTHERS]; /* v->others (sim_views_init) */
        /* track, dt_s, the car and its size, and others are the view's for good (sim_views_init) */
        v->tick = w->tick;
        v->laps_done = c->laps;
        v->s_m = c->s_m;
        v->d_m = c->d_m;
        v->speed_mps = c->speed_mps;
        v->lat_speed_mps = c->lat_speed_mps;
        v->other_count = sim_collect_others(w, k, others);
        shown += v->other_count;
    }
    w->sense_shown = shown;
}
