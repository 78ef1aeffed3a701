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
#define RND_FIT_CACHE 256 /* elided strings remembered (power of two): the HUD fits the same names every frame */
#define RND_WIDTH_CACHE 512 /* measured strings remembered (power of two): the HUD lays out its columns every frame */

typedef struct RndTextEntry {
    uint64_t key;
    RndFont font;
    RndRgba colour;
    char s[RND_TEXT_MAX];
    SDL_Texture *tex;
    int w, h;
    unsigned long used;
} RndTextEntry;

/* One remembered fit: the string, the font and the width limit give the elided string and its width. */
typedef struct RndFitEntry {
    uint64_t key;
    RndFont font;
    int max_w;
    bool used;
    char s[RND_TEXT_MAX];
    char out[RND_TEXT_MAX];
    int w;
} RndFitEntry;

/* One remembered width. */
typedef struct RndWidthEntry {
    uint64_t key;
    RndFont font;
    bool used;
    char s[RND_TEXT_MAX];
    int w;
} RndWidthEntry;

struct RndText {
    SDL_Renderer *renderer;
    TTF_Font *fonts[RND_FONT_COUNT];
    const char *ellipsis[RND_FONT_COUNT]; /* U+2026 when the font has it, else "..." */
    char path[RND_FONT_PATH_LEN];
    RndTextEntry cache[RND_TEXT_CACHE];
    RndFitEntry fits[RND_FIT_CACHE];
    RndWidthEntry widths[RND_WIDTH_CACHE];
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
    for (int i = 0; i < RND_FONT_COUNT; i++)
        t->ellipsis[i] = TTF_GlyphIsProvided(t->fonts[i], 0x2026) ? "\xe2\x80\xa6" : "...";
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

/* Measured by SDL_ttf, remembered: measuring costs about as much as drawing a cached string. */
int rnd_text_width(RndText *t, RndFont font, const char *s)
{
    int w = 0, h = 0;
    if (!s || !*s)
        return 0;
    size_t n = strlen(s);
    if (n >= RND_TEXT_MAX) {
        TTF_SizeUTF8(t->fonts[font], s, &w, &h);
        return w;
    }
    uint64_t key = rnd_text_key(font, s, rnd_rgba(0, 0, 0, 0));
    RndWidthEntry *e = &t->widths[key & (RND_WIDTH_CACHE - 1)];
    if (e->used && e->key == key && e->font == font && strcmp(e->s, s) == 0)
        return e->w;
    TTF_SizeUTF8(t->fonts[font], s, &w, &h);
    e->used = true;
    e->key = key;
    e->font = font;
    memcpy(e->s, s, n + 1);
    e->w = w;
    return w;
}

/* ---- fitting text into a width ----------------------------------------------------------------------------------- */

/* Byte offset of character k of s (UTF-8), or of its end when s has fewer characters. */
static size_t rnd_utf8_offset(const char *s, size_t k)
{
    size_t i = 0;
    for (; s[i] && k > 0; k--) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* out = the first `keep` bytes of s without trailing spaces, then the ellipsis; returns its width. */
static int rnd_elided_width(RndText *t, RndFont font, const char *s, size_t keep, char *out, size_t out_len)
{
    while (keep > 0 && s[keep - 1] == ' ')
        keep--;
    snprintf(out, out_len, "%.*s%s", (int)keep, s, t->ellipsis[font]);
    return rnd_text_width(t, font, out);
}

/* The measuring behind rnd_text_fit: the most characters that fit with the ellipsis, by bisection. Widths grow
 * with the prefix (up to kerning noise): the result is measured whole, so it never exceeds max_w. */
static int rnd_text_fit_measure(RndText *t, RndFont font, const char *s, int max_w, char *out, size_t out_len)
{
    size_t n = strlen(s);
    int w = rnd_text_width(t, font, s);
    if (w <= max_w && n < out_len) {
        memcpy(out, s, n + 1);
        return w;
    }
    size_t ell = strlen(t->ellipsis[font]);
    if (out_len <= ell || rnd_elided_width(t, font, s, 0, out, out_len) > max_w) {
        out[0] = '\0'; /* not even the ellipsis fits */
        return 0;
    }
    size_t lo = 0, hi = 0; /* characters kept: lo fits; the prefix must leave room for the ellipsis in out */
    while (s[rnd_utf8_offset(s, hi)] && rnd_utf8_offset(s, hi + 1) + ell < out_len)
        hi++;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (rnd_elided_width(t, font, s, rnd_utf8_offset(s, mid), out, out_len) <= max_w)
            lo = mid;
        else
            hi = mid - 1;
    }
    w = rnd_elided_width(t, font, s, rnd_utf8_offset(s, lo), out, out_len);
    while (w > max_w && lo > 0) /* kerning made a longer prefix pass a shorter one's test */
        w = rnd_elided_width(t, font, s, rnd_utf8_offset(s, --lo), out, out_len);
    return w;
}

int rnd_text_fit(RndText *t, RndFont font, const char *s, int max_w, char *out, size_t out_len)
{
    if (!out || out_len == 0)
        return 0;
    if (!s || !*s || max_w <= 0) {
        out[0] = '\0';
        return 0;
    }
    size_t n = strlen(s);
    if (n >= RND_TEXT_MAX || out_len < RND_TEXT_MAX)
        return rnd_text_fit_measure(t, font, s, max_w, out, out_len);
    uint64_t key = rnd_text_key(font, s, rnd_rgba(0, 0, 0, 0)) ^ ((uint64_t)(unsigned)max_w * 0x9E3779B97F4A7C15ull);
    RndFitEntry *e = &t->fits[key & (RND_FIT_CACHE - 1)];
    if (e->used && e->key == key && e->font == font && e->max_w == max_w && strcmp(e->s, s) == 0) {
        memcpy(out, e->out, strlen(e->out) + 1);
        return e->w;
    }
    int w = rnd_text_fit_measure(t, font, s, max_w, out, out_len);
    e->used = true;
    e->key = key;
    e->font = font;
    e->max_w = max_w;
    memcpy(e->s, s, n + 1);
    snprintf(e->out, sizeof e->out, "%s", out);
    e->w = w;
    return w;
}

int rnd_text_draw_fit(RndText *t, RndFont font, const char *s, float x, float y, float max_w, RndRgba c,
                      RndAlign align)
{
    char buf[RND_TEXT_MAX];
    if (!s || !*s)
        return 0;
    if (strlen(s) >= sizeof buf) { /* long strings (paths): fit in a buffer of their own size */
        size_t len = strlen(s) + 8;
        char *big = malloc(len);
        if (!big)
            return 0;
        rnd_text_fit(t, font, s, (int)max_w, big, len);
        int w = rnd_text_draw(t, font, big, x, y, c, align);
        free(big);
        return w;
    }
    rnd_text_fit(t, font, s, (int)max_w, buf, sizeof buf);
    return rnd_text_draw(t, font, buf, x, y, c, align);
}
