/* rnd.h: the race viewer's drawing (public API of the render module).
 *
 * A RndView owns the renderer-side resources (fonts, cached text textures, the track's geometry in world
 * coordinates) and the viewer's UI state (camera, selected car, pause and speed, overlays). It draws one frame from
 * const simulation state: the world after the last tick, a snapshot of the car poses one tick earlier and an
 * interpolation fraction between the two. It never writes simulation state: the window loop steps the world through
 * sim_world_step only, so a watched race gives the same results as a headless one.
 *
 * render/ is the only module (besides app/) that includes SDL. Errors are returned in message buffers.
 */
#ifndef RND_H
#define RND_H

#include "../sim/sim.h"

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- colours (public so tests can check pixels) ------------------------------------------------------------- */

#define RND_GRASS_RGB 56, 104, 50
#define RND_ASPHALT_RGB 70, 72, 78
#define RND_HUD_BG_RGB 16, 18, 24
#define RND_DANGER_RGB 235, 60, 50
#define RND_INTEREST_RGB 70, 215, 95

/* ---- car poses for interpolation ----------------------------------------------------------------------------- */

typedef struct RndPose {
    double x_m, y_m;
    double heading_rad;
} RndPose;

/* The poses of every car at one tick. The window loop captures one before each step. */
typedef struct RndSnapshot {
    int count;
    long tick;
    RndPose poses[SIM_MAX_CARS];
} RndSnapshot;

void rnd_snapshot_capture(RndSnapshot *snap, const SimWorld *world);
/* The pose drawn for a car: prev blended toward the current pose by alpha (clamped to [0, 1]); the current pose
 * when prev is NULL or does not hold the car. */
RndPose rnd_pose_lerp(const RndSnapshot *prev, const SimCar *car, double alpha);

/* ---- camera ------------------------------------------------------------------------------------------------- */

typedef enum RndCameraMode {
    RND_CAM_OVERVIEW = 0, /* the whole track fitted to the window */
    RND_CAM_FOLLOW,       /* centred on the selected car */
    RND_CAM_FREE,         /* where the user zoomed and dragged it */
    RND_CAM_DIRECTOR,     /* the TV director's choice: the closest fight, a fresh pass or contact, the leader */
    RND_CAM_CHASE         /* behind the selected car, heading up: the track turns, the car points up the screen */
} RndCameraMode;

/* World metres (x right, y up) to screen pixels (y down). */
typedef struct RndCamera {
    double cx_m, cy_m;        /* world point at the centre of the view area */
    double scale_ppm;         /* pixels per metre */
    double follow_scale_ppm;  /* zoom kept for follow mode */
    int view_w, view_h;       /* output size, px */
    int inset_left_px;        /* columns covered by the standings tower: overview fits right of it */
    int inset_bottom_px;      /* rows covered by the inspector panel: overview fits above it */
    RndCameraMode mode;
    double rot_rad;           /* the view's turn: world direction rot_rad + pi/2 points up the screen (0 = north up) */
    /* the track's bounds, for the overview fit */
    double min_x_m, min_y_m, max_x_m, max_y_m;
} RndCamera;

void rnd_camera_init(RndCamera *cam, double min_x_m, double min_y_m, double max_x_m, double max_y_m);
/* Updates the output size and, in overview mode, fits the track. */
void rnd_camera_update(RndCamera *cam, int view_w, int view_h);
void rnd_camera_fit(RndCamera *cam);
void rnd_camera_to_screen(const RndCamera *cam, double x_m, double y_m, float *sx, float *sy);
/* The linear part of the world -> screen transform: a world vector (dx, dy) m moves a point by
 * (m[0] dx + m[1] dy, m[2] dx + m[3] dy) px. */
void rnd_camera_linear(const RndCamera *cam, double m[4]);
void rnd_camera_to_world(const RndCamera *cam, float sx, float sy, double *x_m, double *y_m);
/* Multiplies the zoom, keeping the world point under (sx, sy) fixed. */
void rnd_camera_zoom_at(RndCamera *cam, double factor, float sx, float sy);
/* Moves the view by a mouse drag of (dx, dy) pixels. */
void rnd_camera_pan(RndCamera *cam, float dx_px, float dy_px);
/* True for the modes that keep the selected car (or the director's) in view at the follow zoom. */
bool rnd_camera_follows(const RndCamera *cam);
/* Centres on a world point (follow mode). */
void rnd_camera_centre(RndCamera *cam, double x_m, double y_m);
/* The chase camera's frame: turned so that heading_rad points up the screen, the point (the car) below the
 * middle. */
void rnd_camera_chase(RndCamera *cam, double x_m, double y_m, double heading_rad);
/* Frames two cars for this frame: centred between them, zoomed out from the follow zoom as far as needed (down to
 * a quarter of it) to hold both. False, camera untouched, when they are too far apart for that. */
bool rnd_camera_frame_pair(RndCamera *cam, double ax_m, double ay_m, double bx_m, double by_m);

/* ---- the view ------------------------------------------------------------------------------------------------ */

#define RND_SPEED_COUNT 9 /* 1/4x, 1/2x, 1x, 2x, ... 64x */
#define RND_SPEED_1X 2
double rnd_speed_factor(int speed_index);

typedef struct RndViewDef {
    const char *font_path; /* NULL: DejaVu Sans from a few known system paths */
    int font_px;           /* base text size, px (default 14) */
    Uint32 pixel_format;   /* of what the renderer draws into (a window's SDL_GetWindowPixelFormat); 0 = ARGB8888.
                              Textures made in it copy fastest with the software renderer */
} RndViewDef;

RndViewDef rnd_default_view_def(void);

/* What the user has asked for; the window loop reads it (pause, speed) and render/ uses the rest. */
typedef struct RndUi {
    bool paused;
    int speed_index;     /* into rnd_speed_factor */
    int selected;        /* car id, -1 = none */
    bool inspector;      /* the context-map inspector (m) */
    bool help;           /* the controls overlay (h) */
    bool results_hidden; /* Enter hides the results screen to look at the track */
} RndUi;

/* Where the window's replay stands, for the timeline bar at the bottom: the race time shown, the furthest the race
 * has run in this window (the live edge) and the keyframes it can rewind to. */
typedef struct RndTimeline {
    double now_s;
    double newest_s;
    int keyframe_count;
    const double *keyframe_s; /* race time of each keyframe, ascending */
} RndTimeline;

/* One frame's input. Everything is read-only. */
typedef struct RndFrame {
    const SimWorld *world;
    const SimSession *session; /* optional: the drivers' maps and the results table */
    const RndSnapshot *prev;   /* poses one tick before the world's; NULL draws the current poses */
    double alpha;              /* interpolation fraction from prev (0) to the world (1) */
    const DrvDebug *debug;     /* optional: overrides the selected car's maps (tests) */
} RndFrame;

/* Requests the window loop must carry out. */
typedef struct RndActions {
    bool quit;
    bool step_once;   /* `.` while paused */
    bool restart;     /* r: same race, same seed */
    bool screenshot;  /* s */
    double seek_s;    /* left / right arrows: move the race this many seconds (negative: back); 0 none */
} RndActions;

#define RND_SEEK_S 5.0        /* left / right arrow */
#define RND_SEEK_LONG_S 30.0  /* with shift */

typedef struct RndView RndView;

#define RND_BATTLE_S 1.0 /* s: a car this close behind the car ahead is in a fight for the place */

/* One line of the tower, in race order. */
typedef struct RndTimingRow {
    int car;
    bool has_gap;          /* false for the leader, a retired car and before the first timing point */
    double gap_s;          /* to the leader */
    bool has_interval;
    double interval_s;     /* to the car ahead */
    int laps_down;         /* laps behind the leader (running leader) */
    int laps_behind_ahead; /* laps behind the car ahead */
    int gained;            /* places gained since the start (negative: lost) */
    bool battle;           /* within RND_BATTLE_S of the car ahead, both racing */
    bool fastest;          /* holds the race's fastest lap */
} RndTimingRow;


RndView *rnd_view_create(SDL_Renderer *renderer, const RndViewDef *def, char *err, size_t err_len);
void rnd_view_destroy(RndView *view);
/* Starts watching a (new) race: rebuilds the track geometry, fits the camera, clears the ticker and timing. */
void rnd_view_reset(RndView *view, const SimWorld *world);
/* Call after every sim step: collects the step's events for the ticker and the leader's timing for the gaps. */
void rnd_view_observe(RndView *view, const SimWorld *world);
/* The timeline bar the view draws from now on (borrowed: it must live while set, and the window loop keeps it up to
 * date); NULL draws none (screenshots, video frames). */
void rnd_view_set_timeline(RndView *view, const RndTimeline *timeline);
/* What the view has learnt from the race so far (the ticker, the timing, the director's shot), saved with a
 * keyframe of the race into rnd_view_mark_bytes() bytes and restored with it: the view then shows the rewound race
 * as it showed it then. */
size_t rnd_view_mark_bytes(void);
void rnd_view_mark_save(const RndView *view, void *buf);
void rnd_view_mark_restore(RndView *view, const void *buf);
/* Handles one input event (keys, wheel zoom, drag pan, click select, resize). */
void rnd_view_handle_event(RndView *view, const SDL_Event *event, const RndFrame *frame, RndActions *out);
/* Soft (anti-aliased) edges for the track, kerbs, cars and track map: on by default; off draws hard edges. */
void rnd_view_set_antialias(RndView *view, bool on);
/* Draws a frame into the renderer's current target (does not present). */
void rnd_view_draw(RndView *view, const RndFrame *frame);

/* Where the last rnd_view_draw spent its time: ms of the thread's CPU time by layer (the window's bench prints
 * them). A renderer that batches (OpenGL) draws at present time, which these leave out. */
typedef enum RndLayer {
    RND_LAYER_TRACK = 0, /* grass and track */
    RND_LAYER_CARS,      /* the inspector's overlay on the track, the cars and their tags */
    RND_LAYER_MAP,       /* the track map and the director's caption */
    RND_LAYER_HUD,       /* the left column: info, tower, ticker, timeline */
    RND_LAYER_PANEL,     /* the inspector panel */
    RND_LAYER_OVER,      /* results and help */
    RND_LAYER_COUNT
} RndLayer;
const double *rnd_view_layer_ms(const RndView *view);
const char *rnd_layer_name(RndLayer layer);

RndUi *rnd_view_ui(RndView *view);
RndCamera *rnd_view_camera(RndView *view);
/* Where the view drew a car last frame (pixel centre); false when it was not drawn. */
bool rnd_view_car_screen_pos(const RndView *view, int car_id, float *sx, float *sy);
/* Where the view drew a car's number tag last frame; false when it had none (the number on a large body, or a tag
 * left out because it would have covered another). */
bool rnd_view_car_tag(const RndView *view, int car_id, SDL_FRect *rect);
/* The director's shot: the car it follows and its rival (-1 for none); false before a race is set. */
bool rnd_view_director_shot(const RndView *view, int *car, int *rival);

/* The standings tower's figures: one row per car in race order; returns the count (at most SIM_MAX_CARS). */
int rnd_view_timing(const RndView *view, const SimWorld *world, RndTimingRow *rows);

/* Reads the renderer's output (after drawing, before presenting) as rows of 24-bit RGB (pitch 3 * w); the caller
 * frees it. NULL with a message on failure. */
uint8_t *rnd_read_rgb(SDL_Renderer *renderer, int *w, int *h, char *err, size_t err_len);
/* Writes rows of 24-bit RGB as a PNG or a 24-bit BMP file to f. 0 on success, -1 on a write error. */
int rnd_png_write(FILE *f, const uint8_t *rgb, int w, int h, int pitch);
int rnd_bmp_write(FILE *f, const uint8_t *rgb, int w, int h, int pitch);

#endif
