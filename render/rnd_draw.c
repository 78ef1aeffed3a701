/* rnd_draw.c: small filled shapes built on SDL_RenderGeometry, so every shape is anti-alias-free but sub-pixel
 * placed and the same on every renderer (the software renderer included). */
#include "rnd_internal.h"

#include <math.h>

static SDL_Vertex rnd_vertex(float x, float y, RndRgba c)
{
    SDL_Vertex v;
    v.position.x = x;
    v.position.y = y;
    v.color.r = c.r;
    v.color.g = c.g;
    v.color.b = c.b;
    v.color.a = c.a;
    v.tex_coord.x = 0.0f;
    v.tex_coord.y = 0.0f;
    return v;
}

static void rnd_set_colour(SDL_Renderer *r, RndRgba c)
{
    SDL_SetRenderDrawBlendMode(r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}

void rnd_fill_rect(SDL_Renderer *r, float x, float y, float w, float h, RndRgba c)
{
    SDL_FRect rect = {x, y, w, h};
    rnd_set_colour(r, c);
    SDL_RenderFillRectF(r, &rect);
}

void rnd_outline_rect(SDL_Renderer *r, float x, float y, float w, float h, RndRgba c)
{
    SDL_FRect rect = {x, y, w, h};
    rnd_set_colour(r, c);
    SDL_RenderDrawRectF(r, &rect);
}

/* Geometry without a texture blends with the renderer's draw blend mode: set it from the colour, as for rects. */
static void rnd_geometry_blend(SDL_Renderer *r, RndRgba c)
{
    SDL_SetRenderDrawBlendMode(r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
}

void rnd_fill_quad(SDL_Renderer *r, const float xy[8], RndRgba c)
{
    rnd_geometry_blend(r, c);
    SDL_Vertex v[4];
    static const int idx[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 4; i++)
        v[i] = rnd_vertex(xy[2 * i], xy[2 * i + 1], c);
    SDL_RenderGeometry(r, NULL, v, 4, idx, 6);
}

#define RND_CIRCLE_SEGMENTS 24

void rnd_fill_circle(SDL_Renderer *r, float cx, float cy, float radius, RndRgba c)
{
    SDL_Vertex v[RND_CIRCLE_SEGMENTS + 1];
    int idx[RND_CIRCLE_SEGMENTS * 3];
    rnd_geometry_blend(r, c);
    v[0] = rnd_vertex(cx, cy, c);
    for (int i = 0; i < RND_CIRCLE_SEGMENTS; i++) {
        double a = 2.0 * RND_PI * i / RND_CIRCLE_SEGMENTS;
        v[i + 1] = rnd_vertex(cx + radius * (float)cos(a), cy + radius * (float)sin(a), c);
        idx[3 * i] = 0;
        idx[3 * i + 1] = i + 1;
        idx[3 * i + 2] = (i + 1) % RND_CIRCLE_SEGMENTS + 1;
    }
    SDL_RenderGeometry(r, NULL, v, RND_CIRCLE_SEGMENTS + 1, idx, RND_CIRCLE_SEGMENTS * 3);
}

void rnd_ring(SDL_Renderer *r, float cx, float cy, float radius, float thickness, RndRgba c)
{
    SDL_Vertex v[2 * RND_CIRCLE_SEGMENTS];
    int idx[RND_CIRCLE_SEGMENTS * 6];
    rnd_geometry_blend(r, c);
    for (int i = 0; i < RND_CIRCLE_SEGMENTS; i++) {
        double a = 2.0 * RND_PI * i / RND_CIRCLE_SEGMENTS;
        float ca = (float)cos(a), sa = (float)sin(a);
        v[2 * i] = rnd_vertex(cx + radius * ca, cy + radius * sa, c);
        v[2 * i + 1] = rnd_vertex(cx + (radius + thickness) * ca, cy + (radius + thickness) * sa, c);
        int j = (i + 1) % RND_CIRCLE_SEGMENTS;
        int *t = idx + 6 * i;
        t[0] = 2 * i;
        t[1] = 2 * i + 1;
        t[2] = 2 * j;
        t[3] = 2 * j;
        t[4] = 2 * i + 1;
        t[5] = 2 * j + 1;
    }
    SDL_RenderGeometry(r, NULL, v, 2 * RND_CIRCLE_SEGMENTS, idx, RND_CIRCLE_SEGMENTS * 6);
}

void rnd_thick_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width_px, RndRgba c)
{
    float dx = x1 - x0, dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-6f)
        return;
    float hx = -dy / len * width_px * 0.5f, hy = dx / len * width_px * 0.5f;
    float q[8] = {x0 + hx, y0 + hy, x1 + hx, y1 + hy, x1 - hx, y1 - hy, x0 - hx, y0 - hy};
    rnd_fill_quad(r, q, c);
}
