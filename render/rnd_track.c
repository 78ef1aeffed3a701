/* rnd_track.c: the track as filled bands along its centre line: run-off, kerbs, asphalt, edge lines, the racing
 * line and the start/finish line. The geometry is sampled once per track in world coordinates (centre, normal,
 * widths, racing line, turn, where kerbs go); each frame puts every sample on the screen (its point, and its normal
 * and tangent as pixels per metre, so any offset is two multiply-adds) and plans the segments worth drawing.
 *
 * Segments: a run of samples is merged into one segment while the straight chord stays within a third of a pixel
 * of the curve (at the band's edges too) and the widths and racing line within as much of their linear
 * interpolation, so straights cost a few segments and bends as many as they need; samples far outside the view are
 * skipped. Kerb blocks and the ends of kerbs end segments.
 *
 * Every edge that shows is soft (rnd_aa.c): a band's core stops half a fade inside its edge and a fade runs from
 * there to as far outside, over what was drawn before. Bands are drawn bottom up, and an edge hidden under a later
 * band is left hard: the run-off's and the kerbs' inner edges lie under the asphalt, the asphalt's under the edge
 * lines. The kerbs are a red band with white blocks over it, so a block's soft ends blend into red and not into
 * the ground. A fade is opaque where the colour beyond the edge is known (run-off, kerbs, edge lines: five times
 * cheaper) and blended where it is not (the racing line, which crosses the start line).
 *
 * The software rasteriser tests every pixel of a triangle's bounding box and spends about 0.2 us on a triangle
 * besides: segments are cut along into pieces as long as rnd_aa_piece_px finds worth it for their direction on
 * screen (the fades share these cuts), and wide cores across into pieces at most RND_PIECE_PX wide.
 *
 * Widths that would vanish at overview zoom keep a minimum pixel size; a band thinner than the fade has no core,
 * only a fainter fade from its middle line. */
#include "rnd_internal.h"

#include <math.h>
#include <stdlib.h>

#define RND_TRACK_MAX_SAMPLES 6000
#define RND_TRACK_MIN_SAMPLES 64
#define RND_TRACK_STEP_M 1.5
#define RND_RUNOFF_M 7.0       /* run-off each side of the track, m */
#define RND_RUNOFF_MIN_PX 6.0   /* drawn from this width on screen */
#define RND_RUNOFF_RGB 112, 122, 98 /* dusty grey-green, apart from grass and asphalt */
#define RND_KERB_WIDTH_M 1.0
#define RND_KERB_BLOCK_M 3.0
#define RND_KERB_BLOCK_MIN_PX 4.0 /* shorter blocks on screen would blur to pink: the kerb is drawn all red */
#define RND_KERB_CURVATURE 0.008 /* 1/m: kerbs where the radius is under 125 m */
#define RND_KERB_SPREAD_M 15.0   /* kerbs run on a little before and after the corner */
#define RND_EDGE_LINE_M 0.25
#define RND_LINE_WIDTH_M 0.35
#define RND_SEG_TOL_PX 0.33      /* a segment's chord stays this close to the curve */
#define RND_SEG_MAX_SAMPLES 48   /* and spans at most this many samples */
#define RND_SEG_MAX_PX 400.0     /* ... and pixels */
#define RND_PIECE_PX 40.0        /* cores are cut across into pieces at most this wide */
#define RND_KERB_WHITE 4         /* kerb bit: a white block */

/* ---- building ------------------------------------------------------------------------------------------------ */

static void rnd_track_bounds(RndTrackGeom *g)
{
    g->min_x_m = g->min_y_m = 1e300;
    g->max_x_m = g->max_y_m = -1e300;
    for (int i = 0; i < g->n; i++) {
        for (int side = -1; side <= 1; side += 2) {
            double d = side > 0 ? g->left_m[i] + RND_KERB_WIDTH_M : -(g->right_m[i] + RND_KERB_WIDTH_M);
            double x = g->cx[i] + g->nx[i] * d, y = g->cy[i] + g->ny[i] * d;
            g->min_x_m = fmin(g->min_x_m, x);
            g->max_x_m = fmax(g->max_x_m, x);
            g->min_y_m = fmin(g->min_y_m, y);
            g->max_y_m = fmax(g->max_y_m, y);
        }
    }
}

/* Kerbs go where the centre line curves hard, spread a few metres either way; every second block is white. */
static void rnd_track_mark_kerbs(RndTrackGeom *g, const double *kappa)
{
    int spread = (int)ceil(RND_KERB_SPREAD_M / g->step_m);
    for (int i = 0; i < g->n; i++)
        g->kerb[i] = 0;
    for (int i = 0; i < g->n; i++) {
        if (fabs(kappa[i]) < RND_KERB_CURVATURE)
            continue;
        for (int k = -spread; k <= spread; k++)
            g->kerb[((i + k) % g->n + g->n) % g->n] = 3;
    }
    for (int i = 0; i < g->n; i++)
        if (g->kerb[i] && (int)(g->s_m[i] / RND_KERB_BLOCK_M) % 2)
            g->kerb[i] |= RND_KERB_WHITE;
}

int rnd_track_build(RndTrackGeom *g, const TrkTrack *track)
{
    rnd_track_free(g);
    double length = trk_length(track);
    int n = (int)ceil(length / RND_TRACK_STEP_M);
    n = n < RND_TRACK_MIN_SAMPLES ? RND_TRACK_MIN_SAMPLES : n > RND_TRACK_MAX_SAMPLES ? RND_TRACK_MAX_SAMPLES : n;
    double step = length / n;
    g->track = track;
    g->n = n;
    g->step_m = step;
    double **arrays[] = {&g->s_m, &g->cx, &g->cy, &g->nx, &g->ny, &g->left_m, &g->right_m, &g->line_d_m, &g->turn_rad};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        *arrays[a] = malloc(sizeof(double) * (size_t)n);
    float **screen[] = {&g->sx, &g->sy, &g->snx, &g->sny, &g->stx, &g->sty};
    for (size_t a = 0; a < sizeof screen / sizeof screen[0]; a++)
        *screen[a] = malloc(sizeof(float) * (size_t)n);
    double *kappa = malloc(sizeof(double) * (size_t)n);
    g->kerb = malloc((size_t)n);
    g->near = malloc((size_t)n);
    g->seg_from = malloc(sizeof(int) * (size_t)n);
    g->seg_to = malloc(sizeof(int) * (size_t)n);
    int ok = kappa && g->kerb && g->near && g->seg_from && g->seg_to;
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        ok = ok && *arrays[a];
    for (size_t a = 0; a < sizeof screen / sizeof screen[0]; a++)
        ok = ok && *screen[a];
    if (!ok) {
        free(kappa);
        rnd_track_free(g);
        return -1;
    }
    int hint = -1;
    for (int i = 0; i < n; i++) {
        double s = i * step;
        TrkPose p = trk_pose_at(track, s, &hint);
        g->s_m[i] = s;
        g->cx[i] = p.x_m;
        g->cy[i] = p.y_m;
        g->nx[i] = p.nx;
        g->ny[i] = p.ny;
        g->left_m[i] = trk_width_left(track, s, &hint);
        g->right_m[i] = trk_width_right(track, s, &hint);
        g->line_d_m[i] = trk_line_d(track, s, &hint);
        kappa[i] = trk_curvature(track, s, &hint);
        g->max_half_width_m = fmax(g->max_half_width_m, fmax(g->left_m[i], g->right_m[i]));
    }
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        double cross = g->nx[i] * g->ny[j] - g->ny[i] * g->nx[j], dot = g->nx[i] * g->nx[j] + g->ny[i] * g->ny[j];
        g->turn_rad[i] = fabs(atan2(cross, dot));
    }
    rnd_track_mark_kerbs(g, kappa);
    free(kappa);
    rnd_track_bounds(g);
    return 0;
}

void rnd_track_free(RndTrackGeom *g)
{
    double *arrays[] = {g->s_m, g->cx, g->cy, g->nx, g->ny, g->left_m, g->right_m, g->line_d_m, g->turn_rad};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        free(arrays[a]);
    float *screen[] = {g->sx, g->sy, g->snx, g->sny, g->stx, g->sty};
    for (size_t a = 0; a < sizeof screen / sizeof screen[0]; a++)
        free(screen[a]);
    free(g->kerb);
    free(g->near);
    free(g->seg_from);
    free(g->seg_to);
    *g = (RndTrackGeom){0};
}

/* ---- planning -------------------------------------------------------------------------------------------------- */

/* Every sample on the screen, and whether it is near enough the view to matter. */
static void rnd_track_project(RndTrackGeom *g, const RndCamera *cam)
{
    double m[4];
    rnd_camera_linear(cam, m);
    double margin = (g->max_half_width_m + RND_RUNOFF_M + RND_KERB_WIDTH_M) * cam->scale_ppm + 8.0;
    for (int i = 0; i < g->n; i++) {
        rnd_camera_to_screen(cam, g->cx[i], g->cy[i], &g->sx[i], &g->sy[i]);
        double nx = g->nx[i], ny = g->ny[i], tx = ny, ty = -nx; /* tangent = normal turned -90 degrees */
        g->snx[i] = (float)(m[0] * nx + m[1] * ny);
        g->sny[i] = (float)(m[2] * nx + m[3] * ny);
        g->stx[i] = (float)(m[0] * tx + m[1] * ty);
        g->sty[i] = (float)(m[2] * tx + m[3] * ty);
        g->near[i] = g->sx[i] > -margin && g->sx[i] < cam->view_w + margin && g->sy[i] > -margin &&
                     g->sy[i] < cam->view_h + margin;
    }
}

static double rnd_lerp(double a, double b, double t) { return a + (b - a) * t; }

/* True when samples i .. e (e may be n: sample 0 again) can be one segment. */
static bool rnd_track_mergeable(const RndTrackGeom *g, int i, int e, double tol_m, double reach_m)
{
    int n = g->n;
    double len = (e - i) * g->step_m, turn = 0.0;
    for (int k = i; k < e; k++)
        turn += g->turn_rad[k];
    /* the sagitta of an arc turning `turn` over len (longer by reach * turn at the band's outer edge) */
    if ((len + reach_m * turn) * turn / 8.0 > tol_m)
        return false;
    int je = e % n;
    for (int k = i + 1; k < e; k++) {
        double t = (double)(k - i) / (e - i);
        if (fabs(g->left_m[k] - rnd_lerp(g->left_m[i], g->left_m[je], t)) > tol_m ||
            fabs(g->right_m[k] - rnd_lerp(g->right_m[i], g->right_m[je], t)) > tol_m ||
            fabs(g->line_d_m[k] - rnd_lerp(g->line_d_m[i], g->line_d_m[je], t)) > tol_m)
            return false;
    }
    return true;
}

/* The segments worth drawing this frame (see the top of the file). */
static void rnd_track_plan(RndTrackGeom *g, const RndCamera *cam)
{
    rnd_track_project(g, cam);
    int n = g->n;
    double px_m = 1.0 / cam->scale_ppm;
    double tol_m = RND_SEG_TOL_PX * px_m, reach_m = g->max_half_width_m + RND_RUNOFF_M;
    int max_len = (int)fmin(RND_SEG_MAX_SAMPLES, fmax(1.0, RND_SEG_MAX_PX * px_m / g->step_m));
    g->seg_count = 0;
    int i = 0;
    while (i < n) {
        if (!g->near[i] && !g->near[(i + 1) % n]) {
            i++;
            continue;
        }
        int e = i + 1;
        while (e < n && e - i < max_len && g->near[e] && g->kerb[e] == g->kerb[i] &&
               rnd_track_mergeable(g, i, e + 1, tol_m, reach_m))
            e++;
        g->seg_from[g->seg_count] = i;
        g->seg_to[g->seg_count] = e % n;
        g->seg_count++;
        i = e;
    }
}

/* ---- bands ----------------------------------------------------------------------------------------------------- */

typedef double RndOffsetFn(const RndTrackGeom *g, int i, double w_m);

/* What lies beyond a band's soft edge, where the track knows it: an opaque fade into that colour is five times
 * cheaper than a blended one (rnd_aa.c). */
typedef enum RndUnder {
    RND_UNDER_ANY = 0,  /* not known: a blended fade */
    RND_UNDER_GRASS,
    RND_UNDER_GROUND,   /* the run-off where it is drawn, else grass */
    RND_UNDER_ASPHALT,
    RND_UNDER_RED,      /* a kerb's red */
    RND_UNDER_LEFT,     /* beyond the left edge: the kerb there (red or a white block), else the ground */
    RND_UNDER_RIGHT
} RndUnder;

/* A band between lo(i) and hi(i) (lateral offsets, lo < hi), `w_m` passed to both. Its lo and hi edges are soft
 * or hard; `only` and `mask` pick the segments (kerb bits & mask == only; mask 0: all), and where a run of them
 * ends its end is soft too. under_lo, under_hi and under_end say what lies beyond its edges and ends. */
typedef struct RndBand {
    RndOffsetFn *lo, *hi;
    double w_m;
    bool soft_lo, soft_hi;
    unsigned char mask, only;
    RndRgba colour;
    RndUnder under_lo, under_hi, under_end;
} RndBand;

static const RndRgba rnd_grass = {RND_GRASS_RGB, 255}, rnd_asphalt = {RND_ASPHALT_RGB, 255},
                     rnd_runoff = {RND_RUNOFF_RGB, 255}, rnd_kerb_red = {200, 36, 36, 255},
                     rnd_kerb_white = {236, 236, 236, 255};

/* The colour beyond an edge at sample i (the start of its segment); false when not known. */
static bool rnd_under_colour(const RndTrackGeom *g, RndUnder u, int i, bool runoff, RndRgba *out)
{
    unsigned char kerb = g->kerb[i];
    switch (u) {
    case RND_UNDER_GRASS:
        *out = rnd_grass;
        return true;
    case RND_UNDER_GROUND:
        *out = runoff ? rnd_runoff : rnd_grass;
        return true;
    case RND_UNDER_ASPHALT:
        *out = rnd_asphalt;
        return true;
    case RND_UNDER_RED:
        *out = rnd_kerb_red;
        return true;
    case RND_UNDER_LEFT:
    case RND_UNDER_RIGHT:
        if (kerb & (u == RND_UNDER_LEFT ? 1 : 2))
            *out = (kerb & RND_KERB_WHITE) && g->white_blocks ? rnd_kerb_white : rnd_kerb_red;
        else
            *out = runoff ? rnd_runoff : rnd_grass;
        return true;
    default:
        return false;
    }
}

/* A point of the band on screen: sample i, lateral offset d (m), moved `along` m along the track. */
static void rnd_track_point(const RndTrackGeom *g, int i, double d, double along, float *x, float *y)
{
    *x = g->sx[i] + (float)d * g->snx[i] + (float)along * g->stx[i];
    *y = g->sy[i] + (float)d * g->sny[i] + (float)along * g->sty[i];
}

static bool rnd_band_has(const RndTrackGeom *g, const RndBand *b, int k)
{
    return k >= 0 && k < g->seg_count && (g->kerb[g->seg_from[k]] & b->mask) == b->only;
}

/* True when segment k's start (end: its end) joins on to a segment of the band, the one before it (after it),
 * round the lap. */
static bool rnd_band_joins(const RndTrackGeom *g, const RndBand *b, int k, bool end)
{
    int n = g->seg_count, o = ((end ? k + 1 : k - 1) + n) % n;
    if (n < 2 || !rnd_band_has(g, b, o))
        return false;
    return end ? g->seg_from[o] == g->seg_to[k] : g->seg_to[o] == g->seg_from[k];
}

static float rnd_lerpf(float a, float b, float t) { return a * (1.0f - t) + b * t; }

/* The core between the lines A (a0 -> a1, at sample i) and B (b0 -> b1, at sample j), cut into m pieces along
 * and c across; lines given lo to hi. */
static void rnd_band_core(RndAa *aa, const float a[4], const float b[4], int m, int c, RndRgba colour)
{
    for (int p = 0; p < m; p++) {
        float t0 = (float)p / m, t1 = p + 1 == m ? 1.0f : (float)(p + 1) / m;
        /* the lo and hi edges of this slice at t0 and t1 */
        float l0x = rnd_lerpf(a[0], b[0], t0), l0y = rnd_lerpf(a[1], b[1], t0);
        float h0x = rnd_lerpf(a[2], b[2], t0), h0y = rnd_lerpf(a[3], b[3], t0);
        float l1x = rnd_lerpf(a[0], b[0], t1), l1y = rnd_lerpf(a[1], b[1], t1);
        float h1x = rnd_lerpf(a[2], b[2], t1), h1y = rnd_lerpf(a[3], b[3], t1);
        for (int q = 0; q < c; q++) {
            float u0 = (float)q / c, u1 = q + 1 == c ? 1.0f : (float)(q + 1) / c;
            const float xy[8] = {rnd_lerpf(l0x, h0x, u0), rnd_lerpf(l0y, h0y, u0), rnd_lerpf(l0x, h0x, u1),
                                 rnd_lerpf(l0y, h0y, u1), rnd_lerpf(l1x, h1x, u1), rnd_lerpf(l1y, h1y, u1),
                                 rnd_lerpf(l1x, h1x, u0), rnd_lerpf(l1y, h1y, u0)};
            rnd_aa_core_quad(aa, xy, colour);
        }
    }
}

/* A fade along a segment from the inner line (i0 -> j0) to the outer line (i1 -> j1), in the same m pieces as
 * the core, so the two share their corners; opaque into `outside` when it is known (not NULL). */
static void rnd_band_fade(RndAa *aa, const float in[4], const float out[4], int m, RndRgba colour,
                          const RndRgba *outside)
{
    for (int p = 0; p < m; p++) {
        float t0 = (float)p / m, t1 = p + 1 == m ? 1.0f : (float)(p + 1) / m;
        const float i4[4] = {rnd_lerpf(in[0], in[2], t0), rnd_lerpf(in[1], in[3], t0), rnd_lerpf(in[0], in[2], t1),
                             rnd_lerpf(in[1], in[3], t1)};
        const float o4[4] = {rnd_lerpf(out[0], out[2], t0), rnd_lerpf(out[1], out[3], t0),
                             rnd_lerpf(out[0], out[2], t1), rnd_lerpf(out[1], out[3], t1)};
        if (outside)
            rnd_aa_grad_quad(aa, i4, o4, colour, *outside);
        else
            rnd_aa_fade_quad(aa, i4, o4, colour);
    }
}

static int rnd_pieces(double px, double piece_px)
{
    int k = (int)ceil(px / piece_px);
    return k < 1 ? 1 : k > 64 ? 64 : k;
}

static void rnd_track_band(RndTrackGeom *g, RndAa *aa, double px_m, bool runoff, const RndBand *b)
{
    bool soft = rnd_aa_soft(aa);
    double h = soft ? 0.5 * RND_AA_PX * px_m : 0.0; /* half a fade, m */
    /* the cuts across are the same for every segment: neighbours then share the corners where they meet (a corner
     * of one lying on the other's edge would be rounded apart from it, leaving a crack) */
    double wide_m = 0.0;
    for (int k = 0; k < g->seg_count; k++)
        if (rnd_band_has(g, b, k))
            wide_m = fmax(wide_m, b->hi(g, g->seg_from[k], b->w_m) - b->lo(g, g->seg_from[k], b->w_m));
    int across = rnd_pieces(wide_m / px_m, RND_PIECE_PX);
    for (int k = 0; k < g->seg_count; k++) {
        if (!rnd_band_has(g, b, k))
            continue;
        int i = g->seg_from[k], j = g->seg_to[k];
        /* a run of the band's segments ends where the next segment is not the band's or does not join on */
        bool cap0 = soft && b->mask && !rnd_band_joins(g, b, k, false);
        bool cap1 = soft && b->mask && !rnd_band_joins(g, b, k, true);
        double lo[2] = {b->lo(g, i, b->w_m), b->lo(g, j, b->w_m)}, hi[2] = {b->hi(g, i, b->w_m), b->hi(g, j, b->w_m)};
        double clo[2], chi[2];
        RndRgba c = b->colour;
        double thin_px = fmin(hi[0] - lo[0], hi[1] - lo[1]) / px_m;
        bool core = true;
        for (int e = 0; e < 2; e++) {
            clo[e] = lo[e] + (b->soft_lo ? h : 0.0);
            chi[e] = hi[e] - (b->soft_hi ? h : 0.0);
            if (chi[e] <= clo[e]) { /* thinner than the fade: no core, a fainter fade from the middle */
                clo[e] = chi[e] = 0.5 * (lo[e] + hi[e]);
                core = false;
            }
        }
        if (!core)
            c.a = (Uint8)lround(c.a * fmax(thin_px / RND_AA_PX, 0.15));
        double a0 = cap0 ? h : 0.0, a1 = cap1 ? -h : 0.0; /* a soft end starts the core half a fade in */
        float A[4], B[4];
        rnd_track_point(g, i, clo[0], a0, &A[0], &A[1]);
        rnd_track_point(g, i, chi[0], a0, &A[2], &A[3]);
        rnd_track_point(g, j, clo[1], a1, &B[0], &B[1]);
        rnd_track_point(g, j, chi[1], a1, &B[2], &B[3]);
        float dx = 0.5f * (B[0] + B[2] - A[0] - A[2]), dy = 0.5f * (B[1] + B[3] - A[1] - A[3]);
        int m = rnd_pieces(hypot(dx, dy), rnd_aa_piece_px(dx, dy)); /* along: the fades share these cuts */
        if (core)
            rnd_band_core(aa, A, B, m, across, c);
        if (!soft)
            continue;
        RndRgba under_lo, under_hi, under_end;
        bool known_lo = rnd_under_colour(g, b->under_lo, i, runoff, &under_lo);
        bool known_hi = rnd_under_colour(g, b->under_hi, i, runoff, &under_hi);
        bool known_end = rnd_under_colour(g, b->under_end, i, runoff, &under_end);
        if (b->soft_lo) {
            const float in[4] = {A[0], A[1], B[0], B[1]};
            float out[4];
            rnd_track_point(g, i, lo[0] - h, a0, &out[0], &out[1]);
            rnd_track_point(g, j, lo[1] - h, a1, &out[2], &out[3]);
            rnd_band_fade(aa, in, out, m, c, known_lo ? &under_lo : NULL);
        }
        if (b->soft_hi) {
            const float in[4] = {A[2], A[3], B[2], B[3]};
            float out[4];
            rnd_track_point(g, i, hi[0] + h, a0, &out[0], &out[1]);
            rnd_track_point(g, j, hi[1] + h, a1, &out[2], &out[3]);
            rnd_band_fade(aa, in, out, m, c, known_hi ? &under_hi : NULL);
        }
        for (int e = 0; e < 2; e++) { /* a soft end across the band, from half a fade in to half a fade out */
            if (!(e ? cap1 : cap0))
                continue;
            float out[4];
            int at = e ? j : i;
            rnd_track_point(g, at, e ? clo[1] : clo[0], e ? h : -h, &out[0], &out[1]);
            rnd_track_point(g, at, e ? chi[1] : chi[0], e ? h : -h, &out[2], &out[3]);
            rnd_band_fade(aa, e ? B : A, out, 1, c, known_end ? &under_end : NULL);
        }
    }
    rnd_aa_flush(aa);
}

/* The offsets of the bands; w_m is the band's width where it has one of its own. */
static double rnd_off_left(const RndTrackGeom *g, int i, double w_m)
{
    (void)w_m;
    return g->left_m[i];
}
static double rnd_off_right(const RndTrackGeom *g, int i, double w_m)
{
    (void)w_m;
    return -g->right_m[i];
}
static double rnd_off_left_out(const RndTrackGeom *g, int i, double w_m) { return g->left_m[i] + w_m; }
static double rnd_off_right_out(const RndTrackGeom *g, int i, double w_m) { return -g->right_m[i] - w_m; }
static double rnd_off_left_in(const RndTrackGeom *g, int i, double w_m) { return g->left_m[i] - w_m; }
static double rnd_off_right_in(const RndTrackGeom *g, int i, double w_m) { return -g->right_m[i] + w_m; }
static double rnd_off_line_lo(const RndTrackGeom *g, int i, double w_m) { return g->line_d_m[i] - 0.5 * w_m; }
static double rnd_off_line_hi(const RndTrackGeom *g, int i, double w_m) { return g->line_d_m[i] + 0.5 * w_m; }
/* the hidden inner side of the run-off and the kerbs: a metre under the asphalt, so no seam shows */
static double rnd_off_left_under(const RndTrackGeom *g, int i, double w_m)
{
    (void)w_m;
    return g->left_m[i] - 1.0;
}
static double rnd_off_right_under(const RndTrackGeom *g, int i, double w_m)
{
    (void)w_m;
    return -g->right_m[i] + 1.0;
}

/* A chequered band across the track at s = 0 (the start/finish line), two squares deep: white, then the black
 * squares over it. */
static void rnd_track_start_line(const RndTrackGeom *g, RndAa *aa, const RndCamera *cam)
{
    const int cols = 8;
    double width = g->left_m[0] + g->right_m[0];
    double q = width / cols;
    double tx = g->ny[0], ty = -g->nx[0]; /* tangent = normal rotated -90 degrees */
    for (int pass = 0; pass < 2; pass++) {
        for (int row = 0; row < 2; row++) {
            for (int col = 0; col < cols; col++) {
                if (pass == 0 ? row + col > 0 : (row + col) % 2 == 0)
                    continue;
                /* the first pass is the whole line in white */
                double d0 = pass ? -g->right_m[0] + col * q : -g->right_m[0], d1 = pass ? d0 + q : g->left_m[0];
                double a0 = pass ? -row * q : 0.0, a1 = pass ? a0 - q : -2.0 * q;
                double pts[4][2] = {{d0, a0}, {d1, a0}, {d1, a1}, {d0, a1}};
                float xy[8];
                for (int k = 0; k < 4; k++) {
                    double x = g->cx[0] + g->nx[0] * pts[k][0] + tx * pts[k][1];
                    double y = g->cy[0] + g->ny[0] * pts[k][0] + ty * pts[k][1];
                    rnd_camera_to_screen(cam, x, y, &xy[2 * k], &xy[2 * k + 1]);
                }
                rnd_aa_poly(aa, xy, 4, pass ? rnd_rgba(20, 20, 20, 255) : rnd_rgba(245, 245, 245, 255), NULL);
            }
        }
        rnd_aa_flush(aa);
    }
}

void rnd_track_draw(RndTrackGeom *g, RndAa *aa, const RndCamera *cam)
{
    if (!g->track || g->n < 2)
        return;
    double px_m = 1.0 / cam->scale_ppm; /* one pixel in metres */
    double kerb_m = fmax(RND_KERB_WIDTH_M, 2.0 * px_m);
    double edge_m = fmax(RND_EDGE_LINE_M, 1.0 * px_m);
    double line_m = fmax(RND_LINE_WIDTH_M, 1.5 * px_m);
    static const RndRgba edge = {225, 225, 225, 255};
    /* the racing line is pre-mixed with the asphalt, so it stays opaque */
    static const RndRgba line = {124, 116, 86, 255};
    rnd_track_plan(g, cam);
    /* run-off beside the track, once it is wide enough on screen to read as a surface and not as a thicker line */
    bool runoff = RND_RUNOFF_M * cam->scale_ppm >= RND_RUNOFF_MIN_PX;
    /* white kerb blocks while a block is long enough on screen to tell from the next: shorter ones would blur to
     * pink, so the kerb is drawn all red */
    g->white_blocks = RND_KERB_BLOCK_M * cam->scale_ppm >= RND_KERB_BLOCK_MIN_PX;
    if (runoff) {
        RndBand l = {rnd_off_left_under, rnd_off_left_out, RND_RUNOFF_M, false, true, 0, 0, rnd_runoff,
                     RND_UNDER_ANY, RND_UNDER_GRASS, RND_UNDER_ANY};
        RndBand r = {rnd_off_right_out, rnd_off_right_under, RND_RUNOFF_M, true, false, 0, 0, rnd_runoff,
                     RND_UNDER_GRASS, RND_UNDER_ANY, RND_UNDER_ANY};
        rnd_track_band(g, aa, px_m, runoff, &l);
        rnd_track_band(g, aa, px_m, runoff, &r);
    }
    /* kerbs: red, then the white blocks over them */
    for (int side = 0; side < 2; side++) {
        unsigned char bit = (unsigned char)(1 << side);
        for (int pass = 0; pass < (g->white_blocks ? 2 : 1); pass++) {
            unsigned char mask = (unsigned char)(bit | (pass ? RND_KERB_WHITE : 0));
            RndRgba c = pass ? rnd_kerb_white : rnd_kerb_red;
            RndUnder end = pass ? RND_UNDER_RED : RND_UNDER_GROUND;
            RndBand k = side == 0 ? (RndBand){rnd_off_left_under, rnd_off_left_out, kerb_m, false, true, mask, mask, c,
                                              RND_UNDER_ANY, RND_UNDER_GROUND, end}
                                  : (RndBand){rnd_off_right_out, rnd_off_right_under, kerb_m, true, false, mask, mask,
                                              c, RND_UNDER_GROUND, RND_UNDER_ANY, end};
            rnd_track_band(g, aa, px_m, runoff, &k);
        }
    }
    RndBand asphalt = {rnd_off_right, rnd_off_left, 0.0, false, false, 0, 0, rnd_asphalt,
                       RND_UNDER_ANY, RND_UNDER_ANY, RND_UNDER_ANY};
    rnd_track_band(g, aa, px_m, runoff, &asphalt);
    RndBand el = {rnd_off_left_in, rnd_off_left, edge_m, true, true, 0, 0, edge,
                  RND_UNDER_ASPHALT, RND_UNDER_LEFT, RND_UNDER_ANY};
    RndBand er = {rnd_off_right, rnd_off_right_in, edge_m, true, true, 0, 0, edge,
                  RND_UNDER_RIGHT, RND_UNDER_ASPHALT, RND_UNDER_ANY};
    rnd_track_band(g, aa, px_m, runoff, &el);
    rnd_track_band(g, aa, px_m, runoff, &er);
    rnd_track_start_line(g, aa, cam);
    /* the racing line crosses the start line and may touch the edge lines: its fades blend */
    RndBand rl = {rnd_off_line_lo, rnd_off_line_hi, line_m, true, true, 0, 0, line,
                  RND_UNDER_ANY, RND_UNDER_ANY, RND_UNDER_ANY};
    rnd_track_band(g, aa, px_m, runoff, &rl);
}
