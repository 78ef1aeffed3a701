/* rnd_camera.c: the world <-> screen transform. World y points up and screen y down, so y flips. The centre of the
 * view is the middle of the area right of the HUD column and above the inspector panel, so the overview never hides
 * the track under them. */
#include "rnd_internal.h"

#include <math.h>

#define RND_MIN_SCALE_PPM 0.02
#define RND_MAX_SCALE_PPM 80.0
#define RND_FIT_MARGIN_PX 24.0
#define RND_FOLLOW_SCALE_PPM 6.0

static double rnd_clamp_scale(double s)
{
    return s < RND_MIN_SCALE_PPM ? RND_MIN_SCALE_PPM : s > RND_MAX_SCALE_PPM ? RND_MAX_SCALE_PPM : s;
}

/* The screen point the camera centre maps to. */
static void rnd_camera_anchor(const RndCamera *cam, double *ax, double *ay)
{
    *ax = cam->inset_left_px + (cam->view_w - cam->inset_left_px) * 0.5;
    *ay = (cam->view_h - cam->inset_bottom_px) * 0.5;
}

void rnd_camera_init(RndCamera *cam, double min_x_m, double min_y_m, double max_x_m, double max_y_m)
{
    int w = cam->view_w > 0 ? cam->view_w : 1280, h = cam->view_h > 0 ? cam->view_h : 800;
    int inset = cam->inset_left_px, inset_bottom = cam->inset_bottom_px;
    RndCameraMode mode = cam->mode;
    double follow = cam->follow_scale_ppm;
    *cam = (RndCamera){0};
    cam->view_w = w;
    cam->view_h = h;
    cam->inset_left_px = inset;
    cam->inset_bottom_px = inset_bottom;
    cam->mode = mode == RND_CAM_FREE ? RND_CAM_OVERVIEW : mode;
    cam->follow_scale_ppm = follow > 0.0 ? follow : RND_FOLLOW_SCALE_PPM;
    cam->min_x_m = min_x_m;
    cam->min_y_m = min_y_m;
    cam->max_x_m = max_x_m;
    cam->max_y_m = max_y_m;
    rnd_camera_fit(cam);
    if (rnd_camera_follows(cam))
        cam->scale_ppm = cam->follow_scale_ppm;
}

void rnd_camera_fit(RndCamera *cam)
{
    double w_m = cam->max_x_m - cam->min_x_m, h_m = cam->max_y_m - cam->min_y_m;
    double avail_w = cam->view_w - cam->inset_left_px - 2.0 * RND_FIT_MARGIN_PX;
    double avail_h = cam->view_h - cam->inset_bottom_px - 2.0 * RND_FIT_MARGIN_PX;
    if (avail_w < 16.0)
        avail_w = 16.0;
    if (avail_h < 16.0)
        avail_h = 16.0;
    double sx = w_m > 1e-9 ? avail_w / w_m : RND_MAX_SCALE_PPM;
    double sy = h_m > 1e-9 ? avail_h / h_m : RND_MAX_SCALE_PPM;
    cam->scale_ppm = rnd_clamp_scale(sx < sy ? sx : sy);
    cam->cx_m = 0.5 * (cam->min_x_m + cam->max_x_m);
    cam->cy_m = 0.5 * (cam->min_y_m + cam->max_y_m);
}

void rnd_camera_update(RndCamera *cam, int view_w, int view_h)
{
    cam->view_w = view_w > 1 ? view_w : 1;
    cam->view_h = view_h > 1 ? view_h : 1;
    if (cam->mode != RND_CAM_CHASE && cam->mode != RND_CAM_FREE)
        cam->rot_rad = 0.0; /* north up, but for the chase camera and a view dragged from it */
    if (cam->mode == RND_CAM_OVERVIEW)
        rnd_camera_fit(cam);
    else if (rnd_camera_follows(cam))
        cam->scale_ppm = cam->follow_scale_ppm;
}

void rnd_camera_to_screen(const RndCamera *cam, double x_m, double y_m, float *sx, float *sy)
{
    double ax, ay, dx = x_m - cam->cx_m, dy = y_m - cam->cy_m;
    rnd_camera_anchor(cam, &ax, &ay);
    if (cam->rot_rad != 0.0) { /* the chase camera's turn */
        double c = cos(cam->rot_rad), s = sin(cam->rot_rad), rx = dx * c - dy * s;
        dy = dx * s + dy * c;
        dx = rx;
    }
    *sx = (float)(ax + dx * cam->scale_ppm);
    *sy = (float)(ay - dy * cam->scale_ppm);
}

void rnd_camera_linear(const RndCamera *cam, double m[4])
{
    double c = cos(cam->rot_rad), s = sin(cam->rot_rad);
    m[0] = c * cam->scale_ppm;
    m[1] = -s * cam->scale_ppm;
    m[2] = -s * cam->scale_ppm;
    m[3] = -c * cam->scale_ppm;
}

void rnd_camera_to_world(const RndCamera *cam, float sx, float sy, double *x_m, double *y_m)
{
    double ax, ay;
    rnd_camera_anchor(cam, &ax, &ay);
    double dx = (sx - ax) / cam->scale_ppm, dy = -(sy - ay) / cam->scale_ppm;
    if (cam->rot_rad != 0.0) {
        double c = cos(cam->rot_rad), s = sin(cam->rot_rad), rx = dx * c + dy * s;
        dy = -dx * s + dy * c;
        dx = rx;
    }
    *x_m = cam->cx_m + dx;
    *y_m = cam->cy_m + dy;
}

bool rnd_camera_follows(const RndCamera *cam)
{
    return cam->mode == RND_CAM_FOLLOW || cam->mode == RND_CAM_DIRECTOR || cam->mode == RND_CAM_CHASE;
}

void rnd_camera_zoom_at(RndCamera *cam, double factor, float sx, float sy)
{
    double wx, wy;
    rnd_camera_to_world(cam, sx, sy, &wx, &wy);
    if (rnd_camera_follows(cam)) {
        /* follow keeps the car centred: the zoom is about the car, and remembered (a two-shot's wider frame is
         * only for that frame) */
        cam->follow_scale_ppm = cam->scale_ppm = rnd_clamp_scale(cam->follow_scale_ppm * factor);
        return;
    }
    cam->scale_ppm = rnd_clamp_scale(cam->scale_ppm * factor);
    cam->mode = RND_CAM_FREE;
    /* move the centre so (wx, wy) stays under the cursor */
    double ax, ay;
    rnd_camera_anchor(cam, &ax, &ay);
    cam->cx_m = wx - (sx - ax) / cam->scale_ppm;
    cam->cy_m = wy + (sy - ay) / cam->scale_ppm;
}

void rnd_camera_pan(RndCamera *cam, float dx_px, float dy_px)
{
    if (rnd_camera_follows(cam))
        cam->follow_scale_ppm = cam->scale_ppm;
    /* the drag moves the world under the cursor, in the view's own turn */
    double x0, y0, x1, y1;
    rnd_camera_to_world(cam, 0.0f, 0.0f, &x0, &y0);
    rnd_camera_to_world(cam, dx_px, dy_px, &x1, &y1);
    cam->mode = RND_CAM_FREE;
    cam->cx_m -= x1 - x0;
    cam->cy_m -= y1 - y0;
}

void rnd_camera_centre(RndCamera *cam, double x_m, double y_m)
{
    cam->cx_m = x_m;
    cam->cy_m = y_m;
}

/* The director's two-shot: centred between the cars, zoomed out from the follow zoom just enough that both sit
 * inside the middle 70% of the view area, but never below a quarter of it (a pair that needs more is not a
 * shot; the caller follows the one car). False, camera untouched, when the pair does not fit. */
void rnd_camera_chase(RndCamera *cam, double x_m, double y_m, double heading_rad)
{
    cam->rot_rad = 0.5 * RND_PI - heading_rad;
    /* the car a fifth of the view below the middle: more road ahead than behind */
    double ahead_m = 0.2 * (cam->view_h - cam->inset_bottom_px) / cam->scale_ppm;
    rnd_camera_centre(cam, x_m + cos(heading_rad) * ahead_m, y_m + sin(heading_rad) * ahead_m);
}

bool rnd_camera_frame_pair(RndCamera *cam, double ax_m, double ay_m, double bx_m, double by_m)
{
    double room_w = (cam->view_w - cam->inset_left_px) * 0.7, room_h = (cam->view_h - cam->inset_bottom_px) * 0.7;
    double dx = fabs(bx_m - ax_m) + 8.0, dy = fabs(by_m - ay_m) + 8.0; /* a car's length of margin each side */
    double fit = fmin(room_w / dx, room_h / dy);
    double scale = fmin(cam->follow_scale_ppm, fit);
    if (scale < 0.25 * cam->follow_scale_ppm)
        return false;
    cam->scale_ppm = rnd_clamp_scale(scale);
    rnd_camera_centre(cam, 0.5 * (ax_m + bx_m), 0.5 * (ay_m + by_m));
    return true;
}
