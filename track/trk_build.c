/* trk_build.c: building a track: the spline, the arc-length table, geometric validation, the racing line (through
 * trk_line.c) and the track's lifetime. The queries are in trk.c. */
#include "trk_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*----------------------------------------------------------------------------------------------------------------
 * Defaults
 *--------------------------------------------------------------------------------------------------------------*/

TrkDef trk_default_def(void)
{
    TrkDef def;
    def.name = NULL;
    def.sample_step_m = 1.0;
    def.line_method = TRK_LINE_CLASSIC;
    def.line_margin_m = -1.0; /* the method's own */
    def.line_iterations = 0; /* 0: the optimiser's own converged default */
    def.skip_line = false;
    def.strict = false;
    return def;
}

/*----------------------------------------------------------------------------------------------------------------
 * Centripetal Catmull-Rom segments, as cubic polynomials in u in [0, 1]
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct TrkCubic {
    double ax, bx, cx, dx; /* x(u) = ((ax u + bx) u + cx) u + dx */
    double ay, by, cy, dy;
} TrkCubic;

/* The centripetal variant (alpha = 0.5) never forms cusps or self-loops inside a segment and does not overshoot
 * like the uniform one; written as a Hermite segment with the Barry-Goldman tangents. */
static TrkCubic trk_cubic_make(const TrkPointDef *p0, const TrkPointDef *p1, const TrkPointDef *p2,
                               const TrkPointDef *p3)
{
    double d01 = sqrt(hypot(p1->x_m - p0->x_m, p1->y_m - p0->y_m));
    double d12 = sqrt(hypot(p2->x_m - p1->x_m, p2->y_m - p1->y_m));
    double d23 = sqrt(hypot(p3->x_m - p2->x_m, p3->y_m - p2->y_m));
    double q[2][4] = {{p0->x_m, p1->x_m, p2->x_m, p3->x_m}, {p0->y_m, p1->y_m, p2->y_m, p3->y_m}};
    double coef[2][4];
    for (int k = 0; k < 2; k++) {
        const double *v = q[k];
        double m1 = (v[1] - v[0]) / d01 - (v[2] - v[0]) / (d01 + d12) + (v[2] - v[1]) / d12;
        double m2 = (v[2] - v[1]) / d12 - (v[3] - v[1]) / (d12 + d23) + (v[3] - v[2]) / d23;
        m1 *= d12;
        m2 *= d12;
        coef[k][0] = 2.0 * v[1] - 2.0 * v[2] + m1 + m2;
        coef[k][1] = -3.0 * v[1] + 3.0 * v[2] - 2.0 * m1 - m2;
        coef[k][2] = m1;
        coef[k][3] = v[1];
    }
    TrkCubic c = {coef[0][0], coef[0][1], coef[0][2], coef[0][3], coef[1][0], coef[1][1], coef[1][2], coef[1][3]};
    return c;
}

static void trk_cubic_eval(const TrkCubic *c, double u, double *x, double *y, double *dxdu, double *dydu)
{
    *x = ((c->ax * u + c->bx) * u + c->cx) * u + c->dx;
    *y = ((c->ay * u + c->by) * u + c->cy) * u + c->dy;
    *dxdu = (3.0 * c->ax * u + 2.0 * c->bx) * u + c->cx;
    *dydu = (3.0 * c->ay * u + 2.0 * c->by) * u + c->cy;
}

static double trk_cubic_speed(const TrkCubic *c, double u)
{
    double x, y, dx, dy;
    trk_cubic_eval(c, u, &x, &y, &dx, &dy);
    return hypot(dx, dy);
}

/* Arc length of the cubic over [u0, u1] by 5-point Gauss-Legendre (exact enough over the short pieces used). */
static double trk_cubic_arc(const TrkCubic *c, double u0, double u1)
{
    static const double gx[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                 0.9061798459386640};
    static const double gw[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                                 0.2369268850561891};
    double h = 0.5 * (u1 - u0), m = 0.5 * (u1 + u0), sum = 0.0;
    for (int k = 0; k < 5; k++)
        sum += gw[k] * trk_cubic_speed(c, m + h * gx[k]);
    return sum * h;
}

/* Pieces per segment: about one per 0.5 m of chord, so Gauss-Legendre and the linear inversion stay accurate. */
static int trk_cubic_pieces(const TrkPointDef *p1, const TrkPointDef *p2)
{
    double chord = hypot(p2->x_m - p1->x_m, p2->y_m - p1->y_m);
    double k = ceil(chord / 0.5);
    if (k < 4.0)
        k = 4.0;
    if (k > 4096.0)
        k = 4096.0;
    return (int)k;
}

/* The length of piece k of a segment cut into `pieces` (trk_fill_samples asks for the same ones again). */
static double trk_cubic_piece(const TrkCubic *c, int k, int pieces)
{
    return trk_cubic_arc(c, (double)k / pieces, (double)(k + 1) / pieces);
}

/* The segment's length; piece_len[k] (when not NULL) receives the length of piece k. */
static double trk_cubic_length(const TrkCubic *c, int pieces, double *piece_len)
{
    double len = 0.0;
    for (int k = 0; k < pieces; k++) {
        double l = trk_cubic_piece(c, k, pieces);
        if (piece_len)
            piece_len[k] = l;
        len += l;
    }
    return len;
}

/* u such that the arc from u0 to u is `target` (Newton from a linear guess inside one piece). */
static double trk_cubic_invert(const TrkCubic *c, double u0, double u1, double piece_len, double target)
{
    double u = piece_len > 0.0 ? u0 + (u1 - u0) * target / piece_len : u0;
    for (int it = 0; it < 2; it++) {
        double sp = trk_cubic_speed(c, u);
        if (sp <= 1e-12)
            break;
        u -= (trk_cubic_arc(c, u0, u) - target) / sp;
        if (u < u0)
            u = u0;
        if (u > u1)
            u = u1;
    }
    return u;
}

/*----------------------------------------------------------------------------------------------------------------
 * Small helpers
 *--------------------------------------------------------------------------------------------------------------*/


static void trk_errf(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || err_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}



/*----------------------------------------------------------------------------------------------------------------
 * Building the sample table
 *--------------------------------------------------------------------------------------------------------------*/

static const char *trk_check_points(const TrkPointDef *p, int n, int *bad)
{
    *bad = -1;
    if (n < 4)
        return "need at least 4 points";
    if (n > TRK_MAX_POINTS)
        return "too many points";
    for (int i = 0; i < n; i++) {
        *bad = i;
        if (!isfinite(p[i].x_m) || !isfinite(p[i].y_m) || !isfinite(p[i].left_m) || !isfinite(p[i].right_m))
            return "not a finite number";
        if (fabs(p[i].x_m) > TRK_MAX_COORD_M || fabs(p[i].y_m) > TRK_MAX_COORD_M)
            return "coordinate out of range (|x|, |y| <= 1000000 m)";
        if (p[i].left_m <= 0.0 || p[i].right_m <= 0.0)
            return "width must be > 0";
        if (p[i].left_m > TRK_MAX_WIDTH_M || p[i].right_m > TRK_MAX_WIDTH_M)
            return "width must be <= 1000 m";
        const TrkPointDef *q = &p[(i + n - 1) % n];
        if (hypot(p[i].x_m - q->x_m, p[i].y_m - q->y_m) < TRK_MIN_SPACING_M)
            return i == 0 ? "the last point duplicates the first (the loop closes by itself)"
                          : "duplicate of the previous point";
    }
    *bad = -1;
    return NULL;
}

/* Resamples the closed spline every ds: positions, tangents, widths (linear in arc length between points).
 * piece_len: every segment's piece lengths in a row, as trk_cubic_length gave them, or NULL to integrate again. */
static void trk_fill_samples(TrkTrack *t, const TrkPointDef *p, int np, const TrkCubic *cub, const int *pieces,
                             const double *seg_len, const double *piece_len, double *cp_s)
{
    int out = 0;
    double seg_s0 = 0.0;
    for (int i = 0; i < np && out < t->n; i++) {
        const TrkPointDef *a = &p[i], *b = &p[(i + 1) % np];
        cp_s[i] = seg_s0;
        double piece_s0 = seg_s0;
        for (int k = 0; k < pieces[i] && out < t->n; k++) {
            double u0 = (double)k / pieces[i], u1 = (double)(k + 1) / pieces[i];
            double plen = piece_len ? piece_len[k] : trk_cubic_piece(&cub[i], k, pieces[i]);
            /* The last piece of the last segment takes every remaining sample so rounding never drops one. */
            int last = (i == np - 1 && k == pieces[i] - 1);
            while (out < t->n && (last || out * t->ds_m < piece_s0 + plen)) {
                double target = out * t->ds_m - piece_s0;
                if (target < 0.0)
                    target = 0.0;
                double u = trk_cubic_invert(&cub[i], u0, u1, plen, target);
                TrkSample *sm = &t->samples[out];
                double dx, dy;
                trk_cubic_eval(&cub[i], u, &sm->x_m, &sm->y_m, &dx, &dy);
                double sp = hypot(dx, dy);
                sm->tx = sp > 0.0 ? dx / sp : 1.0;
                sm->ty = sp > 0.0 ? dy / sp : 0.0;
                double f = seg_len[i] > 0.0 ? (out * t->ds_m - seg_s0) / seg_len[i] : 0.0;
                f = f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
                sm->left_m = a->left_m + f * (b->left_m - a->left_m);
                sm->right_m = a->right_m + f * (b->right_m - a->right_m);
                out++;
            }
            piece_s0 += plen;
        }
        seg_s0 += seg_len[i];
        if (piece_len)
            piece_len += pieces[i];
    }
}

/* Curvature from the change of heading over about +-2 m: smooth enough for noisy survey points, exact on arcs. */
static void trk_fill_curvature(TrkTrack *t)
{
    int h = (int)lround(2.0 / t->ds_m);
    if (h < 1)
        h = 1;
    if (2 * h >= t->n)
        h = (t->n - 1) / 2;
    for (int i = 0; i < t->n; i++) {
        const TrkSample *a = &t->samples[trk_wrap_i(i - h, t->n)], *b = &t->samples[trk_wrap_i(i + h, t->n)];
        double ang = atan2(a->tx * b->ty - a->ty * b->tx, a->tx * b->tx + a->ty * b->ty);
        t->samples[i].kappa = ang / (2.0 * h * t->ds_m);
    }
}

/*----------------------------------------------------------------------------------------------------------------
 * Self-crossings: a uniform grid over segment midpoints, so the check is linear in the number of samples
 *--------------------------------------------------------------------------------------------------------------*/

static int trk_segments_cross(const TrkTrack *t, int i, int j)
{
    const TrkSample *a = &t->samples[i], *b = &t->samples[(i + 1) % t->n];
    const TrkSample *c = &t->samples[j], *d = &t->samples[(j + 1) % t->n];
    double rx = b->x_m - a->x_m, ry = b->y_m - a->y_m, qx = d->x_m - c->x_m, qy = d->y_m - c->y_m;
    double den = rx * qy - ry * qx;
    if (fabs(den) < 1e-15)
        return 0;
    double wx = c->x_m - a->x_m, wy = c->y_m - a->y_m;
    double u = (wx * qy - wy * qx) / den, v = (wx * ry - wy * rx) / den;
    return u >= 0.0 && u < 1.0 && v >= 0.0 && v < 1.0;
}

typedef struct TrkCrossings {
    int count;
    int first_i, first_j;
    double min_angle_deg; /* between the two directions, 0..90 */
    int shallow_i;        /* sample of the shallowest crossing */
} TrkCrossings;

static void trk_find_crossings(const TrkTrack *t, TrkCrossings *cr)
{
    memset(cr, 0, sizeof *cr);
    cr->min_angle_deg = 90.0;
    cr->first_i = cr->first_j = cr->shallow_i = -1;
    int n = t->n;
    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY, maxseg = 0.0;
    for (int i = 0; i < n; i++) {
        const TrkSample *a = &t->samples[i], *b = &t->samples[(i + 1) % n];
        minx = fmin(minx, a->x_m), maxx = fmax(maxx, a->x_m);
        miny = fmin(miny, a->y_m), maxy = fmax(maxy, a->y_m);
        maxseg = fmax(maxseg, hypot(b->x_m - a->x_m, b->y_m - a->y_m));
    }
    /* Two crossing segments have midpoints closer than one segment length, so a cell of that size and its 8
     * neighbours hold every candidate; cells are enlarged when the grid would get much bigger than n. */
    double cell = maxseg * 1.01 + 1e-9;
    double need = sqrt((maxx - minx + cell) * (maxy - miny + cell) / (4.0 * n));
    if (cell < need)
        cell = need;
    int gx = (int)((maxx - minx) / cell) + 1, gy = (int)((maxy - miny) / cell) + 1;
    int *head = malloc(sizeof(int) * (size_t)gx * (size_t)gy), *next = malloc(sizeof(int) * (size_t)n);
    int *cellof = malloc(sizeof(int) * (size_t)n);
    if (!head || !next || !cellof) {
        free(head), free(next), free(cellof);
        return;
    }
    for (long k = 0; k < (long)gx * gy; k++)
        head[k] = -1;
    for (int i = n - 1; i >= 0; i--) {
        const TrkSample *a = &t->samples[i], *b = &t->samples[(i + 1) % n];
        int cx = (int)((0.5 * (a->x_m + b->x_m) - minx) / cell), cy = (int)((0.5 * (a->y_m + b->y_m) - miny) / cell);
        cx = cx < 0 ? 0 : (cx >= gx ? gx - 1 : cx);
        cy = cy < 0 ? 0 : (cy >= gy ? gy - 1 : cy);
        cellof[i] = cy * gx + cx;
        next[i] = head[cellof[i]];
        head[cellof[i]] = i;
    }
    for (int i = 0; i < n; i++) {
        int cx = cellof[i] % gx, cy = cellof[i] / gx;
        for (int oy = -1; oy <= 1; oy++)
            for (int ox = -1; ox <= 1; ox++) {
                int x = cx + ox, y = cy + oy;
                if (x < 0 || y < 0 || x >= gx || y >= gy)
                    continue;
                for (int j = head[y * gx + x]; j >= 0; j = next[j]) {
                    if (j <= i + 1 || (i == 0 && j == n - 1) || !trk_segments_cross(t, i, j))
                        continue;
                    const TrkSample *a = &t->samples[i], *b = &t->samples[j];
                    double ang = acos(fmin(1.0, fabs(a->tx * b->tx + a->ty * b->ty))) * 180.0 / TRK_PI;
                    if (cr->count == 0)
                        cr->first_i = i, cr->first_j = j;
                    if (ang < cr->min_angle_deg || cr->shallow_i < 0)
                        cr->min_angle_deg = ang, cr->shallow_i = i;
                    cr->count++;
                }
            }
    }
    free(head), free(next), free(cellof);
}

/* A bridge crosses at a clear angle; a shallow crossing means two stretches of road lie on top of each other. */
static int trk_check_crossings(TrkTrack *t, const double *cp_s, int np, const TrkWhere *where, char *err,
                               size_t err_len, int *bad)
{
    TrkCrossings cr;
    trk_find_crossings(t, &cr);
    if (cr.count == 0)
        return 0;
    if (cr.min_angle_deg < 30.0) {
        *bad = trk_nearest_cp(cp_s, np, t->length_m, cr.shallow_i * t->ds_m);
        trk_errf(err, err_len, "centre line crosses itself at s=%.0f m at a shallow angle (%.0f degrees; a bridge "
                               "needs at least 30)",
                 cr.shallow_i * t->ds_m, cr.min_angle_deg);
        return 1;
    }
    int cp = trk_nearest_cp(cp_s, np, t->length_m, cr.first_i * t->ds_m);
    if (cr.count == 1)
        trk_warn(t, where, cp, "centre line crosses itself at s=%.0f m and s=%.0f m (treated as a bridge)",
                 cr.first_i * t->ds_m, cr.first_j * t->ds_m);
    else
        trk_warn(t, where, cp, "centre line crosses itself %d times, first at s=%.0f m and s=%.0f m (treated as "
                               "bridges)",
                 cr.count, cr.first_i * t->ds_m, cr.first_j * t->ds_m);
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * Lifetime
 *--------------------------------------------------------------------------------------------------------------*/

/* Sample n is a copy of sample 0, so the queries interpolate from sample i to i + 1 without wrapping the index
 * (the same two values, so the same results). Called whenever the table changes before it is queried. */
static void trk_close_samples(TrkTrack *t)
{
    t->samples[t->n] = t->samples[0];
}

/* The curvature's block bounds (TrkTrack.kappa_block), once the table is final; none when out of memory. A block
 * with a sample that is not finite gets -INFINITY and INFINITY: a look-up next to it can be anything. */
static void trk_kappa_blocks(TrkTrack *t)
{
    int blocks = (t->n + TRK_KAPPA_BLOCK - 1) / TRK_KAPPA_BLOCK;
    t->kappa_block = malloc(sizeof(double) * 2 * (size_t)blocks);
    if (!t->kappa_block)
        return;
    for (int b = 0; b < blocks; b++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = b * TRK_KAPPA_BLOCK; i < (b + 1) * TRK_KAPPA_BLOCK && i < t->n; i++) {
            double k = t->samples[i].kappa;
            if (!isfinite(k))
                lo = -INFINITY, hi = INFINITY;
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
        t->kappa_block[2 * b] = lo;
        t->kappa_block[2 * b + 1] = hi;
    }
}

static TrkTrack *trk_fail(TrkTrack *t, void *a, void *b, void *c)
{
    free(a), free(b), free(c);
    trk_free(t);
    return NULL;
}

TrkTrack *trk_create_ex(const TrkPointDef *points, int n, const TrkDef *def, char *err, size_t err_len,
                        int *err_point, const TrkWhere *where)
{
    TrkDef d = def ? *def : trk_default_def();
    int dummy;
    int *bad = err_point ? err_point : &dummy;
    *bad = -1;
    if (err && err_len > 0)
        err[0] = '\0';
    if (!points && n > 0)
        n = 0;
    const char *msg = trk_check_points(points, n, bad);
    if (msg) {
        if (n < 4)
            trk_errf(err, err_len, "need at least 4 points, got %d", n < 0 ? 0 : n);
        else
            trk_errf(err, err_len, "%s", msg);
        return NULL;
    }
    if (!(d.sample_step_m >= 0.05 && d.sample_step_m <= 100.0))
        d.sample_step_m = 1.0;
    if (d.line_method != TRK_LINE_MIN_CURVATURE)
        d.line_method = TRK_LINE_CLASSIC;
    if (!(d.line_margin_m >= 0.0 && d.line_margin_m <= 100.0))
        d.line_margin_m = trk_line_default_margin(d.line_method);

    TrkCubic *cub = malloc(sizeof *cub * (size_t)n);
    int *pieces = malloc(sizeof *pieces * (size_t)n);
    double *seg_len = malloc(sizeof *seg_len * (size_t)(2 * n)); /* second half: control-point s */
    TrkTrack *t = calloc(1, sizeof *t);
    if (!cub || !pieces || !seg_len || !t) {
        trk_errf(err, err_len, "out of memory");
        return trk_fail(t, cub, pieces, seg_len);
    }
    snprintf(t->name, sizeof t->name, "%s", d.name ? d.name : "unnamed");
    t->control_points = n;
    t->line_margin_m = d.line_margin_m;
    size_t piece_count = 0;
    for (int i = 0; i < n; i++) {
        cub[i] = trk_cubic_make(&points[(i + n - 1) % n], &points[i], &points[(i + 1) % n], &points[(i + 2) % n]);
        pieces[i] = trk_cubic_pieces(&points[i], &points[(i + 1) % n]);
        piece_count += (size_t)pieces[i];
    }
    /* Each piece's length, kept for the resampling, which needs the same integrals again (about one piece per
     * 0.5 m of chord, so 16 bytes a metre while the track is built). Not kept for a table far larger than any
     * track within TRK_MAX_LENGTH_M needs (such a track fails the length check below), nor without the memory:
     * then the resampling integrates the pieces again, with the same results. */
    double *piece_len = NULL;
    if (piece_count <= 5 * (size_t)n + (size_t)(4.0 * TRK_MAX_LENGTH_M))
        piece_len = malloc(sizeof *piece_len * (piece_count > 0 ? piece_count : 1));
    double length = 0.0;
    for (int i = 0, first = 0; i < n; first += pieces[i], i++) {
        seg_len[i] = trk_cubic_length(&cub[i], pieces[i], piece_len ? piece_len + first : NULL);
        length += seg_len[i];
    }
    if (!(length <= TRK_MAX_LENGTH_M)) {
        trk_errf(err, err_len, "track too long: %.0f km (at most %.0f km)", length / 1000.0, TRK_MAX_LENGTH_M / 1000.0);
        free(piece_len);
        return trk_fail(t, cub, pieces, seg_len);
    }
    t->length_m = length;
    t->n = (int)ceil(length / d.sample_step_m);
    if (t->n < 16)
        t->n = 16;
    t->ds_m = length / t->n;
    t->samples = calloc((size_t)t->n + 1, sizeof *t->samples); /* + the copy of sample 0 (trk_close_samples) */
    if (!t->samples) {
        trk_errf(err, err_len, "out of memory");
        free(piece_len);
        return trk_fail(t, cub, pieces, seg_len);
    }
    double *cp_s = seg_len + n;
    trk_fill_samples(t, points, n, cub, pieces, seg_len, piece_len, cp_s);
    free(piece_len);
    trk_fill_curvature(t);
    int folded = d.strict ? trk_fold_check(t, points, cp_s, n, err, err_len, bad)
                          : trk_fold_repair(t, points, cp_s, n, where, err, err_len, bad);
    if (folded || trk_check_crossings(t, cp_s, n, where, err, err_len, bad))
        return trk_fail(t, cub, pieces, seg_len);
    trk_warn_end(t, where);
    trk_close_samples(t); /* the racing line's optimiser already queries the table */
    free(cub), free(pieces), free(seg_len);
    if (!d.skip_line)
        trk_line_compute(t, d.line_iterations, d.line_method);
    trk_close_samples(t); /* again, with the line */
    trk_kappa_blocks(t);
    return t;
}

TrkTrack *trk_create(const TrkPointDef *points, int n, const TrkDef *def, char *err, size_t err_len)
{
    return trk_create_ex(points, n, def, err, err_len, NULL, NULL);
}

void trk_free(TrkTrack *track)
{
    if (!track)
        return;
    free(track->samples);
    free(track->kappa_block);
    free(track->warnings);
    free(track);
}

const char *trk_warning(const TrkTrack *track)
{
    return track->warnings ? track->warnings : "";
}

