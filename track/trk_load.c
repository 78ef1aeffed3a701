/* trk_load.c: track files. INI ([track] name, width; [points] p = x, y[, left, right]) read by the project's INI
 * reader (trk_ini.c), and CSV centrelines (x_m, y_m, w_tr_right_m, w_tr_left_m); TORCS XML is in trk_torcs.c. Every
 * problem becomes one line "path:line: what is wrong"; nothing in the input can crash the parsers. */
#include "trk_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRK_MAX_FILE_BYTES (64L * 1024 * 1024)
#define TRK_DEFAULT_WIDTH_M 12.0 /* total width when [track] width is not given */

/*----------------------------------------------------------------------------------------------------------------
 * Shared pieces
 *--------------------------------------------------------------------------------------------------------------*/

/* Points read so far, with the line each came from (for messages about geometry). */
typedef struct TrkPointList {
    TrkPointDef *pts;
    int *lines;
    unsigned char *has_width;
    int n, cap;
} TrkPointList;

static int trk_list_push(TrkPointList *l, TrkPointDef p, int line, int has_width)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 256;
        TrkPointDef *np = realloc(l->pts, sizeof *np * (size_t)cap);
        if (np)
            l->pts = np;
        int *nl = realloc(l->lines, sizeof *nl * (size_t)cap);
        if (nl)
            l->lines = nl;
        unsigned char *nh = realloc(l->has_width, (size_t)cap);
        if (nh)
            l->has_width = nh;
        if (!np || !nl || !nh)
            return 0;
        l->cap = cap;
    }
    l->pts[l->n] = p;
    l->lines[l->n] = line;
    l->has_width[l->n] = (unsigned char)has_width;
    l->n++;
    return 1;
}

static void trk_list_free(TrkPointList *l)
{
    free(l->pts), free(l->lines), free(l->has_width);
}

/* A piece of input quoted in a message: printable ASCII only, at most 32 characters, so a message stays one short
 * line whatever the bytes. */
static void trk_quote(char *out, size_t out_len, const char *s, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 4 < out_len; i++) {
        if (i == 32) {
            out[k++] = '.', out[k++] = '.', out[k++] = '.';
            break;
        }
        unsigned char c = (unsigned char)s[i];
        out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    out[k] = '\0';
}

static void trk_trim(const char **b, const char **e)
{
    while (*b < *e && (**b == ' ' || **b == '\t' || **b == '\r'))
        (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
        (*e)--;
}

typedef enum TrkNum { TRK_NUM_OK, TRK_NUM_BAD, TRK_NUM_NOT_FINITE } TrkNum;

/* Parses [b, e) (already trimmed) as a whole double. */
static TrkNum trk_parse_num(const char *b, const char *e, double *out)
{
    char buf[128];
    size_t len = (size_t)(e - b);
    if (len == 0 || len >= sizeof buf)
        return TRK_NUM_BAD;
    memcpy(buf, b, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len)
        return TRK_NUM_BAD;
    if (!isfinite(v))
        return TRK_NUM_NOT_FINITE;
    *out = v;
    return TRK_NUM_OK;
}

/* Splits a comma-separated value into at most `max` trimmed fields; returns the number of fields (which may be
 * more than max; only the first max are stored). */
static int trk_split(const char *b, const char *e, const char **fb, const char **fe, int max)
{
    const char *tb = b, *te = e;
    trk_trim(&tb, &te);
    if (tb == te)
        return 0;
    int count = 0;
    const char *p = b;
    for (;;) {
        const char *c = memchr(p, ',', (size_t)(e - p));
        const char *q = c ? c : e;
        if (count < max) {
            fb[count] = p, fe[count] = q;
            trk_trim(&fb[count], &fe[count]);
        }
        count++;
        if (!c)
            break;
        p = c + 1;
    }
    return count;
}

/* Number i (1-based) of a field list into *out, or a message ("'abc' is not a number"). */
static int trk_field_num(const char *b, const char *e, double *out, char *msg, size_t msg_len, const char *prefix)
{
    char q[48];
    TrkNum r = trk_parse_num(b, e, out);
    trk_quote(q, sizeof q, b, (size_t)(e - b));
    if (r == TRK_NUM_BAD)
        snprintf(msg, msg_len, "%s'%s' is not a number", prefix, q);
    else if (r == TRK_NUM_NOT_FINITE)
        snprintf(msg, msg_len, "%snot a finite number '%s'", prefix, q);
    return r == TRK_NUM_OK;
}

static int trk_same_point(const TrkPointDef *a, const TrkPointDef *b)
{
    return hypot(a->x_m - b->x_m, a->y_m - b->y_m) < TRK_MIN_SPACING_M;
}

static void trk_set_err(char *err, size_t err_len, const char *path, int line, const char *msg)
{
    if (err && err_len > 0) {
        snprintf(err, err_len, "%s:%d: %s", path, line, msg);
        trk_text_printable(err);
    }
}

/* Common tail of both loaders: point count, closing duplicate, then the geometry checks of trk_create. A
 * line_method (the file's own) replaces def's, and so does a line_margin_m >= 0. */
static TrkTrack *trk_build(TrkPointList *l, const char *name, const char *path, const TrkDef *def, char *err,
                           size_t err_len, const char *dup_prefix, const TrkLineMethod *line_method,
                           double line_margin_m)
{
    char msg[TRK_ERR_LEN];
    if (l->n < 4) {
        snprintf(msg, sizeof msg, "need at least 4 points, got %d", l->n);
        trk_set_err(err, err_len, path, 0, msg);
        return NULL;
    }
    if (trk_same_point(&l->pts[0], &l->pts[l->n - 1])) {
        snprintf(msg, sizeof msg, "%sduplicate of the first point (the loop closes by itself; do not repeat it)",
                 dup_prefix);
        trk_set_err(err, err_len, path, l->lines[l->n - 1], msg);
        return NULL;
    }
    TrkDef d = def ? *def : trk_default_def();
    d.name = name;
    if (line_method)
        d.line_method = *line_method;
    if (line_margin_m >= 0.0)
        d.line_margin_m = line_margin_m;
    int bad = -1;
    TrkWhere where = {path, l->lines};
    TrkTrack *t = trk_create_ex(l->pts, l->n, &d, msg, sizeof msg, &bad, &where);
    if (!t)
        trk_set_err(err, err_len, path, bad >= 0 && bad < l->n ? l->lines[bad] : 0, msg);
    return t;
}

/*----------------------------------------------------------------------------------------------------------------
 * INI
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct TrkIniParse {
    TrkIni ini;
    char name[TRK_NAME_LEN];
    int has_name, has_width, has_line_margin, has_line;
    double width_m;
    TrkLineMethod line;
    double line_margin_m;
    TrkPointList list;
} TrkIniParse;

/* The first problem is the one reported, on the line being parsed. */
#define trk_ini_bad(s, ...) trk_ini_fail(&(s)->ini, (s)->ini.line, __VA_ARGS__)

static void trk_ini_point(TrkIniParse *s, const char *value)
{
    const char *fb[4], *fe[4];
    const char *e = value + strlen(value);
    int nf = trk_split(value, e, fb, fe, 4);
    if (nf != 2 && nf != 4) {
        trk_ini_bad(s, "[points] p: expected 2 or 4 numbers, got %d", nf);
        return;
    }
    double v[4] = {0, 0, 0, 0};
    char msg[TRK_ERR_LEN];
    for (int i = 0; i < nf; i++)
        if (!trk_field_num(fb[i], fe[i], &v[i], msg, sizeof msg, "[points] p: ")) {
            trk_ini_bad(s, "%s", msg);
            return;
        }
    if (nf == 4 && (v[2] <= 0.0 || v[3] <= 0.0)) {
        trk_ini_bad(s, "[points] p: width must be > 0");
        return;
    }
    if (fabs(v[0]) > TRK_MAX_COORD_M || fabs(v[1]) > TRK_MAX_COORD_M) {
        trk_ini_bad(s, "[points] p: coordinate out of range (|x|, |y| <= %.0f m)", TRK_MAX_COORD_M);
        return;
    }
    if (nf == 4 && (v[2] > TRK_MAX_WIDTH_M || v[3] > TRK_MAX_WIDTH_M)) {
        trk_ini_bad(s, "[points] p: width must be <= %.0f m", TRK_MAX_WIDTH_M);
        return;
    }
    TrkPointDef p = {v[0], v[1], v[2], v[3]};
    if (s->list.n > 0 && trk_same_point(&p, &s->list.pts[s->list.n - 1])) {
        trk_ini_bad(s, "[points] p: duplicate of the previous point");
        return;
    }
    if (s->list.n >= TRK_MAX_POINTS) {
        trk_ini_bad(s, "[points] too many points (at most %d)", TRK_MAX_POINTS);
        return;
    }
    if (!trk_list_push(&s->list, p, s->ini.line, nf == 4))
        trk_ini_bad(s, "out of memory");
}

/* [track] line_margin: how far the racing line keeps from each edge, m. */
static void trk_ini_line_margin(TrkIniParse *s, const char *value)
{
    if (s->has_line_margin) {
        trk_ini_bad(s, "duplicate key 'line_margin' in [track]");
        return;
    }
    const char *b = value, *e = value + strlen(value);
    trk_trim(&b, &e);
    char msg[TRK_ERR_LEN];
    if (!trk_field_num(b, e, &s->line_margin_m, msg, sizeof msg, "[track] line_margin: ")) {
        trk_ini_bad(s, "%s", msg);
        return;
    }
    if (!(s->line_margin_m >= 0.0 && s->line_margin_m <= TRK_MAX_LINE_MARGIN_M)) {
        trk_ini_bad(s, "[track] line_margin: expected a number in 0..%.0f m, got '%s'", TRK_MAX_LINE_MARGIN_M, b);
        return;
    }
    s->has_line_margin = 1;
}

/* [track] line: the racing line's optimiser, classic or min-curvature. */
static void trk_ini_line(TrkIniParse *s, const char *value)
{
    if (s->has_line) {
        trk_ini_bad(s, "duplicate key 'line' in [track]");
        return;
    }
    const char *b = value, *e = value + strlen(value);
    trk_trim(&b, &e);
    char word[48]; /* quoted: a long value ends in "...", so it names no method */
    trk_quote(word, sizeof word, b, (size_t)(e - b));
    if (!trk_line_method_parse(word, &s->line)) {
        trk_ini_bad(s, "[track] line: expected classic or min-curvature, got '%s'", word);
        return;
    }
    s->has_line = 1;
}

static void trk_ini_track_key(TrkIniParse *s, const char *name, const char *value)
{
    if (strcmp(name, "name") == 0) {
        if (s->has_name) {
            trk_ini_bad(s, "duplicate key 'name' in [track]");
            return;
        }
        const char *b = value, *e = value + strlen(value);
        trk_trim(&b, &e);
        if (b == e) {
            trk_ini_bad(s, "[track] name: must not be empty");
            return;
        }
        trk_quote(s->name, sizeof s->name, b, (size_t)(e - b));
        s->has_name = 1;
    } else if (strcmp(name, "width") == 0) {
        if (s->has_width) {
            trk_ini_bad(s, "duplicate key 'width' in [track]");
            return;
        }
        const char *b = value, *e = value + strlen(value);
        trk_trim(&b, &e);
        char msg[TRK_ERR_LEN];
        if (!trk_field_num(b, e, &s->width_m, msg, sizeof msg, "[track] width: ")) {
            trk_ini_bad(s, "%s", msg);
            return;
        }
        if (!(s->width_m > 0.0 && s->width_m <= 2.0 * TRK_MAX_WIDTH_M)) {
            trk_ini_bad(s, "[track] width: must be > 0 and <= %.0f m", 2.0 * TRK_MAX_WIDTH_M);
            return;
        }
        s->has_width = 1;
    } else if (strcmp(name, "line_margin") == 0) {
        trk_ini_line_margin(s, value);
    } else if (strcmp(name, "line") == 0) {
        trk_ini_line(s, value);
    } else {
        char q[48];
        trk_quote(q, sizeof q, name, strlen(name));
        trk_ini_bad(s, "unknown key '%s' in [track]", q);
    }
}

static const char *const trk_ini_sections[] = {"track", "points", NULL};

static void trk_ini_handler(void *user, const char *section, const char *name, const char *value)
{
    TrkIniParse *s = user;
    if (s->ini.failed)
        return; /* only the first problem is reported: no point building on a broken file */
    if (strcmp(section, "track") == 0) {
        trk_ini_track_key(s, name, value);
    } else if (strcmp(name, "p") == 0) {
        trk_ini_point(s, value);
    } else {
        char q[48];
        trk_quote(q, sizeof q, name, strlen(name));
        trk_ini_bad(s, "unknown key '%s' in [points]", q);
    }
}

TrkTrack *trk_load_ini_string(const char *text, const char *path, const TrkDef *def, char *err, size_t err_len)
{
    TrkIniParse s;
    memset(&s, 0, sizeof s);
    path = path ? path : "(string)";
    trk_ini_init(&s.ini, path, trk_ini_sections, err, err_len);
    TrkTrack *t = NULL;
    if (trk_ini_parse(&s.ini, text, trk_ini_handler, &s) == 0) {
        double w = s.has_width ? s.width_m : TRK_DEFAULT_WIDTH_M;
        for (int i = 0; i < s.list.n; i++)
            if (!s.list.has_width[i])
                s.list.pts[i].left_m = s.list.pts[i].right_m = 0.5 * w;
        t = trk_build(&s.list, s.has_name ? s.name : "unnamed", path, def, err, err_len, "[points] p: ",
                      s.has_line ? &s.line : NULL, s.has_line_margin ? s.line_margin_m : -1.0);
    }
    trk_list_free(&s.list);
    return t;
}

/*----------------------------------------------------------------------------------------------------------------
 * CSV
 *--------------------------------------------------------------------------------------------------------------*/

/* One data line: x_m, y_m, w_tr_right_m, w_tr_left_m. Returns 0 and fills msg when it is bad. */
static int trk_csv_line(const char *b, const char *e, TrkPointDef *p, char *msg, size_t msg_len)
{
    const char *fb[4], *fe[4];
    int nf = trk_split(b, e, fb, fe, 4);
    if (nf != 4) {
        snprintf(msg, msg_len, "expected 4 fields, got %d", nf);
        return 0;
    }
    double v[4];
    for (int i = 0; i < 4; i++) {
        char prefix[24];
        snprintf(prefix, sizeof prefix, "field %d: ", i + 1);
        if (!trk_field_num(fb[i], fe[i], &v[i], msg, msg_len, prefix))
            return 0;
    }
    for (int i = 2; i < 4; i++) {
        if (v[i] <= 0.0) {
            snprintf(msg, msg_len, "field %d: width must be > 0", i + 1);
            return 0;
        }
        if (v[i] > TRK_MAX_WIDTH_M) {
            snprintf(msg, msg_len, "field %d: width must be <= %.0f m", i + 1, TRK_MAX_WIDTH_M);
            return 0;
        }
    }
    if (fabs(v[0]) > TRK_MAX_COORD_M || fabs(v[1]) > TRK_MAX_COORD_M) {
        snprintf(msg, msg_len, "coordinate out of range (|x|, |y| <= %.0f m)", TRK_MAX_COORD_M);
        return 0;
    }
    p->x_m = v[0], p->y_m = v[1], p->right_m = v[2], p->left_m = v[3];
    return 1;
}

/* The track's name from the path: the file name without directory and extension. */
static void trk_name_from_path(char *out, size_t out_len, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *e = strrchr(b, '.');
    if (!e || e == b)
        e = b + strlen(b);
    trk_quote(out, out_len, b, (size_t)(e - b));
    if (!out[0])
        snprintf(out, out_len, "unnamed");
}

TrkTrack *trk_load_csv_string(const char *text, const char *path, const TrkDef *def, char *err, size_t err_len)
{
    path = path ? path : "(string)";
    text = text ? text : "";
    TrkPointList l;
    memset(&l, 0, sizeof l);
    char msg[TRK_ERR_LEN];
    const char *p = text, *end = text + strlen(text);
    int line = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *b = p, *e = nl ? nl : end;
        p = nl ? nl + 1 : end;
        line++;
        trk_trim(&b, &e);
        if (b == e || *b == '#')
            continue;
        TrkPointDef pt;
        int ok = trk_csv_line(b, e, &pt, msg, sizeof msg);
        if (ok && l.n > 0 && trk_same_point(&pt, &l.pts[l.n - 1]))
            ok = 0, snprintf(msg, sizeof msg, "duplicate of the previous point");
        if (ok && l.n >= TRK_MAX_POINTS)
            ok = 0, snprintf(msg, sizeof msg, "too many points (at most %d)", TRK_MAX_POINTS);
        if (ok && !trk_list_push(&l, pt, line, 1))
            ok = 0, snprintf(msg, sizeof msg, "out of memory");
        if (!ok) {
            trk_set_err(err, err_len, path, line, msg);
            trk_list_free(&l);
            return NULL;
        }
    }
    char name[TRK_NAME_LEN];
    trk_name_from_path(name, sizeof name, path);
    TrkTrack *t = trk_build(&l, name, path, def, err, err_len, "", NULL, -1.0);
    trk_list_free(&l);
    return t;
}

/*----------------------------------------------------------------------------------------------------------------
 * Files
 *--------------------------------------------------------------------------------------------------------------*/

/* Whole file into a NUL-terminated buffer (see trk_file_read). */
static char *trk_read_file(const char *path, char *err, size_t err_len)
{
    return trk_file_read(path, (size_t)TRK_MAX_FILE_BYTES, NULL, err, err_len);
}

/* True when path ends in ".ext" (ext lower case, three letters), in any case. */
static int trk_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path);
    if (n < 4)
        return 0;
    const char *e = path + n - 4;
    return e[0] == '.' && (e[1] | 32) == ext[0] && (e[2] | 32) == ext[1] && (e[3] | 32) == ext[2];
}

TrkTrack *trk_load(const char *path, const TrkDef *def, char *err, size_t err_len)
{
    if (!path) {
        trk_set_err(err, err_len, "(null)", 0, "no path");
        return NULL;
    }
    char *text = trk_read_file(path, err, err_len);
    if (!text)
        return NULL;
    TrkTrack *t = trk_has_ext(path, "csv")   ? trk_load_csv_string(text, path, def, err, err_len)
                  : trk_has_ext(path, "xml") ? trk_load_xml_string(text, path, def, err, err_len)
                                             : trk_load_ini_string(text, path, def, err, err_len);
    free(text);
    return t;
}
