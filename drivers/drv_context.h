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

#endif
