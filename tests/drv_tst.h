/* drv_tst.h: helpers shared by the driver tests that put one driver on a shipped track by hand. */
#ifndef DRV_TST_H
#define DRV_TST_H

#include "../drivers/drv.h"

/* A driver of the default personality with this grip use and no reaction noise (every target exact) on track; NULL
 * when it cannot be created. */
static DrvDriver *drv_tst_driver(const TrkTrack *track, double grip_use, uint64_t seed)
{
    DrvPersonality p = drv_default_personality();
    p.grip_use = grip_use;
    p.reaction_noise = 0.0;
    return drv_create(&p, track, NULL, seed);
}

/* gp with one driver of the default personality and no reaction noise: false when either fails to load. */
static bool drv_tst_open_gp(TrkTrack **track, DrvDriver **driver)
{
    char err[TRK_ERR_LEN];
    *driver = NULL;
    *track = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    if (!*track)
        return false;
    *driver = drv_tst_driver(*track, drv_default_personality().grip_use, 1);
    return *driver != NULL;
}

static void drv_tst_close(TrkTrack *track, DrvDriver *driver)
{
    drv_destroy(driver);
    trk_free(track);
}

#endif
