/* test_track.c: geometry of the track module: spline, arc length, Frenet round trips, curvature, racing line,
 * speed profile, crossings and folds. (File parsing is in test_track_load.c.) White-box where it helps: the sample
 * table is read through the private header. */
#include "tst.h"

#include "../track/trk.h"
#include "../track/trk_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* n points on a circle of radius r around (cx, cy), counter-clockwise, constant widths. */
static void circle_points(TrkPointDef *p, int n, double cx, double cy, double r, double w)
{
    for (int i = 0; i < n; i++) {
        double a = 2.0 * PI * i / n;
        p[i] = (TrkPointDef){cx + r * cos(a), cy + r * sin(a), w, w};
    }
}

/* A stadium-like loop with a hairpin and an S: enough variety for the line and the profile. */
static int wavy_points(TrkPointDef *p)
{
    static const double xy[][2] = {{0, 0},     {150, 0},   {300, 0},   {380, 40},  {400, 120}, {360, 190},
                                   {290, 210}, {230, 260}, {220, 330}, {180, 380}, {120, 370}, {100, 300},
                                   {60, 230},  {-20, 200}, {-80, 150}, {-90, 70},  {-60, 15}};
    int n = (int)(sizeof xy / sizeof xy[0]);
    for (int i = 0; i < n; i++)
        p[i] = (TrkPointDef){xy[i][0], xy[i][1], 6.0 + (i % 3), 6.5};
    return n;
}

/* A track from points (def NULL: the defaults), or NULL with the reason on stderr; the caller checks it. */
static TrkTrack *track_from(const TrkPointDef *p, int n, const TrkDef *def)
{
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_create(p, n, def, err, sizeof err);
    if (!t)
        fprintf(stderr, "track from %d points: %s\n", n, err);
    return t;
}

/* A track file, or NULL with the reason on stderr; the caller checks it. */
static TrkTrack *track_file(const char *path, const TrkDef *def)
{
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load(path, def, err, sizeof err);
    if (!t)
        fprintf(stderr, "%s\n", err);
    return t;
}

static TrkTrack *wavy_track(void)
{
    TrkPointDef p[32];
    int n = wavy_points(p);
    return track_from(p, n, NULL);
}

/* n (at most 64) points on a circle, counter-clockwise (see circle_points), as a track */
static TrkTrack *circle_track(int n, double cx, double cy, double r, double w)
{
    TrkPointDef p[64];
    circle_points(p, n, cx, cy, r, w);
    return track_from(p, n, NULL);
}

/* the default car's speed plan along a path of t, NULL when it cannot be made */
static TrkSpeedProfile *default_plan(const TrkTrack *t, TrkPath path, double grip_scale)
{
    TrkCarParams car = trk_default_car();
    return trk_speed_profile_create(t, &car, path, grip_scale);
}

/*----------------------------------------------------------------------------------------------------------------*/

static int test_spline_passes_through_points(void)
{
    TrkPointDef p[32];
    int n = wavy_points(p);
    TrkTrack *t = track_from(p, n, NULL);
    TST_CHECK(t != NULL);
    for (int i = 0; i < n; i++) {
        double s, d;
        TST_CHECK(trk_to_frenet(t, p[i].x_m, p[i].y_m, &s, &d, NULL) == 0);
        /* Between samples the table is a chord: it misses the curve by at most k ds^2 / 8. */
        double k = fabs(trk_curvature(t, s, NULL));
        TST_NEAR(d, 0.0, 1.5 * k * t->ds_m * t->ds_m / 8.0 + 1e-4);
        TST_NEAR(trk_width_left(t, s, NULL), p[i].left_m, 0.05);
    }
    trk_free(t);
    return 0;
}

static int test_arc_length_matches_dense_polyline(void)
{
    TrkPointDef p[32];
    int n = wavy_points(p);
    TrkDef def = trk_default_def();
    def.sample_step_m = 0.05;
    TrkTrack *fine = track_from(p, n, &def), *t = track_from(p, n, NULL);
    TST_CHECK(fine && t);
    double poly = 0.0;
    for (int i = 0; i < fine->n; i++) {
        const TrkSample *a = &fine->samples[i], *b = &fine->samples[(i + 1) % fine->n];
        poly += hypot(b->x_m - a->x_m, b->y_m - a->y_m);
    }
    TST_NEAR(trk_length(t) / poly, 1.0, 1e-3);
    TST_NEAR(trk_length(fine) / poly, 1.0, 1e-4);
    /* samples are evenly spaced along the curve */
    for (int i = 0; i < t->n; i++) {
        const TrkSample *a = &t->samples[i], *b = &t->samples[(i + 1) % t->n];
        TST_NEAR(hypot(b->x_m - a->x_m, b->y_m - a->y_m), t->ds_m, 0.01 * t->ds_m);
    }
    trk_free(fine);
    trk_free(t);
    return 0;
}

static int check_round_trip(const TrkTrack *t, double s, double d)
{
    double x, y, s2, d2, x2, y2;
    int hint = -1;
    trk_to_world(t, s, d, &x, &y, &hint);
    /* with a hint a few samples off, and without a hint */
    int h2 = (hint + 3) % t->n;
    TST_CHECK(trk_to_frenet(t, x, y, &s2, &d2, &h2) == 0);
    TST_NEAR(trk_delta_s(t, s, s2), 0.0, 1e-3);
    TST_NEAR(d2, d, 1e-3);
    TST_CHECK(trk_to_frenet(t, x, y, &s2, &d2, NULL) == 0);
    TST_NEAR(trk_delta_s(t, s, s2), 0.0, 1e-3);
    TST_NEAR(d2, d, 1e-3);
    TST_CHECK(s2 >= 0.0 && s2 < trk_length(t));
    trk_to_world(t, s2, d2, &x2, &y2, NULL);
    TST_NEAR(hypot(x2 - x, y2 - y), 0.0, 1e-3);
    return 0;
}

static int test_frenet_round_trip_everywhere(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    double L = trk_length(t);
    for (double s = 0.0; s < L; s += 2.37) {
        double wl = trk_width_left(t, s, NULL), wr = trk_width_right(t, s, NULL);
        for (int k = 0; k <= 4; k++) {
            double d = -0.95 * wr + k * 0.25 * 0.95 * (wl + wr);
            if (check_round_trip(t, s, d))
                return 1;
        }
    }
    /* the seam, from both sides, and s outside [0, L) */
    const double seam[] = {0.0, 1e-9, 1e-6, 0.5, L - 1e-9, L - 1e-6, L - 0.5, -0.25, L + 0.25, 3.0 * L + 1.0};
    for (size_t i = 0; i < sizeof seam / sizeof seam[0]; i++)
        for (double d = -5.0; d <= 5.0; d += 2.5)
            if (check_round_trip(t, seam[i], d))
                return 1;
    trk_free(t);
    return 0;
}

static int test_frenet_incremental_hint(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    int hint = -1;
    double L = trk_length(t);
    /* a car driving two laps, 1.7 m a tick, 2 m left of centre: the hint follows it across the seam */
    for (double s = 0.0; s < 2.0 * L; s += 1.7) {
        double x, y, s2, d2;
        trk_to_world(t, s, 2.0, &x, &y, NULL);
        TST_CHECK(trk_to_frenet(t, x, y, &s2, &d2, &hint) == 0);
        TST_NEAR(trk_delta_s(t, s, s2), 0.0, 1e-3);
        TST_NEAR(d2, 2.0, 1e-3);
        TST_CHECK(hint >= 0 && hint < t->n);
        TST_NEAR(trk_delta_s(t, hint * t->ds_m, s2), 0.0, 1.5 * t->ds_m);
    }
    /* a stale hint on the far side of the track still finds the right place */
    double x, y, s2, d2;
    trk_to_world(t, 100.0, -1.0, &x, &y, NULL);
    hint = t->n / 2;
    TST_CHECK(trk_to_frenet(t, x, y, &s2, &d2, &hint) == 0);
    TST_NEAR(s2, 100.0, 1e-3);
    TST_NEAR(d2, -1.0, 1e-3);
    trk_free(t);
    return 0;
}

static int test_wrap_and_delta(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    double L = trk_length(t);
    TST_NEAR(trk_wrap_s(t, L + 5.0), 5.0, 1e-9);
    TST_NEAR(trk_wrap_s(t, -5.0), L - 5.0, 1e-9);
    TST_CHECK(trk_wrap_s(t, L) == 0.0);
    TST_NEAR(trk_delta_s(t, L - 5.0, 5.0), 10.0, 1e-9);
    TST_NEAR(trk_delta_s(t, 5.0, L - 5.0), -10.0, 1e-9);
    TST_NEAR(trk_delta_s(t, 0.0, 0.5 * L), -0.5 * L, 1e-9);
    TST_CHECK(trk_wrap_s(t, NAN) == 0.0);
    trk_free(t);
    return 0;
}

/* The combined lookup the simulation uses gives exactly what the three single queries give (the sim's results must
 * not change with it), on and off the lap and at the seam. */
static int test_geometry_at_matches_queries(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    double L = trk_length(t);
    const double extra[] = {0.0, L, -L, L - 1e-9, -1e-12, 3.0 * L + 7.25, NAN, INFINITY};
    int n = 0, same = 0;
    for (int k = 0; k < 1000 + (int)(sizeof extra / sizeof extra[0]); k++) {
        double s = k < 1000 ? (k - 100) * L / 777.0 : extra[k - 1000];
        int h1 = -5, h2 = -5;
        TrkGeometry g = trk_geometry_at(t, s, &h1);
        double kappa = trk_curvature(t, s, &h2), left = trk_width_left(t, s, NULL), right = trk_width_right(t, s, NULL);
        n++;
        same += memcmp(&g.kappa, &kappa, sizeof kappa) == 0 && memcmp(&g.left_m, &left, sizeof left) == 0 &&
                memcmp(&g.right_m, &right, sizeof right) == 0 && h1 == h2;
    }
    TST_CHECK(same == n);
    trk_free(t);
    return 0;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The drivers' combined lookups (every field at the car; the line at many points) give exactly what the single
 * queries give, on and off the lap and at the seam: the race results must not change with them. */
static int test_spot_and_line_n_match_queries(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    double L = trk_length(t);
    enum { N = 1008 };
    static double s[N], line[N];
    const double extra[] = {0.0, L, -L, L - 1e-9, -1e-12, 3.0 * L + 7.25, NAN, INFINITY};
    for (int k = 0; k < N; k++)
        s[k] = k < 1000 ? (k - 100) * L / 777.0 : extra[k - 1000];
    trk_line_d_n(t, s, line, N);
    int same = 0;
    for (int k = 0; k < N; k++) {
        int h1 = -5, h2 = -5;
        TrkSpot p = trk_spot_at(t, s[k], &h1);
        same += same_bits(p.kappa, trk_curvature(t, s[k], &h2)) && same_bits(p.left_m, trk_width_left(t, s[k], NULL)) &&
                same_bits(p.right_m, trk_width_right(t, s[k], NULL)) &&
                same_bits(p.line_d_m, trk_line_d(t, s[k], NULL)) &&
                same_bits(p.line_kappa, trk_line_curvature(t, s[k], NULL)) &&
                same_bits(line[k], trk_line_d(t, s[k], NULL)) && h1 == h2;
    }
    TST_CHECK(same == N);
    /* the line is not flat on this track, so the comparison above compared something */
    TST_CHECK(fabs(line[0] - line[50]) > 1e-3 || fabs(line[0] - line[300]) > 1e-3);
    trk_free(t);
    return 0;
}

/* The wavy track with a racing-line speed profile of its own, and one built on another track (a circle), which
 * cannot share the track's look-ups. */
typedef struct ProfilePair {
    TrkTrack *track, *other;
    TrkSpeedProfile *own, *foreign;
} ProfilePair;

static void profile_pair_free(ProfilePair *pp)
{
    trk_speed_profile_free(pp->own);
    trk_speed_profile_free(pp->foreign);
    trk_free(pp->other);
    trk_free(pp->track);
}

/* false (everything freed) when a build fails */
static bool profile_pair(ProfilePair *pp)
{
    *pp = (ProfilePair){wavy_track(), circle_track(24, 0.0, 0.0, 150.0, 6.0), NULL, NULL};
    if (pp->track != NULL && pp->other != NULL) {
        pp->own = default_plan(pp->track, TRK_PATH_RACING_LINE, 0.9);
        pp->foreign = default_plan(pp->other, TRK_PATH_RACING_LINE, 0.9);
    }
    if (pp->own == NULL || pp->foreign == NULL) {
        profile_pair_free(pp);
        return false;
    }
    return true;
}

/* The track and a speed profile from one look-up (a driver at its position, with the plan's limit there; the line and
 * the plan along its braking distance) give exactly what the single queries give, on and off the lap and at the
 * seam, for a profile built on the track and for one built on another track (which cannot share the look-up). */
static int test_spot_and_line_with_speed_match_queries(void)
{
    ProfilePair pp;
    TST_CHECK(profile_pair(&pp));
    TrkTrack *t = pp.track;
    const TrkSpeedProfile *own = pp.own, *foreign = pp.foreign;
    double L = trk_length(t);
    enum { N = 1009 };
    static double s[N], line[N], speed[N];
    const double extra[] = {0.0, -0.0, L, -L, L - 1e-9, -1e-12, 3.0 * L + 7.25, NAN, INFINITY};
    for (int k = 0; k < N; k++)
        s[k] = k < 1000 ? (k - 100) * L / 777.0 : extra[k - 1000];
    const TrkSpeedProfile *profiles[] = {own, foreign};
    int same = 0, plan_varies = 0;
    for (int m = 0; m < 2; m++) {
        const TrkSpeedProfile *pr = profiles[m];
        trk_line_speed_n(t, pr, s, line, speed, N);
        for (int k = 0; k < N; k++) {
            int h1 = -5, h2 = -5;
            double v = -1.0;
            TrkSpot p = trk_spot_speed_at(t, pr, s[k], &h1, &v);
            TrkSpot q = trk_spot_at(t, s[k], &h2);
            double v_ref = trk_speed_at(pr, s[k], NULL);
            int h3 = -5;
            double v2 = -1.0, lim = -1.0;
            TrkSpot r = trk_spot_speed_limit_at(t, pr, s[k], &h3, &v2, &lim);
            same += memcmp(&p, &q, sizeof p) == 0 && h1 == h2 && same_bits(v, v_ref) &&
                    same_bits(line[k], trk_line_d(t, s[k], NULL)) && same_bits(speed[k], v_ref) &&
                    memcmp(&r, &q, sizeof r) == 0 && h3 == h2 && same_bits(v2, v_ref) &&
                    same_bits(lim, trk_speed_limit_at(pr, s[k], NULL));
            plan_varies += k > 0 && k < 1000 && fabs(v - trk_speed_at(pr, s[k - 1], NULL)) > 1e-6;
        }
    }
    TST_CHECK(same == 2 * N);
    TST_CHECK(plan_varies > 100); /* the plan is not flat: the comparison above compared something */
    profile_pair_free(&pp);
    return 0;
}

/* trk_speed_floor is at or below every speed the plan reads from s to s + reach (stepped finely, with the sums'
 * own rounding, round the seam and from before and past the lap), the true minimum there within a block or two, and
 * no floor outside its domain. */
static int test_speed_floor_below_reads(void)
{
    ProfilePair pp;
    TST_CHECK(profile_pair(&pp));
    const TrkSpeedProfile *pr = pp.own;
    double L = trk_length(pp.track);
    int below = 0, checked = 0, tight = 0;
    for (int k = 0; k < 300; k++) {
        double s = -L + k * (3.0 * L / 300.0) + 0.37, reach = (k % 7) * L / 20.0;
        double floor_v = trk_speed_floor(pr, s, reach), least = INFINITY;
        for (int j = 0; j <= 400; j++) {
            double v = trk_speed_at(pr, s + reach * j / 400.0, NULL);
            below += floor_v <= v;
            least = v < least ? v : least;
            checked++;
        }
        tight += floor_v > least - 5.0; /* this plan's speeds change by far less over a few blocks */
    }
    TST_CHECK(below == checked);
    TST_CHECK(tight > 250);
    TST_CHECK(trk_speed_floor(pr, NAN, 1.0) == -INFINITY);
    TST_CHECK(trk_speed_floor(pr, 0.0, L) == -INFINITY);
    TST_CHECK(trk_speed_floor(pr, 2.0 * L, 1.0) == -INFINITY);
    TST_CHECK(trk_speed_floor(pr, 0.0, -1.0) == -INFINITY);
    profile_pair_free(&pp);
    return 0;
}

/* trk_speed_at written the plain way, with the general wrap: a reference that shares no code with the inline form
 * (trk_fast.h). */
static double speed_at_reference(const TrkSpeedProfile *p, double s_m, int *hint)
{
    double L = p->length_m;
    double s = isfinite(s_m) ? s_m - L * floor(s_m / L) : 0.0;
    int i = (int)(s / p->ds_m);
    if (i >= p->n || i < 0)
        i = i < 0 ? 0 : p->n - 1;
    double f = (s - i * p->ds_m) / p->ds_m;
    f = f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
    *hint = i;
    return p->v_mps[i] + f * (p->v_mps[i + 1] - p->v_mps[i]);
}

/* The look-ups that are inline (trk_fast.h) give, worked into this file, exactly what their external definitions
 * in the track module give (called through pointers, which the compiler cannot inline), and trk_speed_at what its
 * former definition gave; on and off the lap, at the seam and on the sample grid, for a profile built on the track
 * and for one built on another track. */
static int test_inline_lookups_match_external(void)
{
    ProfilePair pp;
    TST_CHECK(profile_pair(&pp));
    TrkTrack *t = pp.track;
    const TrkSpeedProfile *own = pp.own, *foreign = pp.foreign;
    TrkGeometry (*volatile geometry_ext)(const TrkTrack *, double, int *) = trk_geometry_at;
    double (*volatile speed_at_ext)(const TrkSpeedProfile *, double, int *) = trk_speed_at;
    TrkSpot (*volatile spot_speed_ext)(const TrkTrack *, const TrkSpeedProfile *, double, int *, double *) =
        trk_spot_speed_at;
    void (*volatile line_n_ext)(const TrkTrack *, const double *, double *, int) = trk_line_d_n;
    void (*volatile line_speed_n_ext)(const TrkTrack *, const TrkSpeedProfile *, const double *, double *, double *,
                                      int) = trk_line_speed_n;
    int (*volatile locate_ext)(const TrkTrack *, double, double *) = trk_locate;
    double L = trk_length(t), ds = t->ds_m;
    enum { SPREAD = 1000, GRID = 40, N = SPREAD + GRID + 14 };
    static double s[N], line[N], line_ext[N], line2[N], speed[N], speed_ext[N];
    const double extra[] = {0.0, -0.0, L, -L, nextafter(L, 0.0), nextafter(0.0, -1.0), L - 1e-9, -1e-12,
                            3.0 * L + 7.25, -5.0 * L - 0.3, 2.0 * L, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < N; k++) {
        int g = (k - SPREAD) / 2 * (t->n / (GRID / 2));
        if (k < SPREAD)
            s[k] = (k - 100) * L / 777.0;
        else if (k < SPREAD + GRID) /* on a sample, and just before the next one */
            s[k] = k % 2 ? g * ds : nextafter((g + 1) * ds, 0.0);
        else
            s[k] = extra[k - SPREAD - GRID];
    }
    int same = 0, checked = 0, on_lap = 0;
    for (int k = 0; k < N; k++) {
        int h1 = -5, h2 = -5;
        TrkGeometry g = trk_geometry_at(t, s[k], &h1), g_ext = geometry_ext(t, s[k], &h2);
        double f1 = -1.0, f2 = -2.0;
        int i1 = trk_locate(t, s[k], &f1), i2 = locate_ext(t, s[k], &f2);
        same += memcmp(&g, &g_ext, sizeof g) == 0 && h1 == h2 && i1 == i2 && same_bits(f1, f2) && i1 == h1;
        checked++;
        on_lap += s[k] >= 0.0 && s[k] < L;
    }
    const TrkSpeedProfile *profiles[] = {own, foreign};
    for (int m = 0; m < 2; m++) {
        const TrkSpeedProfile *pr = profiles[m];
        for (int k = 0; k < N; k++) {
            int h1 = -5, h2 = -5, h3 = -5;
            double v = trk_speed_at(pr, s[k], &h1), v_ext = speed_at_ext(pr, s[k], &h2);
            double v_ref = speed_at_reference(pr, s[k], &h3);
            double w = -1.0, w_ext = -2.0;
            int h4 = -5, h5 = -5;
            TrkSpot p = trk_spot_speed_at(t, pr, s[k], &h4, &w), p_ext = spot_speed_ext(t, pr, s[k], &h5, &w_ext);
            same += same_bits(v, v_ext) && same_bits(v, v_ref) && h1 == h2 && h1 == h3 &&
                    memcmp(&p, &p_ext, sizeof p) == 0 && same_bits(w, w_ext) && same_bits(w, v) && h4 == h5;
            checked++;
        }
        trk_line_speed_n(t, pr, s, line, speed, N);
        line_speed_n_ext(t, pr, s, line_ext, speed_ext, N);
        for (int k = 0; k < N; k++) {
            int h = -5;
            same += same_bits(line[k], line_ext[k]) && same_bits(speed[k], speed_ext[k]) &&
                    same_bits(speed[k], speed_at_reference(pr, s[k], &h));
            checked++;
        }
    }
    trk_line_d_n(t, s, line, N);
    line_n_ext(t, s, line_ext, N);
    for (int k = 0; k < N; k++) {
        trk_line_d_n(t, &s[k], &line2[k], 1); /* one point, as drv_context_here reads it */
        same += same_bits(line[k], line_ext[k]) && same_bits(line[k], line2[k]) &&
                same_bits(line[k], trk_line_d(t, s[k], NULL));
        checked++;
    }
    TST_CHECK(same == checked);
    TST_CHECK(on_lap > SPREAD / 2 && on_lap < N - 8); /* both kinds of arc length were looked up */
    profile_pair_free(&pp);
    return 0;
}

static int test_circle_curvature(void)
{
    const double radii[] = {20.0, 100.0, 400.0};
    for (int k = 0; k < 3; k++) {
        double r = radii[k];
        TrkTrack *t = circle_track(64, 10.0, -30.0, r, 6.0);
        TST_CHECK(t != NULL);
        TST_NEAR(trk_length(t), 2.0 * PI * r, 2.0 * PI * r * 1e-3);
        for (double s = 0.0; s < trk_length(t); s += 3.3)
            TST_NEAR(trk_curvature(t, s, NULL), 1.0 / r, 0.01 / r);
        TrkSummary sum = trk_summary(t);
        TST_NEAR(sum.tightest_radius_m, r, 0.01 * r);
        TST_NEAR(sum.min_width_m, 12.0, 1e-9);
        trk_free(t);
    }
    /* clockwise: negative curvature, and the normal still points left of travel (towards the outside) */
    TrkPointDef p[64];
    for (int i = 0; i < 64; i++) {
        double a = -2.0 * PI * i / 64;
        p[i] = (TrkPointDef){100.0 * cos(a), 100.0 * sin(a), 5.0, 5.0};
    }
    TrkTrack *t = track_from(p, 64, NULL);
    TST_CHECK(t != NULL);
    TST_NEAR(trk_curvature(t, 50.0, NULL), -0.01, 1e-4);
    TrkPose pose = trk_pose_at(t, 0.0, NULL);
    TST_NEAR(pose.nx, 1.0, 1e-3); /* at (100, 0) going clockwise (down), left is +x */
    trk_free(t);
    return 0;
}

/* trk_max_width is the summary's max_width_m on its own (the lanes size themselves with it) */
static int test_max_width_matches_summary(void)
{
    TrkPointDef p[64];
    for (int i = 0; i < 64; i++) {
        double a = 2.0 * PI * i / 64;
        p[i] = (TrkPointDef){150.0 * cos(a), 90.0 * sin(a), 4.0 + (i % 5) * 0.7, 3.0 + (i % 3) * 1.1};
    }
    TrkTrack *t = track_from(p, 64, NULL);
    TST_CHECK(t != NULL);
    TrkSummary sum = trk_summary(t);
    TST_CHECK(trk_max_width(t) == sum.max_width_m);
    TST_CHECK(sum.max_width_m > sum.min_width_m + 1.0); /* the widths vary, so the maximum is a real one */
    TST_NEAR(trk_max_width(t), 4.0 + 4 * 0.7 + 3.0 + 2 * 1.1, 1.0);
    trk_free(t);
    return 0;
}

/* Past TRK_MAX_LENGTH_M a track is an error, both when its pieces' lengths are kept for the resampling (a few long
 * segments) and when there are too many to keep (many long segments: 200 x 4096 pieces). */
static int test_too_long_track_fails(void)
{
    static TrkPointDef p[200];
    const int counts[] = {8, 200};
    for (int k = 0; k < 2; k++) {
        circle_points(p, counts[k], 0.0, 0.0, 150e3, 10.0); /* 942 km round */
        char err[256] = "";
        TrkTrack *t = trk_create(p, counts[k], NULL, err, sizeof err);
        TST_CHECK(t == NULL);
        TST_CHECK(strncmp(err, "track too long", 14) == 0);
        trk_free(t);
    }
    return 0;
}

static double sum_sq_curvature(const TrkTrack *t, int line)
{
    double sum = 0.0;
    for (int i = 0; i < t->n; i++) {
        double k = line ? t->samples[i].line_kappa : t->samples[i].kappa;
        sum += k * k * (line ? t->samples[i].line_ds_m : t->ds_m);
    }
    return sum;
}

static int check_line(const TrkTrack *t, double margin)
{
    for (int i = 0; i < t->n; i++) {
        const TrkSample *s = &t->samples[i];
        double hi = s->left_m - margin, lo = margin - s->right_m;
        if (lo > hi)
            lo = hi = 0.5 * (lo + hi);
        TST_CHECK(s->line_d_m <= hi + 1e-9 && s->line_d_m >= lo - 1e-9);
    }
    TST_CHECK(sum_sq_curvature(t, 1) < 0.8 * sum_sq_curvature(t, 0));
    /* the line uses the track: it touches both margins somewhere */
    double dmin = 1e9, dmax = -1e9;
    for (int i = 0; i < t->n; i++) {
        double rel = t->samples[i].line_d_m;
        dmin = fmin(dmin, rel + t->samples[i].right_m - margin);
        dmax = fmax(dmax, rel - t->samples[i].left_m + margin);
    }
    TST_NEAR(dmin, 0.0, 0.05);
    TST_NEAR(dmax, 0.0, 0.05);
    return 0;
}

static int test_racing_line_within_margins_and_smoother(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    if (check_line(t, TRK_CLASSIC_LINE_MARGIN_M))
        return 1;
    TST_NEAR(trk_line_d(t, 10.0 * t->ds_m, NULL), t->samples[10].line_d_m, 1e-12);
    trk_free(t);
    TrkDef def = trk_default_def();
    def.line_margin_m = 2.5;
    t = track_file("data/tracks/gp.ini", &def);
    TST_CHECK(t != NULL);
    if (check_line(t, 2.5))
        return 1;
    trk_free(t);
    /* the min-curvature line, at its own default margin */
    def = trk_default_def();
    def.line_method = TRK_LINE_MIN_CURVATURE;
    t = track_file("data/tracks/gp.ini", &def);
    TST_CHECK(t != NULL);
    TST_CHECK(t->line_margin_m == TRK_MIN_CURVATURE_LINE_MARGIN_M);
    if (check_line(t, TRK_MIN_CURVATURE_LINE_MARGIN_M))
        return 1;
    trk_free(t);
    return 0;
}

/* The min-curvature line's curvature is smooth: averaging it over 5 m more (on top of the speed plan's own 5 m)
 * changes the default car's lap on each TUMFTM circuit by under 0.05 s (about 0.03 s). The classic line moves by
 * 0.07-0.35 s: on the inside of the Norisring hairpin its points bunch up and its curvature swings between -0.3 and
 * +0.8 1/m within metres. The same file gives the same line, bit for bit. */
static double line_lap_s(const TrkTrack *t)
{
    TrkSpeedProfile *p = default_plan(t, TRK_PATH_RACING_LINE, 1.0);
    double lap = p ? trk_profile_lap_time(p) : -1.0;
    trk_speed_profile_free(p);
    return lap;
}

static int test_racing_line_smooth_on_real_circuits(void)
{
    const char *files[] = {"data/tracks/tumftm/Norisring.csv", "data/tracks/tumftm/Spielberg.csv",
                           "data/tracks/tumftm/BrandsHatch.csv"};
    for (int f = 0; f < 3; f++) {
        TrkDef def = trk_default_def();
        def.line_method = TRK_LINE_MIN_CURVATURE;
        TrkTrack *t = track_file(files[f], &def), *again = track_file(files[f], &def);
        TST_CHECK(t != NULL && again != NULL);
        int same = 0;
        for (int i = 0; i < t->n; i++)
            same += memcmp(&t->samples[i].line_d_m, &again->samples[i].line_d_m, sizeof(double)) == 0 &&
                    memcmp(&t->samples[i].line_kappa, &again->samples[i].line_kappa, sizeof(double)) == 0;
        TST_CHECK(same == t->n);
        double lap = line_lap_s(t);
        double *k = malloc(sizeof *k * (size_t)t->n);
        TST_CHECK(k != NULL);
        for (int i = 0; i < t->n; i++) {
            k[i] = 0.0;
            for (int j = -2; j <= 2; j++)
                k[i] += t->samples[(i + j + t->n) % t->n].line_kappa / 5.0;
        }
        for (int i = 0; i < t->n; i++)
            t->samples[i].line_kappa = k[i];
        double smoothed = line_lap_s(t);
        TST_CHECK(lap > 0.0 && fabs(smoothed - lap) < 0.05);
        free(k);
        trk_free(t);
        trk_free(again);
    }
    return 0;
}

static int check_profile(const TrkTrack *t, const TrkCarParams *car, TrkPath path, double grip_scale)
{
    TrkSpeedProfile *p = trk_speed_profile_create(t, car, path, grip_scale);
    TST_CHECK(p != NULL);
    double lap = 0.0, m = car->mass_kg;
    for (int i = 0; i < p->n; i++) {
        int j = (i + 1) % p->n;
        double v = p->v_mps[i], vj = p->v_mps[j], k = fabs(p->kappa[i]), ds = p->path_ds_m[i];
        double grip = grip_scale * trk_car_grip_mps2(car, v);
        TST_CHECK(v > 0.0 && v <= 150.0);
        TST_CHECK(v * v * k <= grip * (1.0 + 1e-9));
        double a = (vj * vj - v * v) / (2.0 * ds);
        double drive = fmin(trk_car_drive_mps2(car, v), grip_scale * car->mu * TRK_GRAVITY_MPS2);
        TST_CHECK(a <= drive - trk_car_drag_n(car, v, 1.0) / m + 1e-9);
        /* braking into j: at most the grip left at j plus drag */
        double gj = grip_scale * trk_car_grip_mps2(car, vj), latj = vj * vj * fabs(p->kappa[j]);
        double brake = sqrt(fmax(0.0, gj * gj - latj * latj)) + trk_car_drag_n(car, vj, 1.0) / m;
        TST_CHECK(-a <= brake + 1e-9);
        lap += ds / (0.5 * (v + vj));
    }
    TST_NEAR(trk_profile_lap_time(p), lap, 1e-6 * lap);
    TST_NEAR(trk_speed_at(p, 3.5 * p->ds_m, NULL), 0.5 * (p->v_mps[3] + p->v_mps[4]), 1e-9);
    trk_speed_profile_free(p);
    return 0;
}

static int test_speed_profile_limits(void)
{
    TrkTrack *t = wavy_track();
    TST_CHECK(t != NULL);
    TrkCarParams car = trk_default_car();
    if (check_profile(t, &car, TRK_PATH_CENTRE, 1.0) || check_profile(t, &car, TRK_PATH_RACING_LINE, 1.0) ||
        check_profile(t, &car, TRK_PATH_RACING_LINE, 0.7))
        return 1;
    car.downforce_area_m2 = 0.0;
    car.power_w = 100e3;
    if (check_profile(t, &car, TRK_PATH_CENTRE, 1.0))
        return 1;
    trk_free(t);
    return 0;
}

static int test_speed_profile_on_circle(void)
{
    /* constant curvature: the whole lap at the steady cornering speed */
    TrkTrack *t = circle_track(64, 0.0, 0.0, 100.0, 6.0);
    TST_CHECK(t != NULL);
    TrkCarParams car = trk_default_car();
    car.downforce_area_m2 = 0.0;
    TrkSpeedProfile *prof = trk_speed_profile_create(t, &car, TRK_PATH_CENTRE, 1.0);
    TST_CHECK(prof != NULL);
    double v = sqrt(car.mu * TRK_GRAVITY_MPS2 * 100.0);
    TST_NEAR(trk_speed_at(prof, 123.0, NULL), v, 0.01 * v);
    TST_NEAR(trk_profile_lap_time(prof), 2.0 * PI * 100.0 / v, 0.01 * 2.0 * PI * 100.0 / v);
    trk_speed_profile_free(prof);
    trk_free(t);
    return 0;
}

static int test_racing_line_is_faster(void)
{
    TrkTrack *t = track_file("data/tracks/gp.ini", NULL);
    TST_CHECK(t != NULL);
    TrkSpeedProfile *c = default_plan(t, TRK_PATH_CENTRE, 1.0), *l = default_plan(t, TRK_PATH_RACING_LINE, 1.0);
    TST_CHECK(c && l);
    TST_CHECK(trk_profile_lap_time(l) < trk_profile_lap_time(c) - 1.0);
    /* a GT car on a 5.8 km grand-prix track: about two minutes */
    TST_CHECK(trk_profile_lap_time(l) > 100.0 && trk_profile_lap_time(l) < 150.0);
    trk_speed_profile_free(c);
    trk_speed_profile_free(l);
    trk_free(t);
    return 0;
}

/* The drivers' plan (TRK_PATH_RACING_LINE_DRIVEN) takes from the friction circle what the car model spends keeping a
 * car on a line that crosses the track while it brakes or drives: never faster than the line's own plan, slower
 * where the line crosses the track under braking, the same on a line at a constant offset. */
static int test_driven_plan(void)
{
    TrkTrack *t = track_file("data/tracks/gp.ini", NULL);
    TST_CHECK(t != NULL);
    TrkSpeedProfile *l = default_plan(t, TRK_PATH_RACING_LINE, 0.99);
    TrkSpeedProfile *d = default_plan(t, TRK_PATH_RACING_LINE_DRIVEN, 0.99);
    TST_CHECK(l && d);
    int slower = 0;
    for (double s = 0.0; s < trk_length(t); s += 0.5) {
        double vl = trk_speed_at(l, s, NULL), vd = trk_speed_at(d, s, NULL);
        TST_CHECK(vd <= vl + 1e-6); /* (the passes' rounding: one sample is 1e-9 m/s over) */
        slower += vd < vl - 0.01;
    }
    TST_CHECK(slower > 0);
    double lap_l = trk_profile_lap_time(l), lap_d = trk_profile_lap_time(d);
    TST_CHECK(lap_d > lap_l && lap_d < 1.001 * lap_l);
    trk_speed_profile_free(l);
    trk_speed_profile_free(d);
    trk_free(t);
    /* a circle: the line holds a constant offset (its inside bound), so the two plans are the same */
    t = circle_track(64, 0.0, 0.0, 100.0, 6.0);
    TST_CHECK(t != NULL);
    l = default_plan(t, TRK_PATH_RACING_LINE, 1.0);
    d = default_plan(t, TRK_PATH_RACING_LINE_DRIVEN, 1.0);
    TST_CHECK(l && d);
    TST_NEAR(trk_profile_lap_time(d), trk_profile_lap_time(l), 1e-6 * trk_profile_lap_time(l));
    trk_speed_profile_free(l);
    trk_speed_profile_free(d);
    trk_free(t);
    return 0;
}

static int test_car_forces(void)
{
    TrkCarParams car = trk_default_car();
    TST_NEAR(car.mass_kg, 1300.0, 0.0);
    TST_NEAR(trk_car_grip_mps2(&car, 0.0), 1.4 * TRK_GRAVITY_MPS2, 1e-12);
    TST_NEAR(trk_car_grip_mps2(&car, 50.0), 1.4 * (TRK_GRAVITY_MPS2 + 0.5 * 1.2 * 1.0 * 2500.0 / 1300.0), 1e-9);
    TST_NEAR(trk_car_drag_n(&car, 50.0, 1.0), 0.5 * 1.2 * 0.75 * 2500.0 + 0.015 * 1300.0 * TRK_GRAVITY_MPS2, 1e-9);
    TST_NEAR(trk_car_drag_n(&car, 50.0, 0.5), 0.25 * 1.2 * 0.75 * 2500.0 + 0.015 * 1300.0 * TRK_GRAVITY_MPS2, 1e-9);
    TST_NEAR(trk_car_drive_mps2(&car, 0.0), 1.4 * TRK_GRAVITY_MPS2, 1e-12); /* traction-limited */
    TST_NEAR(trk_car_drive_mps2(&car, 80.0), 400e3 / (1300.0 * 80.0), 1e-12);
    return 0;
}

/* A figure eight: the centre line crosses itself once, at right angles. */
static int eight_points(TrkPointDef *p)
{
    int n = 48;
    for (int i = 0; i < n; i++) {
        double a = 2.0 * PI * i / n;
        p[i] = (TrkPointDef){300.0 * sin(a), 150.0 * sin(2.0 * a), 5.0, 5.0};
    }
    return n;
}

static int test_crossing_is_a_warning_and_hint_disambiguates(void)
{
    TrkPointDef p[48];
    TrkTrack *t = track_from(p, eight_points(p), NULL);
    TST_CHECK(t != NULL);
    TST_CHECK(strstr(trk_warning(t), "crosses itself") != NULL);
    TST_CHECK(strstr(trk_warning(t), "bridge") != NULL);
    /* the crossing is at the origin; s = 0 and s = L/2 both pass there */
    double L = trk_length(t), s, d;
    for (int branch = 0; branch < 2; branch++) {
        double s0 = branch * 0.5 * L;
        int hint = -1;
        double x, y;
        trk_to_world(t, s0 - 8.0, 0.5, &x, &y, &hint);
        TST_CHECK(trk_to_frenet(t, x, y, &s, &d, &hint) == 0);
        for (double ds = -8.0; ds <= 8.0; ds += 0.5) {
            trk_to_world(t, s0 + ds, 0.5, &x, &y, NULL);
            TST_CHECK(trk_to_frenet(t, x, y, &s, &d, &hint) == 0);
            TST_NEAR(trk_delta_s(t, s0 + ds, s), 0.0, 1e-3);
            TST_NEAR(d, 0.5, 1e-3);
        }
    }
    trk_free(t);
    /* an ordinary loop has no warning */
    t = wavy_track();
    TST_CHECK(t != NULL);
    TST_STR_EQ(trk_warning(t), "");
    trk_free(t);
    return 0;
}

static int test_folds_and_bad_points(void)
{
    char err[TRK_ERR_LEN];
    TrkPointDef p[64];
    circle_points(p, 64, 0.0, 0.0, 25.0, 5.0);
    p[10].left_m = 30.0; /* the inside of a left-turning circle: 5 m over, too deep to repair */
    TST_CHECK(trk_create(p, 64, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "track edges fold over: left width 30.0 m exceeds the corner radius 25.0 m (too deep to repair: "
                    "more than 2 m)");
    int bad = -2;
    TST_CHECK(trk_create_ex(p, 64, NULL, err, sizeof err, &bad, NULL) == NULL);
    TST_CHECK(bad == 10);
    TrkDef strict = trk_default_def();
    strict.strict = true;
    TST_CHECK(trk_create(p, 64, &strict, err, sizeof err) == NULL);
    TST_STR_EQ(err, "track edges fold over: left width 30.0 m exceeds the corner radius 25.0 m");
    /* the outside may be as wide as it likes */
    p[10].left_m = 5.0;
    p[10].right_m = 60.0;
    TrkTrack *t = track_from(p, 64, NULL);
    TST_CHECK(t != NULL);
    trk_free(t);
    TST_CHECK(trk_create(p, 3, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "need at least 4 points, got 3");
    p[5].right_m = 0.0;
    TST_CHECK(trk_create(p, 64, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "width must be > 0");
    p[5].right_m = 5.0;
    p[6] = p[5];
    TST_CHECK(trk_create(p, 64, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "duplicate of the previous point");
    circle_points(p, 64, 0.0, 0.0, 25.0, 5.0);
    p[7].x_m = NAN;
    TST_CHECK(trk_create(p, 64, NULL, err, sizeof err) == NULL);
    TST_STR_EQ(err, "not a finite number");
    return 0;
}

/* No sample of the table folds, and the inside width never changes by more than the road allows in a metre
 * (the original's own slope or the repair's taper). */
static int check_no_fold(const TrkTrack *t)
{
    for (int i = 0; i < t->n; i++) {
        const TrkSample *s = &t->samples[i];
        double w = s->kappa > 0.0 ? s->left_m : s->right_m;
        TST_CHECK(w * fabs(s->kappa) < 1.0);
        TST_CHECK(s->left_m > 0.0 && s->right_m > 0.0);
    }
    return 0;
}

static int test_shallow_fold_is_repaired(void)
{
    char err[TRK_ERR_LEN];
    TrkPointDef p[64];
    circle_points(p, 64, 0.0, 0.0, 25.0, 5.0);
    for (int i = 9; i <= 11; i++)
        p[i].left_m = 25.3; /* 0.3 m over the radius on the inside of a left turn */
    TrkTrack *t = track_from(p, 64, NULL);
    TST_CHECK(t != NULL);
    const char *w = trk_warning(t);
    TST_CHECK(strncmp(w, "warning: track edges fold over at s=", 36) == 0);
    TST_CHECK(strstr(w, "left width 25.") != NULL);
    TST_CHECK(strstr(w, "repaired: the left edge pulled in by up to 0.") != NULL);
    TST_CHECK(strchr(w, '\n') == w + strlen(w) - 1); /* one repair, one line */
    if (check_no_fold(t))
        return 1;
    /* local: the other side of the circle and the outside keep their widths */
    TST_NEAR(trk_width_left(t, 0.0, NULL), 5.0, 1e-9);
    TST_NEAR(trk_width_right(t, 10.0 / 64.0 * trk_length(t), NULL), 5.0, 1e-9);
    /* the repaired inside edge keeps about half a metre of radius */
    double s10 = 10.0 / 64.0 * trk_length(t);
    TST_CHECK(trk_width_left(t, s10, NULL) < 25.0 - 0.45);
    TST_CHECK(trk_width_left(t, s10, NULL) > 25.0 - 1.0);
    trk_free(t);
    TrkDef strict = trk_default_def();
    strict.strict = true;
    TST_CHECK(trk_create(p, 64, &strict, err, sizeof err) == NULL);
    TST_STR_EQ(err, "track edges fold over: left width 25.3 m exceeds the corner radius 25.0 m");
    /* a fold all the way round: one run with no start, repaired everywhere */
    circle_points(p, 64, 0.0, 0.0, 25.0, 5.0);
    for (int i = 0; i < 64; i++)
        p[i].left_m = 25.2;
    t = track_from(p, 64, NULL);
    TST_CHECK(t != NULL);
    TST_CHECK(strstr(trk_warning(t), "repaired") != NULL);
    if (check_no_fold(t))
        return 1;
    trk_free(t);
    /* a repair that would leave less than a car's width is refused */
    circle_points(p, 64, 0.0, 0.0, 2.0, 0.2);
    for (int i = 0; i < 64; i++)
        p[i].left_m = 2.2;
    TST_CHECK(trk_create(p, 64, NULL, err, sizeof err) == NULL);
    TST_CHECK(strstr(err, "narrower than a car") != NULL);
    return 0;
}

static int test_shallow_crossing_is_an_error(void)
{
    /* a long thin loop whose return leg is pulled across the outward one at a grazing angle */
    TrkPointDef p[] = {{0, 0, 4, 4},       {250, 0, 4, 4},     {500, 0, 4, 4},    {750, 0, 4, 4},
                       {1000, 0, 4, 4},    {1200, 40, 4, 4},   {1250, 120, 4, 4}, {1150, 150, 4, 4},
                       {1000, 100, 4, 4},  {750, 50, 4, 4},    {250, -50, 4, 4},  {0, -100, 4, 4},
                       {-150, -130, 4, 4}, {-250, -80, 4, 4},  {-200, 0, 4, 4},   {-100, 0, 4, 4}};
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_create(p, (int)(sizeof p / sizeof p[0]), NULL, err, sizeof err);
    TST_CHECK(t == NULL);
    TST_STR_EQ(err, "centre line crosses itself at s=500 m at a shallow angle (11 degrees; a bridge needs at least 30)");
    int bad = -2;
    TST_CHECK(trk_create_ex(p, (int)(sizeof p / sizeof p[0]), NULL, err, sizeof err, &bad, NULL) == NULL);
    TST_CHECK(bad == 2);
    return 0;
}

/* The lookups read sample i and i + 1, the last interval ending at a copy of sample 0: every value runs on across the
 * seam without a jump (a stale copy, or one taken before the racing line was computed, would show here as a step
 * between the last metre of the lap and the first). Checked for every shipped track, with and without hints. */
static int test_lookups_continuous_across_seam(void)
{
    const char *paths[] = {"data/tracks/gp.ini", "data/tracks/tech.ini", "data/tracks/fast.ini", "data/tracks/oval.ini"};
    for (int k = 0; k < 4; k++) {
        TrkTrack *t = track_file(paths[k], NULL);
        TST_CHECK(t != NULL);
        TrkSpeedProfile *prof = default_plan(t, TRK_PATH_RACING_LINE, 0.95);
        TST_CHECK(prof != NULL);
        double L = trk_length(t), eps = 1e-6;
        int hint = -1;
        TrkSpot end = trk_spot_at(t, L - eps, &hint), start = trk_spot_at(t, 0.0, &hint);
        TST_NEAR(end.kappa, start.kappa, 1e-6);
        TST_NEAR(end.left_m, start.left_m, 1e-6);
        TST_NEAR(end.right_m, start.right_m, 1e-6);
        TST_NEAR(end.line_d_m, start.line_d_m, 1e-6);
        TST_NEAR(trk_line_d(t, L - eps, NULL), trk_line_d(t, 0.0, NULL), 1e-6);
        TST_NEAR(trk_curvature(t, L - eps, NULL), trk_curvature(t, 0.0, NULL), 1e-6);
        TST_NEAR(trk_speed_at(prof, L - eps, NULL), trk_speed_at(prof, 0.0, NULL), 1e-4);
        trk_speed_profile_free(prof);
        trk_free(t);
    }
    return 0;
}

int main(void)
{
    TST_RUN(test_spline_passes_through_points);
    TST_RUN(test_lookups_continuous_across_seam);
    TST_RUN(test_arc_length_matches_dense_polyline);
    TST_RUN(test_frenet_round_trip_everywhere);
    TST_RUN(test_frenet_incremental_hint);
    TST_RUN(test_wrap_and_delta);
    TST_RUN(test_geometry_at_matches_queries);
    TST_RUN(test_spot_and_line_n_match_queries);
    TST_RUN(test_spot_and_line_with_speed_match_queries);
    TST_RUN(test_speed_floor_below_reads);
    TST_RUN(test_inline_lookups_match_external);
    TST_RUN(test_circle_curvature);
    TST_RUN(test_max_width_matches_summary);
    TST_RUN(test_too_long_track_fails);
    TST_RUN(test_racing_line_within_margins_and_smoother);
    TST_RUN(test_speed_profile_limits);
    TST_RUN(test_speed_profile_on_circle);
    TST_RUN(test_racing_line_is_faster);
    TST_RUN(test_driven_plan);
    TST_RUN(test_car_forces);
    TST_RUN(test_crossing_is_a_warning_and_hint_disambiguates);
    TST_RUN(test_folds_and_bad_points);
    TST_RUN(test_shallow_fold_is_repaired);
    TST_RUN(test_shallow_crossing_is_an_error);
    TST_RUN(test_racing_line_smooth_on_real_circuits);
    return tst_report();
}
