/* app_view.c: the live viewer's window loop, over render/ (screenshots and clips are in app_frames.c, app_video.c).
 *
 * The loop is "Fix Your Timestep!": each frame's real time (clamped to 0.25 s) times the sim speed feeds an
 * accumulator; the world steps at its fixed tick while the accumulator holds one, the car poses are captured before
 * every step, and the frame draws the state interpolated between the last two ticks. Stepping goes through
 * sim_world_step only, so a watched race ends exactly as a headless one; the arrows rewind and go forward through
 * keyframes that replay the same race (app_replay.h).
 *
 * Debug hooks for measuring (environment variables, read here only):
 *   RACESIM_SPEED=X          start at sim speed X (0.25 .. 64)
 *   RACESIM_BENCH_FRAMES=N   quit after N frames and print frame-time figures to stderr
 *   RACESIM_BENCH_SHOT=FILE  with RACESIM_BENCH_FRAMES: save the last frame (PNG, or BMP for a .bmp name)
 */
#include "app_view.h"

#include "app_frames.h"
#include "app_replay.h"

#include "../render/rnd.h"

#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_MAX_FRAME_S 0.25   /* a stalled frame never asks for more than this much sim time */
#define APP_FALLBACK_FPS 60.0  /* frame cap when the renderer has no vsync (e.g. under Xvfb) */

typedef struct AppBench {
    int frames_wanted;
    int frames;
    double sum_ms, max_ms;     /* frame interval (what a person sees) */
    double sim_ms, draw_ms, present_ms; /* work inside the frames */
    long ticks;
    const char *shot_path;
} AppBench;

/* ---- window ---------------------------------------------------------------------------------------------------- */

/* When the display cannot be reached SDL falls back to its offscreen driver: that is no window to watch. */
static bool app_video_real(void)
{
    const char *driver = SDL_GetCurrentVideoDriver();
    return driver && strcmp(driver, "offscreen") != 0 && strcmp(driver, "dummy") != 0;
}

bool app_view_available(void)
{
    const char *x = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    if (!(x && *x) && !(wl && *wl))
        return false;
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0)
        return false;
    bool real = app_video_real();
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return real;
}

static int app_speed_index(double factor)
{
    int best = RND_SPEED_1X;
    for (int i = 0; i < RND_SPEED_COUNT; i++)
        if (rnd_speed_factor(i) <= factor + 1e-9)
            best = i;
    return best;
}

static void app_bench_init(AppBench *b)
{
    *b = (AppBench){0};
    const char *frames = getenv("RACESIM_BENCH_FRAMES");
    b->frames_wanted = frames ? atoi(frames) : 0;
    b->shot_path = getenv("RACESIM_BENCH_SHOT");
}

static void app_bench_report(const AppBench *b, SDL_Renderer *renderer, int car_count, double speed)
{
    if (b->frames <= 1)
        return;
    int n = b->frames - 1; /* the first interval includes start-up */
    SDL_RendererInfo info = {0};
    SDL_GetRendererInfo(renderer, &info);
    fprintf(stderr,
            "racesim view bench: renderer %s%s, %d cars, speed %gx, %d frames: frame interval mean %.2f ms, "
            "max %.2f ms; per frame: sim %.2f ms, draw %.2f ms, present %.2f ms; %.1f ticks\n",
            info.name ? info.name : "?", (info.flags & SDL_RENDERER_PRESENTVSYNC) ? " (vsync)" : "", car_count,
            speed, n, b->sum_ms / n, b->max_ms, b->sim_ms / b->frames, b->draw_ms / b->frames,
            b->present_ms / b->frames, (double)b->ticks / b->frames);
}

typedef struct AppWindow {
    SDL_Window *window;
    SDL_Renderer *renderer;
    bool vsync;
} AppWindow;

static int app_window_open(AppWindow *aw, const SimRace *race, const AppViewOpts *opts)
{
    int w, h;
    app_frames_size(opts, &w, &h);
    char title[256];
    snprintf(title, sizeof title, "racesim - %.200s", race->path);
    aw->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, SDL_WINDOW_RESIZABLE);
    if (!aw->window)
        return -1;
    aw->renderer = SDL_CreateRenderer(aw->window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!aw->renderer)
        aw->renderer = SDL_CreateRenderer(aw->window, -1, SDL_RENDERER_SOFTWARE);
    if (!aw->renderer)
        return -1;
    SDL_RendererInfo info;
    aw->vsync = SDL_GetRendererInfo(aw->renderer, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC);
    return 0;
}

static void app_window_close(AppWindow *aw)
{
    if (aw->renderer)
        SDL_DestroyRenderer(aw->renderer);
    if (aw->window)
        SDL_DestroyWindow(aw->window);
}

/* Everything the loop owns. */
typedef struct AppLoop {
    const SimRace *race;
    const AppViewOpts *opts;
    SimSession *session;
    RndView *view;
    RndSnapshot prev;
    AppReplay replay;  /* keyframes: the arrows rewind and go forward */
    double acc_s;
    char err[512];
} AppLoop;

static int app_loop_start_race(AppLoop *L)
{
    app_replay_free(&L->replay);
    rnd_view_set_timeline(L->view, NULL);
    if (L->session)
        sim_session_destroy(L->session);
    L->session = sim_session_create(L->race, &L->opts->session, L->err, sizeof L->err);
    if (!L->session)
        return -1;
    SimWorld *world = sim_session_world(L->session);
    sim_world_keep_poses(world, true); /* the view draws them */
    rnd_view_reset(L->view, world);
    rnd_snapshot_capture(&L->prev, world);
    rnd_view_observe(L->view, world);
    if (app_replay_init(&L->replay, L->session, L->view) != 0) {
        snprintf(L->err, sizeof L->err, "out of memory");
        return -1;
    }
    rnd_view_set_timeline(L->view, app_replay_timeline(&L->replay));
    L->acc_s = 0.0;
    return 0;
}

/* The arrows: the race `seek_s` seconds later or earlier (within what it has run), from the keyframes. */
static void app_loop_seek(AppLoop *L, double seek_s)
{
    SimWorld *world = sim_session_world(L->session);
    long tick = sim_world_tick(world) + (long)lround(seek_s / app_frames_dt(world));
    if (app_replay_seek(&L->replay, &L->prev, tick) != 0)
        fprintf(stderr, "racesim: cannot restore the keyframe\n");
    L->acc_s = 0.0;
}

static void app_loop_screenshot(AppLoop *L, SDL_Renderer *renderer, const char *path)
{
    char name[64];
    if (!path) {
        snprintf(name, sizeof name, "racesim-%06ld.png", sim_world_tick(sim_session_world(L->session)));
        path = name;
    }
    if (app_frame_save(renderer, path, L->err, sizeof L->err) != 0)
        fprintf(stderr, "racesim: %s\n", L->err);
    else
        fprintf(stderr, "racesim: saved %s\n", path);
}

/* Advances the sim by this frame's share of real time; returns the ticks stepped. */
static long app_loop_advance(AppLoop *L, double frame_s, bool step_once)
{
    SimWorld *world = sim_session_world(L->session);
    const RndUi *ui = rnd_view_ui(L->view);
    double dt = app_frames_dt(world);
    long ticks = 0;
    if (step_once && !sim_world_done(world)) {
        app_replay_step(&L->replay, &L->prev);
        ticks++;
    }
    if (ui->paused || sim_world_done(world)) {
        L->acc_s = 0.0;
        return ticks;
    }
    L->acc_s += frame_s * rnd_speed_factor(ui->speed_index);
    while (L->acc_s >= dt && !sim_world_done(world)) {
        app_replay_step(&L->replay, &L->prev);
        L->acc_s -= dt;
        ticks++;
    }
    return ticks;
}

static double app_ms_since(Uint64 t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

static int app_loop_run(AppLoop *L, AppWindow *aw)
{
    AppBench bench;
    app_bench_init(&bench);
    Uint64 last = SDL_GetPerformanceCounter();
    bool quit = false;
    while (!quit) {
        Uint64 frame_start = SDL_GetPerformanceCounter();
        double frame_s = (double)(frame_start - last) / (double)SDL_GetPerformanceFrequency();
        last = frame_start;
        if (bench.frames > 0) {
            bench.sum_ms += frame_s * 1000.0;
            bench.max_ms = frame_s * 1000.0 > bench.max_ms ? frame_s * 1000.0 : bench.max_ms;
        }
        frame_s = frame_s > APP_MAX_FRAME_S ? APP_MAX_FRAME_S : frame_s;
        RndFrame frame = {sim_session_world(L->session), L->session, &L->prev, 0.0, NULL};
        RndActions act = {0};
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            rnd_view_handle_event(L->view, &ev, &frame, &act);
        if (act.restart && app_loop_start_race(L) != 0) {
            fprintf(stderr, "racesim: %s\n", L->err);
            return 2;
        }
        if (act.seek_s != 0.0)
            app_loop_seek(L, act.seek_s);
        Uint64 t_sim = SDL_GetPerformanceCounter();
        bench.ticks += app_loop_advance(L, frame_s, act.step_once);
        bench.sim_ms += app_ms_since(t_sim);
        SimWorld *world = sim_session_world(L->session);
        const RndUi *ui = rnd_view_ui(L->view);
        double alpha = ui->paused || sim_world_done(world) ? 1.0 : L->acc_s / app_frames_dt(world);
        frame = (RndFrame){world, L->session, &L->prev, alpha, NULL};
        app_replay_timeline(&L->replay);
        Uint64 t_draw = SDL_GetPerformanceCounter();
        rnd_view_draw(L->view, &frame);
        bench.frames++;
        bool bench_done = bench.frames_wanted > 0 && bench.frames >= bench.frames_wanted;
        if (act.screenshot)
            app_loop_screenshot(L, aw->renderer, NULL);
        if (bench_done && bench.shot_path)
            app_loop_screenshot(L, aw->renderer, bench.shot_path);
        bench.draw_ms += app_ms_since(t_draw);
        Uint64 t_present = SDL_GetPerformanceCounter();
        SDL_RenderPresent(aw->renderer);
        bench.present_ms += app_ms_since(t_present);
        quit = act.quit || bench_done;
        double spent_ms = app_ms_since(frame_start);
        if (!aw->vsync && spent_ms < 1000.0 / APP_FALLBACK_FPS)
            SDL_Delay((Uint32)(1000.0 / APP_FALLBACK_FPS - spent_ms));
    }
    if (bench.frames_wanted > 0)
        app_bench_report(&bench, aw->renderer, sim_world_car_count(sim_session_world(L->session)),
                         rnd_speed_factor(rnd_view_ui(L->view)->speed_index));
    return 0;
}

int app_view_window(const SimRace *race, const AppViewOpts *opts)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "racesim: cannot start SDL video: %s\n", SDL_GetError());
        return 1;
    }
    if (!app_video_real()) { /* the display answered app_view_available, not now (an X server resetting) */
        fprintf(stderr, "racesim: cannot open a window: the display stopped answering (SDL chose its %s driver)\n",
                SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "no");
        SDL_Quit();
        return 1;
    }
    AppWindow aw = {0};
    AppLoop *L = calloc(1, sizeof *L);
    int rc = 1;
    if (!L || app_window_open(&aw, race, opts) != 0) {
        fprintf(stderr, "racesim: cannot open a window: %s\n", SDL_GetError());
        goto done;
    }
    L->race = race;
    L->opts = opts;
    RndViewDef def = rnd_default_view_def();
    def.font_path = opts->font_path;
    L->view = rnd_view_create(aw.renderer, &def, L->err, sizeof L->err);
    if (!L->view) {
        fprintf(stderr, "racesim: %s\n", L->err);
        goto done;
    }
    rnd_view_camera(L->view)->mode = app_frames_camera(opts, RND_CAM_DIRECTOR);
    if (app_loop_start_race(L) != 0) {
        fprintf(stderr, "racesim: %s\n", L->err);
        rc = 2;
        goto done;
    }
    if (opts->at_s > 0.0) { /* --at: open at that moment, paused */
        SimWorld *world = sim_session_world(L->session);
        long target = app_frames_tick_at(world, opts->at_s);
        while (sim_world_tick(world) < target && !sim_world_done(world))
            app_replay_step(&L->replay, &L->prev);
        app_frames_warn_past_end(world, "--at", opts->at_s);
        rnd_view_ui(L->view)->paused = true;
    }
    const char *speed = getenv("RACESIM_SPEED");
    if (speed)
        rnd_view_ui(L->view)->speed_index = app_speed_index(atof(speed));
    rc = app_loop_run(L, &aw);
    /* a finished race also leaves the headless table in the terminal */
    if (rc == 0 && sim_world_done(sim_session_world(L->session)))
        sim_results_print_table(L->session, stdout);
done:
    if (L) {
        app_replay_free(&L->replay);
        rnd_view_destroy(L->view);
        if (L->session)
            sim_session_destroy(L->session);
        free(L);
    }
    app_window_close(&aw);
    SDL_Quit();
    return rc;
}
