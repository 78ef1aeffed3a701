/* drv_lanes.h: speed limits of constant-offset lanes (private to drivers/).
 *
 * The driver's speed plan is the racing line's. A car that is not on the line (alongside another car, pushed wide,
 * defending) follows a different path: in a corner the outside lane is longer but no wider in radius than the line,
 * and the inside lane is tighter. Lanes holds, for a few lanes of constant lateral offset across the track, the
 * fastest speed at every metre from which the car can still brake for every corner ahead on that lane, using a
 * little less grip than the line's plan so an off-line car keeps some grip to steer back. Built once per driver;
 * a look-up is a bilinear interpolation (no allocation, no search).
 */
#ifndef DRV_LANES_H
#define DRV_LANES_H

#include "drv.h"

#include <math.h>

/* The layout is here only so the look-up below can be inlined into per-slot loops (drv_beh_commit.c calls it for
 * every slot of every tick, at one s): build and free through the functions below, never by hand. */
typedef struct DrvLanes {
    int n;            /* samples per lane */
    int count;        /* lanes */
    double step_m;    /* track length / n */
    double d0_m;      /* offset of lane 0 (the rightmost) */
    double spacing_m;
    float *v_mps;     /* count * n */
} DrvLanes;

/* Share of the driver's grip use the lanes' speeds assume: the rest is left for steering back toward the line. */
#define DRV_LANES_GRIP_SHARE 0.92

/* grip_scale: fraction of the grip the lanes' speeds may use (the driver's grip use times a margin). NULL on
 * allocation failure. */
DrvLanes *drv_lanes_create(const TrkTrack *track, const TrkCarParams *car, double grip_scale);
void drv_lanes_destroy(DrvLanes *lanes);

/* The fastest speed at arc length s for a car holding lateral offset d through what lies ahead, m/s (0 for a
 * non-finite s or d). Inline, with the arc length wrapped by compare when already on the lap and the clamps by
 * compare: bit for bit what fmod/fmin/fmax give for these operands (see drv_lanes_speed_slow), at a tenth of the
 * cost. */
double drv_lanes_speed_slow(const DrvLanes *lanes, double s_m, double d_m);
static inline double drv_lanes_speed(const DrvLanes *lanes, double s_m, double d_m)
{
    double fs = s_m / lanes->step_m;
    const int n = lanes->n;
    /* fmod(fs, n) is fs itself on [0, n) (-0.0 included, which the original's "< 0.0" test also keeps); a number
     * there is finite, so only the other path needs the test */
    if (!(fs >= 0.0 && fs < n)) {
        if (!isfinite(fs))
            return 0.0;
        fs = fmod(fs, n);
        if (fs < 0.0)
            fs += n;
    }
    if (!isfinite(d_m))
        return 0.0;
    int i = (int)fs;
    if (i >= n)
        i = n - 1;
    int i1 = i + 1 == n ? 0 : i + 1;
    double ts = fs - i;
    /* finite d_m, d0_m and spacing_m: fl is never NaN, so compares give fmin/fmax's value (a -0.0 that fmax might
     * turn into +0.0 only ever multiplies a finite speed and is added to one, which cannot tell them apart) */
    double fl = (d_m - lanes->d0_m) / lanes->spacing_m, top = lanes->count - 1.0;
    fl = fl < top ? fl : top;
    fl = fl > 0.0 ? fl : 0.0;
    int j = (int)fl;
    if (j >= lanes->count - 1)
        j = lanes->count - 2;
    double tl = fl - j;
    const float *a = lanes->v_mps + (size_t)j * (size_t)n, *b = a + n;
    double va = (1.0 - ts) * a[i] + ts * a[i1], vb = (1.0 - ts) * b[i] + ts * b[i1];
    return (1.0 - tl) * va + tl * vb;
}

#endif
