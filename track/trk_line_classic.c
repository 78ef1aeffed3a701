/* trk_line_classic.c: the classic racing line (TRK_LINE_CLASSIC). It minimises sum |P_{i-1} - 2 P_i + P_{i+1}|^2
 * (squared curvature for evenly spaced points), a convex quadratic in d, with the second differences at the centre's
 * spacing along the centre's normals; see trk_line_sweep.h for the solve. */
#include "trk_line_sweep.h"

#include <math.h>

/* The per-point constants of a level: a1, a2 and neg_den depend on the normals only (so do the normals' ghosts);
 * cx2, cy2 on the centre. */
static void trk_level_prepare(TrkLineLevel *lv)
{
    int m = lv->m;
    TrkLinePoint *p = lv->p;
    for (int j = 0; j < m; j++) {
        p[j].px = p[j].cx + p[j].d * p[j].nx;
        p[j].py = p[j].cy + p[j].d * p[j].ny;
        int b = j >= 1 ? j - 1 : m - 1, c = j + 1 < m ? j + 1 : j + 1 - m;
        double a1 = p[j].nx * p[b].nx + p[j].ny * p[b].ny, a2 = p[j].nx * p[c].nx + p[j].ny * p[c].ny;
        p[j].a1 = a1, p[j].a2 = a2, p[j].neg_den = -(a1 * a1 + 4.0 + a2 * a2);
        p[j].cx2 = 2.0 * p[j].cx, p[j].cy2 = 2.0 * p[j].cy;
    }
    for (int k = 1; k <= TRK_LINE_GHOST; k++)
        p[-k].nx = p[m - k].nx, p[-k].ny = p[m - k].ny;
    for (int k = 0; k < TRK_LINE_GHOST; k++)
        p[m + k].nx = p[k].nx, p[m + k].ny = p[k].ny;
}

#define TRK_CLASSIC_SETTLED_M 2e-5 /* a level has settled once no offset moves by this much in a sweep, m */

/* One point's projected SOR update (see trk_line_sweep); returns how far its offset moved. */
static inline __attribute__((always_inline)) double trk_level_point(TrkLinePoint *p, int i)
{
    const double omega = 1.6; /* over-relaxation: about 3x faster than plain Gauss-Seidel here, still stable */
    TrkLinePoint *q = &p[i];
    const TrkLinePoint *b2 = q - 2, *b1 = q - 1, *f1 = q + 1, *f2 = q + 2;
    double nx = q->nx, ny = q->ny, cx = q->cx, cy = q->cy;
    /* e_j = (P_{j-1} - 2 P_j + P_{j+1}) . n_j = r_j + a_j d_i: the normal part of the second difference at
     * j = i-1, i, i+1, split into what d_i contributes and the rest. */
    double r1 = (b2->px - 2.0 * b1->px + cx) * b1->nx + (b2->py - 2.0 * b1->py + cy) * b1->ny;
    double r0 = (b1->px - q->cx2 + f1->px) * nx + (b1->py - q->cy2 + f1->py) * ny;
    double r2 = (cx - 2.0 * f1->px + f2->px) * f1->nx + (cy - 2.0 * f1->py + f2->py) * f1->ny;
    double best = (q->a1 * r1 - 2.0 * r0 + q->a2 * r2) / q->neg_den;
    double d = q->d + omega * (best - q->d);
    /* clamped to [lo, hi] as d < lo ? lo : (d > hi ? hi : d), with lo <= hi (trk_level_init): the same value for
     * every d, NaN included, written as the compiler's minsd and maxsd (hi < d ? hi : d, then lo > d ? lo : d) */
    d = q->hi < d ? q->hi : d;
    d = q->lo > d ? q->lo : d;
    double step = fabs(d - q->d);
    q->d = d;
    q->px = cx + d * nx;
    q->py = cy + d * ny;
    return step;
}

/* Points from .. to - 1 of one projected SOR sweep (see trk_line_sweep); returns the larger of `moved` and their
 * largest move, or of `moved` and the moves up to the first of TRK_CLASSIC_SETTLED_M or more: the sweep's only
 * question is whether some offset moved that much, so the moves after that one are not compared. */
static double trk_level_sweep_run(TrkLinePoint *p, int from, int to, double moved)
{
    int i = from;
    for (; i < to && moved < TRK_CLASSIC_SETTLED_M; i++) {
        double step = trk_level_point(p, i);
        moved = step > moved ? step : moved; /* fmax without the call: both are >= 0, never NaN */
    }
    for (; i < to; i++)
        trk_level_point(p, i);
    return moved;
}

/* Returns after `iterations` sweeps, or earlier once no offset moves by more than 0.1 mm in a sweep. */
void trk_line_classic_solve(TrkLineLevel *lv, int iterations)
{
    trk_level_prepare(lv);
    for (int it = 0; it < iterations; it++)
        if (trk_line_sweep(lv, trk_level_sweep_run) < TRK_CLASSIC_SETTLED_M)
            break;
}

/* Curvature and segment lengths of the final line, on the sample table. */
void trk_line_classic_finish(TrkTrack *t)
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
