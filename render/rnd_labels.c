/* rnd_labels.c: where small labels go so they do not pile into blocks. Labels are placed one at a time, most
 * important first; each tries a few spots around its anchor and takes the first that overlaps no label placed
 * before it, else it is skipped. A bunch of cars then shows the first few numbers readably instead of a smear. */
#include "rnd_internal.h"

void rnd_labels_clear(RndLabels *set) { set->count = 0; }

static bool rnd_rects_overlap(const SDL_FRect *a, const SDL_FRect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

bool rnd_labels_free(const RndLabels *set, const SDL_FRect *r)
{
    for (int i = 0; i < set->count; i++)
        if (rnd_rects_overlap(&set->rects[i], r))
            return false;
    return true;
}

static bool rnd_rect_inside(const SDL_FRect *r, const SDL_FRect *bounds)
{
    return !bounds || (r->x >= bounds->x && r->y >= bounds->y && r->x + r->w <= bounds->x + bounds->w &&
                       r->y + r->h <= bounds->y + bounds->h);
}

bool rnd_labels_place(RndLabels *set, float ax, float ay, float w, float h, float gap, const SDL_FRect *bounds,
                      SDL_FRect *out)
{
    /* above right (the usual spot), below right, above left, below left, then straight above and below */
    const float spots[6][2] = {{gap, -h - gap},     {gap, gap},        {-w - gap, -h - gap},
                               {-w - gap, gap},     {-w * 0.5f, -h - 2 * gap}, {-w * 0.5f, 2 * gap}};
    if (set->count >= RND_MAX_LABELS)
        return false;
    for (int k = 0; k < 6; k++) {
        SDL_FRect r = {ax + spots[k][0], ay + spots[k][1], w, h};
        if (rnd_rect_inside(&r, bounds) && rnd_labels_free(set, &r)) {
            set->rects[set->count++] = r;
            *out = r;
            return true;
        }
    }
    return false;
}
