/* drv_drive.h: the per-tick control both driver models share (private to drivers/): what a tick reads at the car,
 * the speed and steering toward a chosen offset, and the lane helpers the context decision also reads. */
#ifndef DRV_DRIVE_H
#define DRV_DRIVE_H

#include "drv_internal.h"

/* A chosen offset this close to the racing line counts as following it (and, held between decisions, moves with it). */
#define DRV_LINE_FOLLOW_BAND_M 1.0
/* The line's slope at the car (the steering's feed-forward) is read over this much, half behind the car and half
 * ahead, m. Read from the car forward, the slope was the line's a metre ahead: in a hairpin, where the line's lateral
 * speed across the centre line changes by 50 m/s^2, that led the car by over 1 m/s and it ran wide of the line. */
#define DRV_LINE_FF_STEP_M 2.0

#define DRV_HELD_SAMPLES 8 /* points of the line read over the braking distance of a lane held off it */

/* The racing line and the speed plan read over a held lane's braking distance (DRV_HELD_SAMPLES points, evenly spread
 * from the car on), with the lane's cap at the car. A decision reads them to judge whether the line leaves the lanes
 * open to us, and the control of the same tick reads the same points for the same lane (drv_drive_control): it
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
    double line_ahead_d_m;       /* the racing line at the lookahead point (drv_drive_here's s_ahead_m), m */
    double line_next_d_m;        /* the racing line half DRV_LINE_FF_STEP_M ahead of the car (its slope), m */
    double line_prev_d_m;        /* and half DRV_LINE_FF_STEP_M behind it, m */
    DrvHeldLine held;            /* filled by the context decision (not valid until then) */
} DrvHere;

/* Reads DrvHere for this tick (and keeps the driver's track hints); s_ahead_m: the arc length of the racing line's
 * target point. */
void drv_drive_here(DrvDriver *driver, const DrvView *view, double s_ahead_m, DrvHere *here);

/* The lane helpers the context decision reads too (it judges whether the line leaves the open lanes over a held
 * lane's braking distance). The cap of the lane target_d (its speed at the car, drv_lanes.h) and of the path under the
 * car, m/s; the braking counted on to come down to a lane's cap, m/s^2; the distance over which a held lane must read
 * the line, m; the line and the plan read over it from point k0 on; the furthest the line runs from [lo_d, hi_d], m. */
double drv_offline_speed(const DrvDriver *driver, const DrvView *view, double target_d, const DrvHere *here);
double drv_held_brake_mps2(const DrvDriver *driver, const DrvHere *here);
double drv_held_reach(const DrvView *view, double v_plan, double v_off_mps, double a);
void drv_held_read(const DrvDriver *driver, const DrvView *view, double reach_m, int k0, DrvHeldLine *held);
double drv_line_outside(const DrvHeldLine *held, double lo_d, double hi_d);

/* Safe following (drv_follow.c): the fastest we may be now behind the car ahead o, whose lane we aim for, m/s
 * (INFINITY: no limit). The same-points rule on the first lap (view->laps_done == 0), the rule in time after it. */
double drv_follow_safe_speed(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
double drv_follow_points(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);
double drv_follow_time(const DrvView *view, const DrvDriver *driver, const DrvHere *here, const DrvOther *o);

/* Speed plan, following, and steering toward target_d (both models use it, so comparisons are fair). line_d_m is
 * the racing line at the line's lookahead point, `here` this tick's drv_drive_here. Fills every field of out. */
void drv_drive_control(DrvDriver *driver, const DrvView *view, double target_d, double line_d_m,
                       const DrvHere *here, bool braking, DrvControls *out);

#endif
