/* drv_here.h: what a tick reads at the car, looked up once and shared by the decision, the control and safe
 * following (private to drivers/). */
#ifndef DRV_HERE_H
#define DRV_HERE_H

#include "drv_internal.h"

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
    double line_limit_mps;       /* the plan's corner and braking limit there (trk_speed_limit_at), likewise */
    double grip_mps2;            /* the driver's car's grip at its speed */
    DrvControlGrip control_grip; /* the grip the low-level steering and speed control count on */
    double line_ahead_d_m;       /* the racing line at the lookahead point (drv_drive_here's s_ahead_m), m */
    double line_next_d_m;        /* the racing line half DRV_LINE_FF_STEP_M ahead of the car (its slope), m */
    double line_prev_d_m;        /* and half DRV_LINE_FF_STEP_M behind it, m */
    DrvHeldLine held;            /* filled by the context decision (not valid until then) */
} DrvHere;

#endif
