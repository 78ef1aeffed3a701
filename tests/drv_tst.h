/* drv_tst.h: helpers shared by the driver tests that put one driver on a shipped track by hand. */
#ifndef DRV_TST_H
#define DRV_TST_H

#include "../drivers/drv.h"

/* gp with one driver of the default personality and no reaction noise (every target exact): false when either fails
 * to load. */
static bool drv_tst_open_gp(TrkTrack **track, DrvDriver **driver)
{
    char err[TRK_ERR_LEN];
    *driver = NULL;
    *track = trk_load("data/tracks/gp.ini", NULL, err, sizeof err);
    if (!*track)
        return false;
    DrvPersonality p = drv_default_personality();
    p.reaction_noise = 0.0;
    *driver = drv_create(&p, *track, NULL, 1);
    return *driver != NULL;
}

static void drv_tst_close(TrkTrack *track, DrvDriver *driver)
{
    drv_destroy(driver);
    trk_free(track);
}

#endif
