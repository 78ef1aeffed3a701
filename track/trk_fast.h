/* trk_fast.h: the track look-ups that run several times per car and tick (the sim's physics, every driver's view of
 * the track and its speed plan), defined inline, and the layout of the sample table and the speed profile they read.
 * trk.h declares them as plain calls and keeps TrkTrack and TrkSpeedProfile opaque; the hot path opts into this
 * header (the private headers of sim/ and drivers/) and its calls under the public names become the inline forms,
 * trk_fast_*, by the defines at the end. The layout is the track module's own: other modules read it only through
 * these functions.
 *
 * C11 inline: trk.c holds the external definitions of the inline forms (for calls the compiler does not inline and
 * for function pointers) and the public functions of trk.h, which call them; it defines TRK_FAST_DEFINE, which turns
 * the defines off there. One body for the inline and the called forms. */
#ifndef TRK_FAST_H
#define TRK_FAST_H

#include "trk.h"

#include <stddef.h>
#include <string.h>

#define TRK_NAME_LEN 64

/* One row of the arc-length table; sample i sits at s = i * ds. Kept together for cache locality. */
typedef struct TrkSample {
    double x_m, y_m;
    double tx, ty;      /* unit tangent */
    double kappa;       /* centre-line curvature, 1/m, signed */
    double left_m;      /* width to the left edge */
    double right_m;     /* width to the right edge */
    double line_d_m;    /* racing line lateral offset */
    double line_kappa;  /* racing line curvature, 1/m */
    double line_ds_m;   /* racing line arc length from this sample to the next, m */
} TrkSample;

struct TrkTrack {
    char name[TRK_NAME_LEN];
    char *warnings;    /* NULL or warning lines, each ending in a newline (trk_warning) */
    int warning_count; /* including those not kept */
    double length_m;
    double ds_m; /* length / n */
    int n;       /* samples */
    TrkSample *samples; /* n + 1: sample n repeats sample 0, so the sample after i is samples[i + 1] for every i < n */
    int control_points;
    double line_margin_m;
    double *kappa_block; /* NULL, or 2 a block of TRK_KAPPA_BLOCK samples: their least and greatest kappa
                          * (trk_fast_curvature_bounds) */
};

#define TRK_KAPPA_BLOCK 16 /* samples per block of kappa_block */

#define TRK_PROFILE_BLOCK 16 /* samples per entry of a profile's block minima */

/* The fastest speed at each centre-line sample (the profile is indexed by centre-line s whatever the path). */
struct TrkSpeedProfile {
    int n;
    double ds_m; /* centre-line sample spacing */
    double length_m;
    double lap_time_s;
    double *v_mps; /* n + 1: v_mps[n] repeats v_mps[0], so an interpolation never wraps an index */
    double *limit_mps; /* n + 1, the same way: the corners' and braking's limit alone (trk_speed_limit_at) */
    double *block_min_mps; /* (n + TRK_PROFILE_BLOCK - 1) / TRK_PROFILE_BLOCK: the least v_mps of each block of
                            * samples (trk_speed_floor) */
    double *kappa; /* curvature of the path at each sample, 1/m (as used by the profile) */
    double *path_ds_m; /* path length from each sample to the next, m */
};

inline double trk_fast_wrap_s(const TrkTrack *track, double s_m)
{
    double L = track->length_m;
    /* Fast path for the common case (already wrapped): floor(s / L) is exactly 0 for 0 <= s < L, so the general
     * formula gives s itself; "+ 0.0" turns -0.0 into +0.0 as the formula does. Bit-identical, no division. */
    if (s_m >= 0.0 && s_m < L)
        return s_m + 0.0;
    if (!isfinite(s_m))
        return 0.0;
    double w = s_m - L * floor(s_m / L);
    return (w >= L || w < 0.0) ? 0.0 : w;
}

/* The sample at or before s and the fraction to the next one, from the table's length, spacing and sample count
 * (the loops below keep them in locals: their stores may alias any double, so the compiler would reload them from
 * the track after each one). s is wrapped as trk_wrap_s wraps it, with its fast path here (s already on the lap). */
inline int trk_locate_in(const TrkTrack *track, double length_m, double ds_m, int n, double s_m, double *frac)
{
    double s = s_m >= 0.0 && s_m < length_m ? s_m + 0.0 : trk_fast_wrap_s(track, s_m); /* + 0.0: as trk_wrap_s */
    int i = (int)(s / ds_m); /* >= 0: s is in [0, length) */
    if (i >= n)
        i = n - 1;
    double f = (s - i * ds_m) / ds_m;
    *frac = f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
    return i;
}

/* Index of the sample at or before s (s wrapped), and the fraction to the next one. */
inline int trk_locate(const TrkTrack *track, double s_m, double *frac)
{
    return trk_locate_in(track, track->length_m, track->ds_m, track->n, s_m, frac);
}

/* Between samples everything is linear. */
inline double trk_lerp(double a, double b, double f)
{
    return a + f * (b - a);
}

/* The geometry between two samples at fraction f. */
inline TrkGeometry trk_geometry_mix(const TrkSample *a, const TrkSample *b, double f)
{
    return (TrkGeometry){trk_lerp(a->kappa, b->kappa, f), trk_lerp(a->left_m, b->left_m, f),
                         trk_lerp(a->right_m, b->right_m, f)};
}

/* The track and the line between samples i and i + 1 at fraction f. */
inline TrkSpot trk_spot_mix(const TrkTrack *track, int i, double f)
{
    const TrkSample *a = &track->samples[i], *b = &track->samples[i + 1];
    TrkGeometry g = trk_geometry_mix(a, b, f);
    TrkSpot p = {g.kappa, g.left_m, g.right_m, trk_lerp(a->line_d_m, b->line_d_m, f),
                 trk_lerp(a->line_kappa, b->line_kappa, f)};
    return p;
}

/* A field of the samples (at byte offset `offset` in TrkSample) interpolated at s. Inline: each caller gets its own
 * copy with the offset a constant, without a call in between (the drivers read the line and its curvature this way
 * several times per car-tick). */
inline double trk_fast_lerp_field(const TrkTrack *track, double s_m, int *hint, size_t offset)
{
    double f;
    int i = trk_locate(track, s_m, &f);
    const char *a = (const char *)&track->samples[i], *b = (const char *)&track->samples[i + 1];
    double va, vb;
    memcpy(&va, a + offset, sizeof va);
    memcpy(&vb, b + offset, sizeof vb);
    if (hint)
        *hint = i;
    return trk_lerp(va, vb, f);
}

/* The centre line's and the racing line's curvature at s (trk_curvature, trk_line_curvature), inline: the drivers read
 * the curvature ahead every decision and the line's at two places in every judgement of safe following. */
inline double trk_fast_curvature(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_lerp_field(track, s_m, hint, offsetof(TrkSample, kappa));
}

inline double trk_fast_line_curvature(const TrkTrack *track, double s_m, int *hint)
{
    return trk_fast_lerp_field(track, s_m, hint, offsetof(TrkSample, line_kappa));
}

/* The least and the greatest curvature of samples first .. last (0 <= first <= last < n), merged into *lo and *hi,
 * a block of TRK_KAPPA_BLOCK samples at a time: those of the blocks that hold them, a few samples more. */
inline void trk_fast_kappa_blocks(const double *block, int first, int last, double *lo, double *hi)
{
    double m = *lo, M = *hi;
    for (int b = first / TRK_KAPPA_BLOCK; b <= last / TRK_KAPPA_BLOCK; b++) {
        m = block[2 * b] < m ? block[2 * b] : m;
        M = block[2 * b + 1] > M ? block[2 * b + 1] : M;
    }
    *lo = m;
    *hi = M;
}

/* Bounds of trk_curvature(s) for every s from s_from to s_to (0 <= s_from <= s_to < 2 length, s_to - s_from less
 * than half a lap), merged into *lo and *hi: the least and the greatest curvature of the samples those look-ups read,
 * two more at each end (an s past the lap is wrapped, which can move its sample by one). A look-up's lerp stays
 * between its two samples up to a rounding; a block with a sample that is not finite has -INFINITY and INFINITY.
 * False, leaving *lo and *hi as they were, outside that range or without the blocks. */
inline bool trk_fast_curvature_bounds(const TrkTrack *track, double s_from, double s_to, double *lo, double *hi)
{
    const double L = track->length_m;
    const int n = track->n;
    if (!(s_from >= 0.0 && s_to >= s_from && s_to < 2.0 * L && s_to - s_from < 0.5 * L) || !track->kappa_block)
        return false;
    int first = (int)(s_from / track->ds_m) - 2, span = (int)(s_to / track->ds_m) + 2 - first; /* first: -2 .. 2n */
    first = first < 0 ? first + n : (first >= n ? first - n : first);
    int last = first + span; /* first .. last round the lap */
    if (span >= n) /* a track of a few samples */
        first = 0, last = n - 1;
    trk_fast_kappa_blocks(track->kappa_block, first, last < n ? last : n - 1, lo, hi);
    if (last >= n)
        trk_fast_kappa_blocks(track->kappa_block, 0, last - n, lo, hi);
    return true;
}

inline TrkSpot trk_fast_spot_at(const TrkTrack *track, double s_m, int *hint)
{
    double f;
    int i = trk_locate(track, s_m, &f);
    if (hint)
        *hint = i;
    return trk_spot_mix(track, i, f);
}

inline TrkGeometry trk_fast_geometry_at(const TrkTrack *track, double s_m, int *hint)
{
    double f;
    int i = trk_locate(track, s_m, &f);
    if (hint)
        *hint = i;
    return trk_geometry_mix(&track->samples[i], &track->samples[i + 1], f);
}

inline void trk_fast_line_d_n(const TrkTrack *track, const double *s_m, double *out, int n)
{
    const double length_m = track->length_m, ds_m = track->ds_m;
    const int samples = track->n;
    const TrkSample *sm = track->samples;
    for (int k = 0; k < n; k++) {
        double f;
        int i = trk_locate_in(track, length_m, ds_m, samples, s_m[k], &f);
        out[k] = trk_lerp(sm[i].line_d_m, sm[i + 1].line_d_m, f);
    }
}

/* A profile's array (v_mps or limit_mps) interpolated at s_m. */
inline double trk_fast_profile_value(const TrkSpeedProfile *profile, const double *v, double s_m, int *hint)
{
    double L = profile->length_m;
    /* s already in [0, L): floor(s / L) is 0, so the formula gives s (+ 0.0 for -0.0); skips a division */
    double s = (s_m >= 0.0 && s_m < L) ? s_m + 0.0 : (isfinite(s_m) ? s_m - L * floor(s_m / L) : 0.0);
    int i = (int)(s / profile->ds_m);
    if (i >= profile->n || i < 0) /* s can leave [0, L) by rounding, far off for huge s_m */
        i = i < 0 ? 0 : profile->n - 1;
    double f = (s - i * profile->ds_m) / profile->ds_m;
    f = f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
    if (hint)
        *hint = i;
    return trk_lerp(v[i], v[i + 1], f);
}

inline double trk_fast_speed_at(const TrkSpeedProfile *profile, double s_m, int *hint)
{
    return trk_fast_profile_value(profile, profile->v_mps, s_m, hint);
}

/* The least of m and the block minima of a profile's samples first .. last (0 <= first <= last < n). */
inline double trk_fast_block_min(const double *block_min, unsigned first, unsigned last, double m)
{
    for (unsigned b = first / TRK_PROFILE_BLOCK; b <= last / TRK_PROFILE_BLOCK; b++)
        m = block_min[b] < m ? block_min[b] : m;
    return m;
}

/* A speed at or below trk_speed_at(profile, s) for every s from s_m to s_m + reach_m where that is not NaN (a NaN
 * sample only makes the readings next to it NaN): the least block minimum over
 * the samples those look-ups read, with one more at each end (s_m + x and its wrap round, each by less than a
 * sample), less TRK_PROFILE_FLOOR_SLACK_MPS (a lerp between two samples falls below the lower one by at most a
 * rounding of the higher). -INFINITY (no floor) unless -length <= s_m < 2 length and 0 <= reach_m < length, where
 * every wrap of those s is exact or lands within a sample. */
#define TRK_PROFILE_FLOOR_SLACK_MPS 1e-9
inline double trk_fast_speed_floor(const TrkSpeedProfile *profile, double s_m, double reach_m)
{
    int n = profile->n;
    double L = profile->length_m;
    if (!(s_m >= -L && s_m < 2.0 * L && reach_m >= 0.0 && reach_m < L))
        return -INFINITY;
    double w = s_m >= 0.0 && s_m < L ? s_m : s_m - L * floor(s_m / L);
    int i = (int)(w / profile->ds_m) - 1; /* the first sample read, less one */
    i = i < 0 ? i + n : (i >= n ? n - 1 : i);
    int count = (int)ceil(reach_m / profile->ds_m) + 4; /* samples from i on: the last lerp's two, and one more */
    if (count > n)
        count = n;
    /* samples i .. i + count - 1 round the loop: up to n - 1, then from 0 on */
    int last = i + count - 1;
    double m = trk_fast_block_min(profile->block_min_mps, (unsigned)i, (unsigned)(last < n ? last : n - 1), INFINITY);
    if (last >= n)
        m = trk_fast_block_min(profile->block_min_mps, 0, (unsigned)(last - n), m);
    return m - TRK_PROFILE_FLOOR_SLACK_MPS;
}

/* Whether a speed profile samples this track's own grid (it was built on it), so that an arc length on the lap
 * [0, length) falls on the same sample at the same fraction in both: trk_speed_at's wrap, index and clamps are then
 * trk_locate's, operation for operation. Off the lap the two wrap differently (trk_wrap_s maps a rounding to length
 * onto 0, trk_speed_at clamps the index), so the callers below look such an s up twice. */
inline bool trk_profile_on_grid(const TrkTrack *track, const TrkSpeedProfile *profile)
{
    return profile->n == track->n && profile->ds_m == track->ds_m && profile->length_m == track->length_m;
}

/* trk_fast_spot_speed_limit_at with on_grid = trk_profile_on_grid(track, profile) from a caller that keeps it (a
 * driver reads its own plan on its own track every tick; the grids never change). */
inline TrkSpot trk_fast_spot_speed_limit_grid(const TrkTrack *track, const TrkSpeedProfile *profile, bool on_grid,
                                              double s_m, int *hint, double *speed_mps, double *limit_mps)
{
    if (!(s_m >= 0.0 && s_m < track->length_m) || !on_grid) {
        *speed_mps = trk_fast_speed_at(profile, s_m, NULL);
        if (limit_mps)
            *limit_mps = trk_fast_profile_value(profile, profile->limit_mps, s_m, NULL);
        return trk_fast_spot_at(track, s_m, hint);
    }
    double f;
    int i = trk_locate(track, s_m, &f);
    if (hint)
        *hint = i;
    *speed_mps = trk_lerp(profile->v_mps[i], profile->v_mps[i + 1], f); /* as trk_speed_at */
    if (limit_mps)
        *limit_mps = trk_lerp(profile->limit_mps[i], profile->limit_mps[i + 1], f); /* as trk_speed_limit_at */
    return trk_spot_mix(track, i, f);
}

/* trk_fast_spot_speed_at, and the profile's limit (trk_speed_limit_at) into *limit_mps unless it is NULL, from the
 * same look-up. */
inline TrkSpot trk_fast_spot_speed_limit_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m,
                                            int *hint, double *speed_mps, double *limit_mps)
{
    return trk_fast_spot_speed_limit_grid(track, profile, trk_profile_on_grid(track, profile), s_m, hint, speed_mps,
                                          limit_mps);
}

inline TrkSpot trk_fast_spot_speed_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m,
                                      int *hint, double *speed_mps)
{
    return trk_fast_spot_speed_limit_at(track, profile, s_m, hint, speed_mps, NULL);
}

/* trk_fast_line_speed_n with on_grid = trk_profile_on_grid(track, profile) (see trk_fast_spot_speed_limit_grid). */
inline void trk_fast_line_speed_grid_n(const TrkTrack *track, const TrkSpeedProfile *profile, bool on_grid,
                                       const double *s_m, double *line_out, double *speed_out, int n)
{
    const double length_m = track->length_m, ds_m = track->ds_m;
    const int samples = track->n;
    const TrkSample *sm = track->samples;
    const double *v = profile->v_mps;
    for (int k = 0; k < n; k++) {
        double s = s_m[k];
        if (!(on_grid && s >= 0.0 && s < length_m)) {
            trk_fast_line_d_n(track, &s_m[k], &line_out[k], 1);
            speed_out[k] = trk_fast_speed_at(profile, s, NULL);
            continue;
        }
        double f;
        int i = trk_locate_in(track, length_m, ds_m, samples, s, &f);
        line_out[k] = trk_lerp(sm[i].line_d_m, sm[i + 1].line_d_m, f);
        speed_out[k] = trk_lerp(v[i], v[i + 1], f); /* as trk_speed_at */
    }
}

/* trk_fast_line_speed_n for one s, and trk_curvature there, from one look-up of the table (the same sample and
 * fraction as each of them finds); on_grid = trk_profile_on_grid(track, profile), from a caller that keeps it. */
inline void trk_fast_line_speed_curvature(const TrkTrack *track, const TrkSpeedProfile *profile, bool on_grid,
                                          double s_m, double *line_out, double *speed_out, double *kappa_out)
{
    double f;
    int i = trk_locate(track, s_m, &f);
    const TrkSample *a = &track->samples[i], *b = &track->samples[i + 1];
    *line_out = trk_lerp(a->line_d_m, b->line_d_m, f);
    *kappa_out = trk_lerp(a->kappa, b->kappa, f);
    if (on_grid && s_m >= 0.0 && s_m < track->length_m)
        *speed_out = trk_lerp(profile->v_mps[i], profile->v_mps[i + 1], f); /* as trk_speed_at */
    else
        *speed_out = trk_fast_speed_at(profile, s_m, NULL);
}

inline void trk_fast_line_speed_n(const TrkTrack *track, const TrkSpeedProfile *profile, const double *s_m,
                                  double *line_out, double *speed_out, int n)
{
    trk_fast_line_speed_grid_n(track, profile, trk_profile_on_grid(track, profile), s_m, line_out, speed_out, n);
}

#ifndef TRK_FAST_DEFINE
/* A file that includes this header calls the inline forms under the public names of trk.h. */
#define trk_wrap_s trk_fast_wrap_s
#define trk_curvature trk_fast_curvature
#define trk_line_curvature trk_fast_line_curvature
#define trk_spot_at trk_fast_spot_at
#define trk_geometry_at trk_fast_geometry_at
#define trk_line_d_n trk_fast_line_d_n
#define trk_speed_at trk_fast_speed_at
#define trk_speed_floor trk_fast_speed_floor
#define trk_spot_speed_at trk_fast_spot_speed_at
#define trk_spot_speed_limit_at trk_fast_spot_speed_limit_at
#define trk_line_speed_n trk_fast_line_speed_n
#endif

#endif
