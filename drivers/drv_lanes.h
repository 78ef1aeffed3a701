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

typedef struct DrvLanes DrvLanes;

/* Share of the driver's grip use the lanes' speeds assume: the rest is left for steering back toward the line. */
#define DRV_LANES_GRIP_SHARE 0.92

/* grip_scale: fraction of the grip the lanes' speeds may use (the driver's grip use times a margin). NULL on
 * allocation failure. */
DrvLanes *drv_lanes_create(const TrkTrack *track, const TrkCarParams *car, double grip_scale);
void drv_lanes_destroy(DrvLanes *lanes);

/* The fastest speed at arc length s for a car holding lateral offset d through what lies ahead, m/s. */
double drv_lanes_speed(const DrvLanes *lanes, double s_m, double d_m);

#endif
