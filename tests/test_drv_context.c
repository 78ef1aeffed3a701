/* test_drv_context.c: the context driver's maps (drivers/drv_context.c). The driver's blur spreads the danger other
 * cars write, not the track's own: the track limits and the lanes too fast for the corners ahead are written after it,
 * so a driver with a coarse, blurred map sees the same track as everyone, and a racing line near an edge stays
 * reachable. */
#include "../drivers/drv.h"
#include "../drivers/drv_beh.h"
#include "../drivers/drv_context.h"
#include "../drivers/drv_drive.h"
#include "../drivers/drv_internal.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>
#include <string.h>

/* Sam Rookie's map: 16 slots and a box blur of radius 1 (data/drivers/rookie.ini). */
static DrvPersonality blurred(void)
{
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    p.slots = 16;
    p.blur = DRV_BLUR_BOX;
    p.blur_radius = 1;
    return p;
}

/* The same map without the blur. */
static DrvPersonality unblurred(void)
{
    DrvPersonality p = blurred();
    p.blur = DRV_BLUR_NONE;
    p.blur_radius = 0;
    return p;
}

/* Both maps of one decision at s on the racing line at v, with the cars given, as drv_context_decide fills them. */
static void fill(const TrkTrack *t, DrvDriver *d, const DrvPersonality *p, double s, double v, const DrvOther *o,
                 int n, DrvContextMap *map)
{
    double line = trk_line_d(t, s, NULL);
    DrvView view = {.track = t, .tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = s, .d_m = line, .speed_mps = v,
                    .length_m = 4.6, .width_m = 2.0, .others = o, .other_count = n};
    DrvHere here;
    drv_drive_here(d, &view, s + 20.0, &here);
    DrvBehCtx ctx = {.half_width_m = 1.0, .half_length_m = 2.3, .line_d_m = line, .d_left_ahead_m = 6.5,
                     .d_right_ahead_m = -6.5, .on_straight = false, .grip_mps2 = here.grip_mps2,
                     .line_speed_mps = here.line_speed_mps, .lanes = d->lanes, .plan = d->profile, .s_m = s,
                     .track = t, .attacked_id = -1};
    ctx.attack = drv_attack_judge(&view, &ctx);
    drv_map_init(map, p->slots, 6.5, -6.5);
    DrvBlurWeights kept = {0};
    drv_context_behaviours(&view, p, &ctx, map, &kept);
}

static int danger_slots(const DrvContextMap *map)
{
    int n = 0;
    for (int i = 0; i < map->slots; i++)
        n += map->danger[i] > 0.0f;
    return n;
}

static int test_blur_spreads_traffic_not_the_track(void)
{
    TrkTrack *t;
    DrvDriver *d;
    TST_CHECK(drv_tst_open_gp(&t, &d));
    DrvPersonality p = blurred(), sharp = unblurred();
    /* in turn 1's braking zone at 62 m/s, alone: the lanes off the line are too fast for the corner (danger) */
    DrvContextMap with_blur, without;
    fill(t, d, &p, 740.0, 62.0, NULL, 0, &with_blur);
    fill(t, d, &sharp, 740.0, 62.0, NULL, 0, &without);
    TST_CHECK(danger_slots(&without) > 0);
    TST_CHECK(memcmp(with_blur.danger, without.danger, (size_t)without.slots * sizeof without.danger[0]) == 0);
    /* a car 12 m ahead on the right: its danger is spread a slot further either side by the blur */
    DrvOther o = {.id = 1, .ds_m = 12.0, .d_m = -3.0, .speed_mps = 40.0, .length_m = 4.6, .width_m = 2.0};
    fill(t, d, &p, 100.0, 60.0, &o, 1, &with_blur);
    fill(t, d, &sharp, 100.0, 60.0, &o, 1, &without);
    TST_CHECK(danger_slots(&with_blur) > danger_slots(&without));
    drv_tst_close(t, d);
    return 0;
}

/* The offset a fresh driver aims for at s on the racing line at v, with a car 20 m behind it in its wake (company: the
 * driver decides through its maps). */
static double aim(const TrkTrack *t, const DrvPersonality *p, double s, double v)
{
    DrvDriver *d = drv_create(p, t, NULL, 1);
    if (d == NULL)
        return NAN;
    double line = trk_line_d(t, s, NULL);
    DrvOther o = {.id = 1, .ds_m = -20.0, .d_m = line, .speed_mps = v, .length_m = 4.6, .width_m = 2.0};
    DrvView view = {.track = t, .tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = s, .d_m = line, .speed_mps = v,
                    .length_m = 4.6, .width_m = 2.0, .others = &o, .other_count = 1};
    DrvControls c;
    drv_think(d, &view, &c);
    drv_destroy(d);
    return c.target_d_m;
}

static int test_blurred_driver_with_company_keeps_the_line(void)
{
    TrkTrack *t;
    DrvDriver *d;
    TST_CHECK(drv_tst_open_gp(&t, &d));
    DrvPersonality p = blurred(), sharp = unblurred();
    /* through the S after the hairpin, where the line swings out to the left edge, at the plan's speed */
    int same = 0, n = 0;
    for (double s = 1400.0; s <= 1480.0; s += 5.0, n++) {
        double v = trk_speed_at(d->profile, s, NULL);
        same += fabs(aim(t, &p, s, v) - aim(t, &sharp, s, v)) < 0.05;
    }
    TST_CHECK(same == n);
    drv_tst_close(t, d);
    return 0;
}

int main(void)
{
    TST_RUN(test_blur_spreads_traffic_not_the_track);
    TST_RUN(test_blurred_driver_with_company_keeps_the_line);
    return tst_report();
}
