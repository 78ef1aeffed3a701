/* trk_internal.h: private layout of the track module, shared by its .c files (never included outside track/). */
#ifndef TRK_INTERNAL_H
#define TRK_INTERNAL_H

#include "trk.h"

#define TRK_NAME_LEN 64
#define TRK_WARN_LEN 256
#define TRK_MAX_POINTS 200000    /* control points accepted by trk_create */
#define TRK_MAX_LENGTH_M 200000.0 /* longest track accepted, m (bounds the sample table) */
#define TRK_MAX_COORD_M 1.0e6     /* |x|, |y| of a control point, m */
#define TRK_MAX_WIDTH_M 1000.0    /* one side's width, m */
#define TRK_MIN_SPACING_M 1.0e-3  /* closer consecutive points are duplicates, m */
#define TRK_PI 3.14159265358979323846

/* One row of the arc-length table; sample i sits at s = i * ds. Kept together for cache locality. */
typedef struct TrkSample {
    double x_m, y_m;
    double tx, ty;      /* unit tangent */
    double kappa;       /* centre-line curvature, 1/m, signed */
    double left_m;      /* width to the left edge */
    double right_m;     /* width to the right edge */
    double line_d_m;    /* racing line lateral offset */
    double line_kappa;  /* racing line curvature, 1/m */
    double line_ds_m;   /* racing line arc length from this sample to the next, m */
} TrkSample;

struct TrkTrack {
    char name[TRK_NAME_LEN];
    char warning[TRK_WARN_LEN];
    double length_m;
    double ds_m; /* length / n */
    int n;       /* samples */
    TrkSample *samples;
    int control_points;
    double line_margin_m;
};

/* The fastest speed at each centre-line sample (the profile is indexed by centre-line s whatever the path). */
struct TrkSpeedProfile {
    int n;
    double ds_m; /* centre-line sample spacing */
    double length_m;
    double lap_time_s;
    double *v_mps;
    double *kappa; /* curvature of the path at each sample, 1/m (as used by the profile) */
    double *path_ds_m; /* path length from each sample to the next, m */
};

/* trk_create that also says which control point a geometric error belongs to (-1 when none), so the loaders can
 * print that point's line. */
TrkTrack *trk_create_ex(const TrkPointDef *points, int n, const TrkDef *def, char *err, size_t err_len,
                        int *err_point);

/* Index of the sample at or before s (s wrapped), and the fraction to the next one. */
int trk_locate(const TrkTrack *track, double s_m, double *frac);

/* Fills line_d_m, line_kappa, line_ds_m of every sample (trk_line.c). */
void trk_line_compute(TrkTrack *track, int iterations);

/* Curvature through three points (Menger), signed, left positive; 0 when degenerate. */
double trk_curvature3(double ax, double ay, double bx, double by, double cx, double cy);

#endif
