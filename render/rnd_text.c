/* rnd_text.c: fonts and text with SDL2_ttf. TTF_RenderUTF8_Blended allocates a surface per call, so rendered strings
 * are kept as textures in a small hash cache (most HUD strings repeat frame after frame: names, numbers, labels).
 * Fonts: the --font path when given, else DejaVu Sans from a few known system paths (no fontconfig needed). */
#include "rnd_internal.h"

#include <SDL_ttf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RND_TEXT_CACHE 1024 /* entries; power of two */
#define RND_TEXT_PROBE 8
#define RND_TEXT_MAX 160 /* longer strings are drawn but not cached */
#define RND_FONT_PATH_LEN 512

typedef struct RndTextEntry {
    uint64_t key;
    RndFont font;
    RndRgba colour;
    char s[RND_TEXT_MAX];
    SDL_Texture *tex;
    int w, h;
    unsigned long used;
} RndTextEntry;

struct RndText {
    SDL_Renderer *renderer;
    TTF_Font *fonts[RND_FONT_COUNT];
    char path[RND_FONT_PATH_LEN];
    RndTextEntry cache[RND_TEXT_CACHE];
    unsigned long clock;
};

static const char *const rnd_sans_paths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
};

static const char *const rnd_bold_paths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
};

static const char *const rnd_mono_paths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/TTF/DejaVuSansMono.ttf",
    "/usr/share/fonts/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
};

static TTF_Font *rnd_open_first(const char *const *paths, size_t count, int px, const char **which)
{
    for (size_t i = 0; i < count; i++) {
        TTF_Font *f = TTF_OpenFont(paths[i], px);
        if (f) {
            if (which)
                *which = paths[i];
            return f;
        }
    }
    return NULL;
}

#define RND_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The main font decides the rest: a user font is used for every style except mono, which falls back to it. */
static int rnd_text_open_fonts(RndText *t, const char *font_path, int px, char *err, size_t err_len)
{
    const char *which = NULL;
    const int sizes[RND_FONT_COUNT] = {px, px - 2, px, px + 6, px - 1};
    if (font_path) {
        t->fonts[RND_FONT_NORMAL] = TTF_OpenFont(font_path, sizes[RND_FONT_NORMAL]);
        if (!t->fonts[RND_FONT_NORMAL]) {
            snprintf(err, err_len, "%s: cannot open font: %s", font_path, TTF_GetError());
            return -1;
        }
        which = font_path;
        t->fonts[RND_FONT_SMALL] = TTF_OpenFont(font_path, sizes[RND_FONT_SMALL]);
        t->fonts[RND_FONT_BOLD] = TTF_OpenFont(font_path, sizes[RND_FONT_BOLD]);
        t->fonts[RND_FONT_BIG] = TTF_OpenFont(font_path, sizes[RND_FONT_BIG]);
        if (t->fonts[RND_FONT_BOLD])
            TTF_SetFontStyle(t->fonts[RND_FONT_BOLD], TTF_STYLE_BOLD);
    } else {
        t->fonts[RND_FONT_NORMAL] = rnd_open_first(rnd_sans_paths, RND_COUNT(rnd_sans_paths), px, &which);
        if (!t->fonts[RND_FONT_NORMAL]) {
            snprintf(err, err_len, "no font found (tried %s and %zu other paths); install fonts-dejavu-core or pass "
                     "--font FILE.ttf", rnd_sans_paths[0], RND_COUNT(rnd_sans_paths) - 1);
            return -1;
        }
        t->fonts[RND_FONT_SMALL] = TTF_OpenFont(which, sizes[RND_FONT_SMALL]);
        t->fonts[RND_FONT_BOLD] = rnd_open_first(rnd_bold_paths, RND_COUNT(rnd_bold_paths), px, NULL);
        t->fonts[RND_FONT_BIG] = rnd_open_first(rnd_bold_paths, RND_COUNT(rnd_bold_paths), sizes[RND_FONT_BIG], NULL);
    }
    t->fonts[RND_FONT_MONO] = rnd_open_first(rnd_mono_paths, RND_COUNT(rnd_mono_paths), sizes[RND_FONT_MONO], NULL);
    for (int i = 1; i < RND_FONT_COUNT; i++)
        if (!t->fonts[i])
            t->fonts[i] = TTF_OpenFont(which, sizes[i]);
    for (int i = 0; i < RND_FONT_COUNT; i++) {
        if (!t->fonts[i]) {
            snprintf(err, err_len, "%s: cannot open font: %s", which, TTF_GetError());
            return -1;
        }
    }
    snprintf(t->path, sizeof t->path, "%s", which);
    return 0;
}

RndText *rnd_text_create(SDL_Renderer *renderer, const char *font_path, int font_px, char *err, size_t err_len)
{
    if (TTF_Init() != 0) {
        snprintf(err, err_len, "SDL_ttf: %s", TTF_GetError());
        return NULL;
    }
    RndText *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_len, "out of memory");
        TTF_Quit();
        return NULL;
    }
    t->renderer = renderer;
    if (rnd_text_open_fonts(t, font_path, font_px > 6 ? font_px : 14, err, err_len) != 0) {
        rnd_text_destroy(t);
        return NULL;
    }
    return t;
}

void rnd_text_destroy(RndText *t)
{
    if (!t)
        return;
    for (int i = 0; i < RND_TEXT_CACHE; i++)
        if (t->cache[i].tex)
            SDL_DestroyTexture(t->cache[i].tex);
    for (int i = 0; i < RND_FONT_COUNT; i++)
        if (t->fonts[i])
            TTF_CloseFont(t->fonts[i]);
    free(t);
    TTF_Quit();
}

const char *rnd_text_font_path(const RndText *t) { return t->path; }

int rnd_text_height(const RndText *t, RndFont font) { return TTF_FontLineSkip(t->fonts[font]); }

/* FNV-1a over the string, the font and the colour. */
static uint64_t rnd_text_key(RndFont font, const char *s, RndRgba c)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char extra[5] = {(unsigned char)font, c.r, c.g, c.b, c.a};
    for (int i = 0; i < 5; i++)
        h = (h ^ extra[i]) * 1099511628211ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

static bool rnd_entry_matches(const RndTextEntry *e, uint64_t key, RndFont font, const char *s, RndRgba c)
{
    return e->tex && e->key == key && e->font == font && e->colour.r == c.r && e->colour.g == c.g &&
           e->colour.b == c.b && e->colour.a == c.a && strcmp(e->s, s) == 0;
}

static SDL_Texture *rnd_text_render(RndText *t, RndFont font, const char *s, RndRgba c, int *w, int *h)
{
    SDL_Surface *surf = TTF_RenderUTF8_Blended(t->fonts[font], s, (SDL_Color){c.r, c.g, c.b, c.a});
    if (!surf)
        return NULL;
    SDL_Texture *tex = SDL_CreateTextureFromSurface(t->renderer, surf);
    *w = surf->w;
    *h = surf->h;
    SDL_FreeSurface(surf);
    if (tex)
        SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    return tex;
}

/* The cached texture of a string, rendering it on a miss; the least recently used of the probed slots makes room. */
static RndTextEntry *rnd_text_lookup(RndText *t, RndFont font, const char *s, RndRgba c)
{
    uint64_t key = rnd_text_key(font, s, c);
    unsigned base = (unsigned)(key & (RND_TEXT_CACHE - 1));
    RndTextEntry *victim = NULL;
    t->clock++;
    for (int k = 0; k < RND_TEXT_PROBE; k++) {
        RndTextEntry *e = &t->cache[(base + (unsigned)k) & (RND_TEXT_CACHE - 1)];
        if (rnd_entry_matches(e, key, font, s, c)) {
            e->used = t->clock;
            return e;
        }
        if (!victim || !e->tex || (victim->tex && e->used < victim->used))
            victim = e;
    }
    if (victim->tex)
        SDL_DestroyTexture(victim->tex);
    victim->tex = rnd_text_render(t, font, s, c, &victim->w, &victim->h);
    victim->key = key;
    victim->font = font;
    victim->colour = c;
    snprintf(victim->s, sizeof victim->s, "%s", s);
    victim->used = t->clock;
    return victim->tex ? victim : NULL;
}

int rnd_text_draw(RndText *t, RndFont font, const char *s, float x, float y, RndRgba c, RndAlign align)
{
    if (!s || !*s)
        return 0;
    SDL_Texture *tex;
    int w = 0, h = 0;
    bool owned = strlen(s) >= RND_TEXT_MAX;
    if (owned) {
        tex = rnd_text_render(t, font, s, c, &w, &h);
    } else {
        RndTextEntry *e = rnd_text_lookup(t, font, s, c);
        tex = e ? e->tex : NULL;
        if (e) {
            w = e->w;
            h = e->h;
        }
    }
    if (!tex)
        return 0;
    float x0 = align == RND_CENTRE ? x - w * 0.5f : align == RND_RIGHT ? x - w : x;
    SDL_FRect dst = {(float)(int)x0, (float)(int)y, (float)w, (float)h};
    SDL_RenderCopyF(t->renderer, tex, NULL, &dst);
    if (owned)
        SDL_DestroyTexture(tex);
    return w;
}

int rnd_text_width(RndText *t, RndFont font, const char *s)
{
    int w = 0, h = 0;
    if (s && *s)
        TTF_SizeUTF8(t->fonts[font], s, &w, &h);
    return w;
}
