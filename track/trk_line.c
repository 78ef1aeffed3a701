/* trk_line.c: the racing line, solved coarse to fine by the optimiser the track asks for (trk_line_sweep.h), and the
 * methods' names and default margins. */
#include "trk_line_sweep.h"

#include <stdlib.h>
#include <string.h>

double trk_line_default_margin(TrkLineMethod method)
{
    return method == TRK_LINE_MIN_CURVATURE ? TRK_MIN_CURVATURE_LINE_MARGIN_M : TRK_CLASSIC_LINE_MARGIN_M;
}

int trk_line_method_parse(const char *name, TrkLineMethod *method)
{
    if (strcmp(name, "classic") == 0)
        *method = TRK_LINE_CLASSIC;
    else if (strcmp(name, "min-curvature") == 0)
        *method = TRK_LINE_MIN_CURVATURE;
    else
        return 0;
    return 1;
}

static void trk_level_free(TrkLineLevel *lv)
{
    free(lv->mem);
    lv->mem = lv->p = NULL;
}

/* The centre, normal and bounds of each point come from the sample table. */
static int trk_level_init(TrkLineLevel *lv, const TrkTrack *t, int m, double margin)
{
    lv->m = m;
    lv->mem = calloc((size_t)m + 2 * TRK_LINE_GHOST, sizeof *lv->mem);
    if (!lv->mem)
        return 0;
    lv->p = lv->mem + TRK_LINE_GHOST;
    int hint = -1;
    for (int j = 0; j < m; j++) {
        TrkLinePoint *q = &lv->p[j];
        double s = t->length_m * j / m;
        TrkPose p = trk_pose_at(t, s, &hint);
        q->cx = p.x_m, q->cy = p.y_m, q->nx = p.nx, q->ny = p.ny;
        double hi = trk_width_left(t, s, &hint) - margin, lo = margin - trk_width_right(t, s, &hint);
        if (lo > hi) /* narrower than two margins: the middle between the margins */
            lo = hi = 0.5 * (lo + hi);
        q->lo = lo, q->hi = hi, q->d = 0.0;
    }
    return 1;
}

/* Fine level's d from the coarse one, linearly between coarse points (periodic). */
static void trk_level_upsample(TrkLineLevel *fine, const TrkLineLevel *coarse)
{
    const TrkLinePoint *c = coarse->p;
    for (int j = 0; j < fine->m; j++) {
        double x = (double)j * coarse->m / fine->m;
        int a = (int)x;
        double f = x - a;
        if (a >= coarse->m)
            a = coarse->m - 1;
        double d = c[a].d + f * (c[(a + 1) % coarse->m].d - c[a].d);
        TrkLinePoint *q = &fine->p[j];
        q->d = d < q->lo ? q->lo : (d > q->hi ? q->hi : d);
    }
}

void trk_line_compute(TrkTrack *t, int iterations, TrkLineMethod method)
{
    int mincurv = method == TRK_LINE_MIN_CURVATURE;
    /* Point updates per level, whatever the track length: classic about 0.5 million (~3 ms); min-curvature 0.25
     * million, since more changes the TUMFTM circuits' laps by under 0.1 % (bench/tumftm-gap.sh). */
    double budget = mincurv ? 0.25e6 : 0.5e6;
    int levels = 0;
    while (levels < 5 && (t->n >> (levels + 1)) >= 32)
        levels++;
    TrkLineLevel prev = {0}, cur = {0};
    for (int l = levels; l >= 0; l--) {
        int m = l == 0 ? t->n : (t->n >> l);
        if (!trk_level_init(&cur, t, m, t->line_margin_m))
            break;
        if (prev.mem)
            trk_level_upsample(&cur, &prev);
        trk_level_free(&prev);
        int its = (int)(budget / m);
        its = its < 40 ? 40 : (its > 4000 ? 4000 : its);
        if (l == 0 && iterations > 0)
            its = iterations;
        if (mincurv)
            trk_line_mincurv_solve(&cur, its, t->length_m / m);
        else
            trk_line_classic_solve(&cur, its);
        prev = cur;
        cur.mem = cur.p = NULL;
    }
    for (int i = 0; i < t->n; i++)
        t->samples[i].line_d_m = prev.mem && prev.m == t->n ? prev.p[i].d : 0.0;
    trk_level_free(&prev);
    if (mincurv)
        trk_line_mincurv_finish(t);
    else
        trk_line_classic_finish(t);
}
