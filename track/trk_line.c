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

/* nx, ny, px and py have TRK_LINE_GHOST extra cells before index 0 and after index m - 1 holding the points across
 * the seam, so a sweep reads the neighbours i-2 .. i+2 of every point without wrapping its indices. */
#define TRK_LINE_GHOST 2

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

/* One allocation for the twelve arrays of a level (four of them with ghost cells); the centre, normal and bounds
 * come from the sample table. */
static int trk_level_init(TrkLineLevel *lv, const TrkTrack *t, int m, double margin)
{
    const int g = TRK_LINE_GHOST, mg = m + 2 * TRK_LINE_GHOST;
    lv->m = m;
    lv->cx = malloc(sizeof(double) * (12 * (size_t)m + 8 * TRK_LINE_GHOST));
    if (!lv->cx)
        return 0;
    lv->cy = lv->cx + m, lv->nx = lv->cy + m + g, lv->ny = lv->nx + mg;
    lv->lo = lv->ny + m + g, lv->hi = lv->lo + m, lv->d = lv->hi + m;
    lv->px = lv->d + m + g, lv->py = lv->px + mg;
    lv->a1 = lv->py + m + g, lv->a2 = lv->a1 + m, lv->den = lv->a2 + m;
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

/* Copies the points at the ends of an array into the ghost cells beyond the other end. */
static void trk_ghost_low(double *v, int m)
{
    for (int k = 1; k <= TRK_LINE_GHOST; k++)
        v[-k] = v[m - k];
}

static void trk_ghost_high(double *v, int m)
{
    for (int k = 0; k < TRK_LINE_GHOST; k++)
        v[m + k] = v[k];
}

/* The per-point constants of a level: a1, a2 and den depend on the normals only (so do the normals' ghosts). */
static void trk_level_prepare(TrkLineLevel *lv)
{
    int m = lv->m;
    for (int j = 0; j < m; j++) {
        lv->px[j] = lv->cx[j] + lv->d[j] * lv->nx[j];
        lv->py[j] = lv->cy[j] + lv->d[j] * lv->ny[j];
        int b = j >= 1 ? j - 1 : m - 1, c = j + 1 < m ? j + 1 : j + 1 - m;
        double a1 = lv->nx[j] * lv->nx[b] + lv->ny[j] * lv->ny[b], a2 = lv->nx[j] * lv->nx[c] + lv->ny[j] * lv->ny[c];
        lv->a1[j] = a1, lv->a2[j] = a2, lv->den[j] = a1 * a1 + 4.0 + a2 * a2;
    }
    trk_ghost_low(lv->nx, m), trk_ghost_high(lv->nx, m);
    trk_ghost_low(lv->ny, m), trk_ghost_high(lv->ny, m);
}

/* One projected SOR sweep in index order: each d_i jumps to its best value with its neighbours (i-2 .. i+2 around
 * the loop) fixed, over-relaxed, then clamped to the track. Returns the largest move of an offset.
 * The ghost cells give every point the values the arrays hold at that moment: before index 0 the points m-2, m-1
 * as they were (not yet moved in this sweep), after index m-1 the points 0, 1 once moved. */
static double trk_level_sweep(TrkLineLevel *lv)
{
    const double omega = 1.6; /* over-relaxation: about 3x faster than plain Gauss-Seidel here, still stable */
    int m = lv->m;
    double *px = lv->px, *py = lv->py, *dd = lv->d;
    const double *nxs = lv->nx, *nys = lv->ny, *cxs = lv->cx, *cys = lv->cy;
    trk_ghost_low(px, m), trk_ghost_low(py, m);
    double moved = 0.0;
    for (int i = 0; i < m; i++) {
        double nx = nxs[i], ny = nys[i], cx = cxs[i], cy = cys[i];
        /* e_j = (P_{j-1} - 2 P_j + P_{j+1}) . n_j = r_j + a_j d_i: the normal part of the second difference at
         * j = i-1, i, i+1, split into what d_i contributes and the rest. */
        double r1 = (px[i - 2] - 2.0 * px[i - 1] + cx) * nxs[i - 1] + (py[i - 2] - 2.0 * py[i - 1] + cy) * nys[i - 1];
        double r0 = (px[i - 1] - 2.0 * cx + px[i + 1]) * nx + (py[i - 1] - 2.0 * cy + py[i + 1]) * ny;
        double r2 = (cx - 2.0 * px[i + 1] + px[i + 2]) * nxs[i + 1] + (cy - 2.0 * py[i + 1] + py[i + 2]) * nys[i + 1];
        double best = -(lv->a1[i] * r1 - 2.0 * r0 + lv->a2[i] * r2) / lv->den[i];
        double d = dd[i] + omega * (best - dd[i]);
        d = d < lv->lo[i] ? lv->lo[i] : (d > lv->hi[i] ? lv->hi[i] : d);
        double step = fabs(d - dd[i]);
        moved = step > moved ? step : moved; /* fmax without the call: both are >= 0, never NaN */
        dd[i] = d;
        px[i] = cx + d * nx;
        py[i] = cy + d * ny;
        if (i == TRK_LINE_GHOST - 1) /* points 0, 1 have moved: the last points see them past the seam */
            trk_ghost_high(px, m), trk_ghost_high(py, m);
    }
    return moved;
}

/* Returns after `iterations` sweeps, or earlier once no offset moves by more than 0.1 mm in a sweep. */
static void trk_level_solve(TrkLineLevel *lv, int iterations)
{
    trk_level_prepare(lv);
    for (int it = 0; it < iterations; it++)
        if (trk_level_sweep(lv) < 2e-5)
            break;
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
