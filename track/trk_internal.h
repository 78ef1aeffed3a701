/* trk_internal.h: private declarations of the track module, shared by its .c files (never included outside track/).
 * The layout of the track and the speed profile is in trk_fast.h, with the inline look-ups that read it. */
#ifndef TRK_INTERNAL_H
#define TRK_INTERNAL_H

#include "trk_fast.h"

#define TRK_MAX_POINTS 200000    /* control points accepted by trk_create */
#define TRK_MAX_LENGTH_M 200000.0 /* longest track accepted, m (bounds the sample table) */
#define TRK_MAX_COORD_M 1.0e6     /* |x|, |y| of a control point, m */
#define TRK_MAX_WIDTH_M 1000.0    /* one side's width, m */
#define TRK_MIN_SPACING_M 1.0e-3  /* closer consecutive points are duplicates, m */
#define TRK_MAX_LINE_MARGIN_M 10.0 /* a track file's [track] line_margin, m */
#define TRK_PI 3.14159265358979323846

/* Where the control points came from, for warnings: "path:line: warning: ..." with lines[i] the file line of
 * point i. NULL (or a NULL path) for points not read from a file: "warning: ...". */
typedef struct TrkWhere {
    const char *path;
    const int *lines;
} TrkWhere;

#define TRK_MAX_WARNINGS 16 /* lines kept; one more line says how many were left out */

/* trk_create that also says which control point a geometric error belongs to (-1 when none), so the loaders can
 * print that point's line, and names the file in warnings. */
TrkTrack *trk_create_ex(const TrkPointDef *points, int n, const TrkDef *def, char *err, size_t err_len,
                        int *err_point, const TrkWhere *where);

/* Appends one warning about control point `point` (-1: none) to the track's warnings (trk_warn.c). */
void trk_warn(TrkTrack *t, const TrkWhere *where, int point, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* After the last warning: one line saying how many were left out past TRK_MAX_WARNINGS (trk_warn.c). */
void trk_warn_end(TrkTrack *t, const TrkWhere *where);

/* The control point nearest arc length s (trk_warn.c). */
int trk_nearest_cp(const double *cp_s, int np, double length, double s);

/* Edges that fold over (trk_fold.c), on the sample table with its curvature; both return 1 and fill err and *bad
 * (the control point to blame) when the track is refused. trk_fold_check refuses every fold; trk_fold_repair pulls
 * the inside edge in where it folds, with one warning per repair, and refuses folds too deep to repair or whose
 * repair would leave the road narrower than a car. */
int trk_fold_check(const TrkTrack *t, const TrkPointDef *p, const double *cp_s, int np, char *err, size_t err_len,
                   int *bad);
int trk_fold_repair(TrkTrack *t, const TrkPointDef *p, const double *cp_s, int np, const TrkWhere *where, char *err,
                    size_t err_len, int *bad);

/* Fills line_d_m, line_kappa, line_ds_m of every sample by the given method (trk_line.c). */
void trk_line_compute(TrkTrack *track, int iterations, TrkLineMethod method);

/* Curvature through three points (Menger), signed, left positive; 0 when degenerate. */
double trk_curvature3(double ax, double ay, double bx, double by, double cx, double cy);

/* i modulo n, into [0, n). */
static inline int trk_wrap_i(int i, int n)
{
    i %= n;
    return i < 0 ? i + n : i;
}

#endif
