/* rnd_internal.h: private layout of the render module, shared by its .c files (never included outside render/). */
#ifndef RND_INTERNAL_H
#define RND_INTERNAL_H

#include "rnd.h"

#define RND_PI 3.14159265358979323846

/* ---- drawing primitives (rnd_draw.c) -------------------------------------------------------------------------- */

typedef struct RndRgba {
    Uint8 r, g, b, a;
} RndRgba;

static inline RndRgba rnd_rgba(Uint8 r, Uint8 g, Uint8 b, Uint8 a)
{
    RndRgba c = {r, g, b, a};
    return c;
}

void rnd_fill_rect(SDL_Renderer *r, float x, float y, float w, float h, RndRgba c);
void rnd_outline_rect(SDL_Renderer *r, float x, float y, float w, float h, RndRgba c);
/* A convex quad given by four corners in order. */
void rnd_fill_quad(SDL_Renderer *r, const float xy[8], RndRgba c);
void rnd_fill_circle(SDL_Renderer *r, float cx, float cy, float radius, RndRgba c);
void rnd_ring(SDL_Renderer *r, float cx, float cy, float radius, float thickness, RndRgba c);
/* A thick line segment (a quad), so widths scale with zoom. */
void rnd_thick_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width_px, RndRgba c);

/* ---- anti-aliased shapes (rnd_aa.c) ---------------------------------------------------------------------------- */

#define RND_AA_PX 1.5f /* width of a soft edge on screen, px, centred on the geometric edge */
#define RND_AA_GRAD_ROWS 512 /* gradients (inside colour, outside colour) the gradient texture holds: the track's
                                and three a car (body, cockpit, map dot) for the most cars a race has */

typedef struct RndAaBatch {
    SDL_Vertex *v;
    int *idx;
    int nv, ni;
    bool translucent; /* a vertex is not opaque: the batch blends */
} RndAaBatch;

/* Soft-edged shapes queued for one renderer: the cores (plain triangles), the opaque fades (untinted triangles of
 * a gradient texture, a row per pair of colours) and the blended fades (tinted triangles of a texture whose alpha
 * falls from 255 at u = 0 to 0 at u = 1). rnd_aa_flush draws them in that order. */
typedef struct RndAa {
    SDL_Renderer *renderer;
    Uint32 format;           /* the target's pixel format: the gradients and panels are made in it */
    SDL_Texture *ramp;       /* NULL when the renderer could not make it: hard edges */
    SDL_Texture *gradient;   /* NULL: opaque fades are blended instead */
    Uint32 grad_key[RND_AA_GRAD_ROWS][2]; /* the rows' (inside, outside) colours, 0xRRGGBB */
    Uint16 grad_slot[2 * RND_AA_GRAD_ROWS]; /* hash of the keys: row + 1, 0 for none */
    int grad_rows;
    SDL_Texture *panel;      /* RND_HUD_BG, for rnd_aa_panel; NULL: blended fills */
    bool enabled;            /* false: hard edges (for comparison, RACESIM_AA=0) */
    RndAaBatch core, grad, fade;
} RndAa;

/* `format`: the pixel format of what the renderer draws into (0: ARGB8888). */
int rnd_aa_init(RndAa *aa, SDL_Renderer *r, Uint32 format);
/* How long a thin piece of a shape running along (dx, dy) on screen should be, px. The software rasteriser tests
 * every pixel of a triangle's bounding box (about 1 ns each) and spends about 0.2 us on a triangle besides: along a
 * screen axis a long piece wastes nothing, across at 45 degrees its box grows with the square of its length. */
float rnd_aa_piece_px(float dx, float dy);
void rnd_aa_free(RndAa *aa);
/* True when edges are drawn soft. */
bool rnd_aa_soft(const RndAa *aa);
void rnd_aa_flush(RndAa *aa);
/* The fades first, then the cores over them: shapes of one colour that overlap (a car's parts) hide each other's
 * inner edges, so those may fade into a colour that is only right outside the whole. */
void rnd_aa_flush_fades_first(RndAa *aa);
/* A convex polygon of 3 to 8 corners, soft-edged; `outside` as for rnd_aa_grad_quad (NULL: blended). */
void rnd_aa_poly(RndAa *aa, const float *xy, int n, RndRgba c, const RndRgba *outside);
/* The same with hard edges, as it is. */
void rnd_aa_poly_hard(RndAa *aa, const float *xy, int n, RndRgba c);
/* A quad (4 corners in order) for the core batch, drawn as it is. */
void rnd_aa_core_quad(RndAa *aa, const float xy[8], RndRgba c);
/* A fade from the line in[0..3] (x0, y0, x1, y1), in colour c, to the line out[0..3], transparent. */
void rnd_aa_fade_quad(RndAa *aa, const float in[4], const float out[4], RndRgba c);
/* The same over a known opaque colour `outside` (what lies beyond the line out): drawn opaque, five times faster
 * in the software renderer. A see-through c is mixed with `outside`. */
void rnd_aa_grad_quad(RndAa *aa, const float in[4], const float out[4], RndRgba c, RndRgba outside);
/* A HUD panel's background: RND_HUD_BG at `alpha`, in whole pixels as rnd_fill_rect. */
void rnd_aa_panel(RndAa *aa, float x, float y, float w, float h, Uint8 alpha);
/* A ring from radius to radius + thickness, and a disc, soft-edged. */
void rnd_aa_ring(RndAa *aa, float cx, float cy, float radius, float thickness, RndRgba c);
/* `outside`: the opaque colour around the disc when known (an opaque fade), else NULL. */
void rnd_aa_disc(RndAa *aa, float cx, float cy, float radius, RndRgba c, const RndRgba *outside);

/* ---- text (rnd_text.c) ---------------------------------------------------------------------------------------- */

typedef enum RndFont {
    RND_FONT_NORMAL = 0,
    RND_FONT_SMALL,
    RND_FONT_BOLD,
    RND_FONT_BIG,
    RND_FONT_MONO,
    RND_FONT_COUNT
} RndFont;
typedef enum RndAlign { RND_LEFT = 0, RND_CENTRE, RND_RIGHT } RndAlign;

typedef struct RndText RndText;

RndText *rnd_text_create(SDL_Renderer *renderer, const char *font_path, int font_px, char *err, size_t err_len);
void rnd_text_destroy(RndText *text);
/* Draws a string with its top at y and x at its left/centre/right; returns its width in pixels. */
int rnd_text_draw(RndText *text, RndFont font, const char *s, float x, float y, RndRgba c, RndAlign align);
int rnd_text_width(RndText *text, RndFont font, const char *s);
int rnd_text_height(const RndText *text, RndFont font); /* line height, px */
/* Fits s into max_w pixels of the font, measured with the font itself: s when it fits, else its longest prefix
 * (cut at a character boundary, trailing spaces dropped) followed by an ellipsis; "" when not even the ellipsis
 * fits. Writes out (truncated to out_len as any string) and returns its width. */
int rnd_text_fit(RndText *text, RndFont font, const char *s, int max_w, char *out, size_t out_len);
/* rnd_text_draw of s fitted into max_w pixels: text never runs past the width it is given. */
int rnd_text_draw_fit(RndText *text, RndFont font, const char *s, float x, float y, float max_w, RndRgba c,
                      RndAlign align);
/* Where the font came from, for the help overlay. */
const char *rnd_text_font_path(const RndText *text);

/* ---- track geometry (rnd_track.c) ----------------------------------------------------------------------------- */

/* The track sampled once in world coordinates; each frame transforms it to the screen. */
typedef struct RndTrackGeom {
    const TrkTrack *track;
    int n;                 /* samples around the lap (the ribbon closes from n-1 back to 0) */
    double step_m;         /* between samples */
    double *s_m;
    double *cx, *cy;       /* centre line */
    double *nx, *ny;       /* unit normal, left */
    double *left_m, *right_m;
    double *line_d_m;      /* racing line */
    double *turn_rad;      /* the centre line's turn from sample i to i + 1 */
    unsigned char *kerb;   /* where a kerb is drawn on that side: bit 0 left, bit 1 right; bit 2: a white block */
    double min_x_m, min_y_m, max_x_m, max_y_m;
    double max_half_width_m;
    /* per-frame scratch: each sample's screen point, its normal and tangent on screen (px per m), whether it is
     * near the view, and the segments drawn (from sample, to sample) */
    float *sx, *sy, *snx, *sny, *stx, *sty;
    unsigned char *near;
    int *seg_from, *seg_to;
    int seg_count;
    bool white_blocks;     /* this frame draws the kerbs' white blocks */
} RndTrackGeom;

int rnd_track_build(RndTrackGeom *geom, const TrkTrack *track);
void rnd_track_free(RndTrackGeom *geom);
void rnd_track_draw(RndTrackGeom *geom, RndAa *aa, const RndCamera *cam);

/* ---- labels that do not overlap (rnd_labels.c) ------------------------------------------------------------------ */

#define RND_MAX_LABELS (2 * SIM_MAX_CARS) /* tags and the marks they keep clear of */

typedef struct RndLabels {
    SDL_FRect rects[RND_MAX_LABELS];
    int count;
} RndLabels;

void rnd_labels_clear(RndLabels *set);
/* True when r overlaps no label placed so far. */
bool rnd_labels_free(const RndLabels *set, const SDL_FRect *r);
/* Places a w x h label near the anchor (ax, ay), `gap` px away, in the first of a few spots around it that is
 * free and inside bounds (NULL: anywhere); false (nothing placed) when none is. */
bool rnd_labels_place(RndLabels *set, float ax, float ay, float w, float h, float gap, const SDL_FRect *bounds,
                      SDL_FRect *out);

/* ---- track map (rnd_minimap.c) ----------------------------------------------------------------------------------- */

#define RND_MINIMAP_SPRITES 64 /* dot sprites kept; more colours than that are drawn as shapes */

/* The track's outline in unit coordinates of its bounds (built once per track) and its screen vertices for the
 * box last drawn into. */
typedef struct RndMinimap {
    int n;
    float *ux, *uy;        /* [0, 1] across the bounds, y down */
    double min_x_m, min_y_m, w_m, h_m;
    SDL_FRect box;         /* the panel last drawn */
    float *px, *py;        /* the outline laid out in a box (one allocation with mx, my) */
    float *mx, *my;        /* at each point, the offset to the line's left edge per px of half width */
    SDL_Texture *tex;      /* the panel with the outline, tex_w x tex_h, soft-edged when tex_soft */
    int tex_w, tex_h;
    bool tex_soft;
    SDL_Texture *sprite[RND_MINIMAP_SPRITES]; /* a dot of each colour (sprite_key: 0xRRGGBB) */
    Uint32 sprite_key[RND_MINIMAP_SPRITES];
    int sprite_count;
} RndMinimap;

int rnd_minimap_build(RndMinimap *map, const RndTrackGeom *geom);
void rnd_minimap_free(RndMinimap *map);
/* The panel's rectangle in a window view_w wide (top right). */
SDL_FRect rnd_minimap_panel(const RndMinimap *map, int view_w);
void rnd_minimap_draw(RndAa *aa, RndText *text, RndMinimap *map, const RndFrame *frame, int selected, int view_w);

/* ---- cars (rnd_cars.c) ----------------------------------------------------------------------------------------- */

typedef struct RndCarDraw {
    bool drawn;
    float sx, sy;
    bool wants_tag;  /* too small on screen for its number on the body */
    bool tagged;     /* its number tag was drawn, at tag */
    SDL_FRect tag;
} RndCarDraw;

void rnd_cars_draw(RndAa *aa, RndText *text, const RndCamera *cam, const RndFrame *frame, int selected,
                   RndCarDraw *out);

/* ---- timing (rnd_timing.c) -------------------------------------------------------------------------------------- */

#define RND_GAP_STEP_M 5.0 /* resolution of the leader's timing table */

/* When the leading position first reached each distance mark, from where the leader started, and the grid order. */
typedef struct RndTiming {
    double *lead_time_s;        /* time the leader first reached mark i (at base_m + i * RND_GAP_STEP_M) */
    int lead_marks, lead_cap;
    double base_m;              /* race distance of mark 0: the leader's at the start */
    double lead_dist_m;         /* the leader's race distance when last observed ... */
    double lead_seen_s;         /* ... and the time then */
    int grid_pos[SIM_MAX_CARS]; /* 1-based position at the start, by car id */
} RndTiming;

void rnd_timing_reset(RndTiming *t, const SimWorld *world);
void rnd_timing_free(RndTiming *t);
void rnd_timing_observe(RndTiming *t, const SimWorld *world);
/* Fills one row per car in race order (rnd.h); returns the count. */
int rnd_timing_rows(const RndTiming *t, const SimWorld *world, RndTimingRow *rows);

/* ---- the TV director (rnd_director.c) ---------------------------------------------------------------------------- */

typedef enum RndShotReason { RND_SHOT_LEADER = 0, RND_SHOT_FIGHT, RND_SHOT_PASS, RND_SHOT_CONTACT } RndShotReason;

/* Who the director camera shows and since when (race time), plus the latest pass or contact not cut to yet. */
typedef struct RndDirector {
    int car, rival;            /* rival: the car it fights or just met, -1 for none */
    RndShotReason reason;
    double shot_start_s;
    int pending_car, pending_rival;
    RndShotReason pending_reason;
    double pending_s;
    long last_event_tick;
} RndDirector;

void rnd_director_reset(RndDirector *d, const SimWorld *world);
/* After every sim step, with the timing already updated for it. */
void rnd_director_observe(RndDirector *d, const RndTiming *timing, const SimWorld *world);
void rnd_director_draw_caption(RndAa *aa, RndText *text, const RndDirector *d, const SimWorld *world,
                               float left_px, float right_px);

/* Where the tower drew each car's row last frame, for clicks. */
typedef struct RndTowerHits {
    SDL_FRect row[SIM_MAX_CARS];
    int car[SIM_MAX_CARS];
    int count;
} RndTowerHits;

/* ---- HUD (rnd_hud.c) ------------------------------------------------------------------------------------------ */

#define RND_TICKER_LEN 6
#define RND_TICKER_LABEL (DRV_NAME_LEN + 16) /* "#number name" */

/* An event as the ticker shows it. The line is laid out when drawn, with the font: the cars' labels are kept whole
 * here and shortened then, each to its share of the panel, so a long name never pushes the other car (or the
 * end of the line) out of the panel. */
typedef struct RndTickerItem {
    double time_s;
    SimEventType type;
    double value;               /* collision: relative speed, m/s */
    char a[RND_TICKER_LABEL];   /* the first car, "#7 Vera Lind" */
    char b[RND_TICKER_LABEL];   /* the second car, "" when the event has one */
} RndTickerItem;

/* What the HUD remembers between frames: recent events. */
typedef struct RndHudState {
    RndTickerItem ticker[RND_TICKER_LEN];
    int ticker_count;           /* newest at index 0 */
    long last_event_tick;       /* events up to this tick are already in the ticker */
} RndHudState;

void rnd_hud_reset(RndHudState *hud);
void rnd_hud_observe(RndHudState *hud, const SimWorld *world);
/* `timeline`: keep room for the timeline bar at the foot of the column */
void rnd_hud_draw(RndAa *aa, RndText *text, const RndHudState *hud, const RndTiming *timing,
                  const RndFrame *frame, const RndUi *ui, const RndCamera *cam, bool timeline, int view_w, int view_h,
                  RndTowerHits *hits);
/* ---- the standings tower (rnd_tower.c) --------------------------------------------------------------------------- */

#define RND_PANEL_PAD 6.0f
#define RND_PANEL_SEE_THROUGH 150 /* opacity of the left column's panels when cars may pass under them */
#define RND_TOWER_X 10.0f

/* Width of the standings tower (the HUD column) for the camera's inset. */
int rnd_tower_width(RndText *text);
/* The standings from y down, leaving reserve_px at the bottom of the window; see-through when `translucent`
 * (the camera is close in and cars may pass under it). Records the rows drawn in `hits` (NULL: not). Returns the
 * bottom edge. */
float rnd_tower_draw(RndAa *aa, RndText *text, const RndTiming *timing, const RndFrame *frame, int selected,
                     float y, float reserve_px, int view_h, bool translucent, RndTowerHits *hits);

void rnd_hud_draw_help(RndAa *aa, RndText *text, int view_w, int view_h);
void rnd_hud_draw_results(RndAa *aa, RndText *text, const RndFrame *frame, int view_w, int view_h);
/* Formats a time as m:ss.mmm (or s.mmm below a minute). */
void rnd_format_time(char *buf, size_t len, double t_s, int decimals);
/* A result (race time, best lap): m:ss.mmm rounded to the millisecond, as the terminal table prints it, where the
 * race clock truncates. */
void rnd_format_result_time(char *buf, size_t len, double t_s);

/* ---- the timeline of the window's replay (rnd_replay.c) ---------------------------------------------------------- */

/* Room the timeline takes at the foot of the HUD column, px. */
#define RND_TIMELINE_H 18.0f
/* The bar at the foot of the HUD column, from RND_TOWER_X to right_px, above the "h: help" line. */
void rnd_timeline_draw(SDL_Renderer *r, RndText *text, const RndTimeline *tl, float right_px, int view_h);

/* ---- the context-map inspector (rnd_inspector.c) ---------------------------------------------------------------- */

/* The selected car's maps: the override, else its driver's debug, else NULL. */
const DrvDebug *rnd_inspector_debug(const RndFrame *frame, int car_id);
const char *rnd_resolver_name(DrvResolver resolver);
int rnd_inspector_panel_height(RndText *text);
typedef struct RndView RndView;
/* Drawn after the cars, whose screen positions it keeps clear of (see rnd_inspector.c). */
void rnd_inspector_draw_panel(RndView *view, const RndFrame *frame, int car_id, int view_w, int view_h);
void rnd_inspector_draw_overlay(SDL_Renderer *r, const RndCamera *cam, const RndFrame *frame, int car_id);

/* ---- the view (rnd_view.c) --------------------------------------------------------------------------------------- */

struct RndView {
    SDL_Renderer *renderer;
    RndAa aa;                  /* soft-edged shapes */
    RndText *text;
    RndTrackGeom geom;
    RndMinimap minimap;
    RndCamera cam;
    RndUi ui;
    RndHudState hud;
    RndTiming timing;
    RndDirector director;
    RndCarDraw cars[SIM_MAX_CARS];
    int car_count;
    SDL_FRect inspector_rect;  /* where the inspector panel was last drawn */
    RndTowerHits tower_hits;   /* the tower's rows last drawn: a click on one selects its car */
    const RndTimeline *timeline; /* NULL: no timeline bar */
    double layer_ms[RND_LAYER_COUNT]; /* the last frame's time by layer */
    /* the grass and track of a camera that stays still (the overview, a paused view), drawn once into bg */
    SDL_Texture *bg;
    RndCamera bg_cam;          /* the camera bg holds */
    bool bg_valid;
    RndCamera last_cam;        /* the camera of the frame before */
    bool last_cam_set;
    bool dragging;
    bool drag_moved;
    float drag_x, drag_y;
};

#endif
