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
    double screenshot_at_s;     /* sim time of the screenshot frame */
    int width, height;          /* window / screenshot size in pixels (defaults 1280x800 when 0) */
} AppViewOpts;

/* Opens a window and shows the race live; returns a process exit code. The race's results are the same as a
 * headless run's: the viewer only observes. */
int app_view_window(const SimRace *race, const AppViewOpts *opts);
/* Renders one frame at opts->screenshot_at_s with the software renderer (no display needed) and writes a BMP. */
int app_view_screenshot(const SimRace *race, const AppViewOpts *opts);
/* True when a window can be opened (a display is set and SDL's video starts). */
bool app_view_available(void);

#endif
