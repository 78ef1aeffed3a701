/* rnd_inspector.c: the context-map inspector, the view that makes context steering understandable.
 *
 * The panel draws the selected car's two maps as bar rows over the same lateral axis (slot 0 = left edge on the
 * left, as the driver sees the road): interest in green above, danger in red below. The reachable range from the
 * walk is shaded across both rows; a white marker shows the slot the car is in, a yellow one the slot chosen, and a
 * thin yellow line the sub-slot offset the resolver interpolated. The overlay draws the same maps on the track just
 * ahead of the car, each slot at its real lateral position: interest bars point forward, danger bars back. */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>

#define RND_INSPECT_W 600.0f
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
} RndStrip;

static float rnd_strip_slot_x(const RndStrip *s, double slot)
{
    return s->x + (float)((slot + 0.5) * s->slot_w);
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
            rnd_fill_rect(r, s->x + i * s->slot_w + gap, top + RND_INSPECT_ROW_H - h, s->slot_w - 2 * gap, h, c);
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
    rnd_fill_rect(r, s->x + lo * s->slot_w, top, (hi - lo + 1) * s->slot_w, bottom - top, rnd_reach);
    rnd_fill_rect(r, s->x + lo * s->slot_w, bottom + 2.0f, (hi - lo + 1) * s->slot_w, 2.0f,
                  rnd_rgba(90, 170, 255, 255));
}

static void rnd_panel_markers(SDL_Renderer *r, const RndStrip *s, const DrvDebug *dbg, float top, float bottom)
{
    int cur = rnd_clamp_slot(dbg, dbg->current_slot);
    rnd_outline_rect(r, s->x + cur * s->slot_w, top - 1.0f, s->slot_w, bottom - top + 2.0f, rnd_white);
    int ch = rnd_clamp_slot(dbg, dbg->chosen_slot);
    rnd_outline_rect(r, s->x + ch * s->slot_w - 1.0f, top - 2.0f, s->slot_w + 2.0f, bottom - top + 4.0f, rnd_chosen);
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
    int wl = rnd_text_draw(text, RND_FONT_SMALL, buf, s->x, y, rnd_dim, RND_LEFT);
    snprintf(buf, sizeof buf, "R %+.1f m", dbg->d_right_m);
    int wr = rnd_text_draw(text, RND_FONT_SMALL, buf, s->x + s->w, y, rnd_dim, RND_RIGHT);
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
    return (int)(12.0f + line_h + 16.0f + 2 * RND_INSPECT_ROW_H + 8.0f + small_h + 14.0f);
}

void rnd_inspector_draw_panel(SDL_Renderer *r, RndText *text, const RndFrame *frame, int car_id, int view_w,
                              int view_h)
{
    if (car_id < 0 || car_id >= sim_world_car_count(frame->world))
        return;
    const SimCar *car = sim_world_car(frame->world, car_id);
    const DrvDebug *dbg = rnd_inspector_debug(frame, car_id);
    float line_h = (float)rnd_text_height(text, RND_FONT_NORMAL);
    float small_h = (float)rnd_text_height(text, RND_FONT_SMALL);
    float w = RND_INSPECT_W < view_w - 20.0f ? RND_INSPECT_W : view_w - 20.0f;
    float h = (float)rnd_inspector_panel_height(text);
    float x = view_w - w - 10.0f, y = view_h - h - 10.0f;
    rnd_fill_rect(r, x, y, w, h, rnd_rgba(RND_HUD_BG_RGB, 225));
    rnd_panel_header(text, frame, car, dbg, x + 10.0f, y + 6.0f, w - 20.0f);
    if (car->status != SIM_RUNNING || !rnd_debug_usable(dbg)) {
        /* a car that has left the track drives no more: its driver's last maps would be stale */
        char why[160];
        if (car->status == SIM_FINISHED) {
            char t[32];
            rnd_format_time(t, sizeof t, car->finish_time_s, 3);
            snprintf(why, sizeof why, "finished P%d in %s: off the track, no maps", car->position, t);
        } else if (car->status == SIM_DNF) {
            snprintf(why, sizeof why, "retired (%s): off the track, no maps", car->dnf_reason);
        } else {
            snprintf(why, sizeof why, "%s",
                     dbg && dbg->alone ? "alone: on the racing line (no car in reach, no maps built)"
                                       : "no context map (this car's driver keeps none)");
        }
        rnd_text_draw_fit(text, RND_FONT_NORMAL, why, x + w * 0.5f, y + h * 0.5f, w - 20.0f, rnd_dim, RND_CENTRE);
        return;
    }
    float label_w = (float)rnd_text_width(text, RND_FONT_SMALL, "interest") + 8.0f;
    RndStrip s;
    s.slots = dbg->slots;
    s.x = x + 10.0f + label_w;
    s.w = w - 20.0f - label_w;
    s.slot_w = s.w / s.slots;
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
