/* drv_lanes.c: braking-limited speed caps of constant-offset lanes (see drv_lanes.h).
 *
 * Per lane: the steady corner speed of the lane's own curvature kappa / (1 - kappa d) (with downforce), then one
 * backward pass round the loop from the slowest point: the speed at a metre is at most what braking (the grip left
 * after cornering, plus drag) can shed before the next. There is no forward (acceleration) pass: this is a cap on
 * the line's plan, which already knows how fast the car can accelerate. */
#include "drv_lanes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRV_LANES_STEP_M 1.0      /* arc-length resolution */
#define DRV_LANES_SPACING_M 1.5   /* between lanes */
#define DRV_LANES_V_CAP_MPS 150.0
#define DRV_LANES_SMOOTH_M 2.0    /* curvature averaged over +-this, like the track's own profile */
#define DRV_LANES_STRAIGHT_CURVATURE 0.002 /* 1/m: a lane this straight (a radius of 500 m) brakes at brake_scale */

/* aero: grip_scale * mu * 0.5 rho ClA / m, the downforce's share of the corner speed (fixed for a car). The select
 * at the end stands for fmin (a library call without -ffast-math) and gives the same bits for every input: on a tie
 * both sides are equal, the constant is never a zero, and for a NaN the comparison is false and picks the constant,
 * which is what fmin returns. */
static double drv_lanes_corner_speed(const TrkCarParams *car, double grip_scale, double aero, double kp)
{
    double k = fabs(kp);
    if (k <= aero + 1e-12)
        return DRV_LANES_V_CAP_MPS;
    double v = sqrt(grip_scale * car->mu * TRK_GRAVITY_MPS2 / (k - aero));
    return v < DRV_LANES_V_CAP_MPS ? v : DRV_LANES_V_CAP_MPS; /* fmin(v, DRV_LANES_V_CAP_MPS) */
}

/* One lane: kappa holds the centre line's curvature per sample; v receives the lane's cap; scale and kp are scratch
 * (n each).
 * Braking where the lane runs straight uses brake_scale of the grip (the driver's own plan brakes so): the margin
 * of grip_scale is there to steer back toward the line in a corner, and taken on a straight braking zone too it made
 * a car beside another brake no later than a car with a tenth less grip, so a faster car could never outbrake a
 * slower one from the lane beside it. */
static void drv_lanes_fill(const TrkCarParams *car, double grip_scale, double brake_scale, const double *kappa, int n,
                           double step, double d, float *v, double *scale, double *kp)
{
    double aero = grip_scale * car->mu * 0.5 * car->air_density_kgpm3 * car->downforce_area_m2 / car->mass_kg;
    int start = 0;
    for (int i = 0; i < n; i++) {
        scale[i] = trk_path_scale(kappa[i], d); /* the backward pass reads both again */
        kp[i] = fabs(kappa[i] / scale[i]);     /* |kappa| / scale, bit for bit: scale >= TRK_MIN_PATH_SCALE > 0 */
        v[i] = (float)drv_lanes_corner_speed(car, grip_scale, aero, kp[i]);
        if (v[i] < v[start])
            start = i;
    }
    /* i runs backwards round the loop from start - 1 (k = 1 .. n), j is the sample after it: stepped instead of
     * two % per step */
    for (int k = 1, j = start; k <= n; k++) {
        int i = j == 0 ? n - 1 : j - 1;
        double vj = v[j];
        double kj = kp[j];
        double g = (kj < DRV_LANES_STRAIGHT_CURVATURE ? brake_scale : grip_scale) * trk_car_grip_mps2(car, vj);
        double lat = vj * vj * kj;
        double a = (lat >= g ? 0.0 : sqrt(g * g - lat * lat)) + trk_car_drag_n(car, vj, 1.0) / car->mass_kg;
        double vi = sqrt(vj * vj + 2.0 * a * step * scale[j]); /* the lane's own length of this step */
        if (vi < v[i])
            v[i] = (float)vi;
        j = i;
    }
}

/* out[i]: the mean of raw[i - h .. i + h] round the loop (2h < n). */
static void drv_lanes_smooth(const double *raw, int n, int h, double *out)
{
    for (int i = 0; i < n; i++) {
        double acc = 0.0;
        if (i >= h && i + h < n) /* away from the seam: the same sum in the same order, without two % a term */
            for (int k = -h; k <= h; k++)
                acc += raw[i + k];
        else
            for (int k = -h; k <= h; k++)
                acc += raw[((i + k) % n + n) % n];
        out[i] = acc / (2 * h + 1);
    }
}

DrvLanes *drv_lanes_create(const TrkTrack *track, const TrkCarParams *car, double grip_scale, double brake_scale)
{
    double length = trk_length(track);
    int n = (int)ceil(length / DRV_LANES_STEP_M);
    double half = 0.5 * trk_max_width(track);
    int count = 2 * (int)ceil(half / DRV_LANES_SPACING_M) + 1;
    DrvLanes *lanes = calloc(1, sizeof *lanes);
    double *kappa = malloc(sizeof(double) * 3 * (size_t)n), *scale = kappa ? kappa + n : NULL; /* n each */
    double *kp = kappa ? kappa + 2 * (size_t)n : NULL;
    if (lanes)
        lanes->v_mps = malloc(sizeof(float) * (size_t)n * (size_t)count);
    if (!lanes || !kappa || !lanes->v_mps) {
        free(kappa);
        drv_lanes_destroy(lanes);
        return NULL;
    }
    lanes->n = n;
    lanes->count = count;
    lanes->step_m = length / n;
    lanes->spacing_m = DRV_LANES_SPACING_M;
    lanes->d0_m = -0.5 * (count - 1) * DRV_LANES_SPACING_M;
    /* curvature averaged over a few metres: survey noise must not read as tiny corners */
    int h = (int)lround(DRV_LANES_SMOOTH_M / lanes->step_m), hint = -1;
    for (int i = 0; i < n; i++)
        kappa[i] = trk_curvature(track, i * lanes->step_m, &hint);
    if (h > 0 && 2 * h < n) {
        drv_lanes_smooth(kappa, n, h, scale); /* scale is free until the lanes are filled */
        memcpy(kappa, scale, sizeof(double) * (size_t)n);
    }
    for (int j = 0; j < count; j++)
        drv_lanes_fill(car, grip_scale, brake_scale, kappa, n, lanes->step_m, lanes->d0_m + j * lanes->spacing_m,
                       lanes->v_mps + (size_t)j * (size_t)n, scale, kp);
    free(kappa);
    return lanes;
}

void drv_lanes_destroy(DrvLanes *lanes)
{
    if (lanes == NULL)
        return;
    free(lanes->v_mps);
    free(lanes);
}

/* The reference form of drv_lanes_speed (drv_lanes.h), kept for tests that check the inline one against it. */
double drv_lanes_speed_slow(const DrvLanes *lanes, double s_m, double d_m)
{
    double fs = s_m / lanes->step_m;
    if (!isfinite(fs) || !isfinite(d_m))
        return 0.0;
    fs = fmod(fs, lanes->n);
    if (fs < 0.0)
        fs += lanes->n;
    int i = (int)fs;
    if (i >= lanes->n)
        i = lanes->n - 1;
    int i1 = (i + 1) % lanes->n;
    double ts = fs - i;
    double fl = (d_m - lanes->d0_m) / lanes->spacing_m;
    fl = fmax(0.0, fmin(fl, lanes->count - 1.0));
    int j = (int)fl;
    if (j >= lanes->count - 1)
        j = lanes->count - 2;
    double tl = fl - j;
    const float *a = lanes->v_mps + (size_t)j * (size_t)lanes->n, *b = a + lanes->n;
    double va = (1.0 - ts) * a[i] + ts * a[i1], vb = (1.0 - ts) * b[i] + ts * b[i1];
    return (1.0 - tl) * va + tl * vb;
}
