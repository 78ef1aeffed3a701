/* drv_context.h: the context-steering driver's pipeline stages (private to drivers/), exposed for tests. */
#ifndef DRV_CONTEXT_H
#define DRV_CONTEXT_H

#include "drv_beh.h"
#include "drv_internal.h"

/* A chosen offset this close to the racing line counts as following it (and, held between decisions, moves with it). */
#define DRV_LINE_FOLLOW_BAND_M 1.0
/* The line is read this far ahead of the car for its slope (the steering's feed-forward), m. */
#define DRV_LINE_FF_STEP_M 2.0

/* Slot count for this tick: the personality's, or a quarter of it (at least 8) when level of detail is on and no
 * car is near enough to matter. */
int drv_context_slots(const DrvView *view, const DrvPersonality *p);

/* Runs every behaviour in a fixed order on a cleared map. */
void drv_context_behaviours(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map);

/* The speed to hold so as to follow `o` at a safe gap (ours to choose by aggression), m/s. */
double drv_context_follow_speed(const DrvView *view, const DrvPersonality *p, const DrvOther *o);

/* Redraws the reaction noise when its period is over (both models call it first thing in a tick). */
void drv_noise_update(DrvDriver *driver, const DrvView *view);

#define DRV_HELD_SAMPLES 8 /* points of the line read over the braking distance of a lane held off it */

/* The racing line and the speed plan read over a held lane's braking distance (DRV_HELD_SAMPLES points, evenly spread
 * from the car on), with the lane's cap at the car. A decision reads them to judge whether the line leaves the lanes
 * open to us, and the control of the same tick reads the same points for the same lane (drv_context_control): it
 * takes them from here instead. */
typedef struct DrvHeldLine {
    bool valid;          /* read this tick for the lane target_d_m (false until a decision reads them) */
    double target_d_m;   /* the lane: the decision's chosen offset, m */
    double v_off_mps;    /* the lane's cap at the car (its off-line speed), m/s */
    double s_m[DRV_HELD_SAMPLES];      /* the points, m */
    double line_d_m[DRV_HELD_SAMPLES]; /* the racing line at each, m */
    double plan_mps[DRV_HELD_SAMPLES]; /* the speed plan at each, before the noise scale, m/s */
} DrvHeldLine;

/* What a tick reads at the car's own arc length, looked up once (the decision and the control both read it). */
typedef struct DrvHere {
    TrkSpot spot;                /* the track and the racing line at the car */
    double line_speed_mps;       /* the speed plan at the car, before the noise scale */
    double grip_mps2;            /* the driver's car's grip at its speed */
    DrvControlGrip control_grip; /* the grip the low-level steering and speed control count on */
    double line_ahead_d_m;       /* the racing line at the lookahead point (drv_context_here's s_ahead_m), m */
    double line_next_d_m;        /* the racing line DRV_LINE_FF_STEP_M ahead of the car (the steering's slope), m */
    DrvHeldLine held;            /* filled by the context decision (not valid until then) */
} DrvHere;

/* Reads DrvHere for this tick (and keeps the driver's track hints); s_ahead_m: the arc length of the racing line's
 * target point. */
void drv_context_here(DrvDriver *driver, const DrvView *view, double s_ahead_m, DrvHere *here);

/* The context model's decision (drv_think runs it at the decision rate): behaviours -> post -> resolve, into
 * driver->plan and the inspector's copy of the maps. `line_d_m` is the racing line at the lookahead point. It adds
 * here->held, for the control of the same tick. */
void drv_context_decide(DrvDriver *driver, const DrvView *view, DrvHere *here, double line_d_m);

/* Speed plan, following, and steering toward target_d (both models use it, so comparisons are fair). line_d_m is
 * the racing line at the line's lookahead point, `here` this tick's drv_context_here. Fills every field of out. */
void drv_context_control(DrvDriver *driver, const DrvView *view, double target_d, double line_d_m,
                         const DrvHere *here, bool braking, DrvControls *out);

#endif
