/* trk_profile.c: the car's force model and the speed profile (the fastest speed at each sample of a path).
 *
 * Profile: v_max from curvature and grip (with downforce), then a backward pass (braking inside the friction
 * circle, helped by drag) and a forward pass (power- and traction-limited, inside the friction circle, against
 * drag). Both passes start at the slowest corner, where the speed is known, and go once round the loop.
 */
#include "trk_internal.h"

#include <math.h>
#include <stdlib.h>

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

/* Longitudinal grip left once the lateral demand v^2 |k| is met (friction circle). */
static double trk_long_grip(const TrkCarParams *car, double grip_scale, double v, double kappa)
{
    double g = grip_scale * trk_car_grip_mps2(car, v), lat = v * v * fabs(kappa);
    return lat >= g ? 0.0 : sqrt(g * g - lat * lat);
}

static void trk_profile_passes(const TrkCarParams *car, double grip_scale, const double *kappa, const double *ds,
                               double *v, int n)
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
        double a = trk_long_grip(car, grip_scale, v[j], kappa[j]) + trk_car_drag_n(car, v[j], 1.0) / car->mass_kg;
        double vi = sqrt(v[j] * v[j] + 2.0 * a * ds[i]);
        if (vi < v[i])
            v[i] = vi;
        j = i;
    }
    /* Forward: the speed at i + 1 is at most what the engine and the remaining grip give over ds[i]; i runs from
     * start round the loop. */
    for (int k = 0, i = start; k < n; k++) {
        int j = i + 1 == n ? 0 : i + 1;
        double drive = trk_car_drive_mps2(car, v[i]), traction = grip_scale * car->mu * TRK_GRAVITY_MPS2;
        drive = drive < traction ? drive : traction;
        double grip = trk_long_grip(car, grip_scale, v[i], kappa[i]);
        double a = (drive < grip ? drive : grip) - trk_car_drag_n(car, v[i], 1.0) / car->mass_kg;
        double v2 = v[i] * v[i] + 2.0 * a * ds[i];
        double vj = v2 > 0.0 ? sqrt(v2) : 0.0;
        if (vj < v[j])
            v[j] = vj;
        i = j;
    }
    if (n > 0) /* always (a track has at least 16 samples); says so to the compiler */
        v[n] = v[0]; /* the copy that spares trk_speed_at a wrap (v has n + 1 entries) */
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
        sum += path == TRK_PATH_RACING_LINE ? s->line_kappa : s->kappa;
    }
    for (int i = 0; i < n; i++) {
        out[i] = sum / (2 * h + 1);
        const TrkSample *add = &track->samples[(i + h + 1) % n], *sub = &track->samples[(i - h + n) % n];
        sum += path == TRK_PATH_RACING_LINE ? add->line_kappa - sub->line_kappa : add->kappa - sub->kappa;
    }
}

TrkSpeedProfile *trk_speed_profile_create(const TrkTrack *track, const TrkCarParams *car, TrkPath path,
                                          double grip_scale)
{
    int n = track->n;
    TrkSpeedProfile *p = calloc(1, sizeof *p);
    if (p)
        p->v_mps = malloc(sizeof(double) * (3 * (size_t)n + 1));
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
    trk_profile_curvature(track, path, p->kappa);
    for (int i = 0; i < n; i++)
        p->path_ds_m[i] = path == TRK_PATH_RACING_LINE ? track->samples[i].line_ds_m : track->ds_m;
    p->n = n;
    p->ds_m = track->ds_m;
    p->length_m = track->length_m;
    trk_profile_passes(car, grip_scale, p->kappa, p->path_ds_m, p->v_mps, n);
    double t = 0.0;
    for (int i = 0; i < n; i++) {
        double vm = 0.5 * (p->v_mps[i] + p->v_mps[(i + 1) % n]);
        t += p->path_ds_m[i] / (vm > 0.1 ? vm : 0.1);
    }
    p->lap_time_s = t;
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
