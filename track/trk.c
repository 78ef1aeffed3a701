/* trk.c: the queries of a built track (Frenet look-ups, poses, widths, curvature, the summary). Building is in
 * trk_build.c. It also holds the external definitions of the inline look-ups of trk_fast.h and the public functions
 * of trk.h that call them (TRK_FAST_DEFINE: no defines of the public names to the inline ones here). */
#define TRK_FAST_DEFINE
#include "trk_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Curvature of the circle through three points (1/m, left positive), 0 when they are (nearly) collinear. */
double trk_curvature3(double ax, double ay, double bx, double by, double cx, double cy)
{
    double ux = bx - ax, uy = by - ay, vx = cx - bx, vy = cy - by, wx = cx - ax, wy = cy - ay;
    double den = hypot(ux, uy) * hypot(vx, vy) * hypot(wx, wy);
    if (den <= 1e-18)
        return 0.0;
    return 2.0 * (ux * vy - uy * vx) / den;
}

/*----------------------------------------------------------------------------------------------------------------
 * Queries
 *--------------------------------------------------------------------------------------------------------------*/

const char *trk_name(const TrkTrack *track)
{
    return track->name;
}

double trk_length(const TrkTrack *track)
{
    return track->length_m;
}

double trk_delta_s(const TrkTrack *track, double from_m, double to_m)
{
    double L = track->length_m, d = to_m - from_m;
    if (!isfinite(d))
        return 0.0;
    d -= L * floor((d + 0.5 * L) / L);
    return d >= 0.5 * L ? d - L : d;
}

/* The external definitions of the inline look-ups of trk_fast.h (for calls the compiler does not inline). */
extern inline double trk_fast_wrap_s(const TrkTrack *track, double s_m);
extern inline int trk_locate_in(const TrkTrack *track, double length_m, double ds_m, int n, double s_m, double *frac);
extern inline int trk_locate(const TrkTrack *track, double s_m, double *frac);
extern inline double trk_lerp(double a, double b, double f);
extern inline TrkGeometry trk_geometry_mix(const TrkSample *a, const TrkSample *b, double f);
extern inline TrkSpot trk_spot_mix(const TrkTrack *track, int i, double f);
extern inline double trk_fast_lerp_field(const TrkTrack *track, double s_m, int *hint, size_t offset);
extern inline double trk_fast_curvature(const TrkTrack *track, double s_m, int *hint);
extern inline double trk_fast_line_curvature(const TrkTrack *track, double s_m, int *hint);
extern inline void trk_fast_kappa_blocks(const double *block, int first, int last, double *lo, double *hi);
extern inline bool trk_fast_curvature_bounds(const TrkTrack *track, double s_from, double s_to, double *lo,
                                             double *hi);
extern inline TrkSpot trk_fast_spot_at(const TrkTrack *track, double s_m, int *hint);
extern inline TrkGeometry trk_fast_geometry_at(const TrkTrack *track, double s_m, int *hint);
extern inline void trk_fast_line_d_n(const TrkTrack *track, const double *s_m, double *out, int n);
extern inline double trk_fast_profile_value(const TrkSpeedProfile *profile, const double *v, double s_m, int *hint);
extern inline double trk_fast_speed_at(const TrkSpeedProfile *profile, double s_m, int *hint);
extern inline double trk_fast_block_min(const double *block_min, unsigned first, unsigned last, double m);
extern inline double trk_fast_speed_floor(const TrkSpeedProfile *profile, double s_m, double reach_m);
extern inline bool trk_profile_on_grid(const TrkTrack *track, const TrkSpeedProfile *profile);
extern inline TrkSpot trk_fast_spot_speed_limit_grid(const TrkTrack *track, const TrkSpeedProfile *profile,
                                                     bool on_grid, double s_m, int *hint, double *speed_mps,
                                                     double *limit_mps);
extern inline void trk_fast_line_speed_grid_n(const TrkTrack *track, const TrkSpeedProfile *profile, bool on_grid,
                                              const double *s_m, double *line_out, double *speed_out, int n);
extern inline TrkSpot trk_fast_spot_speed_limit_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m,
                                                   int *hint, double *speed_mps, double *limit_mps);
extern inline TrkSpot trk_fast_spot_speed_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m,
                                             int *hint, double *speed_mps);
extern inline void trk_fast_line_speed_curvature(const TrkTrack *track, const TrkSpeedProfile *profile, bool on_grid,
                                                 double s_m, double *line_out, double *speed_out, double *kappa_out);
extern inline void trk_fast_line_speed_n(const TrkTrack *track, const TrkSpeedProfile *profile, const double *s_m,
                                         double *line_out, double *speed_out, int n);

/* The same look-ups as trk.h declares them, for files that do not include trk_fast.h. */
double trk_wrap_s(const TrkTrack *track, double s_m)
{
    return trk_fast_wrap_s(track, s_m);
}

TrkSpot trk_spot_at(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_spot_at(track, s_m, hint);
}

TrkGeometry trk_geometry_at(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_geometry_at(track, s_m, hint);
}

void trk_line_d_n(const TrkTrack *track, const double *s_m, double *out, int n)
{
    trk_fast_line_d_n(track, s_m, out, n);
}

double trk_speed_at(const TrkSpeedProfile *profile, double s_m, int *hint)
{
    return trk_fast_speed_at(profile, s_m, hint);
}

double trk_speed_floor(const TrkSpeedProfile *profile, double s_m, double reach_m)
{
    return trk_fast_speed_floor(profile, s_m, reach_m);
}

double trk_speed_limit_at(const TrkSpeedProfile *profile, double s_m, int *hint)
{
    return trk_fast_profile_value(profile, profile->limit_mps, s_m, hint);
}

TrkSpot trk_spot_speed_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m, int *hint,
                          double *speed_mps)
{
    return trk_fast_spot_speed_at(track, profile, s_m, hint, speed_mps);
}

TrkSpot trk_spot_speed_limit_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m, int *hint,
                                double *speed_mps, double *limit_mps)
{
    return trk_fast_spot_speed_limit_at(track, profile, s_m, hint, speed_mps, limit_mps);
}

void trk_line_speed_n(const TrkTrack *track, const TrkSpeedProfile *profile, const double *s_m, double *line_out,
                      double *speed_out, int n)
{
    trk_fast_line_speed_n(track, profile, s_m, line_out, speed_out, n);
}

/* Between samples everything is linear, with the tangent renormalised: cheap, and exactly invertible by
 * trk_to_frenet. The sample after i is samples[i + 1] for every i < n (sample n repeats sample 0). */

TrkPose trk_pose_at(const TrkTrack *track, double s_m, int *hint)
{
    double f;
    int i = trk_locate(track, s_m, &f);
    const TrkSample *a = &track->samples[i], *b = &track->samples[i + 1];
    TrkPose p;
    p.x_m = a->x_m + f * (b->x_m - a->x_m);
    p.y_m = a->y_m + f * (b->y_m - a->y_m);
    double tx = a->tx + f * (b->tx - a->tx), ty = a->ty + f * (b->ty - a->ty);
    double len = hypot(tx, ty);
    if (len < 1e-12)
        tx = a->tx, ty = a->ty, len = 1.0;
    p.tx = tx / len;
    p.ty = ty / len;
    p.nx = -p.ty;
    p.ny = p.tx;
    if (hint)
        *hint = i;
    return p;
}

void trk_to_world(const TrkTrack *track, double s_m, double d_m, double *x_m, double *y_m, int *hint)
{
    TrkPose p = trk_pose_at(track, s_m, hint);
    *x_m = p.x_m + d_m * p.nx;
    *y_m = p.y_m + d_m * p.ny;
}

static double trk_dist2(const TrkTrack *t, int i, double x, double y)
{
    const TrkSample *s = &t->samples[i];
    double dx = x - s->x_m, dy = y - s->y_m;
    return dx * dx + dy * dy;
}

/* Projection onto segment k (samples k, k+1) along the interpolated normal: the t in [0, 1] where
 * P - p(t) is parallel to n(t) = n0 + t (n1 - n0); a quadratic in t. Returns 0 when no such t. */
static int trk_project_segment(const TrkTrack *t, int k, double x, double y, double *s_out, double *d_out)
{
    const TrkSample *a = &t->samples[k], *b = &t->samples[(k + 1) % t->n];
    double ax = x - a->x_m, ay = y - a->y_m, ex = b->x_m - a->x_m, ey = b->y_m - a->y_m;
    double n0x = -a->ty, n0y = a->tx, mx = -b->ty - n0x, my = b->tx - n0y;
    double A = -(ex * my - ey * mx), B = (ax * my - ay * mx) - (ex * n0y - ey * n0x), C = ax * n0y - ay * n0x;
    double roots[2];
    int nr = 0;
    if (fabs(A) <= 1e-12 * fabs(B)) {
        if (B != 0.0)
            roots[nr++] = -C / B;
    } else {
        double disc = B * B - 4.0 * A * C;
        if (disc >= 0.0) {
            double q = -0.5 * (B + copysign(sqrt(disc), B));
            roots[nr++] = q / A;
            if (q != 0.0)
                roots[nr++] = C / q;
        }
    }
    int found = 0;
    for (int r = 0; r < nr; r++) {
        double u = roots[r];
        if (!(u >= -1e-9 && u <= 1.0 + 1e-9))
            continue;
        u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
        double px = a->x_m + u * ex, py = a->y_m + u * ey;
        double nx = n0x + u * mx, ny = n0y + u * my, nl = hypot(nx, ny);
        if (nl < 1e-12)
            continue;
        double d = ((x - px) * nx + (y - py) * ny) / nl;
        if (!found || fabs(d) < fabs(*d_out)) {
            *d_out = d;
            *s_out = (k + u) * t->ds_m;
            found = 1;
        }
    }
    return found;
}

/* Best projection on the two segments around sample i (falls back to the sample's own normal). */
static void trk_project_near(const TrkTrack *t, int i, double x, double y, double *s, double *d)
{
    double s1 = 0, d1 = 0, s2 = 0, d2 = 0;
    int f1 = trk_project_segment(t, trk_wrap_i(i - 1, t->n), x, y, &s1, &d1);
    int f2 = trk_project_segment(t, i, x, y, &s2, &d2);
    if (f1 && (!f2 || fabs(d1) < fabs(d2))) {
        *s = s1, *d = d1;
    } else if (f2) {
        *s = s2, *d = d2;
    } else {
        const TrkSample *a = &t->samples[i];
        *s = i * t->ds_m;
        *d = (x - a->x_m) * -a->ty + (y - a->y_m) * a->tx;
    }
    *s = trk_fast_wrap_s(t, *s);
}

static int trk_nearest_global(const TrkTrack *t, double x, double y)
{
    int best = 0;
    double bd = INFINITY;
    for (int i = 0; i < t->n; i++) {
        double d2 = trk_dist2(t, i, x, y);
        if (d2 < bd)
            bd = d2, best = i;
    }
    return best;
}

/* Walks downhill in distance from the hint: O(1) for a car that moved a few metres, and it stays on the hinted
 * branch where the centre line crosses itself. */
static int trk_nearest_local(const TrkTrack *t, int i, double x, double y)
{
    double di = trk_dist2(t, i, x, y);
    for (int dir = 1; dir >= -1; dir -= 2) {
        int moved = 0;
        for (int steps = 0; steps < t->n; steps++) {
            int j = trk_wrap_i(i + dir, t->n);
            double dj = trk_dist2(t, j, x, y);
            if (!(dj < di))
                break;
            i = j, di = dj, moved = 1;
        }
        if (moved)
            break;
    }
    return i;
}

int trk_to_frenet(const TrkTrack *track, double x_m, double y_m, double *s_m, double *d_m, int *hint)
{
    if (!isfinite(x_m) || !isfinite(y_m)) {
        *s_m = 0.0, *d_m = 0.0;
        return 1;
    }
    int i;
    if (hint && *hint >= 0 && *hint < track->n) {
        i = trk_nearest_local(track, *hint, x_m, y_m);
        const TrkSample *sm = &track->samples[i];
        /* Far off the local branch (a stale hint): the global answer is the better one. */
        if (sqrt(trk_dist2(track, i, x_m, y_m)) > sm->left_m + sm->right_m + 25.0) {
            int g = trk_nearest_global(track, x_m, y_m);
            if (trk_dist2(track, g, x_m, y_m) < trk_dist2(track, i, x_m, y_m))
                i = g;
        }
    } else {
        i = trk_nearest_global(track, x_m, y_m);
    }
    trk_project_near(track, i, x_m, y_m, s_m, d_m);
    if (hint)
        *hint = i;
    return 0;
}

double trk_curvature(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_curvature(track, s_m, hint);
}

double trk_width_left(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_lerp_field(track, s_m, hint, offsetof(TrkSample, left_m));
}

double trk_width_right(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_lerp_field(track, s_m, hint, offsetof(TrkSample, right_m));
}

double trk_line_d(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_lerp_field(track, s_m, hint, offsetof(TrkSample, line_d_m));
}

double trk_line_curvature(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_line_curvature(track, s_m, hint);
}

/*----------------------------------------------------------------------------------------------------------------
 * Summary
 *--------------------------------------------------------------------------------------------------------------*/

/* A corner: a run of curvature of one sign above 1/250 m that turns the car by at least 20 degrees; runs of the
 * same sign less than 40 m apart are one corner (a double apex), a change of sign starts a new one (a chicane is
 * two corners). */
static int trk_count_corners(const TrkTrack *t)
{
    const double k_min = 1.0 / 250.0, gap_max_m = 40.0, turn_min = 20.0 * TRK_PI / 180.0;
    int n = t->n, start = 0;
    /* Start the scan on a straight-ish sample so no corner is split by the seam. */
    for (int i = 0; i < n; i++)
        if (fabs(t->samples[i].kappa) < k_min) {
            start = i;
            break;
        }
    int corners = 0, sign = 0;
    double turn = 0.0, gap = 0.0;
    for (int k = 0; k <= n; k++) {
        double kap = k < n ? t->samples[(start + k) % n].kappa : 0.0;
        int sg = kap > k_min ? 1 : (kap < -k_min ? -1 : 0);
        if (k == n)
            gap = gap_max_m + 1.0;
        if (sg != 0 && sg == sign) {
            turn += fabs(kap) * t->ds_m, gap = 0.0;
            continue;
        }
        if (sg == 0 && sign != 0 && gap <= gap_max_m) {
            gap += t->ds_m;
            continue;
        }
        if (sign != 0 && turn >= turn_min)
            corners++;
        sign = sg, turn = sg ? fabs(kap) * t->ds_m : 0.0, gap = 0.0;
    }
    return corners;
}

double trk_max_width(const TrkTrack *track)
{
    double w = 0.0;
    for (int i = 0; i < track->n; i++)
        w = fmax(w, track->samples[i].left_m + track->samples[i].right_m); /* as trk_summary */
    return w;
}

TrkSummary trk_summary(const TrkTrack *track)
{
    TrkSummary s;
    s.length_m = track->length_m;
    s.min_width_m = INFINITY;
    s.max_width_m = 0.0;
    /* The radius comes from curvature averaged over about 10 m, so one kink in a surveyed centreline does not
     * pass for the tightest corner. */
    int n = track->n, h = (int)lround(5.0 / track->ds_m);
    h = h < 0 ? 0 : (2 * h >= n ? (n - 1) / 2 : h);
    double ksum = 0.0, kmax = 0.0;
    for (int k = -h; k <= h; k++)
        ksum += track->samples[trk_wrap_i(k, n)].kappa;
    for (int i = 0; i < n; i++) {
        const TrkSample *sm = &track->samples[i];
        double w = sm->left_m + sm->right_m;
        s.min_width_m = fmin(s.min_width_m, w);
        s.max_width_m = fmax(s.max_width_m, w);
        kmax = fmax(kmax, fabs(ksum / (2 * h + 1)));
        ksum += track->samples[trk_wrap_i(i + h + 1, n)].kappa - track->samples[trk_wrap_i(i - h, n)].kappa;
    }
    s.tightest_radius_m = kmax > 0.0 ? 1.0 / kmax : INFINITY;
    s.corners = trk_count_corners(track);
    s.control_points = track->control_points;
    return s;
}
