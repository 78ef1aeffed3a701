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

void drv_think(DrvDriver *driver, const DrvView *view, DrvControls *out)
{
    switch (driver->p.model) {
    case DRV_MODEL_STEERING:
        drv_steering_think(driver, view, out);
        break;
    case DRV_MODEL_CONTEXT:
    default:
        drv_context_think(driver, view, out);
        break;
    }
}

void drv_think_fn(void *self, const DrvView *view, DrvControls *out) { drv_think(self, view, out); }

const DrvPersonality *drv_personality(const DrvDriver *driver) { return &driver->p; }

const DrvDebug *drv_debug(const DrvDriver *driver)
{
    return driver->p.model == DRV_MODEL_CONTEXT ? &driver->debug : NULL;
}
