/* drv.h: the driver interface and driver personalities (public API of the drivers module).
 *
 * Each tick the sim gives every driver a read-only DrvView and takes back DrvControls. A driver never sees or
 * writes world state. Drivers may keep private state (the context driver keeps the previous tick's maps for
 * hysteresis, and its reaction-noise generator); behaviours inside a driver keep none.
 *
 * Depends on track/ only. Errors are returned in message buffers, never printed.
 */
#ifndef DRV_H
#define DRV_H

#include "../track/trk.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the view and the controls ----------------------------------------------------------------------------- */

/* Another car as this driver perceives it, in track coordinates relative to the driver. */
typedef struct DrvOther {
    int id;                 /* the sim's car index */
    double ds_m;            /* signed centre-to-centre distance along the track, ahead positive */
    double d_m;             /* its lateral offset, m */
    double speed_mps;       /* its speed along the track */
    double lat_speed_mps;   /* its lateral speed, left positive */
    double length_m, width_m;
    int laps_ahead;         /* race laps it is ahead of us (negative: a lapped car); 0 = same lap */
    const TrkSpeedProfile *plan; /* its driver's speed plan along the racing line (drv_plan); NULL = unknown */
} DrvOther;

typedef struct DrvView {
    const TrkTrack *track;
    long tick;
    double dt_s;            /* the sim's fixed tick */
    int laps_done;          /* race laps this car has completed (0 on the first lap) */
    /* own state */
    double s_m;             /* wrapped arc length */
    double d_m;             /* lateral offset, left positive */
    double speed_mps;
    double lat_speed_mps;
    double length_m, width_m;
    const TrkCarParams *car;
    /* other cars within sensing range (about 200 m ahead, 50 m behind), sorted by ds_m ascending */
    const DrvOther *others;
    int other_count;
} DrvView;

/* Which limit set a driver's target speed this tick (the lowest of them; a tie goes to the first in this order):
 * what a trace shows to tell a car slowed by its plan from one slowed by another car or a lane. NONE: a driver
 * that does not say (0, so a zeroed DrvControls says nothing). */
typedef enum DrvLimit {
    DRV_LIMIT_NONE = 0,
    DRV_LIMIT_PLAN,        /* the speed plan (the racing line's) */
    DRV_LIMIT_TOW,         /* full throttle up to the engine's limit on a straight, where a tow adds speed */
    DRV_LIMIT_DANGER,      /* no lane free enough: braking for the car in the path */
    DRV_LIMIT_FOLLOW,      /* safe following of the car ahead in the lane aimed for */
    DRV_LIMIT_CLEAR,       /* no time to clear a car ahead */
    DRV_LIMIT_SINGLE_FILE, /* single file behind a car through a corner */
    DRV_LIMIT_HELD,        /* a lane held off the line by danger, judged over the braking distance */
    DRV_LIMIT_REJOIN,      /* the way back to the racing line */
    DRV_LIMIT_LANE,        /* the cap of the off-line lane aimed for */
    DRV_LIMIT_COUNT
} DrvLimit;

/* "plan", "tow", ... as in docs/formats.md (trace columns); "none" for NONE and for values out of range. */
const char *drv_limit_name(DrvLimit limit);

/* What a driver asks for. The sim enforces physics: it clips the request to engine power, brakes and the
 * friction circle; a car whose path needs more lateral grip than it has slides wide whatever it asked. */
typedef struct DrvControls {
    double long_accel_mps2; /* requested longitudinal acceleration: > 0 throttle, < 0 brake */
    double lat_accel_mps2;  /* requested lateral acceleration relative to the track (d''), left positive */
    /* what the driver was aiming for, for the viewer and tests */
    double target_d_m;
    double target_speed_mps;
    DrvLimit limit; /* what set target_speed_mps */
} DrvControls;

/* The interface the sim calls. `self` is the driver's own state. */
typedef void DrvThinkFn(void *self, const DrvView *view, DrvControls *out);

/* ---- personalities ----------------------------------------------------------------------------------------- */

typedef enum DrvModel { DRV_MODEL_CONTEXT = 0, DRV_MODEL_STEERING = 1 } DrvModel;
typedef enum DrvBlur { DRV_BLUR_NONE = 0, DRV_BLUR_BOX = 1, DRV_BLUR_GAUSS = 2 } DrvBlur;
typedef enum DrvResolver {
    DRV_RESOLVE_WALK = 0,
    DRV_RESOLVE_SUBTRACT,
    DRV_RESOLVE_MASK_SUM,
    DRV_RESOLVE_THRESHOLD_BLEND,
    DRV_RESOLVE_MIN_DANGER,
    DRV_RESOLVE_COUNT
} DrvResolver;

#define DRV_NAME_LEN 48
#define DRV_MAX_SLOTS 128

typedef struct DrvPersonality {
    /* [driver] */
    char name[DRV_NAME_LEN];
    uint8_t colour[3];      /* r, g, b */
    int number;             /* 0..999 */
    DrvModel model;         /* model = context | steering */
    /* [behaviour] */
    double skirt_m;         /* width of the decreasing danger either side of a car, m */
    double draft_weight;    /* 0..1, interest written behind faster cars */
    double line_weight;     /* 0..1, peak interest of the racing line */
    double aggression;      /* 0..1, danger tolerated at the chosen slot before braking */
    double attack;          /* 0..1, interest in the lane beside a car we can get alongside (drv_beh_attack.c) */
    double defend;          /* 0..1, interest in covering the inside from a car in our wake (drv_beh_defend.c) */
    double grip_use;        /* 0.8..1.0, fraction of the grip limit used by the speed plan */
    double lookahead_s;     /* s, how far ahead in time the driver looks */
    double reaction_noise;  /* 0..1, seeded noise on perception and targets */
    /* [map] */
    int slots;              /* slot count at full detail, 8..DRV_MAX_SLOTS */
    DrvBlur blur;
    int blur_radius;        /* slots */
    double hysteresis;      /* 0..0.95, weight of the previous tick's maps */
    bool lod;               /* fewer slots when no car is in range */
    DrvResolver resolver;
    double decide_hz;       /* how often the maps are read into a new plan, Hz (1..1000; at most every tick) */
    double decide_far_hz;   /* the same while no other car is near (1..1000; no effect when >= decide_hz) */
} DrvPersonality;

/* Documented defaults for every field. */
DrvPersonality drv_default_personality(void);

/* True when every field is inside its documented range (what the parser enforces), for values built in code. */
bool drv_personality_valid(const DrvPersonality *p);

/* Loads a personality INI. On error returns nonzero and err holds "path:line: [section] key: what is wrong". */
int drv_personality_load(const char *path, DrvPersonality *out, char *err, size_t err_len);
/* Sets one key as a driver file would ("driver", "number", "42"): 0, or 1 for an unknown key, 2 for a bad value,
 * with the reason in why. The personality may need drv_personality_valid afterwards. */
int drv_personality_set(DrvPersonality *p, const char *section, const char *key, const char *value, char *why,
                        size_t why_len);
/* Reads a real-number key ("behaviour", "grip_use") into *value: 0, or 1 for an unknown key, 2 for a key that is not
 * a real number (a whole number, a word, a flag), with the reason in why. */
int drv_personality_get_number(const DrvPersonality *p, const char *section, const char *key, double *value,
                               char *why, size_t why_len);
int drv_personality_parse_string(const char *text, const char *path, DrvPersonality *out, char *err, size_t err_len);

/* ---- drivers ----------------------------------------------------------------------------------------------- */

typedef struct DrvDriver DrvDriver;

/* Creates a driver of the personality's model for one car on one track. The driver builds its own speed plan
 * (racing line, grip scaled by grip_use; drv_create_ex shares it among drivers). `seed` feeds its reaction noise.
 * NULL on allocation failure, a NULL personality or track, or a personality outside its documented ranges
 * (drv_personality_valid). */
DrvDriver *drv_create(const DrvPersonality *p, const TrkTrack *track, const TrkCarParams *car, uint64_t seed);
void drv_destroy(DrvDriver *driver);

/* The tables a driver builds from the track (its speed plan and its lanes' speed caps) depend only on the track,
 * the car parameters and the personality's grip use. A table cache builds them once for every driver with the same
 * three (compared by their exact bits) and owns them: a driver created with the cache borrows them, and the cache
 * must outlive those drivers (drv_destroy frees only what the driver built itself) and must not outlive the
 * tracks it was filled for (they are told apart by address).
 *
 * A cache with a parent looks in the parent (and its parents) first and never writes to it: threads may share a
 * parent filled beforehand, read only, each creating drivers through a cache of its own, with no locks. */
typedef struct DrvTableCache DrvTableCache;
DrvTableCache *drv_table_cache_create(const DrvTableCache *parent); /* NULL on allocation failure */
void drv_table_cache_destroy(DrvTableCache *cache);
/* Builds the tables of a driver with this grip use (a NULL car is trk_default_car's) unless the cache or a parent
 * has them. Nonzero on allocation failure or a NULL cache or track. */
int drv_table_cache_add(DrvTableCache *cache, const TrkTrack *track, const TrkCarParams *car, double grip_use);
/* The tables the cache itself holds (not its parents'), for tests. */
int drv_table_cache_count(const DrvTableCache *cache);
/* drv_create with the tables from `tables` (built into it when neither it nor a parent has them); with NULL, the
 * driver builds its own, as drv_create. A driver gives the same results either way, bit for bit. */
DrvDriver *drv_create_ex(const DrvPersonality *p, const TrkTrack *track, const TrkCarParams *car, uint64_t seed,
                         DrvTableCache *tables);
void drv_think(DrvDriver *driver, const DrvView *view, DrvControls *out);
/* Matches DrvThinkFn, with self = DrvDriver*. */
void drv_think_fn(void *self, const DrvView *view, DrvControls *out);
const DrvPersonality *drv_personality(const DrvDriver *driver);
/* The speed plan the driver aims for along the racing line (its grip use's): what the sim shows the other drivers,
 * who predict this car along it (DrvOther.plan). */
const TrkSpeedProfile *drv_plan(const DrvDriver *driver);

/* A driver's changing state (its noise generator, the held plan, the previous maps of the hysteresis, the last
 * decision's maps), for keyframes: saved into drv_state_bytes() bytes and restored into the same driver, a race
 * rewound to a keyframe goes on exactly as it went. */
size_t drv_state_bytes(void);
void drv_state_save(const DrvDriver *driver, void *buf);
void drv_state_restore(DrvDriver *driver, const void *buf);

/* What the context driver saw and chose on its last tick, for the viewer's map inspector and tests. */
typedef struct DrvDebug {
    int slots;                       /* slot count used (level of detail may lower it); 0 when alone */
    double d_left_m, d_right_m;      /* lateral offsets of slot 0 (left edge) and slot slots-1 (right edge) */
    float danger[DRV_MAX_SLOTS];     /* after post-processing, 0..1 */
    float interest[DRV_MAX_SLOTS];   /* after post-processing, 0..1 */
    int current_slot;
    int reach_lo, reach_hi;          /* reachable range from the walk (inclusive); whole map for other resolvers */
    int chosen_slot;
    double chosen_d_m;               /* after sub-slot interpolation */
    bool braking_for_danger;
    DrvResolver resolver;
    long tick;                       /* the tick of the decision these maps come from ([map] decide_hz) */
    bool alone;                      /* no car in reach: no maps built (slots = 0), the racing line is the choice */
    bool attack;                     /* the attack on the car followed holds (drv_beh_attack.c's verdict) */
} DrvDebug;

/* NULL for models that keep no maps. */
const DrvDebug *drv_debug(const DrvDriver *driver);

/* ---- shared low-level control (both models use it, so comparisons are fair) ---------------------------------- */

/* Lateral acceleration that moves the car toward target_d without overshoot, limited to the grip left after
 * cornering at the current speed. */
double drv_steer_toward(const DrvView *view, double target_d_m);
/* Longitudinal acceleration that tracks target_speed (brakes hard when far above). */
double drv_speed_toward(const DrvView *view, double target_speed_mps);

/* A small seeded generator (splitmix64) that every module may use; no global state. */
typedef struct DrvRng { uint64_t state; } DrvRng;
DrvRng drv_rng_seed(uint64_t seed);
uint64_t drv_rng_next(DrvRng *rng);
double drv_rng_uniform(DrvRng *rng); /* [0, 1) */

#endif
