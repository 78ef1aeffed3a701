/* trk_torcs.c: TORCS / Speed Dreams track XML. The segments of <section name="Main Track"> / "Track Segments" (or
 * the older "segments") are integrated into a centre line as TORCS builds it (straights, arcs, and spirals from
 * `radius` to `end radius` in `profil steps` constant-radius steps), sampled into control points, closed, and built
 * like any other track. Elevation, banking, surfaces, sides, barriers and pits are not read. */
#include "trk_internal.h"
#include "trk_xml.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRK_TORCS_DEFAULT_WIDTH_M 15.0 /* TORCS's own default for Main Track's width */
#define TRK_TORCS_POINT_STEP_M 4.0     /* control points at most this far apart, m */
#define TRK_TORCS_POINT_TURN_RAD (3.0 * TRK_PI / 180.0) /* ... and at most this much turning apart */
#define TRK_TORCS_MAX_GAP 0.02         /* the integrated end may miss the start by this share of the length */
#define TRK_TORCS_MAX_HEADING_DEG 5.0  /* ... and head this far off the start's direction */
#define TRK_TORCS_MAX_STEPS 10000      /* profil steps of one spiral */
#define TRK_TORCS_MIN_RADIUS_M 0.5 /* tighter is no road; the bound also keeps a spiral's work small */
#define TRK_TORCS_MAX_RADIUS_M 1.0e5

typedef enum TrkUnitKind { TRK_UNIT_LENGTH, TRK_UNIT_ANGLE, TRK_UNIT_COUNT } TrkUnitKind;

/* One segment in SI units. A turn is a list of constant-radius pieces (one, or a spiral's steps). */
typedef struct TrkTorcsSeg {
    int turn;            /* 0 straight, +1 left, -1 right */
    double length_m;     /* straight: lg; turn: TORCS's nominal (radius + end radius) / 2 * arc */
    double radius_m, end_radius_m, arc_rad;
    int steps;
    double start_width_m, end_width_m;
    int line;
} TrkTorcsSeg;

typedef struct TrkTorcs {
    const char *path;
    const TrkXmlDoc *doc;
    int err_line;
    char msg[TRK_ERR_LEN];
    /* control points, their cumulative distance and the line of their segment */
    TrkPointDef *pts;
    double *s_m;
    int *lines;
    int n, cap;
} TrkTorcs;

static int torcs_fail(TrkTorcs *t, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int torcs_fail(TrkTorcs *t, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
    t->err_line = line;
    return -1;
}

/*----------------------------------------------------------------------------------------------------------------
 * Reading the element tree
 *--------------------------------------------------------------------------------------------------------------*/

/* The next direct child of `parent` after `from` whose tag is `tag` (or, for "section", also "list", the older
 * spelling) and, when `name` is not NULL, whose name attribute is `name`; -1 when none. A subtree is contiguous in
 * document order, so the scan stops at the first node outside it. */
static int torcs_child(const TrkXmlDoc *d, int parent, int from, const char *tag, const char *name)
{
    for (int j = (from > parent ? from : parent) + 1; j < d->node_count && d->nodes[j].parent >= parent; j++) {
        const TrkXmlNode *n = &d->nodes[j];
        if (n->parent != parent)
            continue;
        int tag_ok = strcmp(n->tag, tag) == 0 || (strcmp(tag, "section") == 0 && strcmp(n->tag, "list") == 0);
        const char *nm = trk_xml_attr(d, j, "name", NULL);
        if (tag_ok && (!name || (nm && strcmp(nm, name) == 0)))
            return j;
    }
    return -1;
}

/* A string of at most 32 printable ASCII characters for messages. */
static void torcs_quote(char *out, size_t out_len, const char *s)
{
    size_t k = 0;
    for (size_t i = 0; s[i] && k + 4 < out_len; i++) {
        if (i == 32) {
            memcpy(out + k, "...", 3), k += 3;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    out[k] = '\0';
}

static int torcs_unit(TrkTorcs *t, const char *unit, TrkUnitKind kind, const char *what, int line, double *factor)
{
    static const struct {
        const char *name;
        double factor;
        TrkUnitKind kind;
    } units[] = {{"m", 1.0, TRK_UNIT_LENGTH},    {"ft", 0.3048, TRK_UNIT_LENGTH},         {"cm", 0.01, TRK_UNIT_LENGTH},
                 {"mm", 0.001, TRK_UNIT_LENGTH}, {"km", 1000.0, TRK_UNIT_LENGTH},
                 {"deg", TRK_PI / 180.0, TRK_UNIT_ANGLE}, {"rad", 1.0, TRK_UNIT_ANGLE}};
    static const char *kinds[] = {"a length (m, ft, cm, mm or km)", "an angle (deg or rad)", "a plain number"};
    *factor = 1.0; /* no unit: SI, as TORCS reads it */
    if (!unit)
        return 0;
    char q[48];
    torcs_quote(q, sizeof q, unit);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].name) == 0) {
            if (units[i].kind != kind)
                return torcs_fail(t, line, "%s: unit '%s' does not fit: expected %s", what, q, kinds[kind]);
            *factor = units[i].factor;
            return 0;
        }
    return torcs_fail(t, line, "%s: unknown unit '%s' (expected %s)", what, q, kinds[kind]);
}

/* The last <attnum name="key"> child of `node` (a later one replaces an earlier one, as in TORCS). */
static int torcs_last_num(const TrkXmlDoc *d, int node, const char *key)
{
    int at = -1;
    for (int j = torcs_child(d, node, node, "attnum", key); j >= 0; j = torcs_child(d, node, j, "attnum", key))
        at = j;
    return at;
}

/* The <attnum name="key"> child of `node`, converted to SI: 1 when found, 0 when absent, -1 on error. `who` starts
 * the message ("segment 'turn 1'"). */
static int torcs_num(TrkTorcs *t, int node, const char *key, TrkUnitKind kind, const char *who, double *out)
{
    int at = torcs_last_num(t->doc, node, key);
    if (at < 0)
        return 0;
    char what[160];
    snprintf(what, sizeof what, "%s%s%s", who, who[0] ? ": " : "", key);
    int line = t->doc->nodes[at].line;
    const char *val = trk_xml_attr(t->doc, at, "val", &line);
    if (!val)
        return torcs_fail(t, line, "%s: no val", what);
    char *end = NULL;
    double v = strtod(val, &end);
    while (end && (*end == ' ' || *end == '\t'))
        end++;
    char q[48];
    torcs_quote(q, sizeof q, val);
    if (end == val || *end != '\0')
        return torcs_fail(t, line, "%s: '%s' is not a number", what, q);
    if (!isfinite(v))
        return torcs_fail(t, line, "%s: not a finite number '%s'", what, q);
    double factor;
    if (torcs_unit(t, trk_xml_attr(t->doc, at, "unit", NULL), kind, what, line, &factor) != 0)
        return -1;
    *out = v * factor;
    return 1;
}

/* A number that must lie in (lo, hi]; absent leaves *out unchanged. Returns 1 found, 0 absent, -1 error. */
static int torcs_num_in(TrkTorcs *t, int node, const char *key, TrkUnitKind kind, const char *who, double lo,
                        double hi, double *out)
{
    double v = 0.0;
    int r = torcs_num(t, node, key, kind, who, &v);
    if (r <= 0)
        return r;
    if (!(v > lo && v <= hi)) {
        int at = torcs_last_num(t->doc, node, key);
        return torcs_fail(t, t->doc->nodes[at].line, "%s%s%s must be > %g and <= %g", who, who[0] ? ": " : "", key,
                          lo, hi);
    }
    *out = v;
    return 1;
}

/*----------------------------------------------------------------------------------------------------------------
 * Segments
 *--------------------------------------------------------------------------------------------------------------*/

/* A turn's radius, end radius, arc and steps, and its nominal length. */
static int torcs_turn(TrkTorcs *t, int node, const char *who, double global_step_m, TrkTorcsSeg *seg)
{
    int r = torcs_num_in(t, node, "radius", TRK_UNIT_LENGTH, who, TRK_TORCS_MIN_RADIUS_M, TRK_TORCS_MAX_RADIUS_M,
                         &seg->radius_m);
    if (r == 0)
        return torcs_fail(t, seg->line, "%s: a turn needs a radius", who);
    seg->end_radius_m = seg->radius_m;
    if (r < 0 || torcs_num_in(t, node, "end radius", TRK_UNIT_LENGTH, who, TRK_TORCS_MIN_RADIUS_M,
                              TRK_TORCS_MAX_RADIUS_M, &seg->end_radius_m) < 0)
        return -1;
    r = torcs_num_in(t, node, "arc", TRK_UNIT_ANGLE, who, 0.0, 4.0 * TRK_PI, &seg->arc_rad);
    if (r == 0)
        return torcs_fail(t, seg->line, "%s: a turn needs an arc", who);
    if (r < 0)
        return -1;
    seg->length_m = 0.5 * (seg->radius_m + seg->end_radius_m) * seg->arc_rad;
    /* TORCS: `profil steps`, or when that is 1, one step per `profil steps length` (the segment's or Main Track's) */
    double steps = 1.0, step_m = global_step_m;
    if (torcs_num_in(t, node, "profil steps", TRK_UNIT_COUNT, who, 0.0, TRK_TORCS_MAX_STEPS, &steps) < 0 ||
        torcs_num_in(t, node, "profil steps length", TRK_UNIT_LENGTH, who, 0.0, TRK_MAX_LENGTH_M, &step_m) < 0)
        return -1;
    seg->steps = steps < 1.0 ? 1 : (int)steps;
    if (seg->steps == 1 && step_m > 0.0)
        seg->steps = (int)fmin(seg->length_m / step_m + 1.0, TRK_TORCS_MAX_STEPS);
    return 0;
}

/* One segment; widths carry over from the previous segment's end (a segment may set `width`, or `start width`
 * and `end width`). */
static int torcs_segment(TrkTorcs *t, int node, double global_step_m, double width_m, TrkTorcsSeg *seg)
{
    char who[80], q[48];
    const char *name = trk_xml_attr(t->doc, node, "name", NULL);
    torcs_quote(q, sizeof q, name ? name : "");
    snprintf(who, sizeof who, "segment '%s'", q);
    memset(seg, 0, sizeof *seg);
    seg->line = t->doc->nodes[node].line;
    int at = torcs_child(t->doc, node, node, "attstr", "type");
    const char *type = at >= 0 ? trk_xml_attr(t->doc, at, "val", NULL) : NULL;
    if (!type)
        return torcs_fail(t, at >= 0 ? t->doc->nodes[at].line : seg->line, "%s: no type (str, lft or rgt)", who);
    seg->start_width_m = seg->end_width_m = width_m;
    if (torcs_num_in(t, node, "width", TRK_UNIT_LENGTH, who, 0.0, 2.0 * TRK_MAX_WIDTH_M, &seg->start_width_m) < 0)
        return -1;
    seg->end_width_m = seg->start_width_m;
    if (torcs_num_in(t, node, "start width", TRK_UNIT_LENGTH, who, 0.0, 2.0 * TRK_MAX_WIDTH_M,
                     &seg->start_width_m) < 0 ||
        torcs_num_in(t, node, "end width", TRK_UNIT_LENGTH, who, 0.0, 2.0 * TRK_MAX_WIDTH_M, &seg->end_width_m) < 0)
        return -1;
    if (strcmp(type, "str") == 0) {
        int r = torcs_num_in(t, node, "lg", TRK_UNIT_LENGTH, who, 0.0, TRK_MAX_LENGTH_M, &seg->length_m);
        if (r == 0)
            return torcs_fail(t, seg->line, "%s: a straight needs lg", who);
        return r < 0 ? -1 : 0;
    }
    seg->turn = strcmp(type, "lft") == 0 ? 1 : strcmp(type, "rgt") == 0 ? -1 : 0;
    if (!seg->turn) {
        torcs_quote(q, sizeof q, type);
        return torcs_fail(t, t->doc->nodes[at].line, "%s: unknown type '%s' (expected str, lft or rgt)", who, q);
    }
    return torcs_turn(t, node, who, global_step_m, seg);
}

/*----------------------------------------------------------------------------------------------------------------
 * Integration
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct TrkTorcsPen {
    double x_m, y_m, heading_rad, s_m;
} TrkTorcsPen;

static int torcs_push(TrkTorcs *t, const TrkTorcsPen *pen, double width_m, int line)
{
    if (t->n > 0 && hypot(pen->x_m - t->pts[t->n - 1].x_m, pen->y_m - t->pts[t->n - 1].y_m) < 0.01)
        return 0; /* a piece too short to matter */
    if (t->n >= TRK_MAX_POINTS)
        return torcs_fail(t, 0, "too many control points (at most %d)", TRK_MAX_POINTS);
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        TrkPointDef *np = realloc(t->pts, sizeof *np * (size_t)cap);
        if (np)
            t->pts = np;
        double *ns = realloc(t->s_m, sizeof *ns * (size_t)cap);
        if (ns)
            t->s_m = ns;
        int *nl = realloc(t->lines, sizeof *nl * (size_t)cap);
        if (nl)
            t->lines = nl;
        if (!np || !ns || !nl)
            return torcs_fail(t, 0, "out of memory");
        t->cap = cap;
    }
    TrkPointDef p = {pen->x_m, pen->y_m, 0.5 * width_m, 0.5 * width_m};
    t->pts[t->n] = p, t->s_m[t->n] = pen->s_m, t->lines[t->n] = line;
    t->n++;
    return 0;
}

/* Moves the pen along a constant curvature (1/m, left positive). */
static void torcs_advance(TrkTorcsPen *pen, double len_m, double kappa)
{
    double turn = kappa * len_m, h = pen->heading_rad;
    if (fabs(turn) < 1e-9) {
        pen->x_m += len_m * cos(h + 0.5 * turn);
        pen->y_m += len_m * sin(h + 0.5 * turn);
    } else {
        pen->x_m += (sin(h + turn) - sin(h)) / kappa;
        pen->y_m += (cos(h) - cos(h + turn)) / kappa;
    }
    pen->heading_rad += turn;
    pen->s_m += len_m;
}

/* One constant-curvature piece of a segment, a control point at the start of each of its sub-steps. `done_m` is
 * how far into the segment the piece starts (for the width). `fix` is a curvature added everywhere, 1/m. */
static int torcs_piece(TrkTorcs *t, TrkTorcsPen *pen, const TrkTorcsSeg *seg, double seg_len_m, double done_m,
                       double len_m, double kappa, double fix)
{
    kappa += fix;
    double k = fmax(len_m / TRK_TORCS_POINT_STEP_M, fabs(kappa) * len_m / TRK_TORCS_POINT_TURN_RAD);
    int m = (int)fmin(ceil(k), (double)TRK_MAX_POINTS + 1.0);
    m = m < 1 ? 1 : m;
    for (int i = 0; i < m; i++) {
        double f = (done_m + len_m * i / m) / seg_len_m;
        if (torcs_push(t, pen, seg->start_width_m + (seg->end_width_m - seg->start_width_m) * f, seg->line) != 0)
            return -1;
        torcs_advance(pen, len_m / m, kappa);
    }
    return 0;
}

/* A segment as TORCS lays it out: a spiral is `steps` pieces of equal length whose radii step from radius to end
 * radius, scaled so they turn by the arc; a spiral of one step keeps its start radius for the nominal length. */
static int torcs_lay(TrkTorcs *t, TrkTorcsPen *pen, const TrkTorcsSeg *seg, double fix)
{
    if (!seg->turn)
        return torcs_piece(t, pen, seg, seg->length_m, 0.0, seg->length_m, 0.0, fix);
    if (seg->end_radius_m == seg->radius_m || seg->steps == 1)
        return torcs_piece(t, pen, seg, seg->length_m, 0.0, seg->length_m, seg->turn / seg->radius_m, fix);
    double dr = (seg->end_radius_m - seg->radius_m) / (seg->steps - 1);
    double piece_m = seg->length_m / seg->steps, angle = 0.0;
    for (int i = 0; i < seg->steps; i++)
        angle += piece_m / (seg->radius_m + i * dr);
    piece_m *= seg->arc_rad / angle;
    for (int i = 0; i < seg->steps; i++)
        if (torcs_piece(t, pen, seg, piece_m * seg->steps, piece_m * i, piece_m, seg->turn / (seg->radius_m + i * dr),
                        fix) != 0)
            return -1;
    return 0;
}

static int torcs_lay_all(TrkTorcs *t, const TrkTorcsSeg *segs, int n, double fix, TrkTorcsPen *end)
{
    TrkTorcsPen pen = {0.0, 0.0, 0.0, 0.0};
    t->n = 0;
    for (int i = 0; i < n; i++)
        if (torcs_lay(t, &pen, &segs[i], fix) != 0)
            return -1;
    *end = pen;
    return 0;
}

/* Lays the segments out twice: the first pass measures how far the end heads off the start, the second spreads
 * that over the lap as a small constant curvature; the position gap left is then spread along the lap in
 * proportion to distance. Both errors must be small: a large one means a segment is wrong. */
static int torcs_close(TrkTorcs *t, const TrkTorcsSeg *segs, int n, int line)
{
    TrkTorcsPen end;
    if (torcs_lay_all(t, segs, n, 0.0, &end) != 0)
        return -1;
    double len = end.s_m;
    if (!(len > 0.0) || len > TRK_MAX_LENGTH_M)
        return torcs_fail(t, line, "track length %.0f m out of range (at most %.0f m)", len, TRK_MAX_LENGTH_M);
    double herr = remainder(end.heading_rad, 2.0 * TRK_PI);
    if (fabs(herr) > TRK_TORCS_MAX_HEADING_DEG * TRK_PI / 180.0)
        return torcs_fail(t, line, "the track does not close: its end heads %.1f degrees off the start (at most %.0f)",
                          herr * 180.0 / TRK_PI, TRK_TORCS_MAX_HEADING_DEG);
    if (torcs_lay_all(t, segs, n, -herr / len, &end) != 0)
        return -1;
    double gap = hypot(end.x_m, end.y_m);
    if (gap > TRK_TORCS_MAX_GAP * len)
        return torcs_fail(t, line,
                          "the track does not close: its end is %.1f m from the start (%.1f%% of its length %.0f m, "
                          "at most %.0f%%)",
                          gap, 100.0 * gap / len, len, 100.0 * TRK_TORCS_MAX_GAP);
    for (int i = 0; i < t->n; i++) {
        t->pts[i].x_m -= end.x_m * t->s_m[i] / len;
        t->pts[i].y_m -= end.y_m * t->s_m[i] / len;
    }
    while (t->n > 1 && hypot(t->pts[t->n - 1].x_m, t->pts[t->n - 1].y_m) < 0.01)
        t->n--; /* a last piece too short to matter */
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * The file
 *--------------------------------------------------------------------------------------------------------------*/

/* The Header's name, else the root's, else the file name. */
static void torcs_name(const TrkTorcs *t, const char *path, char *out, size_t out_len)
{
    const TrkXmlDoc *d = t->doc;
    int header = torcs_child(d, 0, 0, "section", "Header");
    int at = header >= 0 ? torcs_child(d, header, header, "attstr", "name") : -1;
    const char *name = at >= 0 ? trk_xml_attr(d, at, "val", NULL) : NULL;
    if (!name || !name[0])
        name = trk_xml_attr(d, 0, "name", NULL);
    char buf[TRK_NAME_LEN];
    if (!name || !name[0]) {
        const char *b = strrchr(path, '/');
        b = b ? b + 1 : path;
        const char *e = strrchr(b, '.');
        size_t n = e && e > b ? (size_t)(e - b) : strlen(b);
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), b);
        name = buf[0] ? buf : "unnamed";
    }
    size_t k = 0;
    for (; name[k] && k + 1 < out_len && k + 1 < TRK_NAME_LEN; k++) {
        unsigned char c = (unsigned char)name[k];
        out[k] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    out[k] = '\0';
}

/* The segments of Main Track, read into *segs (the caller frees it); returns their number or -1. */
static int torcs_segments(TrkTorcs *t, int main_track, TrkTorcsSeg **segs, int *list_line)
{
    const TrkXmlDoc *d = t->doc;
    int list = torcs_child(d, main_track, main_track, "section", "Track Segments");
    if (list < 0)
        list = torcs_child(d, main_track, main_track, "section", "segments");
    if (list < 0)
        return torcs_fail(t, d->nodes[main_track].line, "no <section name=\"Track Segments\"> in Main Track");
    *list_line = d->nodes[list].line;
    double width_m = TRK_TORCS_DEFAULT_WIDTH_M, step_m = 0.0;
    const char *who = "Main Track";
    if (torcs_num_in(t, main_track, "width", TRK_UNIT_LENGTH, who, 0.0, 2.0 * TRK_MAX_WIDTH_M, &width_m) < 0 ||
        torcs_num_in(t, main_track, "profil steps length", TRK_UNIT_LENGTH, who, 0.0, TRK_MAX_LENGTH_M, &step_m) < 0)
        return -1;
    int n = 0, cap = 0;
    for (int j = torcs_child(d, list, list, "section", NULL); j >= 0; j = torcs_child(d, list, j, "section", NULL)) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            TrkTorcsSeg *ns = realloc(*segs, sizeof *ns * (size_t)cap);
            if (!ns)
                return torcs_fail(t, 0, "out of memory");
            *segs = ns;
        }
        if (torcs_segment(t, j, step_m, width_m, &(*segs)[n]) != 0)
            return -1;
        width_m = (*segs)[n++].end_width_m;
    }
    if (n == 0)
        return torcs_fail(t, *list_line, "no segments in Track Segments");
    return n;
}

static TrkTrack *torcs_build(TrkTorcs *t, const char *path, const TrkDef *def)
{
    const TrkXmlDoc *d = t->doc;
    if (strcmp(d->nodes[0].tag, "params") != 0) {
        char q[48];
        torcs_quote(q, sizeof q, d->nodes[0].tag);
        torcs_fail(t, d->nodes[0].line, "not a TORCS track: the root element is <%s>, expected <params>", q);
        return NULL;
    }
    int main_track = torcs_child(d, 0, 0, "section", "Main Track");
    if (main_track < 0) {
        torcs_fail(t, d->nodes[0].line, "no <section name=\"Main Track\">");
        return NULL;
    }
    TrkTorcsSeg *segs = NULL;
    int list_line = 0;
    int n = torcs_segments(t, main_track, &segs, &list_line);
    int ok = n > 0 && torcs_close(t, segs, n, list_line) == 0;
    free(segs);
    if (!ok)
        return NULL;
    if (t->n < 4) {
        torcs_fail(t, list_line, "need at least 4 points, got %d", t->n);
        return NULL;
    }
    char name[TRK_NAME_LEN];
    torcs_name(t, path, name, sizeof name);
    TrkDef dd = def ? *def : trk_default_def();
    dd.name = name;
    int bad = -1;
    TrkWhere where = {path, t->lines};
    TrkTrack *track = trk_create_ex(t->pts, t->n, &dd, t->msg, sizeof t->msg, &bad, &where);
    if (!track)
        t->err_line = bad >= 0 && bad < t->n ? t->lines[bad] : 0;
    return track;
}

TrkTrack *trk_load_xml_string(const char *text, const char *path, const TrkDef *def, char *err, size_t err_len)
{
    path = path ? path : "(string)";
    TrkXmlDoc doc;
    TrkTorcs t;
    memset(&t, 0, sizeof t);
    t.path = path;
    t.doc = &doc;
    TrkTrack *track = NULL;
    if (trk_xml_parse(text ? text : "", &doc, t.msg, sizeof t.msg, &t.err_line) == 0) {
        track = torcs_build(&t, path, def);
        trk_xml_free(&doc);
    }
    if (!track && err && err_len > 0) {
        snprintf(err, err_len, "%s:%d: %s", path, t.err_line, t.msg);
        trk_text_printable(err);
    }
    free(t.pts), free(t.s_m), free(t.lines);
    return track;
}
