/* drv_post.c: blur and temporal hysteresis of context maps. The only state (the previous maps) belongs to the
 * driver and is passed in; nothing here is kept between calls. */
#include "drv_post.h"

#include <math.h>
#include <string.h>

/* four slots of a blur as a vector (drv_blur_max), and the two halves it is summed in */
typedef double DrvV4d __attribute__((vector_size(4 * sizeof(double))));
typedef float DrvV4f __attribute__((vector_size(4 * sizeof(float))));
typedef double DrvV2d __attribute__((vector_size(2 * sizeof(double))));

static void drv_blur_weights(DrvBlur blur, int radius, double *w)
{
    /* exp() only radius times per call, outside the per-slot loop; w[0] would be exp(-0.0), which is 1 exactly
     * (C11 F.10.3.1) */
    double sigma = radius * 0.5;
    w[0] = 1.0;
    for (int k = 1; k <= radius; k++)
        w[k] = blur == DRV_BLUR_GAUSS ? exp(-0.5 * (k * k) / (sigma * sigma)) : 1.0;
}

/* One slot of the blur with the window cut at the map's ends (weights renormalised over what is left): the offsets
 * -radius..radius in order, those that fall off the map left out, by their bounds rather than a test per offset.
 * Inline: it runs for the radius slots at either end of every blur, and the call was a fifth of its cost. */
static inline float drv_blur_edge(const float *v, int n, int i, const double *wk, int radius)
{
    double sum = 0.0, wsum = 0.0;
    int k_lo = -i > -radius ? -i : -radius, k_hi = n - 1 - i < radius ? n - 1 - i : radius;
    for (int k = k_lo; k <= k_hi; k++) {
        sum += wk[k + radius] * v[i + k];
        wsum += wk[k + radius];
    }
    return (float)(sum / wsum);
}

/* The blur of a slot whose whole window lies inside the map: its window's terms added in drv_blur_edge's order
 * (offset -radius first), from 0.0, then divided by the weights' full sum, which drv_blur_edge's wsum is for such a
 * slot. */
static float drv_blur_inside(const float *v, int i, const double *wk, int radius, double wfull)
{
    const float *src = v + i - radius;
    double sum = 0.0;
    for (int k = 0; k <= 2 * radius; k++)
        sum += wk[k] * src[k];
    return (float)(sum / wfull);
}

/* Inline always: drv_post_blur calls it with the radius as a constant for the radii the drivers use (1 and 2), so
 * each of those gets its own copy with the window's loops unrolled and its weights in registers. */
static inline __attribute__((always_inline)) void drv_blur_max(float *v, int n, const double *w, int radius)
{
    float out[DRV_MAX_SLOTS];
    /* weights by offset -radius..radius, and their full sum added in the same order as a slot's own loop adds
     * them, so a slot whose window lies inside the map gets bit for bit the same result without the bounds checks */
    double wk[2 * DRV_BLUR_MAX_RADIUS + 1], wfull = 0.0;
    for (int k = -radius; k <= radius; k++) {
        wk[k + radius] = w[k < 0 ? -k : k];
        wfull += wk[k + radius];
    }
    /* the slots whose whole window lies inside the map are [lo_end, hi_start); every slot is read before any is
     * written (out is copied back last) */
    int lo_end = radius < n ? radius : n, hi_start = n - radius > lo_end ? n - radius : lo_end;
    for (int i = 0; i < lo_end; i++) {
        float b = drv_blur_edge(v, n, i, wk, radius);
        out[i] = v[i] > b ? v[i] : b;
    }
    /* Four slots at a time, their sums in two registers of two doubles (GCC/Clang vector extensions: each lane is
     * computed by exactly the scalar operations, a float widened to double, a product and a sum, nothing fused),
     * every slot's terms added in drv_blur_inside's order: a slot's sum is bit for bit its own (test_drv_fast.c:
     * test_blur_matches_reference). Summing into an array one offset at a time would store and reload every sum at
     * every offset, and vectorised loops over a few dozen slots spend much of their work in set-up. */
    const DrvV2d wf = {wfull, wfull};
    int i = lo_end;
    for (; i + 4 <= hi_start; i += 4) {
        const float *src = v + i - radius;
        DrvV2d s01 = {0.0, 0.0}, s23 = {0.0, 0.0};
        for (int k = 0; k <= 2 * radius; k++) {
            DrvV4f f;
            memcpy(&f, src + k, sizeof f);
            DrvV4d d = __builtin_convertvector(f, DrvV4d);
            const DrvV2d wkk = {wk[k], wk[k]}, d01 = {d[0], d[1]}, d23 = {d[2], d[3]};
            s01 += wkk * d01;
            s23 += wkk * d23;
        }
        const DrvV2d q01 = s01 / wf, q23 = s23 / wf;
        float b[4] = {(float)q01[0], (float)q01[1], (float)q23[0], (float)q23[1]};
        for (int j = 0; j < 4; j++)
            out[i + j] = v[i + j] > b[j] ? v[i + j] : b[j];
    }
    for (; i < hi_start; i++) {
        float b = drv_blur_inside(v, i, wk, radius, wfull);
        out[i] = v[i] > b ? v[i] : b;
    }
    for (i = hi_start; i < n; i++) {
        float b = drv_blur_edge(v, n, i, wk, radius);
        out[i] = v[i] > b ? v[i] : b;
    }
    memcpy(v, out, (size_t)n * sizeof *v);
}

void drv_post_blur(DrvContextMap *map, DrvBlur blur, int radius)
{
    DrvBlurWeights none = {0}; /* nothing kept: the weights are computed for this blur */
    drv_post_blur_kept(map, blur, radius, &none);
}

void drv_post_blur_kept(DrvContextMap *map, DrvBlur blur, int radius, DrvBlurWeights *kept)
{
    if (blur == DRV_BLUR_NONE || radius <= 0)
        return;
    if (radius > DRV_BLUR_MAX_RADIUS)
        radius = DRV_BLUR_MAX_RADIUS;
    if (kept->radius != radius || kept->blur != blur) {
        drv_blur_weights(blur, radius, kept->w);
        kept->blur = blur;
        kept->radius = radius;
    }
    /* the same function for each radius, compiled apart for the known ones (see drv_blur_max) */
    if (radius == 1)
        drv_blur_max(map->danger, map->slots, kept->w, 1);
    else if (radius == 2)
        drv_blur_max(map->danger, map->slots, kept->w, 2);
    else
        drv_blur_max(map->danger, map->slots, kept->w, radius);
}

double drv_map_sample(const DrvContextMap *map, DrvMapWhich which, double d_m)
{
    const float *v = which == DRV_MAP_DANGER ? map->danger : map->interest;
    double f = drv_map_d_to_slotf(map, d_m);
    if (!(f > 0.0))
        return v[0];
    if (f >= map->slots - 1)
        return v[map->slots - 1];
    int i = (int)f;
    double t = f - i;
    return (1.0 - t) * v[i] + t * v[i + 1];
}

/* drv_map_sample of both maps at one offset, the slot position computed once. */
static void drv_map_sample2(const DrvContextMap *map, double d_m, double *danger, double *interest)
{
    double f = (map->d_left_m - d_m) / map->step_m; /* drv_map_d_to_slotf */
    int last = map->slots - 1;
    if (!(f > 0.0)) {
        *danger = map->danger[0];
        *interest = map->interest[0];
    } else if (f >= last) {
        *danger = map->danger[last];
        *interest = map->interest[last];
    } else {
        int i = (int)f;
        double t = f - i;
        *danger = (1.0 - t) * map->danger[i] + t * map->danger[i + 1];
        *interest = (1.0 - t) * map->interest[i] + t * map->interest[i + 1];
    }
}

/* prev = map, copying only the slots in use (the arrays hold DRV_MAX_SLOTS; a whole copy is 1 KB a tick). */
static void drv_map_copy_used(DrvContextMap *dst, const DrvContextMap *src)
{
    dst->slots = src->slots;
    dst->d_left_m = src->d_left_m;
    dst->d_right_m = src->d_right_m;
    dst->step_m = src->step_m;
    memcpy(dst->danger, src->danger, (size_t)src->slots * sizeof src->danger[0]);
    memcpy(dst->interest, src->interest, (size_t)src->slots * sizeof src->interest[0]);
}

void drv_post_hysteresis(DrvContextMap *map, DrvContextMap *prev, bool *has_prev, double h)
{
    if (*has_prev && h > 0.0) {
        const int n = map->slots;
        bool same = prev->slots == n && prev->d_left_m == map->d_left_m && prev->d_right_m == map->d_right_m;
        const double left = map->d_left_m, step = map->step_m, keep = 1.0 - h;
        if (same) { /* the usual case: a loop of its own, with no per-slot branch on it (the max is a select, not a
                     * conditional store, so the loop vectorises), which also leaves the result in prev: each slot
                     * of prev is read before it is written, and no other slot reads it */
            for (int i = 0; i < n; i++) {
                float d = map->danger[i], bd = (float)(keep * d + h * prev->danger[i]);
                float in = (float)(keep * map->interest[i] + h * prev->interest[i]);
                map->danger[i] = prev->danger[i] = bd > d ? bd : d;
                map->interest[i] = prev->interest[i] = in;
            }
            prev->step_m = map->step_m; /* slots and ends are the same already (drv_map_copy_used's result) */
            return;
        }
        for (int i = 0; i < n; i++) {
            double pd, pi;
            drv_map_sample2(prev, left - i * step, &pd, &pi); /* at drv_map_slot_d(map, i) */
            float bd = (float)(keep * map->danger[i] + h * pd);
            if (bd > map->danger[i])
                map->danger[i] = bd;
            map->interest[i] = (float)(keep * map->interest[i] + h * pi);
        }
    }
    drv_map_copy_used(prev, map);
    *has_prev = true;
}
