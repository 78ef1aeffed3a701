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

/* Whether a step of the backward pass below can only raise the speed: vi = sqrt(vj^2 + 2 a step scale) is then at
 * least vj (or NaN), so where v[i] <= vj already it changes nothing. vj comes from a float, so vj^2 is exact in a
 * double and sqrt gives |vj| back; the added term is >= 0 or NaN when the drag is (the sqrt and a scale >= 0.2 are),
 * and a NaN vi fails the comparison that would store it. */
static bool drv_lanes_sheds_nonneg(const TrkCarParams *car, double step)
{
    return car->air_density_kgpm3 >= 0.0 && car->drag_area_m2 >= 0.0 && car->rolling_coeff >= 0.0 &&
           car->mass_kg > 0.0 && step >= 0.0;
}

/* The track's part of the lanes, the same for every car and grip (see drv_lanes.h): the lanes' layout and, per lane,
 * its path scale and |kappa| / scale at each sample, from the centre line's curvature averaged over a few metres. */
struct DrvLanesTrack {
    int n, count;
    double step_m, d0_m, spacing_m;
    double *scale; /* count * n, lane by lane */
    double *kp;    /* count * n */
};

/* One lane: scale and kp are the lane's own (DrvLanesTrack); v receives the lane's cap.
 * Braking where the lane runs straight uses brake_scale of the grip (the driver's own plan brakes so): the margin
 * of grip_scale is there to steer back toward the line in a corner, and taken on a straight braking zone too it made
 * a car beside another brake no later than a car with a tenth less grip, so a faster car could never outbrake a
 * slower one from the lane beside it. */
static void drv_lanes_fill(const TrkCarParams *car, double grip_scale, double brake_scale, int n, double step,
                           const double *scale, const double *kp, float *v)
{
    double aero = grip_scale * car->mu * 0.5 * car->air_density_kgpm3 * car->downforce_area_m2 / car->mass_kg;
    int start = 0;
    for (int i = 0; i < n; i++) {
        v[i] = (float)drv_lanes_corner_speed(car, grip_scale, aero, kp[i]);
        if (v[i] < v[start])
            start = i;
    }
    /* i runs backwards round the loop from start - 1 (k = 1 .. n), j is the sample after it: stepped instead of
     * two % per step */
    bool sheds = drv_lanes_sheds_nonneg(car, step);
    for (int k = 1, j = start; k <= n; k++) {
        int i = j == 0 ? n - 1 : j - 1;
        double vj = v[j];
        if (sheds && v[i] <= vj) {
            j = i; /* vi >= vj >= v[i] (drv_lanes_sheds_nonneg): no update */
            continue;
        }
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

/* Each lane's path scale and |kappa| / scale at every sample of the (smoothed) curvature kappa. */
static void drv_lanes_track_fill(DrvLanesTrack *lt, const double *kappa)
{
    int n = lt->n;
    for (int j = 0; j < lt->count; j++) {
        double d = lt->d0_m + j * lt->spacing_m;
        double *scale = lt->scale + (size_t)j * (size_t)n, *kp = lt->kp + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++) {
            scale[i] = trk_path_scale(kappa[i], d); /* the backward pass reads both again */
            kp[i] = fabs(kappa[i] / scale[i]);     /* |kappa| / scale, bit for bit: scale >= TRK_MIN_PATH_SCALE > 0 */
        }
    }
}

DrvLanesTrack *drv_lanes_track_create(const TrkTrack *track)
{
    double length = trk_length(track);
    int n = (int)ceil(length / DRV_LANES_STEP_M);
    double half = 0.5 * trk_max_width(track);
    int count = 2 * (int)ceil(half / DRV_LANES_SPACING_M) + 1;
    DrvLanesTrack *lt = calloc(1, sizeof *lt);
    double *kappa = malloc(sizeof(double) * 2 * (size_t)n), *smooth = kappa ? kappa + n : NULL; /* n each */
    if (lt)
        lt->scale = malloc(sizeof(double) * 2 * (size_t)n * (size_t)count);
    if (!lt || !kappa || !lt->scale) {
        free(kappa);
        drv_lanes_track_destroy(lt);
        return NULL;
    }
    lt->kp = lt->scale + (size_t)n * (size_t)count;
    lt->n = n;
    lt->count = count;
    lt->step_m = length / n;
    lt->spacing_m = DRV_LANES_SPACING_M;
    lt->d0_m = -0.5 * (count - 1) * DRV_LANES_SPACING_M;
    /* curvature averaged over a few metres: survey noise must not read as tiny corners */
    int h = (int)lround(DRV_LANES_SMOOTH_M / lt->step_m), hint = -1;
    for (int i = 0; i < n; i++)
        kappa[i] = trk_curvature(track, i * lt->step_m, &hint);
    if (h > 0 && 2 * h < n) {
        drv_lanes_smooth(kappa, n, h, smooth);
        memcpy(kappa, smooth, sizeof(double) * (size_t)n);
    }
    drv_lanes_track_fill(lt, kappa);
    free(kappa);
    return lt;
}

void drv_lanes_track_destroy(DrvLanesTrack *lt)
{
    if (lt == NULL)
        return;
    free(lt->scale);
    free(lt);
}

DrvLanes *drv_lanes_create_on(const DrvLanesTrack *lt, const TrkCarParams *car, double grip_scale,
                              double brake_scale)
{
    int n = lt->n, count = lt->count;
    DrvLanes *lanes = calloc(1, sizeof *lanes);
    if (lanes)
        lanes->v_mps = malloc(sizeof(float) * (size_t)n * (size_t)count);
    if (!lanes || !lanes->v_mps) {
        drv_lanes_destroy(lanes);
        return NULL;
    }
    lanes->n = n;
    lanes->count = count;
    lanes->step_m = lt->step_m;
    lanes->spacing_m = lt->spacing_m;
    lanes->d0_m = lt->d0_m;
    for (int j = 0; j < count; j++) {
        size_t at = (size_t)j * (size_t)n;
        drv_lanes_fill(car, grip_scale, brake_scale, n, lanes->step_m, lt->scale + at, lt->kp + at,
                       lanes->v_mps + at);
    }
    return lanes;
}

DrvLanes *drv_lanes_create(const TrkTrack *track, const TrkCarParams *car, double grip_scale, double brake_scale)
{
    DrvLanesTrack *lt = drv_lanes_track_create(track);
    DrvLanes *lanes = lt ? drv_lanes_create_on(lt, car, grip_scale, brake_scale) : NULL;
    drv_lanes_track_destroy(lt);
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
