/* drv_context.h: the context-steering driver's pipeline stages (private to drivers/), exposed for tests. */
#ifndef DRV_CONTEXT_H
#define DRV_CONTEXT_H

#include "drv_beh.h"
#include "drv_driver.h"

/* Slot count for this tick: the personality's, or a quarter of it (at least 8) when level of detail is on and no
 * car is near enough to matter. */
int drv_context_slots(const DrvView *view, const DrvPersonality *p);

/* Runs every behaviour in a fixed order on a cleared map. */
void drv_context_behaviours(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);

/* The speed to hold so as to follow `o` at a safe gap (ours to choose by aggression), m/s. */
double drv_context_follow_speed(const DrvView *view, const DrvPersonality *p, const DrvOther *o);

/* Redraws the reaction noise when its period is over (both models call it first thing in a tick). */
void drv_noise_update(DrvDriver *driver, const DrvView *view);

/* Speed plan, following, and steering toward target_d (both models use it, so comparisons are fair). line_d_m is
 * the racing line at the line's lookahead point, k_here the track curvature at the car. Fills every field of out. */
void drv_context_control(DrvDriver *driver, const DrvView *view, double target_d, double line_d_m, double k_here,
                         bool braking, DrvControls *out);

#endif
