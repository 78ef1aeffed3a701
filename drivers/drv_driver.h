/* drv_driver.h: the driver object shared by the driver models (private to drivers/). */
#ifndef DRV_DRIVER_H
#define DRV_DRIVER_H

#include "drv_map.h"

/* Track-query hints (sample indices) kept between ticks so every look-up is O(1). */
typedef struct DrvHints {
    int here, line_ahead, line_here, line_next, profile, profile_ahead, curv_ahead, edge_ahead;
} DrvHints;

/* Reaction noise: slowly varying perception errors, redrawn every DRV_NOISE_PERIOD ticks-worth of time. */
typedef struct DrvNoise {
    double next_draw_s;   /* sim time of the next draw */
    double speed_scale;   /* multiplies target speeds, about 1 */
    double d_m;           /* added to other cars' perceived offsets and to our target offset */
} DrvNoise;

struct DrvDriver {
    DrvPersonality p;
    const TrkTrack *track;
    TrkCarParams car;
    TrkSpeedProfile *profile;
    struct DrvLanes *lanes;   /* speed caps of off-line lanes (drv_lanes.h) */
    DrvRng rng;
    DrvHints hints;
    DrvNoise noise;
    /* context model state: the previous tick's maps (hysteresis) */
    DrvContextMap prev;
    bool has_prev;
    DrvDebug debug;
    /* steering model state: the previous tick's target offset (smoothed by the hysteresis) */
    double steer_prev_target_m;
    bool steer_has_prev;
};

/* The context model's tick. */
void drv_context_think(DrvDriver *driver, const DrvView *view, DrvControls *out);

/* drv_steer_toward with the path curvature already known (1/m), for callers that keep track hints. */
double drv_steer_toward_k(const DrvView *view, double target_d_m, double curvature_per_m);

/* Steering that tracks a moving target: its lateral speed (m/s) and acceleration (m/s^2) are fed forward, the
 * rest is the same feedback as drv_steer_toward, within the grip margin. */
double drv_steer_toward_ff(const DrvView *view, double target_d_m, double target_lat_mps, double feedforward_mps2,
                           double curvature_per_m);

/* drv_speed_toward plus a feedforward acceleration (the slope of a speed plan), so braking zones are followed
 * without lag. */
double drv_speed_toward_ff(const DrvView *view, double target_speed_mps, double feedforward_mps2);

#endif
