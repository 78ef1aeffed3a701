/* app_view.c: the live viewer's window loop, over render/ (screenshots and clips are in app_frames.c, app_video.c).
 *
 * The loop is "Fix Your Timestep!": each frame's real time (clamped to 0.25 s) times the sim speed feeds an
 * accumulator; the world steps at its fixed tick while the accumulator holds one, the car poses are captured before
 * every step, and the frame draws the state interpolated between the last two ticks. Stepping goes through
 * sim_world_step only, so a watched race ends exactly as a headless one; the arrows rewind and go forward through
 * keyframes that replay the same race (app_replay.h).
 *
 * Stepping has a budget of APP_SIM_BUDGET_MS of wall time a frame: at 64x a slow moment (a loaded machine, a burst of
 * contacts) would otherwise step for longer than a frame lasts, the next frame would owe more ticks still, and
 * drawing would starve. Past the budget the frame draws what it has and the ticks it owed are dropped: the race
 * runs slower than the speed asked for a while, and stays the same race (watched == headless).
 *
 * With the software renderer SDL presents the window through its X11 shared-memory framebuffer, not (its default
 * since 2.0.22) through an OpenGL texture, which under Xvfb is Mesa's software GL: 12-35 ms of a frame against 1
 * (SDL_FRAMEBUFFER_ACCELERATION in the environment overrides this). That framebuffer has no vsync (the software
 * renderer claims it all the same), so the loop keeps frames on a 60 Hz schedule of its own.
 *
 * Debug hooks for measuring (environment variables, read here only):
 *   RACESIM_SPEED=X          start at sim speed X (0.25 .. 64)
 *   RACESIM_BENCH_FRAMES=N   quit after N frames and print frame-time figures to stderr: medians and means of the
 *                            frame interval, of the sim, draw and present wall times, of the thread's CPU time
 *                            and of the draw's CPU time by layer, over the frames drawn while the race ran
 *   RACESIM_BENCH_SHOT=FILE  with RACESIM_BENCH_FRAMES: save the last frame (PNG, or BMP for a .bmp name)
 *   RACESIM_AA=0             hard edges (no anti-aliasing), to compare (screenshots and clips too)
 */
#include "app_view.h"

#include "app_frames.h"
#include "app_replay.h"

#include "../render/rnd.h"

#include <SDL.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define APP_MAX_FRAME_S 0.25   /* a stalled frame never asks for more than this much sim time */
#define APP_FALLBACK_FPS 60.0  /* frame cap when the renderer has no vsync (the software one, Xvfb) */
#define APP_SIM_BUDGET_MS 8.0  /* stepping stops for this frame after this much wall time (half a 60 Hz frame) */

/* What the bench records of each frame, ms. */
enum { APP_B_RACING = 0, APP_B_INTERVAL, APP_B_SIM, APP_B_DRAW, APP_B_PRESENT, APP_B_WORK, APP_B_CPU, APP_B_LAYER0 };
#define APP_B_COUNT (APP_B_LAYER0 + RND_LAYER_COUNT)

typedef struct AppBench {
    int frames_wanted;
    int frames;
    double *samples;   /* frames_wanted rows of APP_B_COUNT figures */
    double max_interval_ms;
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
    if (b->frames_wanted > 0)
        b->samples = calloc((size_t)b->frames_wanted, sizeof(double) * APP_B_COUNT);
    if (!b->samples)
        b->frames_wanted = 0;
}

static int app_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median and mean of figure `col` over the frames [from, to) drawn while the race ran (a finished race steps
 * nothing and draws the results: it would flatter the figures); returns how many. */
static int app_bench_stat(const AppBench *b, int col, int from, int to, double *median, double *mean)
{
    double *v = malloc(sizeof(double) * (size_t)(to > from ? to - from : 1)), sum = 0.0;
    int n = 0;
    for (int i = from; v && i < to; i++) {
        const double *row = b->samples + (size_t)i * APP_B_COUNT;
        if (row[APP_B_RACING] != 0.0) {
            v[n++] = row[col];
            sum += row[col];
        }
    }
    if (!v || n <= 0) {
        free(v);
        *median = *mean = 0.0;
        return 0;
    }
    qsort(v, (size_t)n, sizeof *v, app_cmp_double);
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    *mean = sum / n;
    free(v);
    return n;
}

/* Two lines on stderr: the frame interval (what a person sees; the first one, which includes start-up, left out)
 * and the work inside a frame, median (mean), with the draw split by layer; over the frames drawn while the race
 * ran (all of them, when it was over from the start). */
static void app_bench_report(AppBench *b, SDL_Renderer *renderer, int car_count, double speed)
{
    if (b->frames <= 1)
        return;
    int n = b->frames, racing = 0;
    for (int i = 1; i < n; i++)
        racing += b->samples[(size_t)i * APP_B_COUNT + APP_B_RACING] != 0.0;
    if (racing == 0) /* a finished race (--at past the end): every frame counts */
        for (int i = 0; i < n; i++)
            b->samples[(size_t)i * APP_B_COUNT + APP_B_RACING] = 1.0;
    double med[APP_B_COUNT], mean[APP_B_COUNT];
    int counted = 0;
    for (int c = APP_B_INTERVAL; c < APP_B_COUNT; c++) {
        int k = app_bench_stat(b, c, c == APP_B_INTERVAL ? 1 : 0, n, &med[c], &mean[c]);
        if (c == APP_B_INTERVAL)
            counted = k;
    }
    int over = 0;
    for (int i = 1; i < n; i++) {
        const double *row = b->samples + (size_t)i * APP_B_COUNT;
        over += row[APP_B_RACING] != 0.0 && row[APP_B_INTERVAL] > 1000.0 / APP_FALLBACK_FPS + 0.5;
    }
    SDL_RendererInfo info = {0};
    SDL_GetRendererInfo(renderer, &info);
    fprintf(stderr,
            "racesim view bench: renderer %s%s, %d cars, speed %gx, %d frames (%d after the finish left out): frame "
            "interval median %.2f ms (mean %.2f, max %.2f), %.0f%% over 17.2 ms; %.1f ticks a frame\n",
            info.name ? info.name : "?",
            (info.flags & SDL_RENDERER_PRESENTVSYNC) && !(info.flags & SDL_RENDERER_SOFTWARE) ? " (vsync)" : "",
            car_count,
            speed, n - 1, n - 1 - counted, med[APP_B_INTERVAL], mean[APP_B_INTERVAL], b->max_interval_ms,
            counted ? 100.0 * over / counted : 0.0, (double)b->ticks / n);
    fprintf(stderr,
            "racesim view bench: per frame, median (mean) ms: work %.2f (%.2f) = sim %.2f (%.2f) + draw %.2f (%.2f) "
            "+ present %.2f (%.2f); CPU time %.2f (%.2f); draw's CPU by layer:",
            med[APP_B_WORK], mean[APP_B_WORK], med[APP_B_SIM], mean[APP_B_SIM], med[APP_B_DRAW], mean[APP_B_DRAW],
            med[APP_B_PRESENT], mean[APP_B_PRESENT], med[APP_B_CPU], mean[APP_B_CPU]);
    for (int k = 0; k < RND_LAYER_COUNT; k++)
        fprintf(stderr, " %s %.2f (%.2f)", rnd_layer_name((RndLayer)k), med[APP_B_LAYER0 + k], mean[APP_B_LAYER0 + k]);
    fprintf(stderr, "\n");
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
    /* a software renderer's window: X11's shared-memory framebuffer, not a GL texture (see the top of the file) */
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    aw->renderer = SDL_CreateRenderer(aw->window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!aw->renderer)
        aw->renderer = SDL_CreateRenderer(aw->window, -1, SDL_RENDERER_SOFTWARE);
    if (!aw->renderer)
        return -1;
    SDL_RendererInfo info;
    /* the software renderer claims vsync and leaves it to the window's framebuffer, which through X11's shared
     * memory has none: the loop caps its own frame rate then */
    aw->vsync = SDL_GetRendererInfo(aw->renderer, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC) &&
                !(info.flags & SDL_RENDERER_SOFTWARE);
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

/* The thread's CPU time, ms: the work of a frame, whatever else the machine runs. */
static double app_cpu_ms(void)
{
    struct timespec t;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? t.tv_sec * 1e3 + t.tv_nsec * 1e-6 : 0.0;
}

static double app_ms_since(Uint64 t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

/* Sleeps ms (nothing when not positive), to the microsecond: SDL_Delay's whole milliseconds would make a 60 Hz
 * frame 16 or 17 ms. */
static void app_sleep_ms(double ms)
{
    if (ms <= 0.0)
        return;
    struct timespec t = {(time_t)(ms / 1000.0), (long)(fmod(ms, 1000.0) * 1e6)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) /* interrupted: the rest */
        ;
}

/* Advances the sim by this frame's share of real time, within the budget; returns the ticks stepped. */
static long app_loop_advance(AppLoop *L, double frame_s, bool step_once)
{
    Uint64 t0 = SDL_GetPerformanceCounter();
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
        if (app_ms_since(t0) > APP_SIM_BUDGET_MS) {
            L->acc_s = fmod(L->acc_s, dt); /* the ticks owed are dropped; the fraction still interpolates */
            break;
        }
        app_replay_step(&L->replay, &L->prev);
        L->acc_s -= dt;
        ticks++;
    }
    return ticks;
}

static int app_loop_run(AppLoop *L, AppWindow *aw)
{
    AppBench bench;
    app_bench_init(&bench);
    Uint64 last = SDL_GetPerformanceCounter();
    double target_ms = 1000.0 / APP_FALLBACK_FPS; /* without vsync: when this frame should end, from its start */
    bool quit = false;
    while (!quit) {
        Uint64 frame_start = SDL_GetPerformanceCounter();
        double cpu_start = bench.frames_wanted > 0 ? app_cpu_ms() : 0.0;
        double frame_s = (double)(frame_start - last) / (double)SDL_GetPerformanceFrequency();
        last = frame_start;
        double *row = bench.frames < bench.frames_wanted ? bench.samples + (size_t)bench.frames * APP_B_COUNT : NULL;
        if (row) {
            row[APP_B_INTERVAL] = frame_s * 1000.0;
            if (bench.frames > 0 && row[APP_B_INTERVAL] > bench.max_interval_ms)
                bench.max_interval_ms = row[APP_B_INTERVAL];
        }
        frame_s = frame_s > APP_MAX_FRAME_S ? APP_MAX_FRAME_S : frame_s;
        RndFrame frame = {sim_session_world(L->session), L->session, &L->prev, 0.0, NULL};
        RndActions act = {0};
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            rnd_view_handle_event(L->view, &ev, &frame, &act);
        if (act.restart && app_loop_start_race(L) != 0) {
            fprintf(stderr, "racesim: %s\n", L->err);
            free(bench.samples);
            return 2;
        }
        if (act.seek_s != 0.0)
            app_loop_seek(L, act.seek_s);
        Uint64 t_sim = SDL_GetPerformanceCounter();
        bench.ticks += app_loop_advance(L, frame_s, act.step_once);
        double sim_ms = app_ms_since(t_sim);
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
        double draw_ms = app_ms_since(t_draw);
        Uint64 t_present = SDL_GetPerformanceCounter();
        SDL_RenderPresent(aw->renderer);
        double present_ms = app_ms_since(t_present);
        if (row) {
            row[APP_B_RACING] = !sim_world_done(world);
            row[APP_B_SIM] = sim_ms;
            row[APP_B_DRAW] = draw_ms;
            row[APP_B_PRESENT] = present_ms;
            row[APP_B_WORK] = sim_ms + draw_ms + present_ms;
            row[APP_B_CPU] = app_cpu_ms() - cpu_start;
            const double *layers = rnd_view_layer_ms(L->view);
            for (int k = 0; k < RND_LAYER_COUNT; k++)
                row[APP_B_LAYER0 + k] = layers[k];
        }
        quit = act.quit || bench_done;
        if (!aw->vsync) { /* frames on a 60 Hz schedule, which a frame late by a whole period starts again */
            double period_ms = 1000.0 / APP_FALLBACK_FPS;
            app_sleep_ms(target_ms - app_ms_since(frame_start));
            double end_ms = app_ms_since(frame_start);
            target_ms = end_ms > target_ms + period_ms ? period_ms : fmax(target_ms + period_ms - end_ms, 0.0);
        }
    }
    if (bench.frames_wanted > 0)
        app_bench_report(&bench, aw->renderer, sim_world_car_count(sim_session_world(L->session)),
                         rnd_speed_factor(rnd_view_ui(L->view)->speed_index));
    free(bench.samples);
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
    def.pixel_format = SDL_GetWindowPixelFormat(aw.window);
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
    const char *aa = getenv("RACESIM_AA");
    if (aa && strcmp(aa, "0") == 0)
        rnd_view_set_antialias(L->view, false);
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
