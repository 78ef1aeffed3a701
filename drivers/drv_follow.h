/* drv_follow.h: safe following (drv_follow.c; private to drivers/). */
#ifndef DRV_FOLLOW_H
#define DRV_FOLLOW_H

#include "drv_here.h"

/* Safe following (drv_follow.c): the fastest we may be now behind the car ahead o, whose lane we aim for, m/s
 * (INFINITY: no limit). The same-points rule in the first lap's manners (drv_first_lap_manners), the rule in time
 * otherwise. */
double drv_follow_safe_speed(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
/* drv_follow_safe_speed for a caller that needs the limit only where it is below cap_mps (the speed it aims for): the
 * same value when that is cap_mps or below, else some speed above cap_mps (the rule in time then stops its search
 * early). A NaN cap never stops it. */
double drv_follow_safe_speed_below(const DrvView *view, const DrvDriver *driver, const DrvHere *here,
                                   const DrvOther *o, double cap_mps);
double drv_follow_points(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
double drv_follow_time(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
/* The acceleration car o ahead is predicted to have now, along its own plan at its pace (drv_beh_pace), m/s^2:
 * the slope of a safe-following limit that keeps us at a steady gap behind it. */
double drv_follow_lead_accel(const DrvDriver *driver, const DrvView *view, const DrvOther *o);

#endif
