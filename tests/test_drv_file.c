/* test_drv_file.c: single file where the racing line sweeps across the track (drivers/drv_drive.c). A car whose
 * nose is behind another's, side by side with it, must be a bumper gap behind it where the sweep begins: its limit
 * is a braking curve to that point, gentle while the sweep is far and steeper as it nears, and no limit at all
 * where the line does not sweep or where the other car is already far enough ahead. */
#include "../drivers/drv.h"
#include "../drivers/drv_drive.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>

/* gp's S-bend after turn 1: the line runs at 5 m left until s = 1045 m, then sweeps to 5 m right by s = 1132 m. */
#define V_MPS 30.0

/* Our target speed and the limit that set it, on the line at s at V_MPS, with a car on our left whose tail is
 * `gap_m` ahead of our nose (negative: overlapping), at our speed. */
static double file_target(TrkTrack *track, DrvDriver *driver, double s, double gap_m, DrvLimit *limit)
{
    double d = trk_line_d(track, s, NULL);
    DrvOther o = {.id = 1, .ds_m = 4.6 + gap_m, .d_m = d + 2.5, .speed_mps = V_MPS, .length_m = 4.6,
                  .width_m = 2.0};
    DrvView view = {.track = track, .tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = s, .d_m = d,
                    .speed_mps = V_MPS, .length_m = 4.6, .width_m = 2.0, .others = &o, .other_count = 1};
    DrvHere here;
    drv_drive_here(driver, &view, s + 20.0, &here);
    DrvControls out;
    drv_drive_control(driver, &view, d, d, &here, false, &out);
    *limit = out.limit;
    return out.target_speed_mps;
}

static int test_single_file_is_a_braking_curve(void)
{
    TrkTrack *track;
    DrvDriver *driver;
    TST_CHECK(drv_tst_open_gp(&track, &driver));
    DrvLimit limit;
    /* overlapping by 2 m: 3 m to drop back by the sweep */
    double far = file_target(track, driver, 1030.0, -2.0, &limit);
    TST_CHECK(limit == DRV_LIMIT_SINGLE_FILE);
    double near = file_target(track, driver, 1045.0, -2.0, &limit);
    TST_CHECK(limit == DRV_LIMIT_SINGLE_FILE);
    double in = file_target(track, driver, 1075.0, -2.0, &limit);
    TST_CHECK(limit == DRV_LIMIT_SINGLE_FILE);
    /* below the other car's speed, the more the nearer the sweep; in it, what is missing over the least time */
    TST_CHECK(far < V_MPS && near < far && in < near);
    TST_CHECK(far > V_MPS - 5.0);
    TST_NEAR(in, V_MPS - 3.0 / 0.5, 1e-9);
    /* more overlap, lower limit */
    double deeper = file_target(track, driver, 1030.0, -4.0, &limit);
    TST_CHECK(deeper < far);
    /* a car already a bumper gap ahead sets no limit below its speed; one 8 m ahead none at all */
    TST_CHECK(file_target(track, driver, 1055.0, 2.0, &limit) >= V_MPS);
    TST_CHECK(file_target(track, driver, 1055.0, 8.5, &limit) >= V_MPS && limit != DRV_LIMIT_SINGLE_FILE);
    /* on the straight before it, where the line does not sweep within the driver's reach, none either */
    file_target(track, driver, 960.0, -2.0, &limit);
    TST_CHECK(limit != DRV_LIMIT_SINGLE_FILE);
    drv_tst_close(track, driver);
    return 0;
}

int main(void)
{
    TST_RUN(test_single_file_is_a_braking_curve);
    return tst_report();
}
