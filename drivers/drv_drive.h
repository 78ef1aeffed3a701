/* drv_drive.h: the per-tick control both driver models share (private to drivers/): what a tick reads at the car,
 * the speed and steering toward a chosen offset, and the lane helpers the context decision also reads. */
#ifndef DRV_DRIVE_H
#define DRV_DRIVE_H

#include "drv_here.h"
#include "drv_internal.h"

/* A chosen offset this close to the racing line counts as following it (and, held between decisions, moves with it). */
#define DRV_LINE_FOLLOW_BAND_M 1.0

/* Reads DrvHere for this tick (and keeps the driver's track hints); s_ahead_m: the arc length of the racing line's
 * target point. */
void drv_drive_here(DrvDriver *driver, const DrvView *view, double s_ahead_m, DrvHere *here);

/* The lane helpers the context decision reads too (it judges whether the line leaves the open lanes over a held
 * lane's braking distance). The cap of the lane target_d (its speed at the car, drv_lanes.h) and of the path under the
 * car, m/s; the braking counted on to come down to a lane's cap, m/s^2; the distance over which a held lane must read
 * the line, m; the line and the plan read over it from point k0 on; the furthest the line runs from [lo_d, hi_d], m. */
double drv_offline_speed(const DrvDriver *driver, const DrvView *view, double target_d, const DrvHere *here);
double drv_held_brake_mps2(const DrvDriver *driver, const DrvHere *here);
double drv_held_reach(const DrvView *view, double v_plan, double v_off_mps, double a);
void drv_held_read(const DrvDriver *driver, const DrvView *view, double reach_m, int k0, DrvHeldLine *held);
double drv_line_outside(const DrvHeldLine *held, double lo_d, double hi_d);

/* Speed plan, following, and steering toward target_d (both models use it, so comparisons are fair). line_d_m is
 * the racing line at the line's lookahead point, `here` this tick's drv_drive_here. Fills every field of out. */
void drv_drive_control(DrvDriver *driver, const DrvView *view, double target_d, double line_d_m,
                       const DrvHere *here, bool braking, DrvControls *out);

#endif
