/* rnd_minimap.c: the track map in the top right corner while the camera is close in (follow, director): the
 * track's outline scaled into a box, every racing car as a dot in its colour with its number, the selected car
 * ringed. The outline is taken from the track's samples once per track and drawn with the panel into a texture
 * once per box size, which each frame copies; a dot is a sprite drawn once per colour. Line and dots are
 * soft-edged (rnd_aa.c). */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define RND_MINIMAP_POINTS 240    /* outline points around the lap */
#define RND_MINIMAP_MAX_W 230.0f  /* px */
#define RND_MINIMAP_MAX_H 170.0f  /* px */
#define RND_MINIMAP_MARGIN 10.0f  /* px from the window's edges */
#define RND_MINIMAP_PAD 10.0f     /* px inside the panel */
#define RND_MINIMAP_LINE_PX 3.0f
#define RND_MINIMAP_DOT_PX 4.0f
#define RND_MINIMAP_ALPHA 170     /* the panel's opacity */
#define RND_MINIMAP_SPRITE_PX 14  /* a dot's sprite: its rim (DOT_PX + 1) and soft edge, either side of the centre */

static const RndRgba rnd_minimap_line = {175, 178, 188, 255};

/* The textures, which the renderer of the next race may not share (a window resize keeps them). */
static void rnd_minimap_free_textures(RndMinimap *map)
{
    if (map->tex)
        SDL_DestroyTexture(map->tex);
    map->tex = NULL;
    for (int k = 0; k < map->sprite_count; k++)
        SDL_DestroyTexture(map->sprite[k]);
    map->sprite_count = 0;
}

void rnd_minimap_free(RndMinimap *map)
{
    rnd_minimap_free_textures(map);
    free(map->ux);
    free(map->uy);
    free(map->px);
    *map = (RndMinimap){0};
}

int rnd_minimap_build(RndMinimap *map, const RndTrackGeom *geom)
{
    rnd_minimap_free(map);
    int n = geom->n < RND_MINIMAP_POINTS ? geom->n : RND_MINIMAP_POINTS;
    if (n < 3)
        return -1;
    map->ux = malloc(sizeof(float) * (size_t)n);
    map->uy = malloc(sizeof(float) * (size_t)n);
    map->px = malloc(sizeof(float) * 4 * (size_t)n);
    if (!map->ux || !map->uy || !map->px) {
        rnd_minimap_free(map);
        return -1;
    }
    map->py = map->px + n;
    map->mx = map->px + 2 * n;
    map->my = map->px + 3 * n;
    map->n = n;
    map->min_x_m = geom->min_x_m;
    map->min_y_m = geom->min_y_m;
    map->w_m = fmax(geom->max_x_m - geom->min_x_m, 1.0);
    map->h_m = fmax(geom->max_y_m - geom->min_y_m, 1.0);
    /* unit coordinates in [0, 1] of the track's bounds, y down as on screen */
    for (int k = 0; k < n; k++) {
        int i = (int)((long)k * geom->n / n);
        map->ux[k] = (float)((geom->cx[i] - map->min_x_m) / map->w_m);
        map->uy[k] = (float)(1.0 - (geom->cy[i] - map->min_y_m) / map->h_m);
    }
    map->box = (SDL_FRect){0};
    return 0;
}

/* The panel's rectangle for a window width: the map keeps the track's aspect inside the largest box allowed. */
SDL_FRect rnd_minimap_panel(const RndMinimap *map, int view_w)
{
    if (map->n < 3) { /* no map: an empty rectangle at the right edge */
        SDL_FRect none = {(float)view_w, 0.0f, 0.0f, 0.0f};
        return none;
    }
    float inner_w = RND_MINIMAP_MAX_W - 2 * RND_MINIMAP_PAD, inner_h = RND_MINIMAP_MAX_H - 2 * RND_MINIMAP_PAD;
    double ppm = fmin(inner_w / map->w_m, inner_h / map->h_m);
    float w = (float)(map->w_m * ppm) + 2 * RND_MINIMAP_PAD, h = (float)(map->h_m * ppm) + 2 * RND_MINIMAP_PAD;
    SDL_FRect r = {(float)view_w - RND_MINIMAP_MARGIN - w, RND_MINIMAP_MARGIN, w, h};
    return r;
}

static void rnd_minimap_to_box(const RndMinimap *map, double x_m, double y_m, float *sx, float *sy)
{
    float iw = map->box.w - 2 * RND_MINIMAP_PAD, ih = map->box.h - 2 * RND_MINIMAP_PAD;
    *sx = map->box.x + RND_MINIMAP_PAD + (float)((x_m - map->min_x_m) / map->w_m) * iw;
    *sy = map->box.y + RND_MINIMAP_PAD + (float)(1.0 - (y_m - map->min_y_m) / map->h_m) * ih;
}

/* The outline's points in a box at (x0, y0) as large as the panel, and at each point the offset to the line's left
 * edge (the mitred normal, half a line width long). */
static void rnd_minimap_layout(RndMinimap *map, SDL_FRect box, float x0, float y0)
{
    map->box = box;
    float iw = box.w - 2 * RND_MINIMAP_PAD, ih = box.h - 2 * RND_MINIMAP_PAD;
    for (int k = 0; k < map->n; k++) {
        map->px[k] = x0 + RND_MINIMAP_PAD + map->ux[k] * iw;
        map->py[k] = y0 + RND_MINIMAP_PAD + map->uy[k] * ih;
    }
    for (int k = 0; k < map->n; k++) {
        int p = (k + map->n - 1) % map->n, j = (k + 1) % map->n;
        /* normals of the two segments meeting at k, averaged and stretched so each edge keeps its distance */
        float ax = map->px[k] - map->px[p], ay = map->py[k] - map->py[p], bx = map->px[j] - map->px[k],
              by = map->py[j] - map->py[k];
        float la = sqrtf(ax * ax + ay * ay), lb = sqrtf(bx * bx + by * by);
        float n1x = la > 1e-6f ? -ay / la : 0.0f, n1y = la > 1e-6f ? ax / la : 0.0f;
        float n2x = lb > 1e-6f ? -by / lb : n1x, n2y = lb > 1e-6f ? bx / lb : n1y;
        if (la <= 1e-6f) {
            n1x = n2x;
            n1y = n2y;
        }
        float mx = n1x + n2x, my = n1y + n2y, dot = mx * n2x + my * n2y;
        dot = dot < 0.5f ? 0.5f : dot;
        map->mx[k] = mx / dot;
        map->my[k] = my / dot;
    }
}

/* The outline: a closed line of RND_MINIMAP_LINE_PX, soft-edged, over the panel's colour (`bg`) when known. */
static void rnd_minimap_outline(RndAa *aa, const RndMinimap *map, const RndRgba *bg)
{
    RndRgba c = rnd_minimap_line;
    float half = 0.5f * RND_MINIMAP_LINE_PX, fade = rnd_aa_soft(aa) ? 0.5f * RND_AA_PX : 0.0f;
    float core = half - fade;
    for (int k = 0; k < map->n; k++) {
        int j = (k + 1) % map->n;
        const float xy[8] = {map->px[k] + map->mx[k] * core, map->py[k] + map->my[k] * core,
                             map->px[j] + map->mx[j] * core, map->py[j] + map->my[j] * core,
                             map->px[j] - map->mx[j] * core, map->py[j] - map->my[j] * core,
                             map->px[k] - map->mx[k] * core, map->py[k] - map->my[k] * core};
        rnd_aa_core_quad(aa, xy, c);
        if (fade <= 0.0f)
            continue;
        for (int side = -1; side <= 1; side += 2) {
            float o = side * (half + fade), i = side * core;
            const float in[4] = {map->px[k] + map->mx[k] * i, map->py[k] + map->my[k] * i,
                                 map->px[j] + map->mx[j] * i, map->py[j] + map->my[j] * i};
            const float out[4] = {map->px[k] + map->mx[k] * o, map->py[k] + map->my[k] * o,
                                  map->px[j] + map->mx[j] * o, map->py[j] + map->my[j] * o};
            if (bg)
                rnd_aa_grad_quad(aa, in, out, c, *bg);
            else
                rnd_aa_fade_quad(aa, in, out, c);
        }
    }
    rnd_aa_flush(aa);
}

/* The panel with the outline, drawn once into a texture for the box (and the edges asked for) and copied from
 * there: the outline is a few hundred soft-edged quads. False when no texture could be made. */
static bool rnd_minimap_background(RndAa *aa, RndMinimap *map, SDL_FRect box)
{
    SDL_Renderer *r = aa->renderer;
    int w = (int)box.w, h = (int)box.h;
    if (!map->tex || map->tex_w != w || map->tex_h != h || map->tex_soft != rnd_aa_soft(aa)) {
        if (map->tex_soft != rnd_aa_soft(aa))
            rnd_minimap_free_textures(map); /* the sprites too */
        if (map->tex)
            SDL_DestroyTexture(map->tex);
        map->tex = SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, h);
        map->tex_w = w;
        map->tex_h = h;
        map->tex_soft = rnd_aa_soft(aa);
        SDL_Texture *target = SDL_GetRenderTarget(r);
        if (!map->tex || SDL_SetRenderTarget(r, map->tex) != 0) {
            if (map->tex)
                SDL_DestroyTexture(map->tex);
            map->tex = NULL;
            return false;
        }
        static const RndRgba bg = {RND_HUD_BG_RGB, 255};
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
        SDL_SetRenderDrawColor(r, RND_HUD_BG_RGB, RND_MINIMAP_ALPHA);
        SDL_RenderClear(r);
        rnd_minimap_layout(map, box, 0.0f, 0.0f);
        rnd_minimap_outline(aa, map, &bg);
        SDL_SetRenderTarget(r, target);
        SDL_SetTextureBlendMode(map->tex, SDL_BLENDMODE_BLEND);
    }
    SDL_Rect dst = {(int)box.x, (int)box.y, w, h};
    SDL_RenderCopy(r, map->tex, NULL, &dst);
    return true;
}

static bool rnd_minimap_shows(const SimCar *car, bool selected)
{
    return car->status == SIM_RUNNING || selected; /* cars that have left the race leave the map too */
}

/* A dot: the car's colour in a dark rim, soft-edged, centred on (cx, cy). */
static void rnd_minimap_dot_shape(RndAa *aa, float cx, float cy, RndRgba c)
{
    const RndRgba dark = {10, 10, 10, 255};
    rnd_aa_disc(aa, cx, cy, RND_MINIMAP_DOT_PX + 1.0f, dark, NULL);
    rnd_aa_flush(aa);
    /* the colour fades into the dark rim under it: an opaque fade */
    rnd_aa_disc(aa, cx, cy, RND_MINIMAP_DOT_PX, c, &dark);
    rnd_aa_flush(aa);
}

/* The sprite of a dot in colour c, drawn once (a few dozen soft-edged triangles) and copied for every dot of that
 * colour; NULL when there is no room or no texture. Its soft rim is blended onto transparent pixels, which darkens
 * it once more where it is copied: the rim is dark already. */
static SDL_Texture *rnd_minimap_sprite(RndAa *aa, RndMinimap *map, RndRgba c)
{
    Uint32 key = (Uint32)c.r << 16 | (Uint32)c.g << 8 | c.b;
    for (int k = 0; k < map->sprite_count; k++)
        if (map->sprite_key[k] == key)
            return map->sprite[k];
    if (map->sprite_count >= RND_MINIMAP_SPRITES)
        return NULL;
    SDL_Renderer *r = aa->renderer;
    SDL_Texture *tex = SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, RND_MINIMAP_SPRITE_PX,
                                         RND_MINIMAP_SPRITE_PX);
    SDL_Texture *target = SDL_GetRenderTarget(r);
    if (!tex || SDL_SetRenderTarget(r, tex) != 0) {
        if (tex)
            SDL_DestroyTexture(tex);
        return NULL;
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 0);
    SDL_RenderClear(r);
    rnd_minimap_dot_shape(aa, 0.5f * RND_MINIMAP_SPRITE_PX, 0.5f * RND_MINIMAP_SPRITE_PX, c);
    SDL_SetRenderTarget(r, target);
    SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    map->sprite_key[map->sprite_count] = key;
    map->sprite[map->sprite_count++] = tex;
    return tex;
}

static void rnd_minimap_dot(RndAa *aa, RndMinimap *map, const SimCar *car, RndPose p, bool selected)
{
    float sx, sy;
    rnd_minimap_to_box(map, p.x_m, p.y_m, &sx, &sy);
    if (selected) {
        rnd_aa_ring(aa, sx, sy, RND_MINIMAP_DOT_PX + 2.0f, 2.0f, rnd_rgba(255, 255, 255, 255));
        rnd_aa_flush(aa);
    }
    RndRgba c = rnd_rgba(car->colour[0], car->colour[1], car->colour[2], 255);
    SDL_Texture *sprite = rnd_minimap_sprite(aa, map, c);
    if (!sprite) {
        rnd_minimap_dot_shape(aa, sx, sy, c);
        return;
    }
    /* whole pixels, as the renderer places a triangle's corners */
    SDL_Rect dst = {(int)sx - RND_MINIMAP_SPRITE_PX / 2, (int)sy - RND_MINIMAP_SPRITE_PX / 2, RND_MINIMAP_SPRITE_PX,
                    RND_MINIMAP_SPRITE_PX};
    SDL_RenderCopy(aa->renderer, sprite, NULL, &dst);
}

static void rnd_minimap_number(RndText *text, const RndMinimap *map, const SimCar *car, RndPose p, bool selected,
                               RndLabels *labels)
{
    float sx, sy;
    rnd_minimap_to_box(map, p.x_m, p.y_m, &sx, &sy);
    char num[16];
    snprintf(num, sizeof num, "%d", car->number);
    float w = (float)rnd_text_width(text, RND_FONT_SMALL, num), h = (float)rnd_text_height(text, RND_FONT_SMALL);
    SDL_FRect at;
    /* the box is a little shorter than the line height: the font's leading is empty */
    if (rnd_labels_place(labels, sx, sy, w, h * 0.75f, 2.0f, &map->box, &at))
        rnd_text_draw(text, RND_FONT_SMALL, num, at.x, at.y - h * 0.12f,
                      selected ? rnd_rgba(255, 255, 255, 255) : rnd_rgba(210, 213, 222, 255), RND_LEFT);
}

void rnd_minimap_draw(RndAa *aa, RndText *text, RndMinimap *map, const RndFrame *frame, int selected, int view_w)
{
    if (map->n < 3)
        return;
    SDL_FRect box = rnd_minimap_panel(map, view_w);
    map->box = box;
    if (!rnd_minimap_background(aa, map, box)) { /* straight onto the view */
        rnd_aa_panel(aa, box.x, box.y, box.w, box.h, RND_MINIMAP_ALPHA);
        rnd_minimap_layout(map, box, box.x, box.y);
        rnd_minimap_outline(aa, map, NULL);
    }
    const SimWorld *world = frame->world;
    int n = sim_world_car_count(world);
    n = n < SIM_MAX_CARS ? n : SIM_MAX_CARS;
    const int *order = sim_world_order(world);
    RndPose poses[SIM_MAX_CARS];
    for (int i = 0; i < n; i++)
        poses[i] = rnd_pose_lerp(frame->prev, sim_world_car(world, i), frame->alpha);
    /* dots from the last car to the leader, so the leader's is on top; the selected car's over all */
    for (int k = n - 1; k >= 0; k--) {
        int id = order ? order[k] : k;
        const SimCar *car = sim_world_car(world, id);
        if (id != selected && rnd_minimap_shows(car, false))
            rnd_minimap_dot(aa, map, car, poses[id], false);
    }
    if (selected >= 0 && selected < n)
        rnd_minimap_dot(aa, map, sim_world_car(world, selected), poses[selected], true);
    if (!text)
        return;
    /* numbers the other way round: the selected car's first, then the leader's, so a bunch keeps the front */
    RndLabels labels;
    rnd_labels_clear(&labels);
    for (int k = -1; k < n; k++) {
        int id = k < 0 ? selected : order ? order[k] : k;
        if (id < 0 || id >= n || (k >= 0 && id == selected))
            continue;
        const SimCar *car = sim_world_car(world, id);
        if (rnd_minimap_shows(car, id == selected))
            rnd_minimap_number(text, map, car, poses[id], id == selected, &labels);
    }
}
