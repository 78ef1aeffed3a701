/* rnd_cars.c: cars as oriented rectangles in their driver's colour, with their number. Poses are interpolated
 * between the snapshot one tick back and the world's current tick (clamped fraction), so motion is smooth at any
 * display rate. At overview zoom a car would be a pixel or two, so it keeps a minimum on-screen size.
 *
 * Cars that have left the race (taken the flag or retired) have left the track in the sim too: they no longer move,
 * sense or collide, and the cars still racing drive through where they stopped. Drawing them there at full size
 * would show obstacles that are not there (ten finished cars stack up just past the line). So a car that has left
 * is drawn see-through from the moment it leaves (retired cars also greyed), fades out over a short cool-down and
 * is then no longer drawn; the tower keeps listing it (a chequered flag, or DNF). The selected car stays as a faint
 * ghost, so the follow camera and the selection still have something to show. */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>

#define RND_CAR_MIN_LENGTH_PX 12.0
#define RND_CAR_NUMBER_INSIDE_PX 30.0 /* cars at least this long carry their number on the body */
#define RND_CAR_SOFT_BODY_PX 20.0     /* shorter cars: a soft outline round a hard body (its edges are a pixel) */
#define RND_LEFT_ALPHA 160   /* opacity of a car the moment it has left the race */
#define RND_LEFT_FADE_S 3.0  /* ... fading to nothing over this long (sim time), then not drawn */
#define RND_GHOST_ALPHA 70   /* the selected car after its fade */

void rnd_snapshot_capture(RndSnapshot *snap, const SimWorld *world)
{
    int n = sim_world_car_count(world);
    snap->count = n < SIM_MAX_CARS ? n : SIM_MAX_CARS;
    snap->tick = sim_world_tick(world);
    for (int i = 0; i < snap->count; i++) {
        const SimCar *c = sim_world_car(world, i);
        snap->poses[i] = (RndPose){c->x_m, c->y_m, c->heading_rad};
    }
}

static double rnd_wrap_angle(double a)
{
    while (a > RND_PI)
        a -= 2.0 * RND_PI;
    while (a < -RND_PI)
        a += 2.0 * RND_PI;
    return a;
}

RndPose rnd_pose_lerp(const RndSnapshot *prev, const SimCar *car, double alpha)
{
    RndPose now = {car->x_m, car->y_m, car->heading_rad};
    if (!prev || car->id < 0 || car->id >= prev->count)
        return now;
    double a = alpha < 0.0 ? 0.0 : alpha > 1.0 ? 1.0 : alpha;
    const RndPose *p = &prev->poses[car->id];
    RndPose out;
    out.x_m = p->x_m + (now.x_m - p->x_m) * a;
    out.y_m = p->y_m + (now.y_m - p->y_m) * a;
    out.heading_rad = p->heading_rad + rnd_wrap_angle(now.heading_rad - p->heading_rad) * a;
    return out;
}

/* Black or white, whichever reads better on the colour. */
static RndRgba rnd_contrast(const uint8_t rgb[3])
{
    double lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
    return lum > 140.0 ? rnd_rgba(15, 15, 15, 255) : rnd_rgba(250, 250, 250, 255);
}

/* Corners of a trapezoid from a0 to a1 along the heading, half_w0 wide at a0 and half_w1 at a1, in screen
 * pixels. */
static void rnd_car_trap(const RndCamera *cam, RndPose p, double a0, double a1, double half_w0, double half_w1,
                         float xy[8])
{
    double fx = cos(p.heading_rad), fy = sin(p.heading_rad);
    double lx = -fy, ly = fx;
    const double corner[4][2] = {{a1, half_w1}, {a1, -half_w1}, {a0, -half_w0}, {a0, half_w0}};
    for (int k = 0; k < 4; k++) {
        double x = p.x_m + fx * corner[k][0] + lx * corner[k][1];
        double y = p.y_m + fy * corner[k][0] + ly * corner[k][1];
        rnd_camera_to_screen(cam, x, y, &xy[2 * k], &xy[2 * k + 1]);
    }
}

static void rnd_car_rect(const RndCamera *cam, RndPose p, double a0, double a1, double half_w, float xy[8])
{
    rnd_car_trap(cam, p, a0, a1, half_w, half_w, xy);
}

/* A single-seater seen from above, `grow` px of margin added all round (for the outline): rear wing, body, a nose
 * narrowing to the front wing. Lengths in units of the half-length hl and half-width hw. The parts overlap: their
 * fades are drawn first and their cores over them, so only the fades round the whole car show, and those fade into
 * `outside` when it is known (the outline under the body) or are blended (the outline over the track). */
static void rnd_car_shape(RndAa *aa, const RndCamera *cam, RndPose p, double hl, double hw, double grow, RndRgba c,
                          const RndRgba *outside, bool soft)
{
    float xy[4][8];
    rnd_car_rect(cam, p, -hl - grow, -0.8 * hl + grow, hw + grow, xy[0]); /* rear wing */
    rnd_car_trap(cam, p, -0.82 * hl - grow, 0.3 * hl + grow, 0.82 * hw + grow, 0.7 * hw + grow, xy[1]); /* body */
    rnd_car_trap(cam, p, 0.28 * hl - grow, 0.9 * hl + grow, 0.48 * hw + grow, 0.24 * hw + grow, xy[2]); /* nose */
    rnd_car_rect(cam, p, 0.84 * hl - grow, hl + grow, hw + grow, xy[3]); /* front wing */
    for (int k = 0; k < 4; k++) {
        if (soft)
            rnd_aa_poly(aa, xy[k], 4, c, outside);
        else
            rnd_aa_poly_hard(aa, xy[k], 4, c);
    }
    rnd_aa_flush_fades_first(aa); /* one layer: the next (the body over its outline) lies over all of it */
}

/* When each car left the race (sim time, s): its finish time, or its retirement's event; NAN while it runs or when
 * the retirement is not in the event list (then it is taken as long gone). */
static void rnd_left_times(const SimWorld *world, int n, double *left_s)
{
    bool any_dnf = false;
    for (int i = 0; i < n; i++) {
        const SimCar *c = sim_world_car(world, i);
        left_s[i] = c->status == SIM_FINISHED ? c->finish_time_s : NAN;
        any_dnf |= c->status == SIM_DNF;
    }
    if (!any_dnf)
        return;
    int count = 0;
    const SimEvent *ev = sim_world_events(world, &count);
    for (int k = 0; ev && k < count; k++)
        if (ev[k].type == SIM_EV_RETIRE && ev[k].a >= 0 && ev[k].a < n)
            left_s[ev[k].a] = ev[k].value;
}

/* Opacity of a car: opaque while it races; for a car that has left, RND_LEFT_ALPHA falling linearly to 0 over
 * RND_LEFT_FADE_S (in steps of 16, so a fade is a handful of distinct frames); 0 = not drawn. */
static int rnd_car_alpha(const SimCar *car, double left_s, double now_s, bool selected)
{
    if (car->status == SIM_RUNNING)
        return 255;
    double age = now_s - left_s; /* NaN when the time is unknown: long gone */
    int a = age == age ? (int)(RND_LEFT_ALPHA * (1.0 - fmax(age, 0.0) / RND_LEFT_FADE_S)) : 0;
    a = a > 0 ? (a + 15) / 16 * 16 : 0;
    a = a > RND_LEFT_ALPHA ? RND_LEFT_ALPHA : a;
    return selected && a < RND_GHOST_ALPHA ? RND_GHOST_ALPHA : a;
}

static void rnd_car_draw_one(RndAa *aa, RndText *text, const RndCamera *cam, const SimCar *car, RndPose p,
                             bool selected, int alpha, RndCarDraw *out)
{
    if (alpha <= 0)
        return; /* out->drawn stays false: neither clickable nor reported */
    double len = car->spec.length_m > 0.5 ? car->spec.length_m : 4.6;
    double wid = car->spec.width_m > 0.3 ? car->spec.width_m : 2.0;
    double grow = fmax(1.0, RND_CAR_MIN_LENGTH_PX / (len * cam->scale_ppm));
    double hl = 0.5 * len * grow, hw = 0.5 * wid * grow;
    double len_px = 2.0 * hl * cam->scale_ppm;
    bool dnf = car->status == SIM_DNF, solid = alpha >= 255;
    Uint8 a = (Uint8)(alpha > 255 ? 255 : alpha);
    RndRgba body = rnd_rgba(car->colour[0], car->colour[1], car->colour[2], a);
    if (dnf)
        body = rnd_rgba((Uint8)(car->colour[0] / 3 + 60), (Uint8)(car->colour[1] / 3 + 60),
                        (Uint8)(car->colour[2] / 3 + 60), a);
    float xy[8];
    double outline = 1.0 / cam->scale_ppm; /* one pixel of dark outline */
    RndRgba rim = selected ? rnd_rgba(255, 255, 255, a) : rnd_rgba(10, 10, 10, 255);
    if (solid || selected) /* under a see-through body the outline would darken all of it */
        rnd_car_shape(aa, cam, p, hl, hw, outline, rim, NULL, true);
    /* an opaque body fades into its opaque outline; on a small car the outline's soft edge is all that shows */
    rnd_car_shape(aa, cam, p, hl, hw, 0.0, body, solid ? &rim : NULL, len_px >= RND_CAR_SOFT_BODY_PX || !solid);
    /* a dark cockpit ahead of the middle, with the nose, shows which way the car points */
    rnd_car_trap(cam, p, -0.15 * hl, 0.25 * hl, 0.4 * hw, 0.3 * hw, xy);
    rnd_aa_poly(aa, xy, 4, rnd_rgba(20, 20, 24, a), solid ? &body : NULL);
    float sx, sy;
    rnd_camera_to_screen(cam, p.x_m, p.y_m, &sx, &sy);
    out->drawn = true;
    out->sx = sx;
    out->sy = sy;
    if (selected)
        rnd_aa_ring(aa, sx, sy, (float)(hl * cam->scale_ppm) + 5.0f, 2.0f, rnd_rgba(255, 255, 255, solid ? 230 : 120));
    rnd_aa_flush(aa);
    if (!solid)
        return; /* no number on a car that has left: its tag would clutter the track for the ones racing */
    char num[16];
    snprintf(num, sizeof num, "%d", car->number);
    if (len_px >= RND_CAR_NUMBER_INSIDE_PX && text) {
        int h = rnd_text_height(text, RND_FONT_SMALL);
        /* the number sits behind the cockpit, so it does not cover the direction mark */
        float bx, by;
        rnd_camera_to_screen(cam, p.x_m - cos(p.heading_rad) * 0.45 * hl, p.y_m - sin(p.heading_rad) * 0.45 * hl,
                             &bx, &by);
        rnd_text_draw(text, RND_FONT_SMALL, num, bx, by - h * 0.5f, rnd_contrast(car->colour), RND_CENTRE);
    } else {
        out->wants_tag = true; /* placed after every body, so tags can avoid each other */
    }
}

/* A tag beside a car too small to carry its number: its colour with the number, at the first free spot around
 * it (rnd_labels.c); a tag that would cover another is left out. */
static void rnd_car_tag(SDL_Renderer *r, RndText *text, const SimCar *car, RndCarDraw *d, RndLabels *labels)
{
    char num[16];
    snprintf(num, sizeof num, "%d", car->number);
    float w = (float)(rnd_text_width(text, RND_FONT_SMALL, num) + 6), h = (float)rnd_text_height(text, RND_FONT_SMALL);
    SDL_FRect at;
    if (!rnd_labels_place(labels, d->sx, d->sy, w, h, 5.0f, NULL, &at))
        return;
    d->tagged = true;
    d->tag = at;
    rnd_fill_rect(r, at.x, at.y, w, h, rnd_rgba(10, 10, 10, 200));
    rnd_fill_rect(r, at.x, at.y, 3.0f, h, rnd_rgba(car->colour[0], car->colour[1], car->colour[2], 255));
    rnd_text_draw(text, RND_FONT_SMALL, num, at.x + 4.0f, at.y, rnd_rgba(240, 240, 240, 255), RND_LEFT);
}

/* Tags in order of importance: the selected car's, then the leader's and down the order. The cars' own marks are
 * placed first, so no tag covers a car. */
static void rnd_cars_tags(SDL_Renderer *r, RndText *text, const RndFrame *frame, int n, int selected,
                          RndCarDraw *out)
{
    const int *order = sim_world_order(frame->world);
    RndLabels labels;
    rnd_labels_clear(&labels);
    float half = (float)(RND_CAR_MIN_LENGTH_PX * 0.5);
    for (int i = 0; i < n && labels.count < RND_MAX_LABELS; i++)
        if (out[i].wants_tag)
            labels.rects[labels.count++] = (SDL_FRect){out[i].sx - half, out[i].sy - half, 2 * half, 2 * half};
    for (int k = -1; k < n; k++) {
        int id = k < 0 ? selected : order ? order[k] : k;
        if (id < 0 || id >= n || (k >= 0 && id == selected) || !out[id].wants_tag)
            continue;
        rnd_car_tag(r, text, sim_world_car(frame->world, id), &out[id], &labels);
    }
}

void rnd_cars_draw(RndAa *aa, RndText *text, const RndCamera *cam, const RndFrame *frame, int selected,
                   RndCarDraw *out)
{
    SDL_Renderer *r = aa->renderer;
    int n = sim_world_car_count(frame->world);
    if (n > SIM_MAX_CARS)
        n = SIM_MAX_CARS;
    /* back to front in race order, so the leader is on top; the selected car last of all */
    const int *order = sim_world_order(frame->world);
    double left_s[SIM_MAX_CARS];
    double now_s = sim_world_time(frame->world);
    rnd_left_times(frame->world, n, left_s);
    for (int i = 0; i < n; i++)
        out[i] = (RndCarDraw){0};
    for (int k = n - 1; k >= 0; k--) {
        int id = order ? order[k] : k;
        if (id < 0 || id >= n)
            continue;
        if (id == selected)
            continue;
        const SimCar *car = sim_world_car(frame->world, id);
        rnd_car_draw_one(aa, text, cam, car, rnd_pose_lerp(frame->prev, car, frame->alpha), false,
                         rnd_car_alpha(car, left_s[id], now_s, false), &out[id]);
    }
    if (selected >= 0 && selected < n) {
        const SimCar *car = sim_world_car(frame->world, selected);
        rnd_car_draw_one(aa, text, cam, car, rnd_pose_lerp(frame->prev, car, frame->alpha), true,
                         rnd_car_alpha(car, left_s[selected], now_s, true), &out[selected]);
    }
    if (text)
        rnd_cars_tags(r, text, frame, n, selected, out);
}
