/* drv_control.c: the shared low-level control both driver models use, so comparisons between models are fair. The
 * formulas are inline in drv_control.h (the context control runs them every car-tick). */
#include "drv_control.h"

double drv_steer_toward_grip(const DrvView *view, double target_d_m, double target_lat_mps, double feedforward_mps2,
                             double curvature_per_m, double grip_mps2)
{
    return drv_control_steer(view, target_d_m, target_lat_mps, feedforward_mps2, curvature_per_m, grip_mps2);
}

double drv_steer_toward(const DrvView *view, double target_d_m)
{
    double k = view->track ? trk_curvature(view->track, view->s_m, NULL) : 0.0;
    return drv_control_steer(view, target_d_m, 0.0, 0.0, k, drv_control_grip(view).steer_mps2);
}

double drv_speed_toward_grip(const DrvView *view, double target_speed_mps, double feedforward_mps2, double grip_mps2)
{
    return drv_control_speed(view, target_speed_mps, feedforward_mps2, grip_mps2);
}

double drv_speed_toward(const DrvView *view, double target_speed_mps)
{
    return drv_control_speed(view, target_speed_mps, 0.0, drv_control_grip(view).speed_mps2);
}
