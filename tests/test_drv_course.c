/* test_drv_course.c: which car ahead a driver follows (drivers/drv_drive.c, the car on its course). A car moving
 * across the track into the lane we aim for is followed before it gets there, when its lateral speed takes it there
 * by the time we reach it; the same car holding its lane, or moving away from ours, is not. */
#include "../drivers/drv.h"
#include "../drivers/drv_drive.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>

/* On gp's main straight at s = 300 m, at 50 m/s, aiming for the lane at d = 0 (off the racing line, which runs at
 * 6 m left): a car 8 m ahead (bumper gap) at 45 m/s, 4 m right of our lane and moving across at lat_mps. Returns
 * our target speed; *limit the limit that set it. */
static double course_target(TrkTrack *track, DrvDriver *driver, double lat_mps, DrvLimit *limit)
{
    const double s = 300.0, v = 50.0;
    DrvOther o = {.id = 1, .ds_m = 4.6 + 8.0, .d_m = -4.0, .lat_speed_mps = lat_mps, .speed_mps = 45.0,
                  .length_m = 4.6, .width_m = 2.0};
    DrvView view = {.track = track, .tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = s, .d_m = 0.0,
                    .speed_mps = v, .length_m = 4.6, .width_m = 2.0, .others = &o, .other_count = 1};
    DrvHere here;
    drv_drive_here(driver, &view, s + 20.0, &here);
    DrvControls out;
    drv_drive_control(driver, &view, 0.0, trk_line_d(track, s + 20.0, NULL), &here, false, &out);
    *limit = out.limit;
    return out.target_speed_mps;
}

static int test_a_car_moving_into_our_lane_is_followed(void)
{
    TrkTrack *track;
    DrvDriver *driver;
    TST_CHECK(drv_tst_open_gp(&track, &driver));
    DrvLimit limit;
    /* holding its lane 4 m to our right: not on our course */
    double held = course_target(track, driver, 0.0, &limit);
    TST_CHECK(limit != DRV_LIMIT_FOLLOW);
    /* moving away from our lane: not either */
    double away = course_target(track, driver, -5.0, &limit);
    TST_CHECK(limit != DRV_LIMIT_FOLLOW);
    TST_NEAR(away, held, 1e-9);
    /* moving toward it at 5 m/s: in our lane within the second we take to reach it, so followed now */
    double into = course_target(track, driver, 5.0, &limit);
    TST_CHECK(limit == DRV_LIMIT_FOLLOW);
    TST_CHECK(into < held - 5.0); /* the free target is the tow's; following cuts it by metres a second */
    /* so fast that it is across our lane and beyond by then: it still crosses our way */
    course_target(track, driver, 9.0, &limit);
    TST_CHECK(limit == DRV_LIMIT_FOLLOW);
    drv_tst_close(track, driver);
    return 0;
}

int main(void)
{
    TST_RUN(test_a_car_moving_into_our_lane_is_followed);
    return tst_report();
}
