/* drv_context.h: the context-steering driver's pipeline stages (private to drivers/), exposed for tests. */
#ifndef DRV_CONTEXT_H
#define DRV_CONTEXT_H

#include "drv_beh.h"
#include "drv_driver.h"

/* A chosen offset this close to the racing line counts as following it (and, held between decisions, moves with it). */
#define DRV_LINE_FOLLOW_BAND_M 1.0

/* Slot count for this tick: the personality's, or a quarter of it (at least 8) when level of detail is on and no
 * car is near enough to matter. */
int drv_context_slots(const DrvView *view, const DrvPersonality *p);

/* Runs every behaviour in a fixed order on a cleared map. */
void drv_context_behaviours(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);

/* The speed to hold so as to follow `o` at a safe gap (ours to choose by aggression), m/s. */
double drv_context_follow_speed(const DrvView *view, const DrvPersonality *p, const DrvOther *o);

/* Redraws the reaction noise when its period is over (both models call it first thing in a tick). */
void drv_noise_update(DrvDriver *driver, const DrvView *view);

/* What a tick reads at the car's own arc length, looked up once (the decision and the control both read it). */
typedef struct DrvHere {
    TrkSpot spot;                /* the track and the racing line at the car */
    double line_speed_mps;       /* the speed plan at the car, before the noise scale */
    double grip_mps2;            /* the driver's car's grip at its speed */
    DrvControlGrip control_grip; /* the grip the low-level steering and speed control count on */
} DrvHere;

/* Reads DrvHere for this tick (and keeps the driver's track hints). */
void drv_context_here(DrvDriver *driver, const DrvView *view, DrvHere *here);

/* The context model's decision (drv_think runs it at the decision rate): behaviours -> post -> resolve, into
 * driver->plan and the inspector's copy of the maps. `line_d_m` is the racing line at the lookahead point. */
void drv_context_decide(DrvDriver *driver, const DrvView *view, const DrvHere *here, double line_d_m);

/* Speed plan, following, and steering toward target_d (both models use it, so comparisons are fair). line_d_m is
 * the racing line at the line's lookahead point, `here` this tick's drv_context_here. Fills every field of out. */
void drv_context_control(DrvDriver *driver, const DrvView *view, double target_d, double line_d_m,
                         const DrvHere *here, bool braking, DrvControls *out);

#endif
