/* trk_line_sweep.c: one projected SOR sweep of a racing-line level (see trk_line_sweep.h), with the ghost cells
 * that carry the points across the seam; each optimiser supplies the update of its points. */
#include "trk_line_sweep.h"

/* Copies the points (px, py) at the ends of the level into the ghost cells beyond the other end: before a sweep the
 * low ones (points m-2, m-1 as they are), once points 0, 1 have moved the high ones. */
static void trk_line_ghost_low(TrkLinePoint *p, int m)
{
    for (int k = 1; k <= TRK_LINE_GHOST; k++)
        p[-k].px = p[m - k].px, p[-k].py = p[m - k].py;
}

static void trk_line_ghost_high(TrkLinePoint *p, int m)
{
    for (int k = 0; k < TRK_LINE_GHOST; k++)
        p[m + k].px = p[k].px, p[m + k].py = p[k].py;
}

/* The ghost cells give every point the values the arrays hold at that moment: before index 0 the points m-2, m-1 as
 * they were (not yet moved in this sweep), after index m-1 the points 0, 1 once moved. */
double trk_line_sweep(TrkLineLevel *lv, TrkLineRunFn *run)
{
    int m = lv->m;
    trk_line_ghost_low(lv->p, m);
    double moved = run(lv->p, 0, TRK_LINE_GHOST, 0.0);
    trk_line_ghost_high(lv->p, m); /* points 0, 1 have moved: the last points see them past the seam */
    return run(lv->p, TRK_LINE_GHOST, m, moved);
}
