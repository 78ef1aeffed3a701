/* drv_beh_commit.c: corner commitment. A lane the car cannot take at its speed is no lane.
 *
 * Each slot is a constant-offset lane whose speed cap (drv_lanes.h) says how fast a car on it may be here and still
 * brake for every corner ahead on it. A car at the limit on the racing line that picks a lane well inside it
 * mid-corner must brake hard there (and the car behind runs into it) or slide wide into its neighbours. So the
 * slots whose cap is below the car's speed get danger in proportion to the shortfall. The reference is the lower of
 * the car's speed and the cap of the racing line's lane: the line (where the speed plan says the car may be this
 * fast) never gets danger of its own, so a car off the line is drawn back to it, never kept off it. */
#include "drv_beh.h"

#include "drv_lanes.h"
#include <stdlib.h> /*T2TMP*/

#define DRV_COMMIT_BAND 0.15   /* shortfall, as a fraction of the reference speed, that makes a lane full danger */
#define DRV_COMMIT_MAX 0.09

void drv_beh_commit(const DrvView *view, const DrvPersonality *p, const DrvBehCtx *ctx, DrvContextMap *map)
{
    (void)p;
    if (getenv("T2_NOCOMMIT")) return; /*T2TMP*/
    if (ctx->lanes == NULL)
        return;
    double v_line = drv_lanes_speed(ctx->lanes, view->s_m, ctx->line_d_m);
    double v_ref = view->speed_mps < v_line ? view->speed_mps : v_line;
    if (!(v_ref > 1.0))
        return;
    double inv_band = 1.0 / (DRV_COMMIT_BAND * v_ref);
    for (int i = 0; i < map->slots; i++) {
        double shortfall = v_ref - drv_lanes_speed(ctx->lanes, view->s_m, drv_map_slot_d(map, i));
        if (shortfall > 0.0) {
            double danger = shortfall * inv_band;
            float f = (float)(DRV_COMMIT_MAX * (danger > 1.0 ? 1.0 : danger));
            if (f > map->danger[i])
                map->danger[i] = f;
        }
    }
}
