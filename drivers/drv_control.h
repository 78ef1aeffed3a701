/* drv_control.h: the low-level steering and speed control's formulas, inline (private to drivers/).
 *
 * drv_control.c's drv_steer_toward_grip and drv_speed_toward_grip (drv_driver.h) are these; the context control runs
 * them every car-tick and includes them here, so the calls (and their arguments' round trips through registers) go.
 * The same operations in the same order either way: the results are bit for bit the same. */
#ifndef DRV_CONTROL_H
#define DRV_CONTROL_H

#include "drv_internal.h"
#include "drv_math.h"

#include <math.h>

#define DRV_STEER_POS_GAIN 2.0     /* 1/s: lateral speed asked per metre of error, far from the target */
#define DRV_STEER_VEL_TAU_S 0.12   /* s: how fast the lateral speed is brought to the asked one */
/* Fraction of the grip the path plus the lateral move may use. The whole grip: the context driver's friction-circle
 * split (drv_context_control) keeps its own margin, which depends on the driver's grip use. */
#define DRV_STEER_GRIP_MARGIN 1.0
#define DRV_STEER_STOP_FRACTION 0.6 /* fraction of that used to plan stopping at the target (no overshoot) */
/* Fraction of the grip a lateral move may count on to stop at its target. A braking zone leaves only a dodge share
 * of the grip for lateral moves (drv_context_control), so a move planned with the whole grip on a straight could
 * not be stopped once the braking starts: the car would cross the track and leave it. */
#define DRV_STEER_PLAN_SHARE 0.3
#define DRV_SPEED_GAIN 3.0         /* 1/s */

/* drv_steer_toward_grip (drv_driver.h). */
static inline double drv_control_steer(const DrvView *view, double target_d_m, double target_lat_mps,
                                       double feedforward_mps2, double curvature_per_m, double grip_mps2)
{
    double v = view->speed_mps;
    /* The tyres already hold the car on the path at its offset: v^2 kappa / (1 - kappa d). Whatever d'' we ask is
     * added to that, so the room toward the inside of a corner is small and toward the outside large. The sim
     * limits the combined demand; the grip is split between braking and moves later (drv_share_grip). When the
     * path alone needs more than the grip, the car is asked to run wide rather than to slide. */
    double scale = drv_fmax(1.0 - curvature_per_m * view->d_m, 0.2);
    double corner = v * v * curvature_per_m / scale;
    double g = DRV_STEER_GRIP_MARGIN * grip_mps2;
    double a_max = g - corner;  /* toward the left */
    double a_min = -g - corner; /* toward the right */
    double e = target_d_m - view->d_m;
    /* the fastest lateral speed from which we can still stop at the target, or proportional near it */
    /* stopping a leftward move needs rightward room, and never more than a braking zone would leave */
    double brake = drv_fmax(drv_fmin(e > 0.0 ? -a_min : a_max, DRV_STEER_PLAN_SHARE * grip_mps2), 0.1 * grip_mps2);
    double v_stop = sqrt(2.0 * DRV_STEER_STOP_FRACTION * brake * fabs(e));
    double v_des = drv_fmin(v_stop, DRV_STEER_POS_GAIN * fabs(e));
    if (e < 0.0)
        v_des = -v_des;
    double a = feedforward_mps2 + (target_lat_mps + v_des - view->lat_speed_mps) / DRV_STEER_VEL_TAU_S;
    return drv_fmax(a_min, drv_fmin(a_max, a));
}

/* drv_speed_toward_grip (drv_driver.h). */
static inline double drv_control_speed(const DrvView *view, double target_speed_mps, double feedforward_mps2,
                                       double grip_mps2)
{
    double v = view->speed_mps;
    double a = feedforward_mps2 + DRV_SPEED_GAIN * (target_speed_mps - v);
    /* the sim clips throttle to engine power; braking beyond the tyres only locks them */
    return drv_fmax(a, -grip_mps2);
}

#endif
