/* drv_post.h: optional post-processing of a driver's context maps, applied before resolving. */
#ifndef DRV_POST_H
#define DRV_POST_H

#include "drv_map.h"

/* Blurs the danger map in place: box (uniform) or Gaussian (sigma = radius / 2) over radius slots either side,
 * edges renormalised, keeping the larger of blurred and raw value per slot, so blurring widens and smooths
 * obstacles but never thins them. Interest is left sharp: blurring it only flattens the racing line's peak and
 * biases it toward the map's edges. */
void drv_post_blur(DrvContextMap *map, DrvBlur blur, int radius);

/* The blur's weights for one shape and radius, kept by the caller between blurs: they depend on nothing else, so
 * drv_post_blur_kept computes them (radius exp() calls for a Gaussian) only when the shape or the radius differs
 * from the kept ones. All zero is a valid empty state (no radius is 0). */
#define DRV_BLUR_MAX_RADIUS 16
typedef struct DrvBlurWeights {
    DrvBlur blur;
    int radius;                          /* of w; 0: none kept */
    double w[DRV_BLUR_MAX_RADIUS + 1];   /* by offset 0..radius */
} DrvBlurWeights;

/* drv_post_blur with the weights kept in *kept: the same map, bit for bit. */
void drv_post_blur_kept(DrvContextMap *map, DrvBlur blur, int radius, DrvBlurWeights *kept);

/* Temporal hysteresis: blends the maps with the previous tick's (resampled by lateral offset when the slot count or
 * the span changed): value = (1 - h) * now + h * previous. Danger rises at once and only its fall is damped
 * (value = max(now, blend)), so hysteresis never hides a new car. `prev` is then replaced by the result. When
 * has_prev is false, prev is just initialised. */
void drv_post_hysteresis(DrvContextMap *map, DrvContextMap *prev, bool *has_prev, double h);

/* Value of a map at an arbitrary offset, linear between slot centres, clamped at the ends. */
double drv_map_sample(const DrvContextMap *map, DrvMapWhich which, double d_m);

#endif
