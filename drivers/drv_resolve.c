/* drv_resolve.c: the resolver registry and the reachable-slot walk. */
#include "drv_resolve.h"

#include <math.h>

static int abs_int(int x) { return x < 0 ? -x : x; }

DrvResolveFn *drv_resolver_fn(DrvResolver kind)
{
    /* One entry per DrvResolver, each in its own file but the walk. */
    static DrvResolveFn *const table[DRV_RESOLVE_COUNT] = {
        [DRV_RESOLVE_WALK] = drv_resolve_walk,
        [DRV_RESOLVE_SUBTRACT] = drv_resolve_subtract,
        [DRV_RESOLVE_MASK_SUM] = drv_resolve_mask_sum,
        [DRV_RESOLVE_THRESHOLD_BLEND] = drv_resolve_threshold_blend,
        [DRV_RESOLVE_MIN_DANGER] = drv_resolve_min_danger,
    };
    if ((int)kind < 0 || kind >= DRV_RESOLVE_COUNT || table[kind] == NULL)
        return drv_resolve_walk;
    return table[kind];
}

double drv_resolve_subslot(const float *interest, int slot, int lo, int hi)
{
    if (slot - 1 < lo || slot + 1 > hi)
        return slot;
    double y0 = interest[slot - 1], y1 = interest[slot], y2 = interest[slot + 1];
    double curv = y0 - 2.0 * y1 + y2;
    if (!(curv < 0.0)) /* flat or a valley: no vertex to find */
        return slot;
    double off = 0.5 * (y0 - y2) / curv;
    if (off > 0.5)
        off = 0.5;
    if (off < -0.5)
        off = -0.5;
    return slot + off;
}

/* Danger as the walk sees it: below the floor it is flat ground (edge margins, blur tails, far cars' skirts must
 * not trap the car in a local minimum). */
static float drv_walk_level(float danger) { return danger < DRV_RESOLVE_WALK_FLOOR ? 0.0f : danger; }

/* Walks from `from` in direction `dir` while danger does not increase, never stepping onto a wall (a car beside
 * us: a plateau of full danger must not be crossed just because it is flat). Returns the last slot reached and
 * lowers *dmin to the least raw danger of the slots walked, `from` included (saves the resolver a pass). */
static int drv_walk_dir(const float *danger, int n, int from, int dir, float *dmin)
{
    int i = from;
    float here = drv_walk_level(danger[i]), low = danger[i];
    while (i + dir >= 0 && i + dir < n) {
        float raw = danger[i + dir], next = drv_walk_level(raw);
        if (next > here + (float)DRV_RESOLVE_WALK_EPS || next >= DRV_RESOLVE_WALL)
            break;
        i += dir;
        here = next;
        low = raw < low ? raw : low;
    }
    if (low < *dmin)
        *dmin = low;
    return i;
}

/* The candidate (danger not above limit, interest not below floor) nearest cur in lo..hi, cur inside it; of two at
 * the same distance the one with more interest, the lower slot when equal; -1 when there is none. The same slot as
 * a pass over lo..hi keeping the nearest (a later one only when strictly nearer or, as near, strictly more
 * interesting), found by searching outward from cur, which usually stops within a slot or two. */
static int drv_walk_nearest(const float *danger, const float *interest, int lo, int hi, int cur, float limit,
                            float floor)
{
    for (int k = 0; cur - k >= lo || cur + k <= hi; k++) {
        int l = cur - k, r = cur + k;
        bool ok_l = l >= lo && !(danger[l] > limit || interest[l] < floor);
        bool ok_r = k > 0 && r <= hi && !(danger[r] > limit || interest[r] < floor);
        if (ok_l && ok_r)
            return interest[r] > interest[l] ? r : l;
        if (ok_l)
            return l;
        if (ok_r)
            return r;
    }
    return -1;
}

/* True when every slot's danger is below the walk's floor (the usual map: edge tokens, commitment, far skirts),
 * with the least danger in *dmin. Then every slot is flat ground to the walk (drv_walk_level 0: no rise, no wall),
 * so both walks run to the map's ends, and the slots they cover are all slots: what drv_walk_dir's two calls give
 * in a step each per slot, here in one pass that vectorises. The least danger is the same number whatever order it
 * is taken in (no slot is NaN here: a NaN is not below the floor) but for which of +0 and -0 wins a tie, and the
 * caller only adds a tolerance to it, which gives the same for both. */
static bool drv_walk_flat(const float *danger, int n, float *dmin)
{
    /* in four running counts and minima (slot i in the i % 4th), like drv_walk_top: a select is no reduction the
     * compiler vectorises by itself */
    int above4[4] = {0, 0, 0, 0};
    float low4[4] = {danger[0], danger[0], danger[0], danger[0]};
    int i = 0;
    for (; i + 3 < n; i += 4)
        for (int k = 0; k < 4; k++) {
            float d = danger[i + k];
            above4[k] += !(d < DRV_RESOLVE_WALK_FLOOR);
            low4[k] = d < low4[k] ? d : low4[k];
        }
    int above = above4[0] + above4[1] + above4[2] + above4[3];
    float low = low4[0];
    for (int k = 1; k < 4; k++)
        low = low4[k] < low ? low4[k] : low;
    for (; i < n; i++) {
        above += !(danger[i] < DRV_RESOLVE_WALK_FLOOR);
        low = danger[i] < low ? danger[i] : low;
    }
    *dmin = low;
    return above == 0;
}

/* The best interest among the slots of lo..hi whose danger is not above limit, -1 when none is above -1 (NaN interest
 * never counts). Kept in four running maxima (slot i in the (i - lo) % 4th) updated by selects: no branch on the data. The maximum of a set does not depend on the order it is taken in but for
 * which of +0 and -0 wins a tie, and the caller only subtracts a tolerance from it, which gives the same for both.
 * *masked counts the slots of lo..hi whose danger is not at most limit (in the same pass): when there are none, the
 * run of unmasked slots around any slot is all of lo..hi. */
static float drv_walk_top(const float *danger, const float *interest, int lo, int hi, float limit, int *masked)
{
    float top4[4] = {-1.0f, -1.0f, -1.0f, -1.0f};
    int out4[4] = {0, 0, 0, 0};
    int i = lo;
    for (; i + 3 <= hi; i += 4)
        for (int k = 0; k < 4; k++) {
            bool ok = danger[i + k] <= limit;
            float in = interest[i + k], c = ok ? in : -1.0f; /* -1 never raises a maximum */
            top4[k] = c > top4[k] ? c : top4[k];
            out4[k] += !ok;
        }
    float top = top4[0];
    for (int k = 1; k < 4; k++)
        top = top4[k] > top ? top4[k] : top;
    int out = out4[0] + out4[1] + out4[2] + out4[3];
    for (; i <= hi; i++) {
        bool ok = danger[i] <= limit;
        if (ok && interest[i] > top)
            top = interest[i];
        out += !ok;
    }
    *masked = out;
    return top;
}

void drv_resolve_walk(const DrvContextMap *map, double current_d_m, DrvResolveResult *out)
{
    const int n = map->slots;
    const float *danger = map->danger, *interest = map->interest;
    /* The car sits between two slot centres; both are where it is, so the walk left starts from the one on its
     * left and the walk right from the one on its right. This keeps coarse maps from putting the car "inside" a
     * neighbour's danger because of rounding. */
    double f = drv_map_d_to_slotf(map, current_d_m);
    int cur = !(f > 0.0) ? 0 : (f >= n - 1 ? n - 1 : (int)(f + 0.5)); /* drv_map_d_to_slot, f at hand */
    int left = f <= 0.0 ? 0 : (f >= n - 1 ? n - 1 : (int)f);
    /* (int)ceil(f) for 0 < f < n - 1 without the call: (int)f rounds toward zero, so it is one less where f is not
     * a whole number */
    int right = f <= 0.0 ? 0 : (f >= n - 1 ? n - 1 : (int)f + ((int)f < f));
    /* the two walks cover lo..hi between them (right is left or left + 1), so they find its least danger too */
    float dmin;
    int lo = 0, hi = n - 1;
    if (!drv_walk_flat(danger, n, &dmin)) {
        dmin = danger[left];
        lo = drv_walk_dir(danger, n, left, -1, &dmin);
        hi = drv_walk_dir(danger, n, right, +1, &dmin);
    }
    float limit = dmin + (float)DRV_RESOLVE_MASK_TOL;

    /* Best interest among unmasked slots. Slots within DRV_RESOLVE_INTEREST_TOL of the best count as equal and
     * the one nearest the car wins, so near-equal lanes do not pull it across the track tick after tick. */
    int masked;
    float top = drv_walk_top(danger, interest, lo, hi, limit, &masked);
    int best = drv_walk_nearest(danger, interest, lo, hi, cur, limit, top - (float)DRV_RESOLVE_INTEREST_TOL);

    /* Refine only inside the contiguous unmasked run around the best slot, so the offset never leans into a
     * masked (dangerous) slot. With no masked slot in lo..hi (most decisions) the run is lo..hi itself. */
    int run_lo = best, run_hi = best;
    if (masked == 0 && best >= 0) {
        run_lo = lo;
        run_hi = hi;
    } else {
        while (run_lo - 1 >= lo && danger[run_lo - 1] <= limit)
            run_lo--;
        while (run_hi + 1 <= hi && danger[run_hi + 1] <= limit)
            run_hi++;
    }
    /* The tolerance may have picked the flank of a peak: climb to its top, which is where the lane really is. */
    for (;;) {
        if (best > run_lo && interest[best - 1] > interest[best])
            best--;
        else if (best < run_hi && interest[best + 1] > interest[best])
            best++;
        else
            break;
    }
    double fb = drv_resolve_subslot(interest, best, run_lo, run_hi);

    out->current_slot = cur;
    out->reach_lo = lo;
    out->reach_hi = hi;
    out->chosen_slot = best;
    out->chosen_d_m = map->d_left_m - fb * map->step_m;
    out->chosen_danger = danger[best];
    out->no_slot = false;
    /* nothing masked: every slot of lo..hi is at most limit = dmin + tol <= danger[best] + tol (dmin is the least
     * danger of lo..hi, which holds best, and none is NaN) */
    out->reach_open = masked == 0 && best >= 0;
}

int drv_resolve_pick(const float *value, const bool *ok, int lo, int hi, int cur)
{
    float top = 0.0f;
    bool any = false;
    for (int i = lo; i <= hi; i++)
        if (ok[i] && (!any || value[i] > top))
            top = value[i], any = true;
    int best = -1;
    for (int i = lo; i <= hi; i++) {
        if (!ok[i] || value[i] < top - (float)DRV_RESOLVE_INTEREST_TOL)
            continue;
        if (best < 0 || abs_int(i - cur) < abs_int(best - cur) ||
            (abs_int(i - cur) == abs_int(best - cur) && value[i] > value[best]))
            best = i;
    }
    return best;
}

double drv_resolve_refine(const float *value, const bool *ok, int *best, int n)
{
    int b = *best, lo = b, hi = b;
    while (lo - 1 >= 0 && ok[lo - 1])
        lo--;
    while (hi + 1 < n && ok[hi + 1])
        hi++;
    for (;;) {
        if (b > lo && value[b - 1] > value[b])
            b--;
        else if (b < hi && value[b + 1] > value[b])
            b++;
        else
            break;
    }
    *best = b;
    return drv_resolve_subslot(value, b, lo, hi);
}

void drv_resolve_choose(const DrvContextMap *map, int cur, int best, double f, DrvResolveResult *out)
{
    out->current_slot = cur;
    out->reach_lo = 0;
    out->reach_hi = map->slots - 1;
    out->chosen_slot = best;
    out->chosen_d_m = map->d_left_m - f * map->step_m;
    out->chosen_danger = map->danger[best];
    out->no_slot = false;
    out->reach_open = false;
}

void drv_resolve_hold(const DrvContextMap *map, int cur, double current_d_m, DrvResolveResult *out)
{
    out->current_slot = cur;
    out->reach_lo = 0;
    out->reach_hi = map->slots - 1;
    out->chosen_slot = cur;
    out->chosen_d_m = current_d_m;
    out->chosen_danger = map->danger[cur];
    out->no_slot = true;
    out->reach_open = false;
}
