/* drv_math.h: the drivers' names for trk_fmin and trk_fmax (track/trk.h), which the control and behaviour code call
 * a few dozen times a tick (private to drivers/). */
#ifndef DRV_MATH_H
#define DRV_MATH_H

#include "../track/trk.h"

#define drv_fmin trk_fmin
#define drv_fmax trk_fmax

#endif
