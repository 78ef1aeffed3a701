/* app_frames.h: the viewer's frames without a window (screenshots and video clips) and the pieces the window loop
 * shares with them: a software renderer on a surface, a session and a view stepped through the race. Private to
 * app/. */
#ifndef APP_FRAMES_H
#define APP_FRAMES_H

#include "app_view.h"

#include "../render/rnd.h"

#define APP_DEFAULT_W 1280
#define APP_DEFAULT_H 800

typedef struct AppFrames {
    SDL_Surface *surface;
    SDL_Renderer *renderer;
    SimSession *session;
    RndView *view;
    RndSnapshot *prev; /* the poses one tick before the world's */
} AppFrames;

/* Builds the surface, renderer, session and view (camera from opts->camera, else `camera`), at the start of the
 * race. Returns 0, or a process exit code with the message printed (1: no renderer, 2: the race does not start). */
int app_frames_open(AppFrames *f, const SimRace *race, const AppViewOpts *opts, RndCameraMode camera);
void app_frames_close(AppFrames *f);
/* Steps (poses kept for interpolation, every step observed by the view) until the tick or the end of the race. */
void app_frames_step_to(AppFrames *f, long tick);
/* Steps to the moment `at_s` (given as `option`): true, with a warning, when the race ended before it. */
bool app_frames_seek(AppFrames *f, const char *option, double at_s);
/* Draws the race interpolated `alpha` of a tick past prev toward the world (no timeline). */
void app_frames_draw(AppFrames *f, double alpha);

/* The frame just drawn, to path through a temporary file (app_out.h): PNG, or BMP when the name ends in .bmp. */
int app_frame_save(SDL_Renderer *renderer, const char *path, char *err, size_t err_len);
/* The frame size asked for (1280x800 by default). */
void app_frames_size(const AppViewOpts *opts, int *w, int *h);
/* The world's tick length, s. */
double app_frames_dt(SimWorld *world);
/* The camera a --camera name asks for, else the fallback. */
RndCameraMode app_frames_camera(const AppViewOpts *opts, RndCameraMode fallback);
/* The tick of a moment in seconds, rounded (so 20 s at 100 Hz is exactly tick 2000). */
long app_frames_tick_at(SimWorld *world, double at_s);
/* After stepping toward `at_s` (named `option` on the command line): a warning on stderr when the race ended
 * before it. Returns true when it did. */
bool app_frames_warn_past_end(SimWorld *world, const char *option, double at_s);

#endif
