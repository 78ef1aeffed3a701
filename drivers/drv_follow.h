/* drv_follow.h: safe following (drv_follow.c; private to drivers/). */
#ifndef DRV_FOLLOW_H
#define DRV_FOLLOW_H

#include "drv_here.h"

/* Safe following (drv_follow.c): the fastest we may be now behind the car ahead o, whose lane we aim for, m/s
 * (INFINITY: no limit). The same-points rule on the first lap (view->laps_done == 0), the rule in time after it. */
double drv_follow_safe_speed(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
double drv_follow_points(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
double drv_follow_time(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);

#endif
