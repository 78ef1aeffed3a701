/* trk_line.c: the minimum-curvature racing line.
 *
 * The line is P_i = c_i + d_i n_i at every sample, with d_i bounded by the edges less the margin. It minimises
 * sum |P_{i-1} - 2 P_i + P_{i+1}|^2 (squared curvature for evenly spaced points), a convex quadratic in d, solved by
 * projected successive over-relaxation: each d_i in turn jumps to its best value with its neighbours fixed, then is
 * clamped to the track. Long wavelengths converge slowly on a fine grid, so the solve runs coarse to fine (spacing
 * 32 ds, 16 ds, ... ds), each level starting from the previous one's line: the same idea as K1999's step halving.
 */
#include "trk_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct TrkLineLevel {
    int m;
    double *cx, *cy, *nx, *ny, *lo, *hi, *d, *px, *py;
    double *a1, *a2, *den; /* per point, fixed by the normals: computed once per level, not once per sweep */
} TrkLineLevel;

static void trk_level_free(TrkLineLevel *lv)
{
    free(lv->cx);
    lv->cx = NULL;
}

/* One allocation for the twelve arrays of a level; the centre, normal and bounds come from the sample table. */
static int trk_level_init(TrkLineLevel *lv, const TrkTrack *t, int m, double margin)
{
    lv->m = m;
    lv->cx = malloc(sizeof(double) * 12 * (size_t)m);
    if (!lv->cx)
        return 0;
    lv->cy = lv->cx + m, lv->nx = lv->cy + m, lv->ny = lv->nx + m;
    lv->lo = lv->ny + m, lv->hi = lv->lo + m, lv->d = lv->hi + m;
    lv->px = lv->d + m, lv->py = lv->px + m;
    lv->a1 = lv->py + m, lv->a2 = lv->a1 + m, lv->den = lv->a2 + m;
    int hint = -1;
    for (int j = 0; j < m; j++) {
        double s = t->length_m * j / m;
        TrkPose p = trk_pose_at(t, s, &hint);
        lv->cx[j] = p.x_m, lv->cy[j] = p.y_m, lv->nx[j] = p.nx, lv->ny[j] = p.ny;
        double hi = trk_width_left(t, s, &hint) - margin, lo = margin - trk_width_right(t, s, &hint);
        if (lo > hi) /* narrower than two margins: the middle between the margins */
            lo = hi = 0.5 * (lo + hi);
        lv->lo[j] = lo, lv->hi[j] = hi, lv->d[j] = 0.0;
    }
    return 1;
}

/* Fine level's d from the coarse one, linearly between coarse points (periodic). */
static void trk_level_upsample(TrkLineLevel *fine, const TrkLineLevel *coarse)
{
    for (int j = 0; j < fine->m; j++) {
        double x = (double)j * coarse->m / fine->m;
        int a = (int)x;
        double f = x - a;
        if (a >= coarse->m)
            a = coarse->m - 1;
        double d = coarse->d[a] + f * (coarse->d[(a + 1) % coarse->m] - coarse->d[a]);
        fine->d[j] = d < fine->lo[j] ? fine->lo[j] : (d > fine->hi[j] ? fine->hi[j] : d);
    }
}

/* Returns after `iterations` sweeps, or earlier once no offset moves by more than 0.1 mm in a sweep. */
static void trk_level_solve(TrkLineLevel *lv, int iterations)
{
    const double omega = 1.6; /* over-relaxation: about 3x faster than plain Gauss-Seidel here, still stable */
    int m = lv->m;
    double *px = lv->px, *py = lv->py;
    for (int j = 0; j < m; j++) {
        px[j] = lv->cx[j] + lv->d[j] * lv->nx[j];
        py[j] = lv->cy[j] + lv->d[j] * lv->ny[j];
        int b = j >= 1 ? j - 1 : m - 1, c = j + 1 < m ? j + 1 : j + 1 - m;
        double a1 = lv->nx[j] * lv->nx[b] + lv->ny[j] * lv->ny[b], a2 = lv->nx[j] * lv->nx[c] + lv->ny[j] * lv->ny[c];
        lv->a1[j] = a1, lv->a2[j] = a2, lv->den[j] = a1 * a1 + 4.0 + a2 * a2;
    }
    for (int it = 0; it < iterations; it++) {
        double moved = 0.0;
        for (int i = 0; i < m; i++) {
            int a = i >= 2 ? i - 2 : i + m - 2, b = i >= 1 ? i - 1 : m - 1;
            int c = i + 1 < m ? i + 1 : i + 1 - m, e = i + 2 < m ? i + 2 : i + 2 - m;
            double nx = lv->nx[i], ny = lv->ny[i], cx = lv->cx[i], cy = lv->cy[i];
            /* e_j = (P_{j-1} - 2 P_j + P_{j+1}) . n_j = r_j + a_j d_i: the normal part of the second difference
             * at j = i-1, i, i+1, split into what d_i contributes and the rest. */
            double r1 = (px[a] - 2.0 * px[b] + cx) * lv->nx[b] + (py[a] - 2.0 * py[b] + cy) * lv->ny[b];
            double r0 = (px[b] - 2.0 * cx + px[c]) * nx + (py[b] - 2.0 * cy + py[c]) * ny;
            double r2 = (cx - 2.0 * px[c] + px[e]) * lv->nx[c] + (cy - 2.0 * py[c] + py[e]) * lv->ny[c];
            double best = -(lv->a1[i] * r1 - 2.0 * r0 + lv->a2[i] * r2) / lv->den[i];
            double d = lv->d[i] + omega * (best - lv->d[i]);
            d = d < lv->lo[i] ? lv->lo[i] : (d > lv->hi[i] ? lv->hi[i] : d);
            double step = fabs(d - lv->d[i]);
            moved = step > moved ? step : moved; /* fmax without the call: both are >= 0, never NaN */
            lv->d[i] = d;
            px[i] = cx + d * nx;
            py[i] = cy + d * ny;
        }
        if (moved < 2e-5)
            break;
    }
}

/* Curvature and segment lengths of the final line, on the sample table. */
static void trk_line_finish(TrkTrack *t)
{
    int n = t->n, h = (int)lround(2.0 / t->ds_m);
    if (h < 1)
        h = 1;
    if (2 * h >= n)
        h = (n - 1) / 2;
    for (int i = 0; i < n; i++) {
        const TrkSample *a = &t->samples[(i + n - h) % n], *b = &t->samples[i], *c = &t->samples[(i + h) % n];
        const TrkSample *e = &t->samples[(i + 1) % n];
        double ax = a->x_m - a->ty * a->line_d_m, ay = a->y_m + a->tx * a->line_d_m;
        double bx = b->x_m - b->ty * b->line_d_m, by = b->y_m + b->tx * b->line_d_m;
        double cx = c->x_m - c->ty * c->line_d_m, cy = c->y_m + c->tx * c->line_d_m;
        double ex = e->x_m - e->ty * e->line_d_m, ey = e->y_m + e->tx * e->line_d_m;
        t->samples[i].line_kappa = trk_curvature3(ax, ay, bx, by, cx, cy);
        t->samples[i].line_ds_m = hypot(ex - bx, ey - by);
    }
}

void trk_line_compute(TrkTrack *t, int iterations)
{
    int levels = 0;
    while (levels < 5 && (t->n >> (levels + 1)) >= 32)
        levels++;
    TrkLineLevel prev = {0}, cur = {0};
    for (int l = levels; l >= 0; l--) {
        int m = l == 0 ? t->n : (t->n >> l);
        if (!trk_level_init(&cur, t, m, t->line_margin_m))
            break;
        if (prev.cx)
            trk_level_upsample(&cur, &prev);
        trk_level_free(&prev);
        /* At most about 0.5 million point updates per level (~3 ms) whatever the track length. */
        int its = (int)(0.5e6 / m);
        its = its < 40 ? 40 : (its > 4000 ? 4000 : its);
        if (l == 0 && iterations > 0)
            its = iterations;
        trk_level_solve(&cur, its);
        prev = cur;
        cur.cx = NULL;
    }
    for (int i = 0; i < t->n; i++)
        t->samples[i].line_d_m = prev.cx && prev.m == t->n ? prev.d[i] : 0.0;
    trk_level_free(&prev);
    trk_line_finish(t);
}
