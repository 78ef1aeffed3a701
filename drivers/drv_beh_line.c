/* drv_beh_line.c: the racing line as interest.
 *
 * Two peaks merged by max: a broad, low one spanning the whole track, so every slot has a gradient back to the
 * line, and a narrow full-weight one at the line. The narrow peak is what other interests (drafting, passing) must
 * beat, which they can a few metres away from the line but not on it. */
#include "drv_beh.h"

#define DRV_LINE_BROAD_FRACTION 0.3 /* height of the broad peak relative to line_weight */
#define DRV_LINE_NARROW_FALLOFF_M 3.0

void drv_beh_line(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)view;
    double span = map->d_left_m - map->d_right_m;
    /* a floor everywhere, the broad peak and the narrow one, in one call */
    drv_map_write_two_peaks_on_floor(map, DRV_MAP_INTEREST, 0.02, ctx->line_d_m,
                                     DRV_LINE_BROAD_FRACTION * p->line_weight, 2.0 * span + 1.0, p->line_weight,
                                     DRV_LINE_NARROW_FALLOFF_M);
}
