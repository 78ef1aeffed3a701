/* drv_context.h: the context-steering driver's decision stages (private to drivers/), exposed for tests. */
#ifndef DRV_CONTEXT_H
#define DRV_CONTEXT_H

#include "drv_beh.h"
#include "drv_drive.h"
#include "drv_post.h"

/* Slot count for this tick: the personality's, or a quarter of it (at least 8) when level of detail is on and no
 * car is near enough to matter. */
int drv_context_slots(const DrvView *view, const DrvPersonality *p);

/* Runs every behaviour in a fixed order on a cleared map, with the driver's blur between the traffic's and the
 * track's (drv_context.c); blur_weights keeps the blur's weights between calls (drv_post_blur_kept). */
void drv_context_behaviours(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map,
                            DrvBlurWeights *blur_weights);

/* Redraws the reaction noise when its period is over (both models call it first thing in a tick). */
void drv_noise_update(DrvDriver *driver, const DrvView *view);

/* The context model's decision (drv_think runs it at the decision rate): behaviours -> post -> resolve, into
 * driver->plan and the inspector's copy of the maps. `line_d_m` is the racing line at the lookahead point. It adds
 * here->held, for the control of the same tick. */
void drv_context_decide(DrvDriver *driver, const DrvView *view, DrvHere *here, double line_d_m);

#endif
