/* trk_line_sweep.h: the racing line's levels and their sweep (trk_line_sweep.c), shared by the coarse-to-fine solve
 * (trk_line.c) and the two optimisers that sweep them (trk_line_classic.c, trk_line_mincurv.c). Private to track/.
 *
 * The line is P_i = c_i + d_i n_i at every sample, with d_i bounded by the edges less the margin. Each optimiser
 * minimises its own measure of curvature by projected successive over-relaxation: each d_i in turn jumps to its best
 * value with its neighbours fixed, then is clamped to the track. Long wavelengths converge slowly on a fine grid, so
 * the solve runs coarse to fine (spacing 32 ds, 16 ds, ... ds), each level starting from the previous one's line: the
 * same idea as K1999's step halving.
 */
#ifndef TRK_LINE_SWEEP_H
#define TRK_LINE_SWEEP_H

#include "trk_internal.h"

/* The points of a level are stored with TRK_LINE_GHOST extra cells before index 0 and after index m - 1 holding the
 * points across the seam, so a sweep reads the neighbours i-2 .. i+2 of every point without wrapping its indices. */
#define TRK_LINE_GHOST 2

/* Everything a sweep reads about one point, side by side, so a sweep walks one array instead of twelve (fewer cache
 * lines and streams per point). */
typedef struct TrkLinePoint {
    double px, py;   /* the line's point c + d n */
    double d;        /* its offset, m */
    double cx, cy;   /* centre line */
    double nx, ny;   /* unit normal */
    double lo, hi;   /* bounds of d */
    double cx2, cy2; /* 2 cx, 2 cy (exact doublings), as the sweep's 2.0 * cx and 2.0 * cy */
    union {          /* what each optimiser keeps per point; a level is swept by one of them */
        struct {     /* classic */
            double a1, a2;   /* fixed by the normals: computed once per level, not once per sweep */
            double neg_den;  /* -(a1^2 + 4 + a2^2): -(x) / den is x / -den, bit for bit (the sign is exact) */
        };
        struct {     /* min-curvature */
            double vx, vy;     /* the line's own unit normal here (from its neighbours), refreshed with the weights */
            double g1, g0, g2; /* n . v at i-1, i, i+1: how much d moves the normal second differences there */
            double w;          /* weight of this point's squared second difference: (h / l)^3, l the line's own
                                * spacing here */
        };
    };
} TrkLinePoint;

typedef struct TrkLineLevel {
    int m;
    TrkLinePoint *mem; /* m + 2 TRK_LINE_GHOST points */
    TrkLinePoint *p;   /* mem + TRK_LINE_GHOST: p[-2] .. p[m + 1] */
} TrkLineLevel;

/* One optimiser's update of the points from .. to - 1 of a sweep: returns the larger of `moved` and their largest
 * move of an offset, or, when that is at or above the threshold its solver stops below, any value at or above it. */
typedef double TrkLineRunFn(TrkLinePoint *p, int from, int to, double moved);

/* One projected SOR sweep in index order with `run`: each d_i jumps to its best value with its neighbours (i-2 .. i+2
 * around the loop) fixed, over-relaxed, then clamped to the track. Returns the largest move of an offset (as far as
 * `run` tells it: see TrkLineRunFn). */
double trk_line_sweep(TrkLineLevel *lv, TrkLineRunFn *run);

/* Classic (trk_line_classic.c): sum |P_{i-1} - 2 P_i + P_{i+1}|^2 at the centre's spacing. solve sweeps a level
 * `iterations` times or until it settles; finish fills line_kappa and line_ds_m of the samples from line_d_m. */
void trk_line_classic_solve(TrkLineLevel *lv, int iterations);
void trk_line_classic_finish(TrkTrack *t);

/* Min-curvature (trk_line_mincurv.c): the line's own sum kappa^2 l; h is the level's centre spacing, m. */
void trk_line_mincurv_solve(TrkLineLevel *lv, int iterations, double h);
void trk_line_mincurv_finish(TrkTrack *t);

#endif
