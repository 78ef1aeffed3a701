/* sim_physics.c: integration in track coordinates (the drafting factor it uses comes from the sense stage, sim_view.c).
 *
 * Model (per car, per tick, semi-implicit Euler with the fixed tick):
 *   - The path at a constant offset d has curvature kappa_path = kappa / (1 - kappa d); keeping to it needs a
 *     lateral tyre acceleration v^2 kappa_path. The driver's lateral request is d'' on top of that, so the tyres
 *     are asked for a_y = v^2 kappa_path + d''_request.
 *   - Friction circle (grip = trk_car_grip_mps2, which includes downforce): the longitudinal request is clipped to
 *     [-grip, trk_car_drive_mps2] (brakes, power and traction); if the combined demand (a_x, a_y) is longer than
 *     the grip it is scaled back onto the circle keeping its direction (combined slip). The lateral shortfall
 *     then shows up as d'' toward the outside of the corner: a car that asks for more than the grip slides wide,
 *     and slows less than it asked. A car that follows the track's speed profile (whose braking and traction use
 *     the same circle) asks for no more than the grip and never slides.
 *   - Drag (trk_car_drag_n, aero part times the drafting factor, plus rolling) slows the car; speed never goes
 *     below zero (cars do not reverse).
 *   - s advances by v / (1 - kappa d) per second (the inside of a corner is shorter); race distance with it.
 *   - Off the track (centre beyond an edge) the grip is halved, a grass drag applies, the car is pushed back toward
 *     the track, and it never gets more than SIM_OFF_MAX_M beyond the edge.
 */
#include "sim_internal.h"

#include <math.h>

/*----------------------------------------------------------------------------------------------------------------
 * Integration
 *--------------------------------------------------------------------------------------------------------------*/

static double sim_finite_or_zero(double v)
{
    return isfinite(v) ? v : 0.0;
}

void sim_pose_of(const SimWorld *w, int id, double *x_m, double *y_m, double *heading_rad)
{
    const SimCarPriv *p = &w->priv[id];
    const SimCar *c = &w->cars[id];
    if (!p->pose_stale) {
        *x_m = c->x_m, *y_m = c->y_m, *heading_rad = c->heading_rad;
        return;
    }
    bool now = p->active; /* else the state saved as the tick it left began */
    double s = now ? c->s_m : p->pose_s_m, d = now ? c->d_m : p->pose_d_m;
    double speed = now ? c->speed_mps : p->pose_speed_mps, lat = now ? c->lat_speed_mps : p->pose_lat_speed_mps;
    TrkPose pose = trk_pose_at(w->track, s, NULL);
    *x_m = pose.x_m + d * pose.nx;
    *y_m = pose.y_m + d * pose.ny;
    /* direction of motion: speed along the tangent plus lateral speed along the normal */
    double vx = speed * pose.tx + lat * pose.nx;
    double vy = speed * pose.ty + lat * pose.ny;
    *heading_rad = (vx == 0.0 && vy == 0.0) ? atan2(pose.ty, pose.tx) : atan2(vy, vx);
}

void sim_refresh_poses(SimWorld *w)
{
    for (int i = 0; i < w->car_count; i++) {
        SimCar *c = &w->cars[i];
        sim_pose_of(w, i, &c->x_m, &c->y_m, &c->heading_rad);
        w->priv[i].pose_stale = false;
    }
}

/* Whether (ax, ay) is surely no longer than grip, from squares alone: hypot costs as much as the rest of a car's
 * integration, and most car-ticks are well inside the circle. The margin (1e-12 relative) is far above the rounding
 * of the squares and of hypot (an ulp or two), so when this says yes hypot(ax, ay) <= grip too and the result is
 * the same; the range test keeps the squares clear of overflow and of subnormals. NaN says no. */
static bool sim_surely_within(double ax, double ay, double grip)
{
    double r2 = grip * grip * (1.0 - 1e-12);
    return r2 > 1e-200 && r2 < 1e200 && ax * ax + ay * ay < r2;
}

/* The track under a car, kept with the s it belongs to: the next tick starts where this one ended. */
static void sim_track_at(const SimWorld *w, SimCarPriv *p, double s_m)
{
    p->geo_s_m = s_m;
    TrkGeometry g = trk_geometry_at(w->track, s_m, &p->hint);
    p->kappa = g.kappa;
    p->width_left_m = g.left_m;
    p->width_right_m = g.right_m;
}

static void sim_integrate_car(SimWorld *w, SimCar *c, SimCarPriv *p, const DrvControls *ctl)
{
    const TrkCarParams *dyn = &c->spec.dyn;
    sim_pose_save(c, p);
    double dt = w->dt_s, v = c->speed_mps;
    if (c->s_m != p->geo_s_m) /* moved since the end of the last integration (a collision, or the first tick) */
        sim_track_at(w, p, c->s_m);
    double kappa = p->kappa, wl = p->width_left_m, wr = p->width_right_m;
    double scale = trk_path_scale(kappa, c->d_m);
    bool off = c->d_m > wl || c->d_m < -wr;

    /* friction circle: the tyres are asked for the path's need plus the driver's requests; a demand outside the
     * circle is scaled back onto it keeping its direction, so the car both slows less and turns less than asked */
    double grip = trk_car_grip_mps2(dyn, v) * (off ? SIM_GRASS_GRIP_SCALE : 1.0);
    double corner = v * v * kappa / scale;
    double ax = trk_fmax(-grip, trk_fmin(trk_car_drive_mps2(dyn, v), sim_finite_or_zero(ctl->long_accel_mps2)));
    double ay = corner + sim_finite_or_zero(ctl->lat_accel_mps2);
    p->sliding = false;
    if (!sim_surely_within(ax, ay, grip)) {
        double demand = hypot(ax, ay);
        p->sliding = demand > grip;
        if (p->sliding) {
            ax *= grip / demand;
            ay *= grip / demand;
        }
    }

    /* longitudinal: tyres minus drag (with the wake) minus grass */
    double a_long = ax - trk_car_drag_n(dyn, v, p->draft_factor) / dyn->mass_kg;
    if (off)
        a_long -= SIM_GRASS_DECEL_MPS2 + SIM_GRASS_DECEL_PER_MPS * v;
    double v_new = trk_fmax(0.0, v + a_long * dt);

    /* lateral: what the tyres give beyond the path's need moves the car across the track */
    double a_lat = ay - corner;
    if (off)
        a_lat += c->d_m > wl ? -SIM_GRASS_PUSH_MPS2 : SIM_GRASS_PUSH_MPS2;
    double lat = c->lat_speed_mps + a_lat * dt;
    double d = c->d_m + lat * dt;
    if (d > wl + SIM_OFF_MAX_M) {
        d = wl + SIM_OFF_MAX_M;
        lat = trk_fmin(lat, 0.0);
    } else if (d < -wr - SIM_OFF_MAX_M) {
        d = -wr - SIM_OFF_MAX_M;
        lat = trk_fmax(lat, 0.0);
    }

    double ds = v_new / scale * dt;
    p->prev_race_dist_m = c->race_dist_m;
    c->race_dist_m += ds;
    double s = c->s_m + ds;
    c->s_m = sim_wrap_s(w, s);
    c->speed_mps = v_new;
    c->lat_speed_mps = lat;
    c->d_m = d;
    sim_track_at(w, p, c->s_m);
    c->off_track_now = d > p->width_left_m || d < -p->width_right_m;
}

void sim_integrate(SimWorld *w)
{
    for (int i = 0; i < w->car_count; i++) {
        SimCarPriv *p = &w->priv[i];
        if (p->active)
            sim_integrate_car(w, &w->cars[i], p, &w->cars[i].last_controls);
    }
}
