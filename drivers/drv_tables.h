/* drv_tables.h: the tables a driver builds from the track, and the cache that shares them (private to drivers/).
 *
 * A driver's speed plan (the racing line's speed profile) and its lanes' speed caps (drv_lanes.h) are pure
 * functions of the track, the car parameters and the driver's grip use: drivers with the same three share them.
 * The cache (DrvTableCache in drv.h) owns the tables it built; a driver created with it borrows them.
 */
#ifndef DRV_TABLES_H
#define DRV_TABLES_H

#include "drv.h"
#include "drv_lanes.h"

typedef struct DrvTables {
    const TrkSpeedProfile *profile;
    const DrvLanes *lanes;
} DrvTables;

/* Builds a driver's tables for the inputs (the one place that says how): the racing line's profile at grip_use and
 * the lanes at grip_use * DRV_LANES_GRIP_SHARE. The caller owns both. false (nothing allocated) on allocation
 * failure. */
bool drv_tables_build(const TrkTrack *track, const TrkCarParams *car, double grip_use, TrkSpeedProfile **profile,
                      DrvLanes **lanes);

/* The tables for the inputs in the cache or its parents; false when none has them. */
bool drv_tables_find(const DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car, double grip_use,
                     DrvTables *out);
/* The cache's tables for the inputs, from its parents (read only) or itself, or built into it when none has them.
 * The tables live as long as the cache that holds them. false on allocation failure. */
bool drv_tables_get(DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car, double grip_use,
                    DrvTables *out);

#endif
