/* sim_session.c: one race instance built from a race file: the track, one driver per car, the world.
 *
 * Grid: a standing start, two by two, staggered: grid slot k (0 = pole) starts at race distance -(4 + 8 k) m
 * (rows 16 m apart, the second car of a row 8 m behind the first), pole on the left at d = +2.5 m and the next
 * on the right at d = -2.5 m (pulled in where the track is narrower than that plus half a car), speed 0.
 * A [start] line places its car explicitly instead (race distance = the signed distance from the line).
 *
 * Seeds: the driver of race entry e gets seed splitmix(race seed ^ (e + 1) * golden), so a driver's noise follows
 * the driver, not the grid slot, and --shuffle-grid changes only the order.
 */
#include "sim_internal.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

struct SimSession {
    const SimRace *race;
    SimSessionDef def;
    const TrkTrack *track;
    TrkTrack *owned_track; /* loaded here when the def did not lend one */
    DrvTableCache *tables; /* the tables of drivers the def's did not have, shared by this session's drivers */
    SimWorld *world;
    int car_count;
    DrvDriver *drivers[SIM_MAX_CARS];
    int entry_of[SIM_MAX_CARS];
};

SimSessionDef sim_default_session_def(const SimRace *race)
{
    SimSessionDef def;
    memset(&def, 0, sizeof def);
    def.seed = race ? race->seed : 1;
    def.shuffle_grid = race ? race->shuffle_grid : false;
    def.laps = 0;
    def.seat_override = NULL;
    def.seat_mask = NULL;
    def.track = NULL;
    def.tables = NULL;
    return def;
}

DrvTableCache *sim_race_tables_create(const SimRace *race, const TrkTrack *track, const DrvPersonality *const *extra,
                                      int extra_count)
{
    DrvTableCache *cache = drv_table_cache_create(NULL);
    if (cache == NULL)
        return NULL;
    int bad = 0;
    for (int e = 0; e < race->entry_count && !bad; e++)
        if (!race->entries[e].hold)
            bad = drv_table_cache_add(cache, track, &race->car.dyn, race->entries[e].personality.grip_use);
    for (int k = 0; k < extra_count && !bad; k++)
        bad = drv_table_cache_add(cache, track, &race->car.dyn, extra[k]->grip_use);
    if (bad) {
        drv_table_cache_destroy(cache);
        return NULL;
    }
    return cache;
}

static uint64_t sim_entry_seed(uint64_t seed, int entry)
{
    DrvRng rng = drv_rng_seed(seed ^ ((uint64_t)(entry + 1) * 0x9E3779B97F4A7C15ULL));
    return drv_rng_next(&rng);
}

/* Grid order: entry_of[slot]; a Fisher-Yates permutation with the seed when shuffled. */
static void sim_grid_order(SimSession *s)
{
    int n = s->race->entry_count;
    for (int i = 0; i < n; i++)
        s->entry_of[i] = i;
    if (!s->def.shuffle_grid)
        return;
    DrvRng rng = drv_rng_seed(s->def.seed ^ 0x53485546464C45ULL); /* "SHUFFLE": apart from the drivers' seeds */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(drv_rng_next(&rng) % (uint64_t)(i + 1));
        int t = s->entry_of[i];
        s->entry_of[i] = s->entry_of[j];
        s->entry_of[j] = t;
    }
}

/* Start position of grid slot k. */
static void sim_grid_slot(const TrkTrack *track, const SimCarSpec *spec, int k, SimCarDef *car)
{
    double rd = -(4.0 + 8.0 * k);
    double s = trk_wrap_s(track, rd);
    bool left = (k % 2) == 0;
    double room = (left ? trk_width_left(track, s, NULL) : trk_width_right(track, s, NULL)) -
                  0.5 * spec->width_m - 0.2;
    double d = room < 2.5 ? (room > 0.0 ? room : 0.0) : 2.5;
    car->s_m = s;
    car->d_m = left ? d : -d;
    car->speed_mps = 0.0;
    car->race_dist_m = rd;
}

static int sim_session_add(SimSession *s, int slot, char *err, size_t err_len)
{
    int e = s->entry_of[slot];
    const SimRaceEntry *entry = &s->race->entries[e];
    const DrvPersonality *pers = &entry->personality;
    if (s->def.seat_override && s->def.seat_mask && s->def.seat_mask[e])
        pers = s->def.seat_override;
    SimCarDef car;
    memset(&car, 0, sizeof car);
    car.name = pers->name;
    car.number = pers->number;
    memcpy(car.colour, pers->colour, sizeof car.colour);
    car.spec = s->race->car;
    if (entry->placed) {
        car.s_m = trk_wrap_s(s->track, entry->s_m);
        car.d_m = entry->d_m;
        car.speed_mps = entry->speed_mps;
        car.race_dist_m = trk_delta_s(s->track, 0.0, car.s_m);
    } else {
        sim_grid_slot(s->track, &car.spec, slot, &car);
    }
    if (entry->hold && !(s->def.seat_override && s->def.seat_mask && s->def.seat_mask[e])) {
        car.think = NULL; /* a scripted car ([start] `hold`): the sim's built-in driver holds its line and speed */
        if (sim_world_add_car(s->world, &car) != slot) {
            snprintf(err, err_len, "%s:0: cannot add car %d", s->race->path, slot + 1);
            return 1;
        }
        return 0;
    }
    DrvDriver *drv = drv_create_ex(pers, s->track, &car.spec.dyn, sim_entry_seed(s->def.seed, e), s->tables);
    if (!drv) {
        snprintf(err, err_len, "%s:0: cannot create the driver of grid line %d (out of memory)", s->race->path,
                 e + 1);
        return 1;
    }
    s->drivers[slot] = drv;
    car.think = drv_think_fn;
    car.driver = drv;
    car.plan = drv_plan(drv);
    if (sim_world_add_car(s->world, &car) != slot) {
        snprintf(err, err_len, "%s:0: cannot add car %d", s->race->path, slot + 1);
        return 1;
    }
    return 0;
}

SimSession *sim_session_create(const SimRace *race, const SimSessionDef *def, char *err, size_t err_len)
{
    SimSession *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "%s:0: out of memory", race->path);
        return NULL;
    }
    s->race = race;
    s->def = def ? *def : sim_default_session_def(race);
    if (s->def.track) {
        s->track = s->def.track;
    } else {
        TrkDef tdef = sim_race_track_def(race);
        s->owned_track = trk_load(race->track_path, &tdef, err, err_len);
        if (!s->owned_track) {
            free(s);
            return NULL;
        }
        s->track = s->owned_track;
    }
    s->tables = drv_table_cache_create(s->def.tables);
    if (!s->tables) {
        snprintf(err, err_len, "%s:0: out of memory", race->path);
        sim_session_destroy(s);
        return NULL;
    }
    SimWorldDef wd = sim_default_world_def();
    wd.track = s->track;
    wd.tick_hz = race->tick_hz;
    wd.laps = s->def.laps > 0 ? s->def.laps : race->laps;
    wd.duration_s = race->duration_s;
    wd.seed = s->def.seed;
    s->world = sim_world_create(&wd);
    if (!s->world) {
        snprintf(err, err_len, "%s:0: cannot create the world", race->path);
        sim_session_destroy(s);
        return NULL;
    }
    sim_grid_order(s);
    for (int slot = 0; slot < race->entry_count; slot++) {
        if (sim_session_add(s, slot, err, err_len) != 0) {
            sim_session_destroy(s);
            return NULL;
        }
        s->car_count++;
    }
    return s;
}

void sim_session_destroy(SimSession *s)
{
    if (!s)
        return;
    sim_world_destroy(s->world);
    for (int i = 0; i < SIM_MAX_CARS; i++)
        drv_destroy(s->drivers[i]);
    drv_table_cache_destroy(s->tables); /* after the drivers, which borrow its tables */
    trk_free(s->owned_track);
    free(s);
}

SimWorld *sim_session_world(SimSession *s) { return s->world; }
const TrkTrack *sim_session_track(const SimSession *s) { return s->track; }

const DrvDriver *sim_session_driver(const SimSession *s, int car_id)
{
    return (car_id >= 0 && car_id < s->car_count) ? s->drivers[car_id] : NULL;
}

DrvDriver *sim_session_driver_rw(SimSession *s, int car_id)
{
    return (car_id >= 0 && car_id < s->car_count) ? s->drivers[car_id] : NULL;
}

int sim_session_entry_of(const SimSession *s, int car_id)
{
    return (car_id >= 0 && car_id < s->car_count) ? s->entry_of[car_id] : -1;
}

/* For the results writers. */
const SimRace *sim_session_race(const SimSession *s) { return s->race; }
const SimSessionDef *sim_session_def(const SimSession *s) { return &s->def; }
