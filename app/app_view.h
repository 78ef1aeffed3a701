/* app_view.h: the live viewer and one-frame screenshots, called by `racesim run`. Implemented over render/. */
#ifndef APP_VIEW_H
#define APP_VIEW_H

#include "../sim/sim.h"

#include <stdbool.h>

typedef struct AppViewOpts {
    SimSessionDef session;      /* seed, shuffle, laps; `r` restarts with the same */
    const char *font_path;      /* NULL = find DejaVu Sans through the system */
    const char *camera;         /* "overview", "follow" or "director"; NULL = director in a window, overview in
                                   a screenshot */
    const char *screenshot_path; /* for app_view_screenshot */
    double at_s;                /* sim time of the screenshot frame; a window opens there, paused */
    const char *video_path;     /* for app_view_video */
    double from_s, to_s;        /* the clip's stretch of race time */
    int fps;                    /* the clip's frames a second of race time (APP_VIDEO_FPS when 0) */
    int width, height;          /* window / screenshot / clip size in pixels (defaults 1280x800 when 0) */
} AppViewOpts;

/* Opens a window and shows the race live (from opts->at_s, paused, when it is set); returns a process exit code.
 * The race's results are the same as a headless run's: the viewer only observes, and its rewinds replay the race
 * from keyframes (app_replay.h). */
int app_view_window(const SimRace *race, const AppViewOpts *opts);
/* Renders one frame at opts->at_s with the software renderer (no display needed) and writes a PNG (BMP for a .bmp
 * name). */
int app_view_screenshot(const SimRace *race, const AppViewOpts *opts);
/* Frames per second of a clip (race time) unless opts->fps says otherwise. */
#define APP_VIDEO_FPS 30
/* Renders the frames of [from_s, to_s] offscreen, as the screenshot, and pipes them to ffmpeg, which writes
 * video_path (its container by the extension: cli_video_format, cli.h). Returns an exit code: 2 when ffmpeg is not
 * installed (with a message saying so). */
int app_view_video(const SimRace *race, const AppViewOpts *opts);
/* True when an executable ffmpeg is on the PATH. */
bool app_video_ffmpeg_found(void);
/* True when a window can be opened (a display is set and SDL's video starts). */
bool app_view_available(void);

#endif
