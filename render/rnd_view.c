/* rnd_view.c: the public face of the render module. A RndView owns the renderer-side resources and the UI state,
 * turns input events into camera moves, selections and requests for the window loop, and draws a frame in layers:
 * grass, track, map overlay, cars, HUD, inspector panel, timeline, results, help. The grass and track of a camera
 * that stays still are drawn once into a texture; the CPU time of each layer is kept for the window's bench. */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RND_CLICK_RADIUS_PX 24.0f
#define RND_DRAG_THRESHOLD_PX 3.0f
#define RND_WHEEL_ZOOM 1.15

RndViewDef rnd_default_view_def(void)
{
    RndViewDef def = {NULL, 14, 0};
    return def;
}

/* ---- lifetime -------------------------------------------------------------------------------------------------- */

RndView *rnd_view_create(SDL_Renderer *renderer, const RndViewDef *def, char *err, size_t err_len)
{
    RndViewDef d = def ? *def : rnd_default_view_def();
    RndView *view = calloc(1, sizeof *view);
    if (!view) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    view->renderer = renderer;
    if (rnd_aa_init(&view->aa, renderer, d.pixel_format) != 0) {
        snprintf(err, err_len, "out of memory");
        free(view);
        return NULL;
    }
    view->text = rnd_text_create(renderer, d.font_path, d.font_px, err, err_len);
    if (!view->text) {
        rnd_aa_free(&view->aa);
        free(view);
        return NULL;
    }
    view->ui.speed_index = RND_SPEED_1X;
    view->ui.selected = 0;
    view->ui.inspector = true;
    view->cam.mode = RND_CAM_OVERVIEW;
    view->hud.last_event_tick = -1;
    return view;
}

void rnd_view_destroy(RndView *view)
{
    if (!view)
        return;
    rnd_track_free(&view->geom);
    rnd_minimap_free(&view->minimap);
    rnd_timing_free(&view->timing);
    rnd_text_destroy(view->text);
    if (view->bg)
        SDL_DestroyTexture(view->bg);
    rnd_aa_free(&view->aa);
    free(view);
}

void rnd_view_set_antialias(RndView *view, bool on)
{
    view->aa.enabled = on;
    view->bg_valid = false;
}

/* The screen area the HUD column and the inspector panel cover, which the overview keeps the track out of. */
static void rnd_view_insets(RndView *view, bool has_selection)
{
    view->cam.inset_left_px = rnd_tower_width(view->text) + 10;
    view->cam.inset_bottom_px = view->ui.inspector && has_selection ? rnd_inspector_panel_height(view->text) + 10 : 0;
}

void rnd_view_reset(RndView *view, const SimWorld *world)
{
    rnd_track_build(&view->geom, sim_world_track(world));
    rnd_minimap_build(&view->minimap, &view->geom);
    view->bg_valid = false;
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(view->renderer, &w, &h);
    view->cam.view_w = w;
    view->cam.view_h = h;
    rnd_view_insets(view, view->ui.selected >= 0);
    rnd_camera_init(&view->cam, view->geom.min_x_m, view->geom.min_y_m, view->geom.max_x_m, view->geom.max_y_m);
    rnd_hud_reset(&view->hud);
    rnd_timing_reset(&view->timing, world);
    rnd_director_reset(&view->director, world);
    view->car_count = 0;
    view->ui.results_hidden = false; /* a new race shows its results again */
    if (view->ui.selected >= sim_world_car_count(world))
        view->ui.selected = sim_world_car_count(world) > 0 ? 0 : -1;
}

void rnd_view_observe(RndView *view, const SimWorld *world)
{
    rnd_hud_observe(&view->hud, world);
    rnd_timing_observe(&view->timing, world);
    rnd_director_observe(&view->director, &view->timing, world);
}

bool rnd_view_director_shot(const RndView *view, int *car, int *rival)
{
    *car = view->director.car;
    *rival = view->director.rival;
    return view->director.car >= 0;
}

RndUi *rnd_view_ui(RndView *view) { return &view->ui; }

int rnd_view_timing(const RndView *view, const SimWorld *world, RndTimingRow *rows)
{
    return rnd_timing_rows(&view->timing, world, rows);
}

RndCamera *rnd_view_camera(RndView *view) { return &view->cam; }

bool rnd_view_car_screen_pos(const RndView *view, int car_id, float *sx, float *sy)
{
    if (car_id < 0 || car_id >= view->car_count || !view->cars[car_id].drawn)
        return false;
    *sx = view->cars[car_id].sx;
    *sy = view->cars[car_id].sy;
    return true;
}

bool rnd_view_car_tag(const RndView *view, int car_id, SDL_FRect *rect)
{
    if (car_id < 0 || car_id >= view->car_count || !view->cars[car_id].tagged)
        return false;
    *rect = view->cars[car_id].tag;
    return true;
}

/* ---- input ----------------------------------------------------------------------------------------------------- */

/* Choosing a car by hand while the director cuts: follow that car instead. */
static void rnd_view_take_over(RndView *view)
{
    if (view->cam.mode == RND_CAM_DIRECTOR)
        view->cam.mode = RND_CAM_FOLLOW;
}

/* The next car in race order after the selected one (dir = +1) or before it (dir = -1). */
static void rnd_view_cycle(RndView *view, const SimWorld *world, int dir)
{
    int n = sim_world_car_count(world);
    const int *order = sim_world_order(world);
    if (n <= 0 || !order)
        return;
    int pos = 0;
    for (int k = 0; k < n; k++)
        if (order[k] == view->ui.selected)
            pos = k;
    view->ui.selected = order[((pos + dir) % n + n) % n];
    rnd_view_take_over(view);
}

static void rnd_view_click(RndView *view, float x, float y)
{
    const RndTowerHits *t = &view->tower_hits;
    for (int k = 0; k < t->count; k++)
        if (x >= t->row[k].x && x < t->row[k].x + t->row[k].w && y >= t->row[k].y && y < t->row[k].y + t->row[k].h) {
            view->ui.selected = t->car[k]; /* a row of the tower: its car */
            rnd_view_take_over(view);
            return;
        }
    int best = -1;
    float best_d2 = RND_CLICK_RADIUS_PX * RND_CLICK_RADIUS_PX;
    for (int i = 0; i < view->car_count; i++) {
        if (!view->cars[i].drawn)
            continue;
        float dx = view->cars[i].sx - x, dy = view->cars[i].sy - y;
        if (dx * dx + dy * dy < best_d2) {
            best_d2 = dx * dx + dy * dy;
            best = i;
        }
    }
    if (best >= 0) {
        view->ui.selected = best;
        rnd_view_take_over(view);
    }
}

static void rnd_view_key(RndView *view, const SDL_KeyboardEvent *key, const RndFrame *frame, RndActions *out)
{
    RndUi *ui = &view->ui;
    switch (key->keysym.sym) {
    case SDLK_ESCAPE:
    case SDLK_q:
        out->quit = true;
        break;
    case SDLK_SPACE:
        ui->paused = !ui->paused;
        break;
    case SDLK_PERIOD:
        if (ui->paused)
            out->step_once = true;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        ui->speed_index = ui->speed_index + 1 < RND_SPEED_COUNT ? ui->speed_index + 1 : ui->speed_index;
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        ui->speed_index = ui->speed_index > 0 ? ui->speed_index - 1 : 0;
        break;
    case SDLK_TAB:
        rnd_view_cycle(view, frame->world, (key->keysym.mod & KMOD_SHIFT) ? -1 : 1);
        break;
    case SDLK_c: /* director -> follow the selected car -> chase it -> overview -> director */
        view->cam.mode = view->cam.mode == RND_CAM_DIRECTOR ? RND_CAM_FOLLOW
                         : view->cam.mode == RND_CAM_FOLLOW ? RND_CAM_CHASE
                         : view->cam.mode == RND_CAM_CHASE  ? RND_CAM_OVERVIEW
                                                            : RND_CAM_DIRECTOR;
        rnd_camera_update(&view->cam, view->cam.view_w, view->cam.view_h);
        break;
    case SDLK_m:
        ui->inspector = !ui->inspector;
        break;
    case SDLK_h:
        ui->help = !ui->help;
        break;
    case SDLK_s:
        out->screenshot = true;
        break;
    case SDLK_r:
        out->restart = true;
        break;
    case SDLK_RETURN:
        ui->results_hidden = !ui->results_hidden;
        break;
    case SDLK_LEFT:
    case SDLK_RIGHT:
        out->seek_s = ((key->keysym.mod & KMOD_SHIFT) ? RND_SEEK_LONG_S : RND_SEEK_S) *
                      (key->keysym.sym == SDLK_LEFT ? -1.0 : 1.0);
        break;
    default:
        break;
    }
}

void rnd_view_handle_event(RndView *view, const SDL_Event *ev, const RndFrame *frame, RndActions *out)
{
    switch (ev->type) {
    case SDL_QUIT:
        out->quit = true;
        break;
    case SDL_KEYDOWN:
        rnd_view_key(view, &ev->key, frame, out);
        break;
    case SDL_MOUSEWHEEL: {
        int mx = 0, my = 0;
        SDL_GetMouseState(&mx, &my);
        double f = ev->wheel.y > 0 ? RND_WHEEL_ZOOM : ev->wheel.y < 0 ? 1.0 / RND_WHEEL_ZOOM : 1.0;
        rnd_camera_zoom_at(&view->cam, f, (float)mx, (float)my);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        if (ev->button.button == SDL_BUTTON_LEFT) {
            view->dragging = true;
            view->drag_moved = false;
            view->drag_x = (float)ev->button.x;
            view->drag_y = (float)ev->button.y;
        }
        break;
    case SDL_MOUSEMOTION:
        if (view->dragging) {
            float dx = ev->motion.x - view->drag_x, dy = ev->motion.y - view->drag_y;
            if (view->drag_moved || dx * dx + dy * dy > RND_DRAG_THRESHOLD_PX * RND_DRAG_THRESHOLD_PX) {
                view->drag_moved = true;
                rnd_camera_pan(&view->cam, dx, dy);
                view->drag_x = (float)ev->motion.x;
                view->drag_y = (float)ev->motion.y;
            }
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (ev->button.button == SDL_BUTTON_LEFT && view->dragging) {
            if (!view->drag_moved)
                rnd_view_click(view, (float)ev->button.x, (float)ev->button.y);
            view->dragging = false;
        }
        break;
    default:
        break;
    }
}

/* ---- drawing --------------------------------------------------------------------------------------------------- */

/* The director's framing: both cars of a fight (zoomed out to hold them when needed), else the followed car. */
static void rnd_view_frame_shot(RndView *view, const RndFrame *frame, int car)
{
    const SimWorld *world = frame->world;
    RndPose p = rnd_pose_lerp(frame->prev, sim_world_car(world, car), frame->alpha);
    int rival = view->director.rival;
    if (rival >= 0 && rival < view->car_count && sim_world_car(world, rival)->status == SIM_RUNNING) {
        RndPose q = rnd_pose_lerp(frame->prev, sim_world_car(world, rival), frame->alpha);
        if (rnd_camera_frame_pair(&view->cam, p.x_m, p.y_m, q.x_m, q.y_m))
            return;
    }
    rnd_camera_centre(&view->cam, p.x_m, p.y_m);
}

/* Heading up along the track, not the car's own heading, which would swing the whole view with every correction. */
static void rnd_view_chase(RndView *view, const RndFrame *frame, int car)
{
    const SimCar *c = sim_world_car(frame->world, car);
    RndPose p = rnd_pose_lerp(frame->prev, c, frame->alpha);
    TrkPose t = trk_pose_at(sim_world_track(frame->world), c->s_m, NULL);
    rnd_camera_chase(&view->cam, p.x_m, p.y_m, atan2(t.ty, t.tx));
}

/* True when two cameras put every world point at the same pixel. */
static bool rnd_view_same_camera(const RndCamera *a, const RndCamera *b)
{
    return a->cx_m == b->cx_m && a->cy_m == b->cy_m && a->scale_ppm == b->scale_ppm && a->rot_rad == b->rot_rad &&
           a->view_w == b->view_w && a->view_h == b->view_h && a->inset_left_px == b->inset_left_px &&
           a->inset_bottom_px == b->inset_bottom_px;
}

static void rnd_view_draw_ground(RndView *view)
{
    SDL_Renderer *r = view->renderer;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, RND_GRASS_RGB, 255);
    SDL_RenderClear(r);
    rnd_track_draw(&view->geom, &view->aa, &view->cam);
}

/* Grass and track. A camera that has not moved since the last frame (the overview, anything paused) is drawn once
 * into a texture and copied from there while it stays; a moving one is drawn straight, as copying the texture
 * would only add to a frame it cannot save. */
static void rnd_view_background(RndView *view)
{
    SDL_Renderer *r = view->renderer;
    bool still = view->last_cam_set && rnd_view_same_camera(&view->cam, &view->last_cam);
    view->last_cam = view->cam;
    view->last_cam_set = true;
    if (still && !(view->bg_valid && rnd_view_same_camera(&view->cam, &view->bg_cam))) {
        int tw = 0, th = 0;
        if (view->bg)
            SDL_QueryTexture(view->bg, NULL, NULL, &tw, &th);
        if (view->bg && (tw != view->cam.view_w || th != view->cam.view_h)) {
            SDL_DestroyTexture(view->bg);
            view->bg = NULL;
        }
        if (!view->bg)
            view->bg = SDL_CreateTexture(r, view->aa.format, SDL_TEXTUREACCESS_TARGET, view->cam.view_w,
                                         view->cam.view_h);
        SDL_Texture *target = SDL_GetRenderTarget(r);
        view->bg_valid = view->bg && SDL_SetRenderTarget(r, view->bg) == 0;
        if (view->bg_valid) {
            rnd_view_draw_ground(view);
            view->bg_valid = SDL_SetRenderTarget(r, target) == 0;
            view->bg_cam = view->cam;
        }
    }
    if (still && view->bg_valid) {
        SDL_SetTextureBlendMode(view->bg, SDL_BLENDMODE_NONE);
        SDL_RenderCopy(r, view->bg, NULL, NULL);
    } else {
        rnd_view_draw_ground(view);
    }
}

/* The calling thread's CPU time, ms: what a layer cost, whatever else the machine is running. */
static double rnd_cpu_ms(void)
{
    struct timespec t;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? t.tv_sec * 1e3 + t.tv_nsec * 1e-6 : 0.0;
}

/* Books the CPU time since t0 to a layer; returns now. */
static double rnd_view_lap(RndView *view, RndLayer layer, double t0)
{
    double now = rnd_cpu_ms();
    view->layer_ms[layer] += now - t0;
    return now;
}

void rnd_view_draw(RndView *view, const RndFrame *frame)
{
    SDL_Renderer *r = view->renderer;
    const SimWorld *world = frame->world;
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(r, &w, &h);
    if (view->geom.track != sim_world_track(world))
        rnd_view_reset(view, world);
    int n = sim_world_car_count(world);
    view->car_count = n < SIM_MAX_CARS ? n : SIM_MAX_CARS;
    bool director = view->cam.mode == RND_CAM_DIRECTOR;
    if (director && view->director.car >= 0 && view->director.car < view->car_count)
        view->ui.selected = view->director.car; /* the inspector, tower and map show the director's car */
    int sel = view->ui.selected >= 0 && view->ui.selected < view->car_count ? view->ui.selected : -1;
    rnd_view_insets(view, sel >= 0);
    rnd_camera_update(&view->cam, w, h);
    if (view->cam.mode == RND_CAM_FOLLOW && sel >= 0) {
        RndPose p = rnd_pose_lerp(frame->prev, sim_world_car(world, sel), frame->alpha);
        rnd_camera_centre(&view->cam, p.x_m, p.y_m);
    } else if (view->cam.mode == RND_CAM_CHASE && sel >= 0) {
        rnd_view_chase(view, frame, sel);
    } else if (director && sel >= 0) {
        rnd_view_frame_shot(view, frame, sel);
    }
    for (int k = 0; k < RND_LAYER_COUNT; k++)
        view->layer_ms[k] = 0.0;
    double t = rnd_cpu_ms();
    rnd_view_background(view);
    t = rnd_view_lap(view, RND_LAYER_TRACK, t);
    if (view->ui.inspector && sel >= 0)
        rnd_inspector_draw_overlay(r, &view->cam, frame, sel);
    rnd_cars_draw(&view->aa, view->text, &view->cam, frame, sel, view->cars);
    t = rnd_view_lap(view, RND_LAYER_CARS, t);
    if (view->cam.mode != RND_CAM_OVERVIEW) /* the overview shows the whole track already */
        rnd_minimap_draw(&view->aa, view->text, &view->minimap, frame, sel, w);
    if (director)
        rnd_director_draw_caption(&view->aa, view->text, &view->director, world, (float)view->cam.inset_left_px,
                                  rnd_minimap_panel(&view->minimap, w).x);
    t = rnd_view_lap(view, RND_LAYER_MAP, t);
    rnd_hud_draw(&view->aa, view->text, &view->hud, &view->timing, frame, &view->ui, &view->cam,
                 view->timeline != NULL, w, h, &view->tower_hits);
    t = rnd_view_lap(view, RND_LAYER_HUD, t);
    if (view->ui.inspector && sel >= 0)
        rnd_inspector_draw_panel(view, frame, sel, w, h);
    t = rnd_view_lap(view, RND_LAYER_PANEL, t);
    if (view->timeline) /* at the foot of the HUD column, which keeps room for it */
        rnd_timeline_draw(r, view->text, view->timeline, (float)view->cam.inset_left_px - 10.0f, h);
    t = rnd_view_lap(view, RND_LAYER_HUD, t);
    if (sim_world_done(world) && !view->ui.results_hidden)
        rnd_hud_draw_results(&view->aa, view->text, frame, w, h);
    if (view->ui.help)
        rnd_hud_draw_help(&view->aa, view->text, w, h);
    rnd_view_lap(view, RND_LAYER_OVER, t);
}

const double *rnd_view_layer_ms(const RndView *view) { return view->layer_ms; }

const char *rnd_layer_name(RndLayer layer)
{
    static const char *const names[RND_LAYER_COUNT] = {"track", "cars", "map", "hud", "panel", "over"};
    return layer >= 0 && layer < RND_LAYER_COUNT ? names[layer] : "?";
}

/* ---- screenshots ----------------------------------------------------------------------------------------------- */

uint8_t *rnd_read_rgb(SDL_Renderer *renderer, int *w, int *h, char *err, size_t err_len)
{
    if (SDL_GetRendererOutputSize(renderer, w, h) != 0 || *w <= 0 || *h <= 0) {
        snprintf(err, err_len, "cannot read the renderer's size: %s", SDL_GetError());
        return NULL;
    }
    uint8_t *rgb = malloc((size_t)*w * (size_t)*h * 3);
    if (!rgb) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    if (SDL_RenderReadPixels(renderer, NULL, SDL_PIXELFORMAT_RGB24, rgb, *w * 3) != 0) {
        snprintf(err, err_len, "cannot read the frame: %s", SDL_GetError());
        free(rgb);
        return NULL;
    }
    return rgb;
}
