/* test_drv_defend.c: the defence (drivers/drv_beh_defend.c). Before turn 1 of gp, a right-hander at the end of the
 * main straight, a driver with a car close behind in its wake takes the inside (the right); it does not move for a car
 * that has already left its wake, far from a braking zone, on the first lap, or when its `defend` is 0. */
#include "../drivers/drv.h"
#include "../drivers/drv_beh.h"
#include "../drivers/drv_internal.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>

#define EDGE_M 6.5 /* the usable width's limit either side on gp (7.5 m less half a car), m */

/* The interest the defence writes, at its most, and where: we at s on the line at 60 m/s, a car `ds_m` behind us
 * (centre to centre) at offset `d_other` (NAN: on our line) and our speed. */
static float defend_peak(const TrkTrack *track, DrvPersonality p, double s, double ds_m, double d_other, int laps_done,
                         double *at_d)
{
    double d = trk_line_d(track, s, NULL);
    DrvOther o = {.id = 1, .ds_m = ds_m, .d_m = isnan(d_other) ? d : d_other, .speed_mps = 60.0, .length_m = 4.6,
                  .width_m = 2.0};
    DrvView view = {.track = track, .tick = 100, .dt_s = 0.01, .laps_done = laps_done, .s_m = s, .d_m = d,
                    .speed_mps = 60.0, .length_m = 4.6, .width_m = 2.0, .others = &o, .other_count = 1};
    DrvDriver *driver = drv_create(&p, track, NULL, 1);
    if (driver == NULL)
        return -1.0f;
    DrvBehCtx ctx = {.half_width_m = 1.0, .half_length_m = 2.3, .line_d_m = d, .d_left_ahead_m = EDGE_M,
                     .d_right_ahead_m = -EDGE_M, .s_m = s, .track = track, .plan = driver->profile,
                     .first_lap_manners = laps_done == 0};
    DrvContextMap map;
    drv_map_init(&map, 32, EDGE_M, -EDGE_M);
    drv_beh_defend(&view, &p, &ctx, &map);
    float best = 0.0f;
    *at_d = NAN;
    for (int i = 0; i < map.slots; i++)
        if (map.interest[i] > best)
            best = map.interest[i], *at_d = drv_map_slot_d(&map, i);
    drv_destroy(driver);
    return best;
}

static int test_covers_the_inside_before_the_braking_zone(void)
{
    TrkTrack *track;
    DrvDriver *unused;
    TST_CHECK(drv_tst_open_gp(&track, &unused));
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    p.defend = 1.0;
    double at;
    /* 200 m before turn 1's braking, a car 8 m behind in our wake: the inside (right) edge, at full interest */
    TST_CHECK(defend_peak(track, p, 600.0, -8.0, NAN, 1, &at) > 0.99f);
    TST_CHECK(at < -EDGE_M + 1.0);
    /* a weaker defender writes less */
    p.defend = 0.25;
    float weak = defend_peak(track, p, 600.0, -8.0, NAN, 1, &at);
    TST_CHECK(weak > 0.6f && weak < 0.8f);
    p.defend = 1.0;
    /* none for a car already beside us, out of our wake */
    TST_CHECK(defend_peak(track, p, 600.0, -8.0, 2.0, 1, &at) == 0.0f);
    /* none far from a braking zone, none on the first lap, none for a driver who does not defend */
    TST_CHECK(defend_peak(track, p, 100.0, -8.0, NAN, 1, &at) == 0.0f);
    TST_CHECK(defend_peak(track, p, 600.0, -8.0, NAN, 0, &at) == 0.0f);
    p.defend = 0.0;
    TST_CHECK(defend_peak(track, p, 600.0, -8.0, NAN, 1, &at) == 0.0f);
    drv_tst_close(track, unused);
    return 0;
}

int main(void)
{
    TST_RUN(test_covers_the_inside_before_the_braking_zone);
    return tst_report();
}
