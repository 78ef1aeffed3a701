/* drv_personality.c: driver personalities from INI files.
 *
 * Every key is described once in a table (section, name, kind, range, unit, where it goes), so defaults, parsing,
 * range checks and error messages cannot drift apart. Errors are "path:line: [section] key: what is wrong"; the lines,
 * sections and syntax are the project's INI reader's (trk_ini_parse). */
#include "drv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- key table --------------------------------------------------------------------------------------------- */

typedef enum DrvKeyKind { DRV_KEY_NUMBER, DRV_KEY_INT, DRV_KEY_BOOL, DRV_KEY_NAME, DRV_KEY_COLOUR, DRV_KEY_ENUM } DrvKeyKind;

typedef struct DrvKey {
    const char *section, *name;
    DrvKeyKind kind;
    double min, max;
    const char *unit;          /* "" when none; shown in range errors */
    size_t offset;             /* into DrvPersonality */
    const char *const *words;  /* DRV_KEY_ENUM: accepted words, NULL-terminated */
    int accepted;              /* DRV_KEY_ENUM: how many of `words` are implemented (the rest are refused) */
} DrvKey;

static const char *const drv_model_words[] = {"context", "steering", NULL};
static const char *const drv_blur_words[] = {"none", "box", "gauss", NULL};
static const char *const drv_resolver_words[] = {"walk", "subtract", "mask-sum", "threshold-blend", "min-danger", NULL};

#define DRV_OFF(field) offsetof(DrvPersonality, field)
static const DrvKey drv_keys[] = {
    {"driver", "name", DRV_KEY_NAME, 1, DRV_NAME_LEN - 1, "", DRV_OFF(name), NULL, 0},
    {"driver", "colour", DRV_KEY_COLOUR, 0, 255, "", DRV_OFF(colour), NULL, 0},
    {"driver", "number", DRV_KEY_INT, 0, 999, "", DRV_OFF(number), NULL, 0},
    {"driver", "model", DRV_KEY_ENUM, 0, 0, "", DRV_OFF(model), drv_model_words, 2},
    {"behaviour", "skirt", DRV_KEY_NUMBER, 0, 6, " m", DRV_OFF(skirt_m), NULL, 0},
    {"behaviour", "draft", DRV_KEY_NUMBER, 0, 1, "", DRV_OFF(draft_weight), NULL, 0},
    {"behaviour", "line", DRV_KEY_NUMBER, 0, 1, "", DRV_OFF(line_weight), NULL, 0},
    {"behaviour", "aggression", DRV_KEY_NUMBER, 0, 1, "", DRV_OFF(aggression), NULL, 0},
    {"behaviour", "attack", DRV_KEY_NUMBER, 0, 1, "", DRV_OFF(attack), NULL, 0},
    {"behaviour", "defend", DRV_KEY_NUMBER, 0, 1, "", DRV_OFF(defend), NULL, 0},
    {"behaviour", "grip_use", DRV_KEY_NUMBER, 0.8, 1, "", DRV_OFF(grip_use), NULL, 0},
    {"behaviour", "lookahead", DRV_KEY_NUMBER, 0.2, 5, " s", DRV_OFF(lookahead_s), NULL, 0},
    {"behaviour", "noise", DRV_KEY_NUMBER, 0, 1, "", DRV_OFF(reaction_noise), NULL, 0},
    {"map", "slots", DRV_KEY_INT, 8, DRV_MAX_SLOTS, "", DRV_OFF(slots), NULL, 0},
    {"map", "blur", DRV_KEY_ENUM, 0, 0, "", DRV_OFF(blur), drv_blur_words, 3},
    {"map", "blur_radius", DRV_KEY_INT, 0, 8, " slots", DRV_OFF(blur_radius), NULL, 0},
    {"map", "hysteresis", DRV_KEY_NUMBER, 0, 0.95, "", DRV_OFF(hysteresis), NULL, 0},
    {"map", "lod", DRV_KEY_BOOL, 0, 0, "", DRV_OFF(lod), NULL, 0},
    {"map", "resolver", DRV_KEY_ENUM, 0, 0, "", DRV_OFF(resolver), drv_resolver_words, 5},
    {"map", "decide_hz", DRV_KEY_NUMBER, 1, 1000, " Hz", DRV_OFF(decide_hz), NULL, 0},
    {"map", "decide_far_hz", DRV_KEY_NUMBER, 1, 1000, " Hz", DRV_OFF(decide_far_hz), NULL, 0},
};
#define DRV_KEY_COUNT (int)(sizeof drv_keys / sizeof drv_keys[0])

_Static_assert(sizeof(DrvModel) == sizeof(int) && sizeof(DrvBlur) == sizeof(int) && sizeof(DrvResolver) == sizeof(int),
               "drv_personality_valid reads enum fields as int");

bool drv_personality_valid(const DrvPersonality *p)
{
    if (p == NULL || memchr(p->name, '\0', sizeof p->name) == NULL || p->name[0] == '\0')
        return false;
    for (int k = 0; k < DRV_KEY_COUNT; k++) {
        const DrvKey *key = &drv_keys[k];
        const char *field = (const char *)p + key->offset;
        if (key->kind == DRV_KEY_NUMBER) {
            double x;
            memcpy(&x, field, sizeof x);
            if (!isfinite(x) || x < key->min || x > key->max)
                return false;
        } else if (key->kind == DRV_KEY_INT || key->kind == DRV_KEY_ENUM) {
            int x; /* enums are int-sized in every ABI we build for */
            memcpy(&x, field, sizeof x);
            if (key->kind == DRV_KEY_INT ? (x < key->min || x > key->max) : (x < 0 || x >= key->accepted))
                return false;
        }
    }
    return true;
}

DrvPersonality drv_default_personality(void)
{
    DrvPersonality p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", "Driver");
    p.colour[0] = 0xc0, p.colour[1] = 0xc0, p.colour[2] = 0xc0;
    p.number = 0;
    p.model = DRV_MODEL_CONTEXT;
    p.skirt_m = 1.5;
    p.draft_weight = 0.3;
    p.line_weight = 0.6;
    p.aggression = 0.5;
    p.attack = 0.5;
    p.grip_use = 0.95;
    p.lookahead_s = 1.5;
    p.reaction_noise = 0.1;
    p.slots = 32;
    p.blur = DRV_BLUR_NONE;
    p.blur_radius = 1;
    p.hysteresis = 0.3;
    p.lod = true;
    p.resolver = DRV_RESOLVE_WALK;
    p.decide_hz = 100.0;
    p.decide_far_hz = 25.0;
    return p;
}

/* ---- parsing state ----------------------------------------------------------------------------------------- */

static const char *const drv_sections[] = {"driver", "behaviour", "map", NULL};

typedef struct DrvParse {
    TrkIni ini;
    DrvPersonality *out;
    int seen_line[DRV_KEY_COUNT]; /* line where each key was set, 0 = not yet */
} DrvParse;

/* Quotes a bad value for a message, shortened so a huge value cannot hide the message. */
static const char *drv_quote(const char *value, char *buf, size_t len)
{
    size_t n = strlen(value);
    if (n + 1 <= len)
        return value;
    snprintf(buf, len, "%.*s...", (int)(len - 4), value);
    return buf;
}

/* ---- values ------------------------------------------------------------------------------------------------ */

static bool drv_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(x))
        return false;
    *out = x;
    return true;
}

static bool drv_parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return false;
    *out = x;
    return true;
}

static bool drv_parse_colour(const char *s, uint8_t rgb[3])
{
    if (s[0] == '#') {
        if (strlen(s) != 7)
            return false;
        for (int i = 1; i < 7; i++)
            if (!isxdigit((unsigned char)s[i]))
                return false;
        unsigned long x = strtoul(s + 1, NULL, 16);
        rgb[0] = (uint8_t)(x >> 16), rgb[1] = (uint8_t)(x >> 8), rgb[2] = (uint8_t)x;
        return true;
    }
    long c[3];
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        char *end;
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            return false;
        errno = 0;
        c[i] = strtol(p, &end, 10);
        if (errno == ERANGE || c[i] > 255)
            return false;
        p = end;
        while (*p == ' ')
            p++;
        if (i < 2 && *p++ != ',')
            return false;
    }
    if (*p != '\0')
        return false;
    rgb[0] = (uint8_t)c[0], rgb[1] = (uint8_t)c[1], rgb[2] = (uint8_t)c[2];
    return true;
}

static void drv_fmt_num(double x, char *buf, size_t len) { snprintf(buf, len, "%g", x); }

/* Sets one key's value; on error writes "expected ..." into `why` and returns false. */
static bool drv_set_value(const DrvKey *k, const char *value, DrvPersonality *out, char *why, size_t len)
{
    char *base = (char *)out + k->offset;
    char lo[32], hi[32];
    drv_fmt_num(k->min, lo, sizeof lo);
    drv_fmt_num(k->max, hi, sizeof hi);
    switch (k->kind) {
    case DRV_KEY_NUMBER: {
        double x;
        if (!drv_parse_double(value, &x) || x < k->min || x > k->max) {
            snprintf(why, len, "expected a number in %s..%s%s", lo, hi, k->unit);
            return false;
        }
        *(double *)(void *)base = x;
        return true;
    }
    case DRV_KEY_INT: {
        long x;
        if (!drv_parse_long(value, &x) || x < (long)k->min || x > (long)k->max) {
            snprintf(why, len, "expected a whole number in %s..%s%s", lo, hi, k->unit);
            return false;
        }
        *(int *)(void *)base = (int)x;
        return true;
    }
    case DRV_KEY_BOOL:
        if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0) {
            *(bool *)(void *)base = value[0] == 't';
            return true;
        }
        snprintf(why, len, "expected true or false");
        return false;
    case DRV_KEY_NAME: {
        size_t n = strlen(value);
        if (n < 1 || n > DRV_NAME_LEN - 1) {
            snprintf(why, len, "expected a name of 1..%d characters", DRV_NAME_LEN - 1);
            return false;
        }
        if (!trk_text_is_name(value)) {
            snprintf(why, len, "expected a name in UTF-8 without control characters");
            return false;
        }
        memcpy(base, value, n + 1);
        return true;
    }
    case DRV_KEY_COLOUR:
        if (drv_parse_colour(value, (uint8_t *)base))
            return true;
        snprintf(why, len, "expected #rrggbb or r,g,b (each 0..255)");
        return false;
    case DRV_KEY_ENUM:
        for (int i = 0; k->words[i]; i++) {
            if (strcmp(value, k->words[i]) != 0)
                continue;
            if (i >= k->accepted) {
                snprintf(why, len, "'%s' is not available yet; expected %s", value, k->words[0]);
                return false;
            }
            *(int *)(void *)base = i;
            return true;
        }
        {
            size_t used = (size_t)snprintf(why, len, "expected one of");
            for (int i = 0; i < k->accepted && used < len; i++)
                used += (size_t)snprintf(why + used, len - used, "%s%s", i ? ", " : " ", k->words[i]);
        }
        return false;
    }
    return false;
}

int drv_personality_set(DrvPersonality *p, const char *section, const char *key, const char *value, char *why,
                        size_t why_len)
{
    for (int i = 0; i < DRV_KEY_COUNT; i++) {
        const DrvKey *k = &drv_keys[i];
        if (strcmp(section, k->section) == 0 && strcmp(key, k->name) == 0)
            return drv_set_value(k, value, p, why, why_len) ? 0 : 2;
    }
    snprintf(why, why_len, "[%s] unknown key '%s'", section, key);
    return 1;
}

int drv_personality_get_number(const DrvPersonality *p, const char *section, const char *key, double *value,
                               char *why, size_t why_len)
{
    for (int i = 0; i < DRV_KEY_COUNT; i++) {
        const DrvKey *k = &drv_keys[i];
        if (strcmp(section, k->section) != 0 || strcmp(key, k->name) != 0)
            continue;
        if (k->kind != DRV_KEY_NUMBER) {
            snprintf(why, why_len, "[%s] %s: not a real-number key", section, key);
            return 2;
        }
        memcpy(value, (const char *)p + k->offset, sizeof *value);
        return 0;
    }
    snprintf(why, why_len, "[%s] unknown key '%s'", section, key);
    return 1;
}

static void drv_handler(void *user, const char *section, const char *name, const char *value)
{
    DrvParse *ps = user;
    int line = ps->ini.line;
    char q[64];
    for (int i = 0; i < DRV_KEY_COUNT; i++) {
        const DrvKey *k = &drv_keys[i];
        if (strcmp(section, k->section) != 0 || strcmp(name, k->name) != 0)
            continue;
        if (ps->seen_line[i]) {
            trk_ini_fail(&ps->ini, line, "[%s] %s: duplicate key (first set on line %d)", section, name,
                         ps->seen_line[i]);
            return;
        }
        ps->seen_line[i] = line;
        char why[160];
        if (!drv_set_value(k, value, ps->out, why, sizeof why)) {
            char msg[256];
            /* enum messages already quote the word when it is known but refused */
            if (strstr(why, "not available") != NULL)
                snprintf(msg, sizeof msg, "%s", why);
            else
                snprintf(msg, sizeof msg, "%s, got '%s'", why, drv_quote(value, q, sizeof q));
            trk_ini_fail(&ps->ini, line, "[%s] %s: %s", section, name, msg);
        }
        return;
    }
    trk_ini_fail(&ps->ini, line, "[%s] unknown key '%s'", section, drv_quote(name, q, sizeof q));
}

/* ---- entry points ------------------------------------------------------------------------------------------ */

int drv_personality_parse_string(const char *text, const char *path, DrvPersonality *out, char *err, size_t err_len)
{
    DrvPersonality p = drv_default_personality();
    DrvParse ps;
    memset(&ps, 0, sizeof ps);
    ps.out = &p;
    trk_ini_init(&ps.ini, path ? path : "<string>", drv_sections, err, err_len);
    if (trk_ini_parse(&ps.ini, text, drv_handler, &ps) != 0)
        return 1;
    *out = p;
    return 0;
}

int drv_personality_load(const char *path, DrvPersonality *out, char *err, size_t err_len)
{
    /* driver files are small; anything huge is not a driver file */
    char *text = trk_file_read(path, (size_t)1 << 16, NULL, err, err_len);
    if (text == NULL)
        return 1;
    int rc = drv_personality_parse_string(text, path, out, err, err_len);
    free(text);
    return rc;
}
