/* rnd_inspector.c: the context-map inspector, the view that makes context steering understandable.
 *
 * The panel draws the selected car's two maps as bar rows over the same lateral axis: interest in green above,
 * danger in red below. The axis runs as the track does on screen at the car (the track's left edge on the left
 * unless the car heads down the screen, when it is on the right), so the panel and the overlay on the track read
 * the same way round. The reachable range from the walk is shaded across both rows; a white marker shows the slot
 * the car is in, a yellow one the slot chosen, and a thin yellow line the sub-slot offset the resolver
 * interpolated; a legend row says so. The overlay draws the same maps on the track just ahead of the car, each slot
 * at its real lateral position: interest bars point forward, danger bars back.
 *
 * The panel sits bottom right unless a car on screen would be under it; then in the first other corner of the
 * view that covers none (the one covering fewest when every corner covers some). */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>

#define RND_INSPECT_W 600.0f
#define RND_INSPECT_NARROW_W 360.0f /* the panel beside a car it would otherwise cover */
#define RND_INSPECT_ROW_H 56.0f
#define RND_OVERLAY_AHEAD_M 8.0   /* baseline this far ahead of the car's nose */
#define RND_OVERLAY_BAR_M 6.0     /* a full (1.0) bar, m */

static const RndRgba rnd_danger = {RND_DANGER_RGB, 255};
static const RndRgba rnd_interest = {RND_INTEREST_RGB, 255};
static const RndRgba rnd_reach = {90, 170, 255, 60};
static const RndRgba rnd_chosen = {255, 215, 40, 255};
static const RndRgba rnd_dim = {150, 155, 170, 255};
static const RndRgba rnd_white = {240, 240, 245, 255};

const char *rnd_resolver_name(DrvResolver resolver)
{
    static const char *const names[DRV_RESOLVE_COUNT] = {"walk", "subtract", "mask-sum", "threshold-blend",
                                                          "min-danger"};
    return resolver >= 0 && resolver < DRV_RESOLVE_COUNT ? names[resolver] : "?";
}

const DrvDebug *rnd_inspector_debug(const RndFrame *frame, int car_id)
{
    if (frame->debug)
        return frame->debug;
    if (!frame->session || car_id < 0)
        return NULL;
    const DrvDriver *driver = sim_session_driver(frame->session, car_id);
    return driver ? drv_debug(driver) : NULL;
}

/* A debug record the panel can draw without reading past its arrays. */
static bool rnd_debug_usable(const DrvDebug *dbg)
{
    return dbg && dbg->slots >= 2 && dbg->slots <= DRV_MAX_SLOTS;
}

static int rnd_clamp_slot(const DrvDebug *dbg, int slot)
{
    return slot < 0 ? 0 : slot >= dbg->slots ? dbg->slots - 1 : slot;
}

/* ---- panel ----------------------------------------------------------------------------------------------------- */

typedef struct RndStrip {
    float x, w;     /* the slot strip */
    float slot_w;
    int slots;
    bool mirrored;  /* slot 0 (the track's left edge) on the right */
} RndStrip;

/* The centre of a (fractional) slot. */
static float rnd_strip_slot_x(const RndStrip *s, double slot)
{
    double at = s->mirrored ? s->slots - 1 - slot : slot;
    return s->x + (float)((at + 0.5) * s->slot_w);
}

/* The left edge of the cells of slots lo..hi (in either order on screen). */
static float rnd_strip_cells_x(const RndStrip *s, int lo, int hi)
{
    return s->mirrored ? s->x + (s->slots - 1 - hi) * s->slot_w : s->x + lo * s->slot_w;
}

/* One row of bars growing up from the row's bottom. */
static void rnd_panel_bars(SDL_Renderer *r, const RndStrip *s, const float *values, float top, RndRgba c)
{
    float gap = s->slot_w > 4.0f ? 1.0f : 0.0f;
    for (int i = 0; i < s->slots; i++) {
        float v = values[i];
        v = v != v ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
        float h = v * (RND_INSPECT_ROW_H - 2.0f);
        if (h > 0.0f)
            rnd_fill_rect(r, rnd_strip_cells_x(s, i, i) + gap, top + RND_INSPECT_ROW_H - h, s->slot_w - 2 * gap, h,
                          c);
    }
    /* half-way guide */
    rnd_fill_rect(r, s->x, top + RND_INSPECT_ROW_H * 0.5f, s->w, 1.0f, rnd_rgba(255, 255, 255, 30));
}

/* The reachable range, shaded behind the bars and bracketed under the strip. */
static void rnd_panel_reach(SDL_Renderer *r, const RndStrip *s, const DrvDebug *dbg, float top, float bottom)
{
    int lo = rnd_clamp_slot(dbg, dbg->reach_lo), hi = rnd_clamp_slot(dbg, dbg->reach_hi);
    /* only the walk has a reachable range; the other resolvers report the whole map, which would say nothing */
    if (hi < lo || dbg->resolver != DRV_RESOLVE_WALK)
        return;
    float x = rnd_strip_cells_x(s, lo, hi);
    rnd_fill_rect(r, x, top, (hi - lo + 1) * s->slot_w, bottom - top, rnd_reach);
    rnd_fill_rect(r, x, bottom + 2.0f, (hi - lo + 1) * s->slot_w, 2.0f, rnd_rgba(90, 170, 255, 255));
}

static void rnd_panel_markers(SDL_Renderer *r, const RndStrip *s, const DrvDebug *dbg, float top, float bottom)
{
    int cur = rnd_clamp_slot(dbg, dbg->current_slot);
    rnd_outline_rect(r, rnd_strip_cells_x(s, cur, cur), top - 1.0f, s->slot_w, bottom - top + 2.0f, rnd_white);
    int ch = rnd_clamp_slot(dbg, dbg->chosen_slot);
    rnd_outline_rect(r, rnd_strip_cells_x(s, ch, ch) - 1.0f, top - 2.0f, s->slot_w + 2.0f, bottom - top + 4.0f,
                     rnd_chosen);
    /* the interpolated offset: where the slot axis puts chosen_d */
    double span = dbg->d_left_m - dbg->d_right_m;
    if (span > 1e-9) {
        double f = (dbg->d_left_m - dbg->chosen_d_m) / span * (dbg->slots - 1);
        float cx = rnd_strip_slot_x(s, f < 0.0 ? 0.0 : f > dbg->slots - 1 ? dbg->slots - 1 : f);
        rnd_fill_rect(r, cx - 1.0f, top - 8.0f, 2.0f, bottom - top + 16.0f, rnd_chosen);
        float tri[8] = {cx - 5.0f, top - 12.0f, cx + 5.0f, top - 12.0f, cx, top - 4.0f, cx, top - 4.0f};
        rnd_fill_quad(r, tri, rnd_chosen);
    }
}

static void rnd_panel_header(RndText *text, const RndFrame *frame, const SimCar *car, const DrvDebug *dbg, float x,
                             float y, float w)
{
    char buf[160];
    snprintf(buf, sizeof buf, "#%d %s", car->number, car->name);
    (void)frame;
    bool maps = rnd_debug_usable(dbg) && car->status == SIM_RUNNING;
    /* the name ends before the map's description starts */
    float info_x = x + w * 0.45f;
    rnd_text_draw_fit(text, RND_FONT_BOLD, buf, x, y, maps ? info_x - x - 12.0f : w, rnd_white, RND_LEFT);
    if (!maps)
        return;
    float info_end = x + w;
    if (dbg->braking_for_danger)
        info_end -= (float)rnd_text_draw(text, RND_FONT_BOLD, "BRAKING", x + w, y, rnd_danger, RND_RIGHT) + 10.0f;
    snprintf(buf, sizeof buf, "%d slots   resolver %s", dbg->slots, rnd_resolver_name(dbg->resolver));
    rnd_text_draw_fit(text, RND_FONT_NORMAL, buf, info_x, y, info_end - info_x, rnd_dim, RND_LEFT);
}

static void rnd_panel_footer(RndText *text, const SimCar *car, const DrvDebug *dbg, const RndStrip *s, float y)
{
    char buf[160];
    snprintf(buf, sizeof buf, "L %+.1f m", dbg->d_left_m);
    int wl = rnd_text_draw(text, RND_FONT_SMALL, buf, s->mirrored ? s->x + s->w : s->x, y, rnd_dim,
                           s->mirrored ? RND_RIGHT : RND_LEFT);
    snprintf(buf, sizeof buf, "R %+.1f m", dbg->d_right_m);
    int wr = rnd_text_draw(text, RND_FONT_SMALL, buf, s->mirrored ? s->x : s->x + s->w, y, rnd_dim,
                           s->mirrored ? RND_LEFT : RND_RIGHT);
    snprintf(buf, sizeof buf, "d %+.2f  ->  %+.2f m (slot %d)   %.0f -> %.0f km/h", car->d_m, dbg->chosen_d_m,
             dbg->chosen_slot, car->speed_mps * 3.6, car->last_controls.target_speed_mps * 3.6);
    /* centred between the edge labels, clear of both */
    float room = s->w - 2.0f * (float)(wl > wr ? wl : wr) - 24.0f;
    rnd_text_draw_fit(text, RND_FONT_SMALL, buf, s->x + s->w * 0.5f, y, room, rnd_chosen, RND_CENTRE);
}

int rnd_inspector_panel_height(RndText *text)
{
    float line_h = (float)rnd_text_height(text, RND_FONT_NORMAL);
    float small_h = (float)rnd_text_height(text, RND_FONT_SMALL);
    return (int)(12.0f + line_h + 16.0f + 2 * RND_INSPECT_ROW_H + 8.0f + 2 * small_h + 18.0f);
}

/* The legend row: what the shading and the boxes mean. */
static void rnd_panel_legend(SDL_Renderer *r, RndText *text, float x, float y, float w)
{
    bool brief = w < 460.0f;
    float sh = (float)rnd_text_height(text, RND_FONT_SMALL), box = sh - 4.0f, cy = y + 2.0f;
    float at = x;
    rnd_fill_rect(r, at, cy, box * 1.6f, box, rnd_rgba(90, 170, 255, 120));
    at += box * 1.6f + 5.0f;
    at += (float)rnd_text_draw(text, RND_FONT_SMALL, brief ? "reach" : "reachable", at, y, rnd_dim, RND_LEFT) + 14.0f;
    rnd_outline_rect(r, at, cy, box, box, rnd_white);
    at += box + 5.0f;
    at += (float)rnd_text_draw(text, RND_FONT_SMALL, brief ? "car" : "the car's slot", at, y, rnd_dim, RND_LEFT) + 14.0f;
    rnd_outline_rect(r, at, cy, box, box, rnd_chosen);
    at += box + 5.0f;
    at += (float)rnd_text_draw(text, RND_FONT_SMALL, brief ? "chosen" : "chosen slot", at, y, rnd_dim, RND_LEFT) + 14.0f;
    rnd_fill_rect(r, at + box * 0.5f - 1.0f, cy - 1.0f, 2.0f, box + 2.0f, rnd_chosen);
    at += box + 5.0f;
    at += (float)rnd_text_draw(text, RND_FONT_SMALL, brief ? "offset" : "chosen offset", at, y, rnd_dim, RND_LEFT) + 14.0f;
    if (!brief)
        rnd_text_draw_fit(text, RND_FONT_SMALL, "bar = 0..1", x + w, y, x + w - at, rnd_dim, RND_RIGHT);
}

/* True when the track's left edge lies to the right on screen at the car: the car heads down the screen. */
static bool rnd_panel_mirrored(const RndCamera *cam, const SimWorld *world, const SimCar *car)
{
    TrkPose p = trk_pose_at(sim_world_track(world), car->s_m, NULL);
    float x0, y0, x1, y1;
    rnd_camera_to_screen(cam, p.x_m, p.y_m, &x0, &y0);
    rnd_camera_to_screen(cam, p.x_m + p.nx, p.y_m + p.ny, &x1, &y1);
    return x1 - x0 > 0.2f * (float)cam->scale_ppm;
}

/* How many cars drawn last pass lie under (or within `margin` of) the rectangle. */
static int rnd_panel_covers(const RndView *view, const SDL_FRect *rc, float margin)
{
    int n = 0;
    for (int i = 0; i < view->car_count; i++) {
        const RndCarDraw *c = &view->cars[i];
        if (c->drawn && c->sx > rc->x - margin && c->sx < rc->x + rc->w + margin && c->sy > rc->y - margin &&
            c->sy < rc->y + rc->h + margin)
            n++;
    }
    return n;
}

/* Bottom right, else beside the tower, else a narrower panel at the right (bottom, then below the track map),
 * else at the top beside the tower: the first spot that covers no car, or the one covering fewest. The overview
 * keeps the track out of the bottom right already. */
static SDL_FRect rnd_panel_place(const RndView *view, float w, float h, int view_w, int view_h)
{
    float narrow = w < RND_INSPECT_NARROW_W ? w : RND_INSPECT_NARROW_W;
    float left = (float)view->cam.inset_left_px + 10.0f, bottom = view_h - h - 10.0f;
    SDL_FRect map = rnd_minimap_panel(&view->minimap, view_w);
    SDL_FRect spots[6] = {{view_w - w - 10.0f, bottom, w, h},     {left, bottom, w, h},
                          {view_w - narrow - 10.0f, bottom, narrow, h}, {view_w - narrow - 10.0f, map.y + map.h + 10.0f, narrow, h},
                          {left, bottom, narrow, h},              {left, 50.0f, w, h}};
    int n_spots = view->cam.mode == RND_CAM_OVERVIEW ? 1 : 6;
    /* a car's centre within about half a car of the panel is a car under it */
    float margin = (float)fmax(8.0, 2.5 * view->cam.scale_ppm);
    int best = 0, best_n = rnd_panel_covers(view, &spots[0], margin);
    for (int i = 1; i < n_spots && best_n > 0; i++) {
        int k = rnd_panel_covers(view, &spots[i], margin);
        if (k < best_n)
            best = i, best_n = k;
    }
    return spots[best];
}

/* Why there are no maps to show. */
static void rnd_panel_no_maps(const SimWorld *world, const SimCar *car, const DrvDebug *dbg, char *why, size_t len)
{
    if (car->status == SIM_FINISHED) {
        char t[32];
        rnd_format_result_time(t, sizeof t, car->finish_time_s);
        snprintf(why, len, "finished P%d in %s: its race is over, no maps", car->position, t);
    } else if (car->status == SIM_DNF) {
        snprintf(why, len, "retired (%s): out of the race, no maps", car->dnf_reason);
    } else if (!dbg) {
        snprintf(why, len, "no context map: this car's driver model keeps none");
    } else if (dbg->alone) {
        snprintf(why, len, "alone: on the racing line (no car in reach, no maps built)");
    } else {
        snprintf(why, len, sim_world_tick(world) == 0 ? "on the grid: the maps are built from the first step"
                                                      : "no maps yet");
    }
}

void rnd_inspector_draw_panel(RndView *view, const RndFrame *frame, int car_id, int view_w, int view_h)
{
    if (car_id < 0 || car_id >= sim_world_car_count(frame->world))
        return;
    SDL_Renderer *r = view->renderer;
    RndText *text = view->text;
    const SimCar *car = sim_world_car(frame->world, car_id);
    const DrvDebug *dbg = rnd_inspector_debug(frame, car_id);
    float line_h = (float)rnd_text_height(text, RND_FONT_NORMAL);
    float small_h = (float)rnd_text_height(text, RND_FONT_SMALL);
    float h = (float)rnd_inspector_panel_height(text);
    SDL_FRect at = rnd_panel_place(view, RND_INSPECT_W < view_w - 20.0f ? RND_INSPECT_W : view_w - 20.0f, h, view_w,
                                   view_h);
    view->inspector_rect = at;
    float x = at.x, y = at.y, w = at.w;
    rnd_aa_panel(&view->aa, x, y, w, h, view->cam.mode == RND_CAM_OVERVIEW ? 225 : 200);
    rnd_panel_header(text, frame, car, dbg, x + 10.0f, y + 6.0f, w - 20.0f);
    if (car->status != SIM_RUNNING || !rnd_debug_usable(dbg)) {
        /* a car that has left the race drives no more: its driver's last maps would be stale */
        char why[160];
        rnd_panel_no_maps(frame->world, car, dbg, why, sizeof why);
        rnd_text_draw_fit(text, RND_FONT_NORMAL, why, x + w * 0.5f, y + h * 0.5f, w - 20.0f, rnd_dim, RND_CENTRE);
        return;
    }
    float label_w = (float)rnd_text_width(text, RND_FONT_SMALL, "interest") + 8.0f;
    RndStrip s;
    s.slots = dbg->slots;
    s.x = x + 10.0f + label_w;
    s.w = w - 20.0f - label_w;
    s.slot_w = s.w / s.slots;
    s.mirrored = rnd_panel_mirrored(&view->cam, frame->world, car);
    float top = y + 12.0f + line_h + 16.0f;
    rnd_text_draw(text, RND_FONT_SMALL, "interest", x + 8.0f, top + RND_INSPECT_ROW_H * 0.5f - small_h * 0.5f,
                  rnd_interest, RND_LEFT);
    rnd_text_draw(text, RND_FONT_SMALL, "danger", x + 8.0f, top + RND_INSPECT_ROW_H * 1.5f + 2.0f - small_h * 0.5f,
                  rnd_danger, RND_LEFT);
    float bottom = top + 2 * RND_INSPECT_ROW_H + 4.0f;
    rnd_fill_rect(r, s.x, top, s.w, RND_INSPECT_ROW_H, rnd_rgba(255, 255, 255, 14));
    rnd_fill_rect(r, s.x, top + RND_INSPECT_ROW_H + 4.0f, s.w, RND_INSPECT_ROW_H, rnd_rgba(255, 255, 255, 14));
    rnd_panel_reach(r, &s, dbg, top, bottom);
    rnd_panel_bars(r, &s, dbg->interest, top, rnd_interest);
    rnd_panel_bars(r, &s, dbg->danger, top + RND_INSPECT_ROW_H + 4.0f, rnd_danger);
    rnd_panel_markers(r, &s, dbg, top, bottom);
    rnd_panel_footer(text, car, dbg, &s, bottom + 8.0f);
    rnd_panel_legend(r, text, s.x, bottom + 12.0f + small_h, s.w);
}

/* ---- overlay on the track -------------------------------------------------------------------------------------- */

void rnd_inspector_draw_overlay(SDL_Renderer *r, const RndCamera *cam, const RndFrame *frame, int car_id)
{
    if (car_id < 0 || car_id >= sim_world_car_count(frame->world))
        return;
    const DrvDebug *dbg = rnd_inspector_debug(frame, car_id);
    const SimCar *car = sim_world_car(frame->world, car_id);
    if (!rnd_debug_usable(dbg) || car->status != SIM_RUNNING)
        return;
    const TrkTrack *track = sim_world_track(frame->world);
    const SimWorldDef *wd = sim_world_def(frame->world);
    double dt = wd->tick_hz > 0.0 ? 1.0 / wd->tick_hz : 0.0;
    double a = frame->prev ? (frame->alpha < 0.0 ? 0.0 : frame->alpha > 1.0 ? 1.0 : frame->alpha) : 1.0;
    /* where the interpolated car is, not where the last tick left it */
    double s = car->s_m - (1.0 - a) * car->speed_mps * dt + 0.5 * car->spec.length_m + RND_OVERLAY_AHEAD_M;
    TrkPose p = trk_pose_at(track, trk_wrap_s(track, s), NULL);
    double step = (dbg->d_left_m - dbg->d_right_m) / (dbg->slots - 1);
    float bar_px = (float)fmax(1.0, 0.7 * step * cam->scale_ppm);
    for (int i = 0; i < dbg->slots; i++) {
        double d = dbg->d_left_m - i * step;
        double bx = p.x_m + p.nx * d, by = p.y_m + p.ny * d;
        float x0, y0, x1, y1;
        rnd_camera_to_screen(cam, bx, by, &x0, &y0);
        double li = fmin(fmax(dbg->interest[i], 0.0), 1.0) * RND_OVERLAY_BAR_M;
        double ld = fmin(fmax(dbg->danger[i], 0.0), 1.0) * RND_OVERLAY_BAR_M;
        bool reach = i >= dbg->reach_lo && i <= dbg->reach_hi;
        if (li > 0.0) {
            rnd_camera_to_screen(cam, bx + p.tx * li, by + p.ty * li, &x1, &y1);
            rnd_thick_line(r, x0, y0, x1, y1, bar_px, rnd_rgba(RND_INTEREST_RGB, reach ? 230 : 110));
        }
        if (ld > 0.0) {
            rnd_camera_to_screen(cam, bx - p.tx * ld, by - p.ty * ld, &x1, &y1);
            rnd_thick_line(r, x0, y0, x1, y1, bar_px, rnd_rgba(RND_DANGER_RGB, reach ? 230 : 110));
        }
    }
    /* the baseline across the reachable range, and the chosen offset */
    float ax, ay, bx2, by2;
    double dlo = dbg->d_left_m - rnd_clamp_slot(dbg, dbg->reach_lo) * step;
    double dhi = dbg->d_left_m - rnd_clamp_slot(dbg, dbg->reach_hi) * step;
    rnd_camera_to_screen(cam, p.x_m + p.nx * dlo, p.y_m + p.ny * dlo, &ax, &ay);
    rnd_camera_to_screen(cam, p.x_m + p.nx * dhi, p.y_m + p.ny * dhi, &bx2, &by2);
    rnd_thick_line(r, ax, ay, bx2, by2, 2.0f, rnd_rgba(90, 170, 255, 255));
    float cx, cy;
    rnd_camera_to_screen(cam, p.x_m + p.nx * dbg->chosen_d_m, p.y_m + p.ny * dbg->chosen_d_m, &cx, &cy);
    rnd_fill_circle(r, cx, cy, (float)fmax(3.0, 0.5 * cam->scale_ppm), rnd_chosen);
}
