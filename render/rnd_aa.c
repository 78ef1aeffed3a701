/* rnd_aa.c: anti-aliased filled shapes for every renderer, the software one included. An edge is drawn soft: the
 * shape's opaque core stops RND_AA_PX / 2 inside the geometric edge, and a thin strip from there to as far outside
 * fades from the shape's colour to what lies outside, so the edge blends over about 1.5 px of the screen at any
 * zoom and in any turn of the view (the chase camera's included).
 *
 * A fade comes in two kinds:
 *   - blended (rnd_aa_fade_quad): a texture, white with alpha falling from 255 to 0 along u, tinted by the vertex
 *     colour, blended over whatever is there. The software renderer blends textured triangles straight into the
 *     target (a blended untextured triangle gets an intermediate surface of its own), at about 38 ns a pixel;
 *   - opaque (rnd_aa_grad_quad), where the caller knows the colour outside (the track's bands, drawn bottom up): a
 *     row of a gradient texture from the inside colour to the outside one, in the target's pixel format and drawn
 *     untinted and unblended, the software renderer's fast textured path, about 7 ns a pixel.
 * Cores are plain opaque triangles (the fastest path of all, about 1 ns a pixel of their bounding box). Shapes are
 * queued in three batches (cores, opaque fades, blended fades) drawn by rnd_aa_flush in that order, so the fades of
 * a layer's shapes lie over their neighbours' cores and the next layer lies over all of them.
 *
 * The software rasteriser tests every pixel of a triangle's bounding box, so long thin triangles waste most of
 * their box when they lie across the screen's axes: fades are split into pieces (rnd_aa_piece_px), RND_AA_PIECE_PX
 * long at 45 degrees and longer the nearer they run to an axis.
 *
 * HUD panels: a blended rectangle fill costs the software renderer 4-6 ns a pixel, a copy of an opaque texture with
 * an alpha modulation 1.2-1.4: rnd_aa_panel copies tiles of a texture in the HUD's background colour. */
#include "rnd_internal.h"

#include <math.h>
#include <stdlib.h>

#define RND_AA_RAMP_W 32        /* texels of a fade */
#define RND_AA_BATCH 12288      /* vertices (and indices) of a batch; a full batch is drawn and started again */
#define RND_AA_PIECE_PX 24.0f   /* a fade strip's pieces at 45 degrees; longer nearer the screen's axes */
#define RND_AA_PANEL_PX 256     /* the panel texture's side */

static SDL_Texture *rnd_aa_texture(SDL_Renderer *r, Uint32 format, int w, int h, SDL_BlendMode blend)
{
    SDL_Texture *t = SDL_CreateTexture(r, format, SDL_TEXTUREACCESS_STATIC, w, h);
    if (t && SDL_SetTextureBlendMode(t, blend) != 0) {
        SDL_DestroyTexture(t);
        t = NULL;
    }
    return t;
}

static int rnd_aa_batch_init(RndAaBatch *b)
{
    b->v = malloc(sizeof(SDL_Vertex) * RND_AA_BATCH);
    b->idx = malloc(sizeof(int) * RND_AA_BATCH);
    return b->v && b->idx ? 0 : -1;
}

int rnd_aa_init(RndAa *aa, SDL_Renderer *r, Uint32 format)
{
    *aa = (RndAa){0};
    aa->renderer = r;
    aa->format = format ? format : SDL_PIXELFORMAT_ARGB8888;
    if (rnd_aa_batch_init(&aa->core) != 0 || rnd_aa_batch_init(&aa->grad) != 0 || rnd_aa_batch_init(&aa->fade) != 0) {
        rnd_aa_free(aa);
        return -1;
    }
    aa->enabled = true;
    /* missing textures leave their kind out: hard edges (no ramp), blended fades for opaque ones (no gradients),
     * blended fills for panels */
    aa->ramp = rnd_aa_texture(r, SDL_PIXELFORMAT_ARGB8888, RND_AA_RAMP_W, 1, SDL_BLENDMODE_BLEND);
    Uint32 px[RND_AA_PANEL_PX];
    for (int k = 0; k < RND_AA_RAMP_W; k++)
        px[k] = (Uint32)lround(255.0 * (RND_AA_RAMP_W - 1 - k) / (RND_AA_RAMP_W - 1)) << 24 | 0xffffffu;
    if (aa->ramp && SDL_UpdateTexture(aa->ramp, NULL, px, sizeof(Uint32) * RND_AA_RAMP_W) != 0) {
        SDL_DestroyTexture(aa->ramp);
        aa->ramp = NULL;
    }
    aa->gradient = rnd_aa_texture(r, aa->format, RND_AA_RAMP_W, RND_AA_GRAD_ROWS, SDL_BLENDMODE_NONE);
    /* without an alpha channel, so that the copy blends by the alpha modulation alone (SDL's fast blitter) */
    aa->panel = rnd_aa_texture(r, SDL_PIXELFORMAT_RGB888, RND_AA_PANEL_PX, RND_AA_PANEL_PX, SDL_BLENDMODE_BLEND);
    SDL_PixelFormat *pf = SDL_AllocFormat(SDL_PIXELFORMAT_RGB888);
    if (aa->panel && pf) {
        for (int k = 0; k < RND_AA_PANEL_PX; k++)
            px[k] = SDL_MapRGBA(pf, RND_HUD_BG_RGB, 255);
        bool ok = true;
        for (int y = 0; y < RND_AA_PANEL_PX && ok; y++) {
            SDL_Rect row = {0, y, RND_AA_PANEL_PX, 1};
            ok = SDL_UpdateTexture(aa->panel, &row, px, sizeof px) == 0;
        }
        if (!ok) {
            SDL_DestroyTexture(aa->panel);
            aa->panel = NULL;
        }
    }
    SDL_FreeFormat(pf);
    return 0;
}

void rnd_aa_free(RndAa *aa)
{
    SDL_Texture *t[] = {aa->ramp, aa->gradient, aa->panel};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (t[k])
            SDL_DestroyTexture(t[k]);
    RndAaBatch *b[] = {&aa->core, &aa->grad, &aa->fade};
    for (size_t k = 0; k < sizeof b / sizeof b[0]; k++) {
        free(b[k]->v);
        free(b[k]->idx);
    }
    *aa = (RndAa){0};
}

bool rnd_aa_soft(const RndAa *aa) { return aa->enabled && aa->ramp; }

float rnd_aa_piece_px(float dx, float dy)
{
    /* the bounding box of a piece l long and w wide at angle a is about l^2 sin(2a) / 2 more than l w: pieces as
     * long as keep that waste near a triangle's own cost */
    float len2 = dx * dx + dy * dy;
    float sin2a = len2 > 1e-6f ? 2.0f * fabsf(dx * dy) / len2 : 1.0f;
    return RND_AA_PIECE_PX / sqrtf(fmaxf(sin2a, 1.0f / 64.0f));
}

static void rnd_aa_draw_batch(RndAa *aa, RndAaBatch *b, SDL_Texture *tex)
{
    if (b->ni > 0) {
        /* an untextured batch blends by the draw mode; a textured one by its texture's */
        SDL_SetRenderDrawBlendMode(aa->renderer, b->translucent ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
        SDL_RenderGeometry(aa->renderer, tex, b->v, b->nv, b->idx, b->ni);
    }
    b->nv = b->ni = 0;
    b->translucent = false;
}

void rnd_aa_flush(RndAa *aa)
{
    rnd_aa_draw_batch(aa, &aa->core, NULL);
    rnd_aa_draw_batch(aa, &aa->grad, aa->gradient);
    rnd_aa_draw_batch(aa, &aa->fade, aa->ramp);
}

void rnd_aa_flush_fades_first(RndAa *aa)
{
    rnd_aa_draw_batch(aa, &aa->grad, aa->gradient);
    rnd_aa_draw_batch(aa, &aa->fade, aa->ramp);
    rnd_aa_draw_batch(aa, &aa->core, NULL);
}

void rnd_aa_panel(RndAa *aa, float x, float y, float w, float h, Uint8 alpha)
{
    if (!aa->panel || alpha == 255) {
        rnd_fill_rect(aa->renderer, x, y, w, h, rnd_rgba(RND_HUD_BG_RGB, alpha));
        return;
    }
    /* whole pixels, as a rectangle fill truncates them */
    int x0 = (int)x, y0 = (int)y, iw = (int)w, ih = (int)h;
    SDL_SetTextureAlphaMod(aa->panel, alpha);
    for (int ty = 0; ty < ih; ty += RND_AA_PANEL_PX) {
        for (int tx = 0; tx < iw; tx += RND_AA_PANEL_PX) {
            int cw = iw - tx < RND_AA_PANEL_PX ? iw - tx : RND_AA_PANEL_PX;
            int ch = ih - ty < RND_AA_PANEL_PX ? ih - ty : RND_AA_PANEL_PX;
            SDL_Rect src = {0, 0, cw, ch}, dst = {x0 + tx, y0 + ty, cw, ch};
            SDL_RenderCopy(aa->renderer, aa->panel, &src, &dst);
        }
    }
}

/* Room for nv more vertices in a batch; a full one is drawn first (both, keeping their order). */
static void rnd_aa_room(RndAa *aa, RndAaBatch *b, int nv)
{
    if (b->nv + nv > RND_AA_BATCH)
        rnd_aa_flush(aa);
}

static SDL_Vertex rnd_aa_vertex(float x, float y, RndRgba c, float u)
{
    SDL_Vertex v = {{x, y}, {c.r, c.g, c.b, c.a}, {u, 0.0f}};
    return v;
}

/* A triangle with vertices of its own. Shared vertices would let the software renderer take two triangles that
 * make an axis-aligned rectangle for a rectangle (SDL_RenderGeometry's shortcut there): a rectangle's corners are
 * rounded apart from the triangles', leaving one-pixel cracks, and a textured one loses its fade. */
static void rnd_aa_tri(RndAaBatch *b, SDL_Vertex v0, SDL_Vertex v1, SDL_Vertex v2)
{
    b->v[b->nv] = v0;
    b->v[b->nv + 1] = v1;
    b->v[b->nv + 2] = v2;
    for (int k = 0; k < 3; k++)
        b->idx[b->ni + k] = b->nv + k;
    b->nv += 3;
    b->ni += 3;
}

/* A quad 0-1-2-3 as the triangles 0-1-2 and 0-2-3. */
static void rnd_aa_quad(RndAaBatch *b, const SDL_Vertex q[4])
{
    rnd_aa_tri(b, q[0], q[1], q[2]);
    rnd_aa_tri(b, q[0], q[2], q[3]);
}

void rnd_aa_core_quad(RndAa *aa, const float xy[8], RndRgba c)
{
    RndAaBatch *b = &aa->core;
    rnd_aa_room(aa, b, 6);
    SDL_Vertex q[4];
    for (int k = 0; k < 4; k++)
        q[k] = rnd_aa_vertex(xy[2 * k], xy[2 * k + 1], c, 0.0f);
    rnd_aa_quad(b, q);
    b->translucent |= c.a < 255;
}

/* One piece of fade: from the inner edge (i0 -> i1, the shape's colour) to the outer edge (o0 -> o1, nothing). */
static void rnd_aa_fade_piece(RndAa *aa, float i0x, float i0y, float i1x, float i1y, float o1x, float o1y, float o0x,
                              float o0y, RndRgba c)
{
    RndAaBatch *b = &aa->fade;
    rnd_aa_room(aa, b, 6);
    const SDL_Vertex q[4] = {rnd_aa_vertex(i0x, i0y, c, 0.0f), rnd_aa_vertex(i1x, i1y, c, 0.0f),
                             rnd_aa_vertex(o1x, o1y, c, 1.0f), rnd_aa_vertex(o0x, o0y, c, 1.0f)};
    rnd_aa_quad(b, q);
}

static float rnd_aa_lerp(float a, float b, float t) { return a * (1.0f - t) + b * t; }

void rnd_aa_fade_quad(RndAa *aa, const float in[4], const float out[4], RndRgba c)
{
    if (!rnd_aa_soft(aa) || c.a == 0)
        return;
    float dx = in[2] - in[0], dy = in[3] - in[1];
    int pieces = (int)ceilf(sqrtf(dx * dx + dy * dy) / rnd_aa_piece_px(dx, dy));
    pieces = pieces < 1 ? 1 : pieces > 256 ? 256 : pieces;
    for (int k = 0; k < pieces; k++) {
        float t0 = (float)k / pieces, t1 = k + 1 == pieces ? 1.0f : (float)(k + 1) / pieces;
        rnd_aa_fade_piece(aa, rnd_aa_lerp(in[0], in[2], t0), rnd_aa_lerp(in[1], in[3], t0),
                          rnd_aa_lerp(in[0], in[2], t1), rnd_aa_lerp(in[1], in[3], t1),
                          rnd_aa_lerp(out[0], out[2], t1), rnd_aa_lerp(out[1], out[3], t1),
                          rnd_aa_lerp(out[0], out[2], t0), rnd_aa_lerp(out[1], out[3], t0), c);
    }
}

/* The texture row of the gradient from `in` to `out` (opaque colours), added when new; -1 when there is no room
 * or no texture. */
static int rnd_aa_grad_row(RndAa *aa, RndRgba in, RndRgba out)
{
    if (!aa->gradient)
        return -1;
    Uint32 key_in = (Uint32)in.r << 16 | (Uint32)in.g << 8 | in.b;
    Uint32 key_out = (Uint32)out.r << 16 | (Uint32)out.g << 8 | out.b;
    /* open addressing over twice as many slots as rows: a slot holds its row + 1, 0 when empty */
    unsigned h = (unsigned)((key_in * 2654435761u) ^ (key_out * 40503u)) & (2 * RND_AA_GRAD_ROWS - 1);
    while (aa->grad_slot[h]) {
        int k = aa->grad_slot[h] - 1;
        if (aa->grad_key[k][0] == key_in && aa->grad_key[k][1] == key_out)
            return k;
        h = (h + 1) & (2 * RND_AA_GRAD_ROWS - 1);
    }
    if (aa->grad_rows >= RND_AA_GRAD_ROWS)
        return -1;
    SDL_PixelFormat *pf = SDL_AllocFormat(aa->format);
    if (!pf)
        return -1;
    Uint32 px[RND_AA_RAMP_W];
    for (int k = 0; k < RND_AA_RAMP_W; k++) {
        double t = (double)k / (RND_AA_RAMP_W - 1);
        px[k] = SDL_MapRGBA(pf, (Uint8)lround(in.r + (out.r - in.r) * t), (Uint8)lround(in.g + (out.g - in.g) * t),
                            (Uint8)lround(in.b + (out.b - in.b) * t), 255);
    }
    SDL_FreeFormat(pf);
    int row = aa->grad_rows;
    SDL_Rect rect = {0, row, RND_AA_RAMP_W, 1};
    if (SDL_UpdateTexture(aa->gradient, &rect, px, sizeof px) != 0)
        return -1;
    aa->grad_key[row][0] = key_in;
    aa->grad_key[row][1] = key_out;
    aa->grad_slot[h] = (Uint16)(row + 1);
    aa->grad_rows++;
    return row;
}

static RndRgba rnd_aa_mix(RndRgba a, RndRgba b, double t)
{
    return rnd_rgba((Uint8)lround(a.r + (b.r - a.r) * t), (Uint8)lround(a.g + (b.g - a.g) * t),
                    (Uint8)lround(a.b + (b.b - a.b) * t), 255);
}

void rnd_aa_grad_quad(RndAa *aa, const float in[4], const float out[4], RndRgba c, RndRgba outside)
{
    if (!rnd_aa_soft(aa) || c.a == 0)
        return;
    /* a see-through colour (a band thinner than the fade) is mixed with what is outside */
    RndRgba inside = c.a == 255 ? c : rnd_aa_mix(outside, c, c.a / 255.0);
    int row = rnd_aa_grad_row(aa, inside, outside);
    if (row < 0) { /* no room: a blended fade does the same, slower */
        rnd_aa_fade_quad(aa, in, out, c);
        return;
    }
    float v = (row + 0.5f) / RND_AA_GRAD_ROWS;
    const RndRgba white = {255, 255, 255, 255};
    float dx = in[2] - in[0], dy = in[3] - in[1];
    int pieces = (int)ceilf(sqrtf(dx * dx + dy * dy) / rnd_aa_piece_px(dx, dy));
    pieces = pieces < 1 ? 1 : pieces > 256 ? 256 : pieces;
    RndAaBatch *b = &aa->grad;
    for (int k = 0; k < pieces; k++) {
        float t0 = (float)k / pieces, t1 = k + 1 == pieces ? 1.0f : (float)(k + 1) / pieces;
        rnd_aa_room(aa, b, 6);
        SDL_Vertex q[4] = {
            rnd_aa_vertex(rnd_aa_lerp(in[0], in[2], t0), rnd_aa_lerp(in[1], in[3], t0), white, 0.0f),
            rnd_aa_vertex(rnd_aa_lerp(in[0], in[2], t1), rnd_aa_lerp(in[1], in[3], t1), white, 0.0f),
            rnd_aa_vertex(rnd_aa_lerp(out[0], out[2], t1), rnd_aa_lerp(out[1], out[3], t1), white, 1.0f),
            rnd_aa_vertex(rnd_aa_lerp(out[0], out[2], t0), rnd_aa_lerp(out[1], out[3], t0), white, 1.0f)};
        for (int i = 0; i < 4; i++)
            q[i].tex_coord.y = v;
        rnd_aa_quad(b, q);
    }
}

static void rnd_aa_poly_soft(RndAa *aa, const float *xy, int n, RndRgba c, const RndRgba *outside);

/* A convex polygon as a fan of triangles from its first corner, into the core batch. */
static void rnd_aa_fan(RndAa *aa, const float *xy, int n, RndRgba c)
{
    RndAaBatch *b = &aa->core;
    rnd_aa_room(aa, b, 3 * n);
    SDL_Vertex v0 = rnd_aa_vertex(xy[0], xy[1], c, 0.0f);
    for (int k = 1; k + 1 < n; k++)
        rnd_aa_tri(b, v0, rnd_aa_vertex(xy[2 * k], xy[2 * k + 1], c, 0.0f),
                   rnd_aa_vertex(xy[2 * k + 2], xy[2 * k + 3], c, 0.0f));
    b->translucent |= c.a < 255;
}

/* A convex polygon of n <= 8 corners (either winding): its core inset by half the fade, and the fade from there to
 * as far outside. A polygon thinner than the fade has no core: its fade starts at its middle line, fainter in
 * proportion, so a hairline stays a hairline. */
void rnd_aa_poly(RndAa *aa, const float *xy, int n, RndRgba c, const RndRgba *outside)
{
    if (n < 3 || n > 8 || c.a == 0)
        return;
    if (!rnd_aa_soft(aa)) { /* hard edges: the polygon as it is */
        rnd_aa_fan(aa, xy, n, c);
        return;
    }
    rnd_aa_poly_soft(aa, xy, n, c, outside);
}

void rnd_aa_poly_hard(RndAa *aa, const float *xy, int n, RndRgba c)
{
    if (n >= 3 && n <= 8 && c.a > 0)
        rnd_aa_fan(aa, xy, n, c);
}

static void rnd_aa_poly_soft(RndAa *aa, const float *xy, int n, RndRgba c, const RndRgba *outside)
{
    /* signed area: the winding, so that the edge normals point out */
    float area2 = 0.0f;
    for (int k = 0; k < n; k++) {
        int j = (k + 1) % n;
        area2 += xy[2 * k] * xy[2 * j + 1] - xy[2 * j] * xy[2 * k + 1];
    }
    if (fabsf(area2) < 1e-6f)
        return;
    float sign = area2 > 0.0f ? 1.0f : -1.0f;
    float nx[8], ny[8]; /* outward unit normal of edge k -> k+1 */
    for (int k = 0; k < n; k++) {
        int j = (k + 1) % n;
        float ex = xy[2 * j] - xy[2 * k], ey = xy[2 * j + 1] - xy[2 * k + 1], len = sqrtf(ex * ex + ey * ey);
        nx[k] = len > 1e-6f ? sign * ey / len : 0.0f;
        ny[k] = len > 1e-6f ? -sign * ex / len : 0.0f;
    }
    /* the thinnest width: for each edge, the farthest corner from its line */
    float thin = 1e30f;
    for (int k = 0; k < n; k++) {
        float far = 0.0f;
        for (int m = 0; m < n; m++)
            far = fmaxf(far, -((xy[2 * m] - xy[2 * k]) * nx[k] + (xy[2 * m + 1] - xy[2 * k + 1]) * ny[k]));
        if (nx[k] != 0.0f || ny[k] != 0.0f)
            thin = fminf(thin, far);
    }
    float half = 0.5f * RND_AA_PX;
    float inset = fminf(half, 0.5f * thin);
    if (thin < RND_AA_PX) /* no core: a fainter fade from the middle */
        c.a = (Uint8)lroundf(c.a * fmaxf(thin / RND_AA_PX, 0.15f));
    float in[16], out[16];
    for (int k = 0; k < n; k++) {
        int p = (k + n - 1) % n;
        /* the corner moves along the bisector of its two edges' normals, far enough for each edge to move d */
        float mx = nx[p] + nx[k], my = ny[p] + ny[k], dot = mx * nx[k] + my * ny[k];
        if (dot < 0.5f) { /* a corner sharper than 120 degrees or a degenerate edge: no further than 2 d */
            float ml = sqrtf(mx * mx + my * my);
            mx = ml > 1e-6f ? mx / ml * 2.0f : nx[k];
            my = ml > 1e-6f ? my / ml * 2.0f : ny[k];
        } else {
            mx /= dot;
            my /= dot;
        }
        in[2 * k] = xy[2 * k] - mx * inset;
        in[2 * k + 1] = xy[2 * k + 1] - my * inset;
        out[2 * k] = xy[2 * k] + mx * half;
        out[2 * k + 1] = xy[2 * k + 1] + my * half;
    }
    if (thin >= RND_AA_PX)
        rnd_aa_fan(aa, in, n, c);
    for (int k = 0; k < n; k++) {
        int j = (k + 1) % n;
        const float i4[4] = {in[2 * k], in[2 * k + 1], in[2 * j], in[2 * j + 1]};
        const float o4[4] = {out[2 * k], out[2 * k + 1], out[2 * j], out[2 * j + 1]};
        if (outside)
            rnd_aa_grad_quad(aa, i4, o4, c, *outside);
        else
            rnd_aa_fade_quad(aa, i4, o4, c);
    }
}

/* The points of a circle of radius r about (cx, cy), enough of them that a chord strays under a fifth of a pixel
 * (the soft edge hides the rest). */
static int rnd_aa_circle_steps(float r)
{
    int n = (int)ceilf(RND_PI / acosf(fmaxf(0.0f, 1.0f - 0.2f / fmaxf(r, 0.5f))));
    return n < 10 ? 10 : n > 128 ? 128 : n;
}

void rnd_aa_ring(RndAa *aa, float cx, float cy, float radius, float thickness, RndRgba c)
{
    float half = rnd_aa_soft(aa) ? 0.5f * RND_AA_PX : 0.0f;
    float r0 = radius + half, r1 = radius + thickness - half; /* the core */
    if (r1 < r0) { /* thinner than the fade: no core, fainter */
        r0 = r1 = radius + 0.5f * thickness;
        c.a = (Uint8)lroundf(c.a * fmaxf(thickness / RND_AA_PX, 0.15f));
    }
    int n = rnd_aa_circle_steps(radius + thickness);
    for (int k = 0; k < n; k++) {
        double a0 = 2.0 * RND_PI * k / n, a1 = 2.0 * RND_PI * (k + 1 == n ? 0 : k + 1) / n;
        float c0 = (float)cos(a0), s0 = (float)sin(a0), c1 = (float)cos(a1), s1 = (float)sin(a1);
        if (r1 > r0) {
            const float xy[8] = {cx + r0 * c0, cy + r0 * s0, cx + r1 * c0, cy + r1 * s0,
                                 cx + r1 * c1, cy + r1 * s1, cx + r0 * c1, cy + r0 * s1};
            rnd_aa_core_quad(aa, xy, c);
        }
        if (half > 0.0f) {
            float ri = radius - half, ro = radius + thickness + half;
            const float in_lo[4] = {cx + r0 * c0, cy + r0 * s0, cx + r0 * c1, cy + r0 * s1};
            const float out_lo[4] = {cx + ri * c0, cy + ri * s0, cx + ri * c1, cy + ri * s1};
            const float in_hi[4] = {cx + r1 * c0, cy + r1 * s0, cx + r1 * c1, cy + r1 * s1};
            const float out_hi[4] = {cx + ro * c0, cy + ro * s0, cx + ro * c1, cy + ro * s1};
            rnd_aa_fade_quad(aa, in_lo, out_lo, c);
            rnd_aa_fade_quad(aa, in_hi, out_hi, c);
        }
    }
}

void rnd_aa_disc(RndAa *aa, float cx, float cy, float radius, RndRgba c, const RndRgba *outside)
{
    float half = rnd_aa_soft(aa) ? 0.5f * RND_AA_PX : 0.0f;
    float r0 = fmaxf(radius - half, 0.0f);
    int n = rnd_aa_circle_steps(radius);
    RndAaBatch *b = &aa->core;
    rnd_aa_room(aa, b, 3 * n);
    SDL_Vertex centre = rnd_aa_vertex(cx, cy, c, 0.0f);
    for (int k = 0; k < n; k++) {
        double a0 = 2.0 * RND_PI * k / n, a1 = 2.0 * RND_PI * (k + 1 == n ? 0 : k + 1) / n;
        rnd_aa_tri(b, centre, rnd_aa_vertex(cx + r0 * (float)cos(a0), cy + r0 * (float)sin(a0), c, 0.0f),
                   rnd_aa_vertex(cx + r0 * (float)cos(a1), cy + r0 * (float)sin(a1), c, 0.0f));
    }
    b->translucent |= c.a < 255;
    for (int k = 0; half > 0.0f && k < n; k++) {
        double a0 = 2.0 * RND_PI * k / n, a1 = 2.0 * RND_PI * (k + 1 == n ? 0 : k + 1) / n;
        float c0 = (float)cos(a0), s0 = (float)sin(a0), c1 = (float)cos(a1), s1 = (float)sin(a1), ro = radius + half;
        const float in[4] = {cx + r0 * c0, cy + r0 * s0, cx + r0 * c1, cy + r0 * s1};
        const float out[4] = {cx + ro * c0, cy + ro * s0, cx + ro * c1, cy + ro * s1};
        if (outside)
            rnd_aa_grad_quad(aa, in, out, c, *outside);
        else
            rnd_aa_fade_quad(aa, in, out, c);
    }
}
