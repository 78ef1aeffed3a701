/* rnd_track.c: the track as a filled ribbon. The geometry is sampled once per track in world coordinates (centre,
 * normal, widths, racing line, where kerbs go) and transformed to the screen each frame; the ribbon is two triangles
 * per segment drawn with SDL_RenderGeometry. Widths that would vanish at overview zoom keep a minimum pixel size. */
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
#define RND_KERB_CURVATURE 0.008 /* 1/m: kerbs where the radius is under 125 m */
#define RND_KERB_SPREAD_M 15.0   /* kerbs run on a little before and after the corner */
#define RND_EDGE_LINE_M 0.25
#define RND_LINE_WIDTH_M 0.35
#define RND_TRACK_MIN_SEGMENT_PX 4.0 /* zoomed out, samples merge into segments at least this long on screen */

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

/* Kerbs go where the centre line curves hard, spread a few metres either way. */
static void rnd_track_mark_kerbs(RndTrackGeom *g, const double *kappa, double step_m)
{
    int spread = (int)ceil(RND_KERB_SPREAD_M / step_m);
    for (int i = 0; i < g->n; i++)
        g->kerb[i] = 0;
    for (int i = 0; i < g->n; i++) {
        if (fabs(kappa[i]) < RND_KERB_CURVATURE)
            continue;
        for (int k = -spread; k <= spread; k++)
            g->kerb[((i + k) % g->n + g->n) % g->n] = 3;
    }
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
    double **arrays[] = {&g->s_m, &g->cx, &g->cy, &g->nx, &g->ny, &g->left_m, &g->right_m, &g->line_d_m};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        *arrays[a] = malloc(sizeof(double) * (size_t)n);
    double *kappa = malloc(sizeof(double) * (size_t)n);
    g->kerb = malloc((size_t)n);
    g->vert_cap = 4 * (n + 8) + 64;
    g->index_cap = 6 * (n + 8) + 96;
    g->verts = malloc(sizeof(SDL_Vertex) * (size_t)g->vert_cap);
    g->indices = malloc(sizeof(int) * (size_t)g->index_cap);
    g->seg_from = malloc(sizeof(int) * (size_t)n);
    g->seg_to = malloc(sizeof(int) * (size_t)n);
    int ok = kappa && g->kerb && g->verts && g->indices && g->seg_from && g->seg_to;
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
        ok = ok && *arrays[a];
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
    rnd_track_mark_kerbs(g, kappa, step);
    free(kappa);
    rnd_track_bounds(g);
    return 0;
}

void rnd_track_free(RndTrackGeom *g)
{
    free(g->s_m);
    free(g->cx);
    free(g->cy);
    free(g->nx);
    free(g->ny);
    free(g->left_m);
    free(g->right_m);
    free(g->line_d_m);
    free(g->kerb);
    free(g->verts);
    free(g->indices);
    free(g->seg_from);
    free(g->seg_to);
    *g = (RndTrackGeom){0};
}

/* ---- drawing ------------------------------------------------------------------------------------------------- */

/* A point of the ribbon: sample i, lateral offset d, moved `along_m` along the tangent (t = n rotated -90 deg). */
static SDL_Vertex rnd_track_vertex(const RndTrackGeom *g, const RndCamera *cam, int i, double d_m, double along_m,
                                   RndRgba c)
{
    SDL_Vertex v;
    double x = g->cx[i] + g->nx[i] * d_m + g->ny[i] * along_m;
    double y = g->cy[i] + g->ny[i] * d_m - g->nx[i] * along_m;
    rnd_camera_to_screen(cam, x, y, &v.position.x, &v.position.y);
    v.color = (SDL_Color){c.r, c.g, c.b, c.a};
    v.tex_coord = (SDL_FPoint){0.0f, 0.0f};
    return v;
}

/* Appends the quad of segment i -> i+1 between offsets e0 and e1. Each segment has its own vertices and reaches
 * `overlap_m` into its neighbours: SDL's software rasteriser leaves one-pixel seams between triangles that merely
 * share an edge, and every band is opaque, so overlapping costs nothing. */
static void rnd_track_quad(RndTrackGeom *g, const RndCamera *cam, int i, int j, double i0, double i1, double j0,
                           double j1, double overlap_m, RndRgba c, int *nv, int *ni)
{
    static const int q[6] = {0, 1, 2, 0, 2, 3};
    g->verts[*nv] = rnd_track_vertex(g, cam, i, i0, -overlap_m, c);
    g->verts[*nv + 1] = rnd_track_vertex(g, cam, i, i1, -overlap_m, c);
    g->verts[*nv + 2] = rnd_track_vertex(g, cam, j, j1, overlap_m, c);
    g->verts[*nv + 3] = rnd_track_vertex(g, cam, j, j0, overlap_m, c);
    for (int k = 0; k < 6; k++)
        g->indices[*ni + k] = *nv + q[k];
    *nv += 4;
    *ni += 6;
}

static void rnd_track_flush(RndTrackGeom *g, SDL_Renderer *r, int *nv, int *ni)
{
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    if (*ni > 0)
        SDL_RenderGeometry(r, NULL, g->verts, *nv, g->indices, *ni);
    *nv = *ni = 0;
}

/* A closed band between offsets f0(i) and f1(i) in one colour. */
typedef double RndOffsetFn(const RndTrackGeom *g, int i, double min_m);

static void rnd_track_band(RndTrackGeom *g, SDL_Renderer *r, const RndCamera *cam, RndOffsetFn *f0, RndOffsetFn *f1,
                           double min_m, double overlap_m, RndRgba c)
{
    int nv = 0, ni = 0;
    for (int k = 0; k < g->seg_count; k++) {
        int i = g->seg_from[k], j = g->seg_to[k];
        if (nv + 4 > g->vert_cap || ni + 6 > g->index_cap)
            rnd_track_flush(g, r, &nv, &ni);
        rnd_track_quad(g, cam, i, j, f0(g, i, min_m), f1(g, i, min_m), f0(g, j, min_m), f1(g, j, min_m), overlap_m, c,
                       &nv, &ni);
    }
    rnd_track_flush(g, r, &nv, &ni);
}

/* The segments worth drawing this frame: zoomed out, several samples merge into one segment of a few pixels (the
 * software rasteriser's cost is per triangle); zoomed in, segments far outside the view are skipped. */
static void rnd_track_plan(RndTrackGeom *g, const RndCamera *cam)
{
    double step_px = (g->n > 0 ? g->s_m[1] - g->s_m[0] : 1.0) * cam->scale_ppm;
    int stride = step_px < RND_TRACK_MIN_SEGMENT_PX ? (int)(RND_TRACK_MIN_SEGMENT_PX / step_px) : 1;
    stride = stride < 1 ? 1 : stride > g->n / 16 ? (g->n / 16 > 1 ? g->n / 16 : 1) : stride;
    /* a segment is kept when an end lies within the view grown by the track's half width, a kerb and the stride */
    double margin = (g->max_half_width_m + RND_RUNOFF_M) * cam->scale_ppm + stride * step_px + 8.0;
    g->seg_count = 0;
    for (int i = 0; i < g->n; i += stride) {
        int j = i + stride < g->n ? i + stride : 0;
        bool visible = false;
        for (int e = 0; e < 2 && !visible; e++) {
            int k = e == 0 ? i : j;
            float sx, sy;
            rnd_camera_to_screen(cam, g->cx[k], g->cy[k], &sx, &sy);
            visible = sx > -margin && sx < cam->view_w + margin && sy > -margin && sy < cam->view_h + margin;
        }
        if (visible) {
            g->seg_from[g->seg_count] = i;
            g->seg_to[g->seg_count] = j;
            g->seg_count++;
        }
    }
}

static double rnd_off_left(const RndTrackGeom *g, int i, double min_m)
{
    (void)min_m;
    return g->left_m[i];
}
static double rnd_off_right(const RndTrackGeom *g, int i, double min_m)
{
    (void)min_m;
    return -g->right_m[i];
}
static double rnd_off_left_out(const RndTrackGeom *g, int i, double min_m)
{
    return g->left_m[i] + min_m;
}
static double rnd_off_right_out(const RndTrackGeom *g, int i, double min_m)
{
    return -g->right_m[i] - min_m;
}
static double rnd_off_left_in(const RndTrackGeom *g, int i, double min_m)
{
    return g->left_m[i] - min_m;
}
static double rnd_off_right_in(const RndTrackGeom *g, int i, double min_m)
{
    return -g->right_m[i] + min_m;
}
static double rnd_off_line_lo(const RndTrackGeom *g, int i, double min_m)
{
    return g->line_d_m[i] - 0.5 * min_m;
}
static double rnd_off_line_hi(const RndTrackGeom *g, int i, double min_m)
{
    return g->line_d_m[i] + 0.5 * min_m;
}

/* Red and white blocks just outside the edge where kerb[i] is set. */
static void rnd_track_kerbs(RndTrackGeom *g, SDL_Renderer *r, const RndCamera *cam, double width_m, double overlap_m)
{
    static const RndRgba red = {200, 36, 36, 255}, white = {236, 236, 236, 255};
    int nv = 0, ni = 0;
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < g->seg_count; k++) {
            int i = g->seg_from[k], j = g->seg_to[k];
            if (!(g->kerb[i] & (1 << side)) || !(g->kerb[j] & (1 << side)))
                continue;
            if (nv + 4 > g->vert_cap || ni + 6 > g->index_cap)
                rnd_track_flush(g, r, &nv, &ni);
            RndRgba c = ((int)(g->s_m[i] / RND_KERB_BLOCK_M) % 2) ? red : white;
            double e0 = side == 0 ? g->left_m[i] : -g->right_m[i];
            double e1 = side == 0 ? g->left_m[j] : -g->right_m[j];
            double o = side == 0 ? width_m : -width_m;
            rnd_track_quad(g, cam, i, j, e0, e0 + o, e1, e1 + o, overlap_m, c, &nv, &ni);
        }
    }
    rnd_track_flush(g, r, &nv, &ni);
}

/* A chequered band across the track at s = 0 (the start/finish line), two squares deep. */
static void rnd_track_start_line(const RndTrackGeom *g, SDL_Renderer *r, const RndCamera *cam)
{
    const int cols = 8;
    double width = g->left_m[0] + g->right_m[0];
    double q = width / cols;
    double tx = g->ny[0], ty = -g->nx[0]; /* tangent = normal rotated -90 degrees */
    for (int row = 0; row < 2; row++) {
        for (int col = 0; col < cols; col++) {
            double d0 = -g->right_m[0] + col * q, d1 = d0 + q;
            double a0 = -row * q, a1 = a0 - q;
            double pts[4][2] = {{d0, a0}, {d1, a0}, {d1, a1}, {d0, a1}};
            float xy[8];
            for (int k = 0; k < 4; k++) {
                double x = g->cx[0] + g->nx[0] * pts[k][0] + tx * pts[k][1];
                double y = g->cy[0] + g->ny[0] * pts[k][0] + ty * pts[k][1];
                rnd_camera_to_screen(cam, x, y, &xy[2 * k], &xy[2 * k + 1]);
            }
            bool white = (row + col) % 2 == 0;
            rnd_fill_quad(r, xy, white ? rnd_rgba(245, 245, 245, 255) : rnd_rgba(20, 20, 20, 255));
        }
    }
}

void rnd_track_draw(RndTrackGeom *g, SDL_Renderer *r, const RndCamera *cam)
{
    if (!g->track || g->n < 2)
        return;
    double px_m = 1.0 / cam->scale_ppm; /* one pixel in metres */
    double kerb_m = fmax(RND_KERB_WIDTH_M, 2.0 * px_m);
    double edge_m = fmax(RND_EDGE_LINE_M, 1.0 * px_m);
    double line_m = fmax(RND_LINE_WIDTH_M, 1.5 * px_m);
    double overlap_m = 0.75 * px_m;
    static const RndRgba edge = {225, 225, 225, 255};
    /* the racing line is pre-mixed with the asphalt, so it stays opaque and can overlap like the rest */
    static const RndRgba line = {124, 116, 86, 255};
    rnd_track_plan(g, cam);
    /* run-off beside the track, once it is wide enough on screen to read as a surface and not as a thicker line */
    if (RND_RUNOFF_M * cam->scale_ppm >= RND_RUNOFF_MIN_PX)
        rnd_track_band(g, r, cam, rnd_off_left_out, rnd_off_right_out, RND_RUNOFF_M, overlap_m,
                       rnd_rgba(RND_RUNOFF_RGB, 255));
    rnd_track_kerbs(g, r, cam, kerb_m, overlap_m);
    rnd_track_band(g, r, cam, rnd_off_left, rnd_off_right, 0.0, overlap_m, rnd_rgba(RND_ASPHALT_RGB, 255));
    rnd_track_band(g, r, cam, rnd_off_left, rnd_off_left_in, edge_m, overlap_m, edge);
    rnd_track_band(g, r, cam, rnd_off_right, rnd_off_right_in, edge_m, overlap_m, edge);
    rnd_track_start_line(g, r, cam);
    rnd_track_band(g, r, cam, rnd_off_line_lo, rnd_off_line_hi, line_m, overlap_m, line);
}
