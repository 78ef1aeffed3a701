/* trk_profile.c: the car's force model and the speed profile (the fastest speed at each sample of a path).
 *
 * Profile: v_max from curvature and grip (with downforce), then a backward pass (braking inside the friction
 * circle, helped by drag) and a forward pass (power- and traction-limited, inside the friction circle, against
 * drag). Both passes start at the slowest corner, where the speed is known, and go once round the loop. The drivers'
 * plan (TRK_PATH_RACING_LINE_DRIVEN) takes from the friction circle what the car model spends keeping a car on a
 * line that crosses the track while it brakes or drives (trk_long_grip).
 */
#include "trk_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRK_V_CAP_MPS 150.0  /* a speed no car reaches; the limit on a straight */


/*----------------------------------------------------------------------------------------------------------------
 * Car model
 *--------------------------------------------------------------------------------------------------------------*/

TrkCarParams trk_default_car(void)
{
    TrkCarParams c;
    c.mass_kg = 1300.0;
    c.power_w = 400e3;
    c.drag_area_m2 = 0.75;
    c.rolling_coeff = 0.015;
    c.mu = 1.4;
    c.downforce_area_m2 = 1.0;
    c.air_density_kgpm3 = 1.2;
    return c;
}

/* The external definitions of the inline force model in trk.h (for calls the compiler does not inline). */
extern inline double trk_car_drag_n(const TrkCarParams *car, double speed_mps, double drag_factor);
extern inline double trk_car_grip_mps2(const TrkCarParams *car, double speed_mps);
extern inline double trk_car_drive_mps2(const TrkCarParams *car, double speed_mps);

/*----------------------------------------------------------------------------------------------------------------
 * Profile
 *--------------------------------------------------------------------------------------------------------------*/

/* Fastest steady speed on curvature k: v^2 |k| = s mu (g + q ClA v^2 / m), solved for v^2. */
static double trk_corner_speed(const TrkCarParams *car, double grip_scale, double kappa)
{
    double k = fabs(kappa);
    double aero = grip_scale * car->mu * 0.5 * car->air_density_kgpm3 * car->downforce_area_m2 / car->mass_kg;
    if (k <= aero + 1e-12)
        return TRK_V_CAP_MPS;
    double v = sqrt(grip_scale * car->mu * TRK_GRAVITY_MPS2 / (k - aero));
    return v < TRK_V_CAP_MPS ? v : TRK_V_CAP_MPS;
}

/* Longitudinal grip left once the lateral demand v^2 |k| is met (friction circle), toward `dir` (+1 driving, -1
 * braking). `slope`: the path's slope across the centre line, dd/ds / (1 - k_c d) (0 for a path along the centre
 * line or at a constant offset). The car model (sim_physics.c) moves a car along the track and across it with
 * separate speeds and brakes or drives the first only: a car crossing the track on a path of slope q keeps its
 * speed across while it slows, so to stay on the path its tyres must also change that speed, by q times its
 * acceleration, and v^2 k + q a is their lateral demand. Where that costs grip (braking while the path runs toward
 * the outside of the turn, driving while it runs toward the inside) the longitudinal grip is what the circle leaves;
 * where it would give grip back (braking into a turn, toward its inside) the path's own circle is kept, so the plan
 * is never faster than the path itself allows. */
static double trk_long_grip(const TrkCarParams *car, double grip_scale, double v, double kappa, double slope,
                            double dir)
{
    double g = grip_scale * trk_car_grip_mps2(car, v), lat = v * v * fabs(kappa);
    double a = lat >= g ? 0.0 : sqrt(g * g - lat * lat);
    if (slope != 0.0) {
        /* the largest A >= 0 with A^2 + (c + dir q A)^2 <= g^2, c = v^2 k */
        double c = v * v * kappa, q2 = 1.0 + slope * slope, disc = g * g * q2 - c * c;
        double coupled = disc > 0.0 ? (sqrt(disc) - dir * c * slope) / q2 : 0.0;
        coupled = coupled > 0.0 ? coupled : 0.0;
        a = coupled < a ? coupled : a;
    }
    return a;
}

/* slope: NULL, or the path's slope across the centre line at each sample (trk_long_grip). limit gets the
 * backward pass alone (trk_speed_limit_at). */
static void trk_profile_passes(const TrkCarParams *car, double grip_scale, const double *kappa, const double *slope,
                               const double *ds, double *v, double *limit, int n)
{
    int start = 0;
    for (int i = 0; i < n; i++) {
        v[i] = trk_corner_speed(car, grip_scale, kappa[i]);
        if (v[i] < v[start])
            start = i;
    }
    /* Backward: the speed at i is at most what braking over ds[i] can shed before i + 1. i runs round the loop
     * from start - 1 down to start, j is the sample after it (stepped, not two % a step). */
    for (int k = 1, j = start; k <= n; k++) {
        int i = j == 0 ? n - 1 : j - 1;
        double a = trk_long_grip(car, grip_scale, v[j], kappa[j], slope ? slope[j] : 0.0, -1.0) +
                   trk_car_drag_n(car, v[j], 1.0) / car->mass_kg;
        double vi = sqrt(v[j] * v[j] + 2.0 * a * ds[i]);
        if (vi < v[i])
            v[i] = vi;
        j = i;
    }
    for (int i = 0; i < n; i++)
        limit[i] = v[i];
    /* Forward: the speed at i + 1 is at most what the engine and the remaining grip give over ds[i]; i runs from
     * start round the loop. */
    for (int k = 0, i = start; k < n; k++) {
        int j = i + 1 == n ? 0 : i + 1;
        double drive = trk_car_drive_mps2(car, v[i]), traction = grip_scale * car->mu * TRK_GRAVITY_MPS2;
        drive = drive < traction ? drive : traction;
        double grip = trk_long_grip(car, grip_scale, v[i], kappa[i], slope ? slope[i] : 0.0, 1.0);
        double a = (drive < grip ? drive : grip) - trk_car_drag_n(car, v[i], 1.0) / car->mass_kg;
        double v2 = v[i] * v[i] + 2.0 * a * ds[i];
        double vj = v2 > 0.0 ? sqrt(v2) : 0.0;
        if (vj < v[j])
            v[j] = vj;
        i = j;
    }
    if (n > 0) /* always (a track has at least 16 samples); says so to the compiler */
        v[n] = v[0], limit[n] = limit[0]; /* the copies that spare trk_speed_at a wrap (n + 1 entries each) */
}

/* Path curvature averaged over about +-2 m: survey noise in a centreline must not read as a string of tiny
 * corners. */
static void trk_profile_curvature(const TrkTrack *track, TrkPath path, double *out)
{
    int n = track->n, h = (int)lround(2.0 / track->ds_m);
    if (h < 1)
        h = 1;
    if (2 * h >= n)
        h = (n - 1) / 2;
    double sum = 0.0;
    for (int k = -h; k <= h; k++) {
        const TrkSample *s = &track->samples[(k + n) % n];
        sum += path != TRK_PATH_CENTRE ? s->line_kappa : s->kappa;
    }
    for (int i = 0; i < n; i++) {
        out[i] = sum / (2 * h + 1);
        const TrkSample *add = &track->samples[(i + h + 1) % n], *sub = &track->samples[(i - h + n) % n];
        sum += path != TRK_PATH_CENTRE ? add->line_kappa - sub->line_kappa : add->kappa - sub->kappa;
    }
}

/* out[b]: the least of v[b * TRK_PROFILE_BLOCK ..] over the block's samples (the last block may be short), NaN ones
 * left out (INFINITY when all are NaN). */
static void trk_profile_block_min(const double *v, int n, double *out)
{
    for (int b = 0; b * TRK_PROFILE_BLOCK < n; b++) {
        int end = (b + 1) * TRK_PROFILE_BLOCK < n ? (b + 1) * TRK_PROFILE_BLOCK : n;
        double m = INFINITY;
        for (int i = b * TRK_PROFILE_BLOCK; i < end; i++)
            m = v[i] < m ? v[i] : m;
        out[b] = m;
    }
}

/* The path's part of a profile (see trk.h): its curvature, its length per sample and, for the driven racing line,
 * its slope across the centre line, the same for every car and grip. */
struct TrkProfileBase {
    int n;
    double ds_m, length_m;
    double *kappa;     /* n */
    double *path_ds_m; /* n */
    double *slope;     /* n, or NULL: a path with none (trk_long_grip) */
};

TrkProfileBase *trk_profile_base_create(const TrkTrack *track, TrkPath path)
{
    int n = track->n;
    bool driven = path == TRK_PATH_RACING_LINE_DRIVEN;
    TrkProfileBase *b = calloc(1, sizeof *b);
    if (b)
        b->kappa = malloc(sizeof(double) * (driven ? 3 : 2) * (size_t)n);
    if (!b || !b->kappa) {
        free(b);
        return NULL;
    }
    b->n = n;
    b->ds_m = track->ds_m;
    b->length_m = track->length_m;
    b->path_ds_m = b->kappa + n;
    trk_profile_curvature(track, path, b->kappa);
    for (int i = 0; i < n; i++)
        b->path_ds_m[i] = path != TRK_PATH_CENTRE ? track->samples[i].line_ds_m : track->ds_m;
    if (driven) {
        b->slope = b->path_ds_m + n;
        for (int i = 0; i < n; i++) {
            const TrkSample *a = &track->samples[i == 0 ? n - 1 : i - 1], *c2 = &track->samples[i + 1 == n ? 0 : i + 1];
            const TrkSample *c = &track->samples[i];
            b->slope[i] = (c2->line_d_m - a->line_d_m) / (2.0 * track->ds_m * trk_path_scale(c->kappa, c->line_d_m));
        }
    }
    return b;
}

void trk_profile_base_free(TrkProfileBase *base)
{
    if (!base)
        return;
    free(base->kappa);
    free(base);
}

TrkSpeedProfile *trk_speed_profile_create_on(const TrkProfileBase *base, const TrkCarParams *car, double grip_scale)
{
    int n = base->n;
    TrkSpeedProfile *p = calloc(1, sizeof *p);
    size_t blocks = ((size_t)n + TRK_PROFILE_BLOCK - 1) / TRK_PROFILE_BLOCK;
    if (p)
        p->v_mps = malloc(sizeof(double) * (4 * (size_t)n + 2 + blocks));
    if (!p || !p->v_mps) {
        free(p);
        return NULL;
    }
    if (!(grip_scale > 0.0))
        grip_scale = 1e-3;
    if (grip_scale > 1.0)
        grip_scale = 1.0;
    p->kappa = p->v_mps + n + 1; /* v_mps[n] repeats v_mps[0] (trk_profile_passes), so trk_speed_at never wraps an index */
    p->path_ds_m = p->kappa + n;
    p->limit_mps = p->path_ds_m + n;
    p->block_min_mps = p->limit_mps + n + 1;
    memcpy(p->kappa, base->kappa, sizeof(double) * (size_t)n);
    memcpy(p->path_ds_m, base->path_ds_m, sizeof(double) * (size_t)n);
    p->n = n;
    p->ds_m = base->ds_m;
    p->length_m = base->length_m;
    trk_profile_passes(car, grip_scale, p->kappa, base->slope, p->path_ds_m, p->v_mps, p->limit_mps, n);
    trk_profile_block_min(p->v_mps, n, p->block_min_mps);
    double t = 0.0;
    for (int i = 0; i < n; i++) {
        double vm = 0.5 * (p->v_mps[i] + p->v_mps[(i + 1) % n]);
        t += p->path_ds_m[i] / (vm > 0.1 ? vm : 0.1);
    }
    p->lap_time_s = t;
    return p;
}

TrkSpeedProfile *trk_speed_profile_create(const TrkTrack *track, const TrkCarParams *car, TrkPath path,
                                          double grip_scale)
{
    TrkProfileBase *base = trk_profile_base_create(track, path);
    TrkSpeedProfile *p = base ? trk_speed_profile_create_on(base, car, grip_scale) : NULL;
    trk_profile_base_free(base);
    return p;
}

void trk_speed_profile_free(TrkSpeedProfile *profile)
{
    if (!profile)
        return;
    free(profile->v_mps);
    free(profile);
}

double trk_profile_lap_time(const TrkSpeedProfile *profile)
{
    return profile->lap_time_s;
}
