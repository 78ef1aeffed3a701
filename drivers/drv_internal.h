/* drv_internal.h: the driver object shared by the driver models and their stages (private to drivers/). */
#ifndef DRV_INTERNAL_H
#define DRV_INTERNAL_H

#include "drv_lanes.h"
#include "drv_map.h"
#include "drv_post.h"
#include "../track/trk_fast.h" /* the per-tick track look-ups, inlined */

#include <math.h>

/* Track-query hints (sample indices) kept between ticks so every look-up is O(1). */
typedef struct DrvHints {
    int here, line_here, profile, profile_ahead, curv_ahead, edge_ahead;
} DrvHints;

/* Reaction noise: slowly varying perception errors, redrawn every DRV_NOISE_PERIOD ticks-worth of time. */
typedef struct DrvNoise {
    double next_draw_s;   /* sim time of the next draw */
    double speed_scale;   /* multiplies target speeds, about 1 */
    double d_m;           /* added to other cars' perceived offsets and to our target offset */
} DrvNoise;

/* What a decision chose, held until the next one (see drv_think). */
typedef struct DrvPlan {
    bool valid;          /* false until the first decision */
    bool on_line;        /* aim for the racing line wherever it runs now (a car alone, or a choice on it) */
    double target_d_m;   /* otherwise this offset */
    double line_d_m;     /* the racing line's target offset at the decision (the offset is held relative to it) */
    bool braking;        /* no lane free enough: follow the car in the path */
    bool attacking;      /* the target is the attack's lane beside the car we follow (drv_beh_attack.c) */
    int attacked_id;     /* the car that attack was on, until we are back in its wake or it is passed; -1 for none */
    bool line_blocked;   /* the racing line leaves the lanes free of danger within the braking distance: the target
                          * is held off the line there, and the lanes' caps are judged over that distance */
    bool bounded;        /* the decision saw lanes it must not enter: a lateral move stops inside free_lo..hi */
    double free_lo_d_m, free_hi_d_m; /* the open lanes around the chosen one (car centre), m */
} DrvPlan;

/* Decision gaps, in ticks, whose hysteresis weight is kept in a table (a far decision comes every 4th tick). */
#define DRV_HYST_POW_TICKS 16

/* Flat apart from the pointers to what it reads: drv_state_restore keeps those, so a new pointer belongs there too. */
struct DrvDriver {
    DrvPersonality p;
    const TrkTrack *track;
    TrkCarParams car;
    const TrkSpeedProfile *profile;
    bool plan_on_grid;             /* trk_profile_on_grid(track, profile), kept with them */
    const struct DrvLanes *lanes;  /* speed caps of off-line lanes (drv_lanes.h) */
    /* the two above when the driver built them itself (what drv_destroy frees); NULL when they are borrowed from a
     * table cache (drv_create_ex) */
    TrkSpeedProfile *own_profile;
    struct DrvLanes *own_lanes;
    DrvRng rng;
    DrvHints hints;
    /* still in the start's pack: on the first lap and not yet clear of the cars around it (drv_think); the
     * first lap's manners hold while it is (drv_first_lap_manners) */
    bool in_start_pack;
    DrvNoise noise;
    /* context model state: the previous tick's maps (hysteresis) */
    DrvContextMap prev;
    bool has_prev;
    DrvBlurWeights blur_weights; /* the danger map's blur weights for the latest radius (drv_post_blur_kept) */
    DrvLanesSlots lanes_slots;   /* where the latest map's slots fell among the lanes (drv_lanes_slots) */
    DrvMapStamp edge_tokens;     /* the edges' token danger on the latest map's span (drv_beh_edge) */
    DrvDebug debug;
    /* steering model state: the previous tick's target offset (smoothed by the hysteresis) */
    double steer_prev_target_m;
    bool steer_has_prev;
    /* the decision rate: the plan, and where in the decision period this driver's decisions fall */
    DrvPlan plan;
    uint64_t decide_phase;
    long last_decide_tick;    /* the tick of the latest decision */
    /* the decision periods (ticks) at the personality's two rates for the tick length whose bits are in
     * decide_dt_bits: they depend on nothing else (the personality never changes), so they are recomputed only
     * when the sim's dt does (drv_decision_due) */
    uint64_t decide_dt_bits;
    bool decide_periods_valid;
    long decide_period, decide_far_period;
    /* hysteresis^k for k = 2..DRV_HYST_POW_TICKS, by pow once at creation: the weight of every decision that comes
     * a few ticks after the last (drv_hysteresis_weight) without a pow call each time, bit for bit its value */
    double hyst_pow[DRV_HYST_POW_TICKS + 1];
};

/* The first lap's manners (no attack or defence, following by the same points as the lead: drv_follow.h) hold
 * for a car in the start's pack. A car clear of it races: the manners spread a field 1-2 s apart on lap 1, and with
 * them all of lap 1 a car starting behind slower ones lost the race to them there. */
static inline bool drv_first_lap_manners(const DrvDriver *driver, const DrvView *view)
{
    return view->laps_done == 0 && driver->in_start_pack;
}

/* The weight of the previous decision's maps (or target) in this one: the personality's hysteresis is per tick, so
 * a decision k ticks after the last blends with hysteresis^k (per decision, a driver deciding every 4th tick would
 * keep maps four times staler than one deciding every tick). */
static inline double drv_hysteresis_weight(const DrvDriver *driver, long tick)
{
    long k = tick - driver->last_decide_tick;
    double h = driver->p.hysteresis;
    if (k > 1 && k <= DRV_HYST_POW_TICKS)
        return driver->hyst_pow[k]; /* pow(h, k), computed at creation */
    return k > 1 && k < 1000000 ? pow(h, (double)k) : h;
}

/* The grip the low-level steering and speed control count on (m/s^2): the view's car's, or their own fallbacks when
 * the view has no car. Inline: it is read every tick, and a call costs as much as the formula. */
typedef struct DrvControlGrip {
    double steer_mps2, speed_mps2;
} DrvControlGrip;
static inline DrvControlGrip drv_control_grip(const DrvView *view)
{
    if (view->car == NULL)
        return (DrvControlGrip){0.8 * TRK_GRAVITY_MPS2, TRK_GRAVITY_MPS2};
    double g = trk_car_grip_mps2(view->car, view->speed_mps);
    return (DrvControlGrip){g, g};
}

/* Steering that tracks a moving target, with the path curvature (1/m) and the grip (drv_control_grip) already known:
 * the target's lateral speed (m/s) and acceleration (m/s^2) are fed forward, the rest is the feedback of
 * drv_steer_toward. And drv_speed_toward plus a feedforward acceleration (the slope of a speed plan), so braking zones
 * are followed without lag. A tick that does both computes the grip once. */
double drv_steer_toward_grip(const DrvView *view, double target_d_m, double target_lat_mps, double feedforward_mps2,
                             double curvature_per_m, double grip_mps2);
double drv_speed_toward_grip(const DrvView *view, double target_speed_mps, double feedforward_mps2,
                             double grip_mps2);

#endif
