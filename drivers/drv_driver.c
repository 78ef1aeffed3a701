/* drv_driver.c: driver lifetime and dispatch by model. */
#include "drv_driver.h"
#include "drv_lanes.h"
#include "drv_steering.h"

#include <stdlib.h>
#include <string.h>

DrvDriver *drv_create(const DrvPersonality *p, const TrkTrack *track, const TrkCarParams *car, uint64_t seed)
{
    if (track == NULL || !drv_personality_valid(p))
        return NULL;
    DrvDriver *driver = calloc(1, sizeof *driver);
    if (driver == NULL)
        return NULL;
    driver->p = *p;
    driver->track = track;
    driver->car = car ? *car : trk_default_car();
    driver->profile = trk_speed_profile_create(track, &driver->car, TRK_PATH_RACING_LINE, p->grip_use);
    driver->lanes = drv_lanes_create(track, &driver->car, p->grip_use * DRV_LANES_GRIP_SHARE);
    if (driver->profile == NULL || driver->lanes == NULL) {
        trk_speed_profile_free(driver->profile);
        drv_lanes_destroy(driver->lanes);
        free(driver);
        return NULL;
    }
    driver->rng = drv_rng_seed(seed);
    driver->hints = (DrvHints){-1, -1, -1, -1, -1, -1, -1, -1};
    driver->noise = (DrvNoise){0.0, 1.0, 0.0};
    driver->debug.resolver = p->resolver;
    /* spread the drivers' decisions over the ticks of a decision period, so no tick carries them all */
    DrvRng phase = drv_rng_seed(~seed); /* not the noise generator's own sequence */
    driver->decide_phase = drv_rng_next(&phase);
    return driver;
}

void drv_destroy(DrvDriver *driver)
{
    if (driver == NULL)
        return;
    trk_speed_profile_free(driver->profile);
    drv_lanes_destroy(driver->lanes);
    free(driver);
}

/* Ticks between decisions at the personality's decision rate and the sim's tick: at least 1. */
static long drv_decide_period(const DrvPersonality *p, double dt_s)
{
    double ticks = 1.0 / (p->decide_hz * dt_s);
    if (!(ticks >= 1.5)) /* also a NaN or a non-positive dt: decide every tick */
        return 1;
    return ticks < 1e6 ? (long)(ticks + 0.5) : 1000000;
}

/* Decisions (reading the world into maps and choosing a lane) run at the personality's decision rate, as racing
 * games run their AI below the physics rate; the control (speed plan, following, steering, grip) runs every tick on
 * the current view, toward the held plan. The first tick always decides. */
static bool drv_decision_due(const DrvDriver *driver, const DrvView *view)
{
    if (!driver->plan.valid)
        return true;
    long period = drv_decide_period(&driver->p, view->dt_s);
    if (period == 1)
        return true;
    uint64_t tick = view->tick < 0 ? 0u : (uint64_t)view->tick;
    return (tick + driver->decide_phase) % (uint64_t)period == 0;
}

void drv_think(DrvDriver *driver, const DrvView *view, DrvControls *out)
{
    bool decide = drv_decision_due(driver, view);
    switch (driver->p.model) {
    case DRV_MODEL_STEERING:
        drv_steering_think(driver, view, decide, out);
        break;
    case DRV_MODEL_CONTEXT:
    default:
        drv_context_think(driver, view, decide, out);
        break;
    }
}

void drv_think_fn(void *self, const DrvView *view, DrvControls *out) { drv_think(self, view, out); }

const DrvPersonality *drv_personality(const DrvDriver *driver) { return &driver->p; }

const DrvDebug *drv_debug(const DrvDriver *driver)
{
    return driver->p.model == DRV_MODEL_CONTEXT ? &driver->debug : NULL;
}
