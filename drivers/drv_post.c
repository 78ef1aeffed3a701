/* drv_post.c: blur and temporal hysteresis of context maps. The only state (the previous maps) belongs to the
 * driver and is passed in; nothing here is kept between calls. */
#include "drv_post.h"

#include <math.h>
#include <string.h>

#define DRV_BLUR_MAX_RADIUS 16

static void drv_blur_weights(DrvBlur blur, int radius, double *w)
{
    /* exp() only radius+1 times per call, outside the per-slot loop */
    double sigma = radius * 0.5;
    for (int k = 0; k <= radius; k++)
        w[k] = blur == DRV_BLUR_GAUSS ? exp(-0.5 * (k * k) / (sigma * sigma)) : 1.0;
}

static void drv_blur_max(float *v, int n, const double *w, int radius)
{
    float out[DRV_MAX_SLOTS];
    for (int i = 0; i < n; i++) {
        double sum = 0.0, wsum = 0.0;
        for (int k = -radius; k <= radius; k++) {
            int j = i + k;
            if (j < 0 || j >= n)
                continue;
            double wk = w[k < 0 ? -k : k];
            sum += wk * v[j];
            wsum += wk;
        }
        float b = (float)(sum / wsum);
        out[i] = v[i] > b ? v[i] : b;
    }
    memcpy(v, out, (size_t)n * sizeof *v);
}

void drv_post_blur(DrvContextMap *map, DrvBlur blur, int radius)
{
    if (blur == DRV_BLUR_NONE || radius <= 0)
        return;
    if (radius > DRV_BLUR_MAX_RADIUS)
        radius = DRV_BLUR_MAX_RADIUS;
    double w[DRV_BLUR_MAX_RADIUS + 1];
    drv_blur_weights(blur, radius, w);
    drv_blur_max(map->danger, map->slots, w, radius);
}

double drv_map_sample(const DrvContextMap *map, DrvMapWhich which, double d_m)
{
    const float *v = which == DRV_MAP_DANGER ? map->danger : map->interest;
    double f = drv_map_d_to_slotf(map, d_m);
    if (!(f > 0.0))
        return v[0];
    if (f >= map->slots - 1)
        return v[map->slots - 1];
    int i = (int)f;
    double t = f - i;
    return (1.0 - t) * v[i] + t * v[i + 1];
}

void drv_post_hysteresis(DrvContextMap *map, DrvContextMap *prev, bool *has_prev, double h)
{
    if (*has_prev && h > 0.0) {
        bool same = prev->slots == map->slots && prev->d_left_m == map->d_left_m && prev->d_right_m == map->d_right_m;
        for (int i = 0; i < map->slots; i++) {
            double pd, pi;
            if (same) {
                pd = prev->danger[i];
                pi = prev->interest[i];
            } else {
                double d = drv_map_slot_d(map, i);
                pd = drv_map_sample(prev, DRV_MAP_DANGER, d);
                pi = drv_map_sample(prev, DRV_MAP_INTEREST, d);
            }
            float bd = (float)((1.0 - h) * map->danger[i] + h * pd);
            if (bd > map->danger[i])
                map->danger[i] = bd;
            map->interest[i] = (float)((1.0 - h) * map->interest[i] + h * pi);
        }
    }
    *prev = *map;
    *has_prev = true;
}
