/* drv_tables.c: a driver's track tables and the cache that shares them among drivers (see drv_tables.h).
 *
 Building the tables is most of a driver's set-up, and a grid of repeated personalities, or a batch of races, would
 * build the same ones again and again. With a cache each distinct (track, car, grip use) is built once: for a race by its session, for a batch once before the workers
 * start. Keys are compared by their exact bits, so a shared table is the one the driver would have built itself,
 * bit for bit. */
#include "drv_tables.h"

#include <stdlib.h>
#include <string.h>

typedef struct DrvTableEntry {
    const TrkTrack *track; /* by address: the cache must not outlive the tracks it was filled for */
    TrkCarParams car;
    uint64_t grip_bits;    /* the grip use's bits */
    TrkSpeedProfile *profile;
    DrvLanes *lanes;
} DrvTableEntry;

/* The track's part of the tables (of the plan, trk_profile_base_create, and of the lanes, drv_lanes_track_create),
 * built once per track for every table the cache builds on it. */
typedef struct DrvTrackPart {
    const TrkTrack *track; /* by address, as the tables' keys */
    TrkProfileBase *plan_base;
    DrvLanesTrack *lanes_track;
} DrvTrackPart;

struct DrvTableCache {
    const DrvTableCache *parent; /* searched first, never written: it may be shared by threads */
    int count, cap;
    DrvTableEntry *entries;
    int track_count, track_cap;
    DrvTrackPart *tracks;
};

/* drv_tables_build with the track's part of the tables already built (for this track). */
static bool drv_tables_build_on(const DrvTrackPart *part, const TrkCarParams *car, double grip_use,
                                TrkSpeedProfile **profile, DrvLanes **lanes)
{
    *profile = trk_speed_profile_create_on(part->plan_base, car, grip_use);
    *lanes = drv_lanes_create_on(part->lanes_track, car, grip_use * DRV_LANES_GRIP_SHARE, grip_use);
    if (*profile != NULL && *lanes != NULL)
        return true;
    trk_speed_profile_free(*profile);
    drv_lanes_destroy(*lanes);
    *profile = NULL;
    *lanes = NULL;
    return false;
}

static void drv_track_part_free(DrvTrackPart *part)
{
    trk_profile_base_free(part->plan_base);
    drv_lanes_track_destroy(part->lanes_track);
}

/* The track's part of the tables; false (nothing held) on allocation failure. */
static bool drv_track_part_create(const TrkTrack *track, DrvTrackPart *part)
{
    *part = (DrvTrackPart){track, trk_profile_base_create(track, TRK_PATH_RACING_LINE_DRIVEN),
                           drv_lanes_track_create(track)};
    if (part->plan_base != NULL && part->lanes_track != NULL)
        return true;
    drv_track_part_free(part);
    return false;
}

bool drv_tables_build(const TrkTrack *track, const TrkCarParams *car, double grip_use, TrkSpeedProfile **profile,
                      DrvLanes **lanes)
{
    DrvTrackPart part;
    if (!drv_track_part_create(track, &part)) {
        *profile = NULL, *lanes = NULL;
        return false;
    }
    bool ok = drv_tables_build_on(&part, car, grip_use, profile, lanes);
    drv_track_part_free(&part);
    return ok;
}

/* The cache's own part of the tables for this track, built on first use; NULL on allocation failure. */
static const DrvTrackPart *drv_table_track_part(DrvTableCache *cache, const TrkTrack *track)
{
    for (int i = 0; i < cache->track_count; i++)
        if (cache->tracks[i].track == track)
            return &cache->tracks[i];
    if (cache->track_count == cache->track_cap) {
        int cap = cache->track_cap ? 2 * cache->track_cap : 2;
        DrvTrackPart *tracks = realloc(cache->tracks, (size_t)cap * sizeof *tracks);
        if (tracks == NULL)
            return NULL;
        cache->tracks = tracks;
        cache->track_cap = cap;
    }
    if (!drv_track_part_create(track, &cache->tracks[cache->track_count]))
        return NULL;
    return &cache->tracks[cache->track_count++];
}

DrvTableCache *drv_table_cache_create(const DrvTableCache *parent)
{
    DrvTableCache *cache = calloc(1, sizeof *cache);
    if (cache != NULL)
        cache->parent = parent;
    return cache;
}

void drv_table_cache_destroy(DrvTableCache *cache)
{
    if (cache == NULL)
        return;
    for (int i = 0; i < cache->count; i++) {
        trk_speed_profile_free(cache->entries[i].profile);
        drv_lanes_destroy(cache->entries[i].lanes);
    }
    for (int i = 0; i < cache->track_count; i++)
        drv_track_part_free(&cache->tracks[i]);
    free(cache->tracks);
    free(cache->entries);
    free(cache);
}

int drv_table_cache_count(const DrvTableCache *cache) { return cache != NULL ? cache->count : 0; }

/* Bits, not ==: -0.0 == +0.0 and NaN != NaN, and only equal bits are sure to build equal tables. The car is compared
 * whole (its fields are doubles; padding, should a field ever add some, could only make equal cars miss). */
static bool drv_table_key_equal(const DrvTableEntry *e, const TrkTrack *track, const TrkCarParams *car,
                                uint64_t grip_bits)
{
    return e->track == track && e->grip_bits == grip_bits && memcmp(&e->car, car, sizeof *car) == 0;
}

/* The entry for the key in the cache or its parents, NULL when none has it. */
static const DrvTableEntry *drv_table_find(const DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car,
                                           uint64_t grip_bits)
{
    for (; cache != NULL; cache = cache->parent)
        for (int i = 0; i < cache->count; i++)
            if (drv_table_key_equal(&cache->entries[i], track, car, grip_bits))
                return &cache->entries[i];
    return NULL;
}

/* A new entry with its tables built, NULL on allocation failure (the cache unchanged). */
static const DrvTableEntry *drv_table_insert(DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car,
                                             double grip_use, uint64_t grip_bits)
{
    const DrvTrackPart *part = drv_table_track_part(cache, track);
    if (part == NULL)
        return NULL;
    if (cache->count == cache->cap) {
        int cap = cache->cap ? 2 * cache->cap : 8;
        DrvTableEntry *entries = realloc(cache->entries, (size_t)cap * sizeof *entries);
        if (entries == NULL)
            return NULL;
        cache->entries = entries;
        cache->cap = cap;
    }
    DrvTableEntry *e = &cache->entries[cache->count];
    e->track = track;
    memcpy(&e->car, car, sizeof *car); /* padding too, as drv_table_key_equal compares it */
    e->grip_bits = grip_bits;
    if (!drv_tables_build_on(part, car, grip_use, &e->profile, &e->lanes))
        return NULL;
    cache->count++;
    return e;
}

bool drv_tables_find(const DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car, double grip_use,
                     DrvTables *out)
{
    uint64_t grip_bits;
    memcpy(&grip_bits, &grip_use, sizeof grip_bits);
    const DrvTableEntry *e = drv_table_find(cache, track, car, grip_bits);
    if (e == NULL)
        return false;
    out->profile = e->profile;
    out->lanes = e->lanes;
    return true;
}

bool drv_tables_get(DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car, double grip_use,
                    DrvTables *out)
{
    if (drv_tables_find(cache, track, car, grip_use, out))
        return true;
    uint64_t grip_bits;
    memcpy(&grip_bits, &grip_use, sizeof grip_bits);
    const DrvTableEntry *e = drv_table_insert(cache, track, car, grip_use, grip_bits);
    if (e == NULL)
        return false;
    out->profile = e->profile;
    out->lanes = e->lanes;
    return true;
}

int drv_table_cache_add(DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car, double grip_use)
{
    if (cache == NULL || track == NULL)
        return 1;
    TrkCarParams dflt = trk_default_car(); /* what drv_create_ex uses for a NULL car */
    DrvTables unused;
    return drv_tables_get(cache, track, car ? car : &dflt, grip_use, &unused) ? 0 : 1;
}
