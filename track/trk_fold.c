/* trk_fold.c: edges that fold over. Where the width on the inside of a corner exceeds the centre line's radius, the
 * inside edge turns back on itself. Surveyed centrelines (the public racetrack-database) have such spots at
 * hairpins: a few one-metre samples a fraction of a metre over. By default a fold is repaired where it is, by
 * pulling the inside edge in, and reported as a warning; strict loading refuses it, as does a fold too deep to be
 * survey noise. */
#include "trk_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define TRK_FOLD_MARGIN_M 0.5    /* a repaired inside edge keeps at least this radius */
#define TRK_FOLD_TAPER 0.2       /* m of width per m of length: a repair narrows the road gradually, not in a step */
#define TRK_FOLD_MAX_M 2.0       /* a deeper fold is a wrong width in the file, not noise: refused */
#define TRK_FOLD_MIN_WIDTH_M 2.0 /* total width a repair must leave: the default car's width */

/* The width on the inside of sample i's turn (0 on a straight, which cannot fold). */
static double trk_fold_inside(const TrkSample *s)
{
    return s->kappa > 0.0 ? s->left_m : (s->kappa < 0.0 ? s->right_m : 0.0);
}

static void trk_fold_errf(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || err_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

/* "track edges fold over: right width 40.0 m exceeds the corner radius 25.0 m", blamed on the control point
 * nearest sample i and quoting that point's width as written in the file when the point itself folds. */
static void trk_fold_message(const TrkTrack *t, const TrkPointDef *p, const double *cp_s, int np, int i, char *err,
                             size_t err_len, int *bad)
{
    const TrkSample *s = &t->samples[i];
    int cp = trk_nearest_cp(cp_s, np, t->length_m, i * t->ds_m);
    int left = s->kappa > 0.0;
    double w = left ? p[cp].left_m : p[cp].right_m;
    if (w * fabs(s->kappa) <= 1.0) /* the point itself is fine: the width comes from interpolation */
        w = trk_fold_inside(s);
    *bad = cp;
    trk_fold_errf(err, err_len, "track edges fold over: %s width %.1f m exceeds the corner radius %.1f m",
                  left ? "left" : "right", w, 1.0 / fabs(s->kappa));
}

int trk_fold_check(const TrkTrack *t, const TrkPointDef *p, const double *cp_s, int np, char *err, size_t err_len,
                   int *bad)
{
    int worst = -1;
    double worst_r = 1.0;
    for (int i = 0; i < t->n; i++) {
        const TrkSample *s = &t->samples[i];
        double r = trk_fold_inside(s) * fabs(s->kappa);
        if (r > worst_r) {
            worst_r = r;
            worst = i;
        }
    }
    if (worst < 0)
        return 0;
    trk_fold_message(t, p, cp_s, np, worst, err, err_len, bad);
    return 1;
}

/*----------------------------------------------------------------------------------------------------------------
 * Repair
 *--------------------------------------------------------------------------------------------------------------*/

/* Sample i is within the margin of folding on `side` (1 left, -1 right). */
static int trk_fold_near(const TrkSample *s, int side)
{
    if (side * s->kappa <= 0.0)
        return 0;
    return trk_fold_inside(s) > 1.0 / fabs(s->kappa) - TRK_FOLD_MARGIN_M;
}

static int trk_fold_folds(const TrkSample *s)
{
    return trk_fold_inside(s) * fabs(s->kappa) > 1.0;
}

/* A sample where no run of `flag` passes, so circular runs can be walked from it (0 when every sample is flagged:
 * then the whole loop is one run). */
static int trk_fold_run_start(const double *cut, int n)
{
    for (int i = 0; i < n; i++)
        if (!(cut[i] > 0.0))
            return i;
    return 0;
}

/* The cap on one side's width: radius less the margin over every run of near-folding samples that folds somewhere,
 * then tapered along the road either side; INFINITY elsewhere. */
static void trk_fold_caps(const TrkTrack *t, int side, double *cap)
{
    int n = t->n;
    for (int i = 0; i < n; i++)
        cap[i] = trk_fold_near(&t->samples[i], side) ? 1.0 : 0.0; /* flags first */
    int start = trk_fold_run_start(cap, n);
    for (int k = 0; k < n;) {
        int i = (start + k) % n;
        if (!(cap[i] > 0.0)) {
            cap[i] = INFINITY;
            k++;
            continue;
        }
        int len = 0, folds = 0;
        while (k + len < n && cap[(start + k + len) % n] > 0.0 && !isinf(cap[(start + k + len) % n]))
            folds |= trk_fold_folds(&t->samples[(start + k + len) % n]), len++;
        for (int j = 0; j < len; j++) {
            int q = (start + k + j) % n;
            cap[q] = folds ? 1.0 / fabs(t->samples[q].kappa) - TRK_FOLD_MARGIN_M : INFINITY;
        }
        k += len;
    }
    double step = TRK_FOLD_TAPER * t->ds_m;
    for (int pass = 0; pass < 2; pass++) /* twice round: a cap near sample 0 reaches across the seam */
        for (int i = 0; i < n; i++)
            cap[i] = fmin(cap[i], cap[(i + n - 1) % n] + step);
    for (int pass = 0; pass < 2; pass++)
        for (int i = n - 1; i >= 0; i--)
            cap[i] = fmin(cap[i], cap[(i + 1) % n] + step);
}

/* How much each sample's width on `side` is cut by its cap (0 where it is not), in place of the cap. */
static void trk_fold_cuts(const TrkTrack *t, int side, double *cap)
{
    for (int i = 0; i < t->n; i++) {
        double w = side > 0 ? t->samples[i].left_m : t->samples[i].right_m;
        cap[i] = w > cap[i] ? w - cap[i] : 0.0;
    }
}

/* One warning per run of cut samples: the deepest fold in it, the largest cut and the run's length. */
static void trk_fold_report(TrkTrack *t, const double *cp_s, int np, const TrkWhere *where, int side,
                            const double *cut)
{
    int n = t->n, start = trk_fold_run_start(cut, n);
    for (int k = 0; k < n;) {
        if (!(cut[(start + k) % n] > 0.0)) {
            k++;
            continue;
        }
        int len = 0, deep = -1;
        double most = 0.0, deep_x = -INFINITY;
        for (; k + len < n && cut[(start + k + len) % n] > 0.0; len++) {
            int q = (start + k + len) % n;
            const TrkSample *s = &t->samples[q];
            most = fmax(most, cut[q]);
            double x = trk_fold_inside(s) - (s->kappa != 0.0 ? 1.0 / fabs(s->kappa) : INFINITY);
            if (side * s->kappa > 0.0 && x > deep_x)
                deep_x = x, deep = q;
        }
        k += len;
        if (deep < 0)
            continue;
        const TrkSample *s = &t->samples[deep];
        const char *name = side > 0 ? "left" : "right";
        trk_warn(t, where, trk_nearest_cp(cp_s, np, t->length_m, deep * t->ds_m),
                 "track edges fold over at s=%.0f m: %s width %.2f m exceeds the corner radius %.2f m; repaired: the "
                 "%s edge pulled in by up to %.2f m over %.0f m",
                 deep * t->ds_m, name, trk_fold_inside(s), 1.0 / fabs(s->kappa), name, most, len * t->ds_m);
    }
}

int trk_fold_repair(TrkTrack *t, const TrkPointDef *p, const double *cp_s, int np, const TrkWhere *where, char *err,
                    size_t err_len, int *bad)
{
    int n = t->n, deepest = -1, folds = 0;
    double deep_x = 0.0;
    for (int i = 0; i < n; i++) {
        const TrkSample *s = &t->samples[i];
        if (!trk_fold_folds(s))
            continue;
        folds = 1;
        double r = 1.0 / fabs(s->kappa);
        double x = r <= TRK_FOLD_MARGIN_M ? INFINITY : trk_fold_inside(s) - r; /* no room left for the edge */
        if (deepest < 0 || x > deep_x)
            deep_x = x, deepest = i;
    }
    if (!folds)
        return 0;
    /* A control point's own width counts too: the samples interpolate between points, so a point far too wide
     * may leave only a shallow fold in the table, but the file is wrong there all the same. */
    for (int k = 0; k < np; k++) {
        int i = (int)lround(cp_s[k] / t->ds_m) % n;
        const TrkSample *s = &t->samples[i];
        double w = s->kappa > 0.0 ? p[k].left_m : p[k].right_m;
        if (s->kappa != 0.0 && w * fabs(s->kappa) > 1.0 && w - 1.0 / fabs(s->kappa) > deep_x)
            deep_x = w - 1.0 / fabs(s->kappa), deepest = i;
    }
    if (deep_x > TRK_FOLD_MAX_M) {
        char msg[TRK_ERR_LEN];
        trk_fold_message(t, p, cp_s, np, deepest, msg, sizeof msg, bad);
        trk_fold_errf(err, err_len, "%s (too deep to repair: more than %.0f m)", msg, TRK_FOLD_MAX_M);
        return 1;
    }
    double *cut[2] = {malloc(sizeof(double) * (size_t)n), malloc(sizeof(double) * (size_t)n)};
    if (!cut[0] || !cut[1]) {
        free(cut[0]), free(cut[1]);
        trk_fold_errf(err, err_len, "out of memory");
        return 1;
    }
    for (int k = 0; k < 2; k++) {
        trk_fold_caps(t, k == 0 ? 1 : -1, cut[k]);
        trk_fold_cuts(t, k == 0 ? 1 : -1, cut[k]);
    }
    int narrow = -1;
    for (int i = 0; i < n && narrow < 0; i++) {
        const TrkSample *s = &t->samples[i];
        if ((cut[0][i] > 0.0 || cut[1][i] > 0.0) &&
            s->left_m - cut[0][i] + s->right_m - cut[1][i] < TRK_FOLD_MIN_WIDTH_M)
            narrow = i;
    }
    if (narrow >= 0) {
        const TrkSample *s = &t->samples[narrow];
        char msg[TRK_ERR_LEN];
        trk_fold_message(t, p, cp_s, np, deepest, msg, sizeof msg, bad);
        trk_fold_errf(err, err_len, "%s (a repair would leave the track %.1f m wide at s=%.0f m, narrower than a car)",
                      msg, s->left_m - cut[0][narrow] + s->right_m - cut[1][narrow], narrow * t->ds_m);
        free(cut[0]), free(cut[1]);
        return 1;
    }
    trk_fold_report(t, cp_s, np, where, 1, cut[0]);
    trk_fold_report(t, cp_s, np, where, -1, cut[1]);
    for (int i = 0; i < n; i++) {
        t->samples[i].left_m -= cut[0][i];
        t->samples[i].right_m -= cut[1][i];
    }
    free(cut[0]), free(cut[1]);
    return 0;
}
