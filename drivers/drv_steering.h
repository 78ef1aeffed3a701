/* drv_steering.h: the traditional steering-behaviours driver (private to drivers/), the baseline context steering
 * is measured against (personality `model = steering`).
 *
 * Each behaviour returns a lateral push in metres (a "steering force" in the track's lateral direction); the pushes
 * are added with weights and the sum moves the target offset from the racing line. Speed and the low-level control
 * are the context model's own (drv_context_control), so only the way lateral decisions are made differs. */
#ifndef DRV_STEERING_H
#define DRV_STEERING_H

#include "drv_context.h"

/* The weights of the weighted sum, and the shapes of the behaviours. Tuned on gp and tech (see docs/research.md, "Why
 * context steering" section for what was tried). Personality values scale them: line -> seek, draft -> draft,
 * skirt -> separation radius, lookahead -> avoidance horizon, aggression -> braking threshold, hysteresis ->
 * smoothing of the sum. */
typedef struct DrvSteeringDef {
    double seek_weight;      /* multiplies line / 0.6 (the default line weight); the sum is divided by it, so
                              * alone on the track the target is the racing line whatever the weight */
    double separation_weight;
    double avoid_weight;
    double draft_weight;     /* multiplies draft / 0.3 */
    double yield_weight;
    double sep_long_m;       /* separation: this longitudinal gap counts as one separation radius, m */
    bool separate_from_behind; /* separation also from cars behind (classic: omnidirectional; default true) */
} DrvSteeringDef;

DrvSteeringDef drv_steering_default_def(void);

/* Lateral pushes of each behaviour for one view, m (left positive), exposed for tests. */
typedef struct DrvSteeringForces {
    double seek_m, separation_m, avoid_m, draft_m, yield_m;
    double sum_m;            /* weighted sum over the seek weight, before smoothing: target = d + sum_m */
} DrvSteeringForces;

/* The behaviours, stateless: `line_d_m` is the racing line ahead, `on_straight` as in the context model,
 * `noise_d_m` the perception error on other cars' offsets. */
DrvSteeringForces drv_steering_forces(const DrvView *view, const DrvPersonality *p, const DrvSteeringDef *def,
                                      double line_d_m, bool on_straight, double noise_d_m);

/* Danger the steering driver sees at an offset (the same time-to-contact measure as the context model's avoid
 * behaviour), 0..1: above the personality's aggression it brakes to follow the car in its path. */
double drv_steering_danger_at(const DrvView *view, const DrvPersonality *p, double d_m, double noise_d_m);

/* The model's decision (drv_think runs it at the decision rate): the forces' target offset, smoothed and contained,
 * into driver->plan. `line_d` is the racing line at the lookahead point. */
void drv_steering_decide(DrvDriver *driver, const DrvView *view, const DrvHere *here, double line_d);

#endif
