/* app_frames.c: the viewer's frames without a window: screenshots (`run --screenshot`) and the pieces shared with
 * the window loop and video clips (app_frames.h). */
#include "app_frames.h"

#include "app_out.h"

#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int app_frame_save(SDL_Renderer *renderer, const char *path, char *err, size_t err_len)
{
    int w = 0, h = 0;
    uint8_t *rgb = rnd_read_rgb(renderer, &w, &h, err, err_len);
    if (!rgb)
        return -1;
    AppOut out;
    int rc = app_out_open(&out, path, err, err_len);
    if (rc == 0) {
        size_t n = strlen(path);
        bool bmp = n >= 4 && strcasecmp(path + n - 4, ".bmp") == 0;
        if ((bmp ? rnd_bmp_write : rnd_png_write)(out.f, rgb, w, h, 3 * w) != 0) {
            app_out_abort(&out);
            snprintf(err, err_len, "%s: cannot write the screenshot", path);
            rc = -1;
        } else {
            rc = app_out_commit(&out, err, err_len);
        }
    }
    free(rgb);
    return rc == 0 ? 0 : -1;
}

void app_frames_size(const AppViewOpts *opts, int *w, int *h)
{
    *w = opts->width > 0 ? opts->width : APP_DEFAULT_W;
    *h = opts->height > 0 ? opts->height : APP_DEFAULT_H;
}

double app_frames_dt(SimWorld *world)
{
    double hz = sim_world_def(world)->tick_hz;
    return hz > 0.0 ? 1.0 / hz : 0.01;
}

RndCameraMode app_frames_camera(const AppViewOpts *opts, RndCameraMode fallback)
{
    if (!opts->camera)
        return fallback;
    if (strcmp(opts->camera, "follow") == 0)
        return RND_CAM_FOLLOW;
    if (strcmp(opts->camera, "director") == 0)
        return RND_CAM_DIRECTOR;
    if (strcmp(opts->camera, "chase") == 0)
        return RND_CAM_CHASE;
    return strcmp(opts->camera, "overview") == 0 ? RND_CAM_OVERVIEW : fallback;
}

long app_frames_tick_at(SimWorld *world, double at_s)
{
    return (long)(at_s / app_frames_dt(world) + 0.5);
}

bool app_frames_warn_past_end(SimWorld *world, const char *option, double at_s)
{
    if (!sim_world_done(world) || sim_world_tick(world) >= app_frames_tick_at(world, at_s))
        return false;
    fprintf(stderr, "racesim run: warning: %s %g s is past the end of the race (%.2f s): showing the end\n", option,
            at_s, sim_world_time(world));
    return true;
}

/* ---- offscreen ------------------------------------------------------------------------------------------------- */

int app_frames_open(AppFrames *f, const SimRace *race, const AppViewOpts *opts, RndCameraMode camera)
{
    char err[512];
    int w, h;
    memset(f, 0, sizeof *f);
    app_frames_size(opts, &w, &h);
    f->surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    f->renderer = f->surface ? SDL_CreateSoftwareRenderer(f->surface) : NULL;
    if (!f->renderer) {
        fprintf(stderr, "racesim: cannot create a software renderer: %s\n", SDL_GetError());
        app_frames_close(f);
        return 1;
    }
    f->session = sim_session_create(race, &opts->session, err, sizeof err);
    if (!f->session) {
        fprintf(stderr, "racesim: %s\n", err);
        app_frames_close(f);
        return 2;
    }
    RndViewDef def = rnd_default_view_def();
    def.font_path = opts->font_path;
    f->view = rnd_view_create(f->renderer, &def, err, sizeof err);
    f->prev = malloc(sizeof *f->prev);
    if (!f->view || !f->prev) {
        fprintf(stderr, "racesim: %s\n", f->view ? "out of memory" : err);
        app_frames_close(f);
        return 1;
    }
    const char *aa = getenv("RACESIM_AA"); /* 0: hard edges, to compare (app_view.c) */
    if (aa && strcmp(aa, "0") == 0)
        rnd_view_set_antialias(f->view, false);
    SimWorld *world = sim_session_world(f->session);
    sim_world_keep_poses(world, true); /* the view draws them */
    rnd_view_camera(f->view)->mode = app_frames_camera(opts, camera);
    rnd_view_reset(f->view, world);
    rnd_snapshot_capture(f->prev, world);
    rnd_view_observe(f->view, world);
    return 0;
}

void app_frames_close(AppFrames *f)
{
    free(f->prev);
    rnd_view_destroy(f->view);
    sim_session_destroy(f->session);
    if (f->renderer)
        SDL_DestroyRenderer(f->renderer);
    SDL_FreeSurface(f->surface);
    memset(f, 0, sizeof *f);
}

void app_frames_step_to(AppFrames *f, long tick)
{
    SimWorld *world = sim_session_world(f->session);
    while (sim_world_tick(world) < tick && !sim_world_done(world)) {
        rnd_snapshot_capture(f->prev, world);
        sim_world_step(world);
        rnd_view_observe(f->view, world);
    }
}

bool app_frames_seek(AppFrames *f, const char *option, double at_s)
{
    SimWorld *world = sim_session_world(f->session);
    app_frames_step_to(f, app_frames_tick_at(world, at_s));
    return app_frames_warn_past_end(world, option, at_s);
}

void app_frames_draw(AppFrames *f, double alpha)
{
    RndFrame frame = {sim_session_world(f->session), f->session, f->prev, alpha, NULL};
    rnd_view_draw(f->view, &frame);
}

/* ---- screenshot ------------------------------------------------------------------------------------------------ */

int app_view_screenshot(const SimRace *race, const AppViewOpts *opts)
{
    AppFrames f;
    int rc = app_frames_open(&f, race, opts, RND_CAM_OVERVIEW);
    if (rc != 0)
        return rc;
    app_frames_seek(&f, "--at", opts->at_s);
    SimWorld *world = sim_session_world(f.session);
    const int *order = sim_world_order(world);
    if (order && sim_world_car_count(world) > 0)
        rnd_view_ui(f.view)->selected = order[0]; /* the leader's maps make the most telling picture */
    app_frames_draw(&f, 1.0);
    char err[512];
    rc = app_frame_save(f.renderer, opts->screenshot_path, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "racesim: %s\n", err);
    app_frames_close(&f);
    return rc == 0 ? 0 : 1;
}
