/* drv_beh_edge.c: the track limits.
 *
 * Two contributions. Where the track will be narrower a moment ahead than it is here, the offsets that will be off
 * the track are real danger (with a short skirt), so nobody aims at a strip of track about to end. And a token
 * danger in the last few tens of centimetres of today's track, below the resolver's mask tolerance and the walk's
 * floor, so it only separates otherwise equal choices (a wheel's width of margin) and never blocks the racing line,
 * which itself runs close to the edge. */
#include "drv_beh.h"

#define DRV_EDGE_TOKEN_DANGER 0.04
#define DRV_EDGE_ZONE_M 0.25
#define DRV_EDGE_NARROWING_DANGER 0.5
#define DRV_EDGE_NARROWING_SKIRT_M 0.5
#define DRV_EDGE_FAR_M 20.0 /* "beyond the edge" for a band: further than any track is wide */

void drv_beh_edge_tokens(DrvContextMap *map, DrvMapWhich which)
{
    double l = map->d_left_m, r = map->d_right_m;
    drv_map_write_band(map, which, l, l + DRV_EDGE_FAR_M, DRV_EDGE_TOKEN_DANGER, DRV_EDGE_ZONE_M);
    drv_map_write_band(map, which, r - DRV_EDGE_FAR_M, r, DRV_EDGE_TOKEN_DANGER, DRV_EDGE_ZONE_M);
}

void drv_beh_edge(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)view;
    (void)p;
    double l = map->d_left_m, r = map->d_right_m;
    if (ctx->edge_tokens != NULL)
        drv_map_stamp_merge(map, DRV_MAP_DANGER, ctx->edge_tokens); /* as the driver kept them for this span */
    else
        drv_beh_edge_tokens(map, DRV_MAP_DANGER);
    if (ctx->d_left_ahead_m < l)
        drv_map_write_band(map, DRV_MAP_DANGER, ctx->d_left_ahead_m, ctx->d_left_ahead_m + DRV_EDGE_FAR_M,
                           DRV_EDGE_NARROWING_DANGER, DRV_EDGE_NARROWING_SKIRT_M);
    if (ctx->d_right_ahead_m > r)
        drv_map_write_band(map, DRV_MAP_DANGER, ctx->d_right_ahead_m - DRV_EDGE_FAR_M, ctx->d_right_ahead_m,
                           DRV_EDGE_NARROWING_DANGER, DRV_EDGE_NARROWING_SKIRT_M);
}
