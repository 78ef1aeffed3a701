/* trk_line_mincurv.c: the minimum-curvature racing line (TRK_LINE_MIN_CURVATURE). It minimises its summed squared
 * curvature times length, sum kappa_i^2 l_i (l_i the line's own spacing), in the manner of Heilmeier et al. (2019)
 * with the curvature linearised about the current line (Gauss-Newton): kappa_i l_i^2 is the second difference
 * P_{i-1} - 2 P_i + P_{i+1} along the line's own normal, weighted by 1 / l_i^3; normals and weights follow the line
 * every other sweep. Each linearised problem is a quadratic in d; see trk_line_sweep.h for the solve. */
#include "trk_line_sweep.h"

#include <math.h>

/* The line's points from the offsets, and cx2, cy2 from the centre. */
static void trk_level_prepare(TrkLineLevel *lv)
{
    int m = lv->m;
    TrkLinePoint *p = lv->p;
    for (int j = 0; j < m; j++) {
        p[j].px = p[j].cx + p[j].d * p[j].nx;
        p[j].py = p[j].cy + p[j].d * p[j].ny;
        p[j].cx2 = 2.0 * p[j].cx, p[j].cy2 = 2.0 * p[j].cy;
    }
}

/* Points from .. to - 1 of one projected SOR sweep (see trk_line_sweep); returns the larger of `moved` and their
 * largest move. */
static double trk_level_sweep_run(TrkLinePoint *p, int from, int to, double moved)
{
    const double omega = 1.6; /* over-relaxation: about 3x faster than plain Gauss-Seidel here, still stable */
    for (int i = from; i < to; i++) {
        TrkLinePoint *q = &p[i];
        const TrkLinePoint *b2 = q - 2, *b1 = q - 1, *f1 = q + 1, *f2 = q + 2;
        double nx = q->nx, ny = q->ny, cx = q->cx, cy = q->cy;
        /* e_j = (P_{j-1} - 2 P_j + P_{j+1}) . v_j = r_j + g_j d_i: the part of the second difference along the
         * line's normal at j = i-1, i, i+1, split into what d_i contributes and the rest. */
        double r1 = (b2->px - 2.0 * b1->px + cx) * b1->vx + (b2->py - 2.0 * b1->py + cy) * b1->vy;
        double r0 = (b1->px - q->cx2 + f1->px) * q->vx + (b1->py - q->cy2 + f1->py) * q->vy;
        double r2 = (cx - 2.0 * f1->px + f2->px) * f1->vx + (cy - 2.0 * f1->py + f2->py) * f1->vy;
        double w1 = b1->w * q->g1, w0 = 2.0 * q->w * q->g0, w2 = f1->w * q->g2;
        /* (the 1e-12 keeps a line running along the centre's normal, all g zero, from dividing 0 by 0) */
        double best = -(w1 * r1 - w0 * r0 + w2 * r2) / (w1 * q->g1 + 2.0 * w0 * q->g0 + w2 * q->g2 + 1e-12);
        double d = q->d + omega * (best - q->d);
        d = d < q->lo ? q->lo : (d > q->hi ? q->hi : d);
        double step = fabs(d - q->d);
        moved = step > moved ? step : moved; /* fmax without the call: both are >= 0, never NaN */
        q->d = d;
        q->px = cx + d * nx;
        q->py = cy + d * ny;
    }
    return moved;
}

/* Linearises the line's curvature about its current shape (Gauss-Newton): its own normal v at each point, and weights
 * that make the summed squared second differences its summed squared curvature times its length. With the line's
 * own spacing l at a point, the second difference along v is about kappa l^2, so kappa^2 l = e^2 / l^3. On the
 * inside of a hairpin the line's points bunch up (l a tenth of the centre's spacing h) and, unweighted and measured
 * along the centre's normal, its curvature there would cost almost nothing. l is floored at h / 10. */
static void trk_level_weights(TrkLineLevel *lv, double h)
{
    int m = lv->m;
    TrkLinePoint *p = lv->p;
    for (int j = 0; j < m; j++) {
        int b = j >= 1 ? j - 1 : m - 1, c = j + 1 < m ? j + 1 : j + 1 - m;
        double tx = p[c].px - p[b].px, ty = p[c].py - p[b].py, len = hypot(tx, ty);
        double l = 0.5 * len, r = h / (l > 0.1 * h ? l : 0.1 * h);
        p[j].w = r * r * r;
        if (len > 0.0)
            p[j].vx = -ty / len, p[j].vy = tx / len;
        else
            p[j].vx = p[j].nx, p[j].vy = p[j].ny;
    }
    for (int k = 1; k <= TRK_LINE_GHOST; k++)
        p[-k].w = p[m - k].w, p[-k].vx = p[m - k].vx, p[-k].vy = p[m - k].vy;
    for (int k = 0; k < TRK_LINE_GHOST; k++)
        p[m + k].w = p[k].w, p[m + k].vx = p[k].vx, p[m + k].vy = p[k].vy;
    for (int j = 0; j < m; j++) {
        TrkLinePoint *q = &p[j];
        q->g1 = q->nx * q[-1].vx + q->ny * q[-1].vy;
        q->g0 = q->nx * q->vx + q->ny * q->vy;
        q->g2 = q->nx * q[1].vx + q->ny * q[1].vy;
    }
}

/* Returns after `iterations` sweeps, or earlier once no offset moves by more than 0.1 mm in a sweep. The weights
 * follow the line every other sweep (iteratively reweighted). */
void trk_line_mincurv_solve(TrkLineLevel *lv, int iterations, double h)
{
    trk_level_prepare(lv);
    for (int it = 0; it < iterations; it++) {
        if (it % 2 == 0)
            trk_level_weights(lv, h);
        if (trk_line_sweep(lv, trk_level_sweep_run) < 2e-5 && it % 2 != 0)
            break;
    }
}

/* The line's point at sample i. */
static void trk_line_point(const TrkTrack *t, int i, double *x, double *y)
{
    const TrkSample *p = &t->samples[i];
    *x = p->x_m - p->ty * p->line_d_m, *y = p->y_m + p->tx * p->line_d_m;
}

/* Segment lengths of the final line, then its curvature through the points about 2 m of the line's own length before
 * and after each sample (Menger). The chord is measured along the line, not the centre: on the inside of a hairpin a
 * metre of centre is a few centimetres of line, and a curvature through points that close reads every millimetre of
 * the offsets as a bend. */
void trk_line_mincurv_finish(TrkTrack *t)
{
    int n = t->n;
    for (int i = 0; i < n; i++) {
        double bx, by, ex, ey;
        trk_line_point(t, i, &bx, &by);
        trk_line_point(t, i + 1 < n ? i + 1 : 0, &ex, &ey);
        t->samples[i].line_ds_m = hypot(ex - bx, ey - by);
    }
    const double chord = 2.0;
    int kmax = (n - 1) / 2;
    /* back: the chord from sample i - kb to i is the first at least `chord` long; fwd likewise from i to i + kf. */
    int kb = 0, kf = 0;
    double back = 0.0, fwd = 0.0;
    while (kb < kmax && back < chord)
        back += t->samples[trk_wrap_i(-1 - kb++, n)].line_ds_m;
    while (kf < kmax && fwd < chord)
        fwd += t->samples[kf++].line_ds_m;
    for (int i = 0; i < n; i++) {
        double ax, ay, bx, by, cx, cy;
        trk_line_point(t, trk_wrap_i(i - kb, n), &ax, &ay);
        trk_line_point(t, i, &bx, &by);
        trk_line_point(t, trk_wrap_i(i + kf, n), &cx, &cy);
        t->samples[i].line_kappa = trk_curvature3(ax, ay, bx, by, cx, cy);
        /* Move to i + 1: the back window gains segment i, the forward one loses it; then trim and extend. */
        back += t->samples[i].line_ds_m, kb++;
        while (kb > 1 && back - t->samples[trk_wrap_i(i + 1 - kb, n)].line_ds_m >= chord)
            back -= t->samples[trk_wrap_i(i + 1 - kb--, n)].line_ds_m;
        fwd -= t->samples[i].line_ds_m, kf--;
        while (kf < kmax && (fwd < chord || kf < 1))
            fwd += t->samples[trk_wrap_i(i + 1 + kf++, n)].line_ds_m;
        if (kb > kmax)
            back -= t->samples[trk_wrap_i(i + 1 - kb--, n)].line_ds_m;
    }
}
