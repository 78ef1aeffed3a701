/* rnd_minimap.c: the track map in the top right corner while the camera is close in (follow, director): the
 * track's outline scaled into a box, every racing car as a dot in its colour with its number, the selected car
 * ringed. The outline is taken from the track's samples once per track; its screen vertices are rebuilt only when
 * the box moves (a window resize), so a frame costs one geometry call for the outline and a dot per car. */
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

static const RndRgba rnd_minimap_line = {175, 178, 188, 255};

void rnd_minimap_free(RndMinimap *map)
{
    free(map->ux);
    free(map->uy);
    free(map->verts);
    free(map->indices);
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
    map->verts = malloc(sizeof(SDL_Vertex) * 4 * (size_t)n);
    map->indices = malloc(sizeof(int) * 6 * (size_t)n);
    if (!map->ux || !map->uy || !map->verts || !map->indices) {
        rnd_minimap_free(map);
        return -1;
    }
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

/* The outline as one quad per segment, reaching half a line width into its neighbours so the joins close. */
static void rnd_minimap_layout(RndMinimap *map, SDL_FRect box)
{
    map->box = box;
    float iw = box.w - 2 * RND_MINIMAP_PAD, ih = box.h - 2 * RND_MINIMAP_PAD, half = RND_MINIMAP_LINE_PX * 0.5f;
    SDL_Color c = {rnd_minimap_line.r, rnd_minimap_line.g, rnd_minimap_line.b, rnd_minimap_line.a};
    static const int q[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < map->n; k++) {
        int j = (k + 1) % map->n;
        float x0 = box.x + RND_MINIMAP_PAD + map->ux[k] * iw, y0 = box.y + RND_MINIMAP_PAD + map->uy[k] * ih;
        float x1 = box.x + RND_MINIMAP_PAD + map->ux[j] * iw, y1 = box.y + RND_MINIMAP_PAD + map->uy[j] * ih;
        float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
        float tx = len > 1e-6f ? dx / len * half : 0.0f, ty = len > 1e-6f ? dy / len * half : 0.0f;
        float nx = -ty, ny = tx;
        const float p[4][2] = {{x0 - tx + nx, y0 - ty + ny}, {x1 + tx + nx, y1 + ty + ny},
                               {x1 + tx - nx, y1 + ty - ny}, {x0 - tx - nx, y0 - ty - ny}};
        for (int v = 0; v < 4; v++)
            map->verts[4 * k + v] = (SDL_Vertex){{p[v][0], p[v][1]}, c, {0.0f, 0.0f}};
        for (int i = 0; i < 6; i++)
            map->indices[6 * k + i] = 4 * k + q[i];
    }
}

static bool rnd_minimap_shows(const SimCar *car, bool selected)
{
    return car->status == SIM_RUNNING || selected; /* cars that have left the race leave the map too */
}

static void rnd_minimap_dot(SDL_Renderer *r, const RndMinimap *map, const SimCar *car, RndPose p, bool selected)
{
    float sx, sy;
    rnd_minimap_to_box(map, p.x_m, p.y_m, &sx, &sy);
    if (selected)
        rnd_ring(r, sx, sy, RND_MINIMAP_DOT_PX + 2.0f, 2.0f, rnd_rgba(255, 255, 255, 255));
    rnd_fill_circle(r, sx, sy, RND_MINIMAP_DOT_PX + 1.0f, rnd_rgba(10, 10, 10, 255));
    rnd_fill_circle(r, sx, sy, RND_MINIMAP_DOT_PX, rnd_rgba(car->colour[0], car->colour[1], car->colour[2], 255));
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

void rnd_minimap_draw(SDL_Renderer *r, RndText *text, RndMinimap *map, const RndFrame *frame, int selected,
                      int view_w)
{
    if (map->n < 3)
        return;
    SDL_FRect box = rnd_minimap_panel(map, view_w);
    if (box.x != map->box.x || box.y != map->box.y || box.w != map->box.w || box.h != map->box.h)
        rnd_minimap_layout(map, box);
    rnd_fill_rect(r, box.x, box.y, box.w, box.h, rnd_rgba(RND_HUD_BG_RGB, 170));
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_RenderGeometry(r, NULL, map->verts, 4 * map->n, map->indices, 6 * map->n);
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
            rnd_minimap_dot(r, map, car, poses[id], false);
    }
    if (selected >= 0 && selected < n)
        rnd_minimap_dot(r, map, sim_world_car(world, selected), poses[selected], true);
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
