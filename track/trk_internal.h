/* trk_internal.h: private declarations of the track module, shared by its .c files (never included outside track/).
 * The layout of the track and the speed profile is in trk_inline.h (through trk.h), for the inline look-ups. */
#ifndef TRK_INTERNAL_H
#define TRK_INTERNAL_H

#include "trk.h"

#define TRK_MAX_POINTS 200000    /* control points accepted by trk_create */
#define TRK_MAX_LENGTH_M 200000.0 /* longest track accepted, m (bounds the sample table) */
#define TRK_MAX_COORD_M 1.0e6     /* |x|, |y| of a control point, m */
#define TRK_MAX_WIDTH_M 1000.0    /* one side's width, m */
#define TRK_MIN_SPACING_M 1.0e-3  /* closer consecutive points are duplicates, m */
#define TRK_PI 3.14159265358979323846

/* trk_create that also says which control point a geometric error belongs to (-1 when none), so the loaders can
 * print that point's line. */
TrkTrack *trk_create_ex(const TrkPointDef *points, int n, const TrkDef *def, char *err, size_t err_len,
                        int *err_point);

/* Fills line_d_m, line_kappa, line_ds_m of every sample (trk_line.c). */
void trk_line_compute(TrkTrack *track, int iterations);

/* Curvature through three points (Menger), signed, left positive; 0 when degenerate. */
double trk_curvature3(double ax, double ay, double bx, double by, double cx, double cy);

/* i modulo n, into [0, n). */
static inline int trk_wrap_i(int i, int n)
{
    i %= n;
    return i < 0 ? i + n : i;
}

#endif
