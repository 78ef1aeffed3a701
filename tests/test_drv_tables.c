/* test_drv_tables.c: the drivers' table cache (DrvTableCache). Drivers with the same track, car and grip use share
 * one speed profile and one set of lanes, and decide exactly as drivers that built their own; different grip uses
 * or cars do not share; a cache reads its parent without writing to it; drivers and caches are freed in any order
 * without a leak or a double free (the sanitizer build checks that); a session given a race's tables borrows
 * them and races exactly as one that builds its own. */
#include "../drivers/drv.h"
#include "../drivers/drv_internal.h"
#include "../drivers/drv_lanes.h"
#include "../drivers/drv_tables.h"
#include "../sim/sim.h"
#include "tst.h"

#include <math.h>
#include <string.h>

/* A shipped track, or NULL (the caller's TST_CHECK reports it). */
static TrkTrack *load_track(const char *path)
{
    char err[TRK_ERR_LEN];
    return trk_load(path, NULL, err, sizeof err);
}

static DrvPersonality with_grip(double grip_use)
{
    DrvPersonality p = drv_default_personality();
    p.grip_use = grip_use;
    return p;
}

/* Whether two drivers' tables give the same bits everywhere on the lap (every metre, five offsets). */
static bool same_tables(const DrvDriver *a, const DrvDriver *b)
{
    if (trk_profile_lap_time(a->profile) != trk_profile_lap_time(b->profile))
        return false;
    double length = trk_length(a->track);
    for (double s = 0.0; s < length; s += 1.0) {
        if (trk_speed_at(a->profile, s, NULL) != trk_speed_at(b->profile, s, NULL))
            return false;
        for (double d = -4.0; d <= 4.0; d += 2.0)
            if (drv_lanes_speed(a->lanes, s, d) != drv_lanes_speed(b->lanes, s, d))
                return false;
    }
    return true;
}

/* Two drivers with equal inputs borrow the same tables, equal bit for bit to those a driver builds alone. */
static int test_same_inputs_share(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvTableCache *cache = drv_table_cache_create(NULL);
    TST_CHECK(cache != NULL);
    DrvPersonality p = with_grip(0.95);
    TrkCarParams car = trk_default_car();
    DrvDriver *a = drv_create_ex(&p, t, &car, 1, cache), *b = drv_create_ex(&p, t, NULL, 2, cache);
    DrvDriver *alone = drv_create(&p, t, &car, 3);
    TST_CHECK(a != NULL && b != NULL && alone != NULL);
    TST_CHECK(a->profile == b->profile && a->lanes == b->lanes);
    TST_CHECK(a->own_profile == NULL && a->own_lanes == NULL); /* borrowed: the cache frees them */
    TST_CHECK(alone->own_profile != NULL && alone->profile == alone->own_profile);
    TST_CHECK(alone->profile != a->profile && alone->lanes != a->lanes);
    TST_CHECK(drv_table_cache_count(cache) == 1);
    TST_CHECK(same_tables(a, alone));
    drv_destroy(a);
    drv_destroy(b);
    drv_destroy(alone);
    drv_table_cache_destroy(cache);
    trk_free(t);
    return 0;
}

/* Different grip uses (even by one ulp) or cars get tables of their own. */
static int test_different_inputs_do_not_share(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvTableCache *cache = drv_table_cache_create(NULL);
    TST_CHECK(cache != NULL);
    DrvPersonality p1 = with_grip(0.9), p2 = with_grip(0.95), p3 = with_grip(nextafter(0.9, 1.0));
    TrkCarParams car = trk_default_car(), grippy = car;
    grippy.mu *= 1.1;
    DrvDriver *a = drv_create_ex(&p1, t, &car, 1, cache), *b = drv_create_ex(&p2, t, &car, 1, cache);
    DrvDriver *c = drv_create_ex(&p3, t, &car, 1, cache), *d = drv_create_ex(&p1, t, &grippy, 1, cache);
    TST_CHECK(a != NULL && b != NULL && c != NULL && d != NULL);
    TST_CHECK(drv_table_cache_count(cache) == 4);
    TST_CHECK(a->profile != b->profile && a->profile != c->profile && a->profile != d->profile);
    TST_CHECK(a->lanes != b->lanes && a->lanes != c->lanes && a->lanes != d->lanes);
    TST_CHECK(trk_profile_lap_time(a->profile) > trk_profile_lap_time(b->profile)); /* less grip, slower */
    TST_CHECK(trk_profile_lap_time(a->profile) > trk_profile_lap_time(d->profile));
    /* the same inputs again find them */
    TST_CHECK(drv_table_cache_add(cache, t, &car, 0.9) == 0 && drv_table_cache_add(cache, t, NULL, 0.95) == 0);
    TST_CHECK(drv_table_cache_count(cache) == 4);
    TST_CHECK(drv_table_cache_add(NULL, t, &car, 0.9) != 0 && drv_table_cache_add(cache, NULL, &car, 0.9) != 0);
    drv_destroy(c);
    drv_destroy(a);
    drv_destroy(d);
    drv_destroy(b);
    drv_table_cache_destroy(cache);
    trk_free(t);
    return 0;
}

/* A cache finds its parent's tables and adds the others to itself, never to the parent. */
static int test_parent_is_read_only(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvTableCache *parent = drv_table_cache_create(NULL);
    TST_CHECK(parent != NULL && drv_table_cache_add(parent, t, NULL, 0.9) == 0);
    DrvTableCache *child = drv_table_cache_create(parent), *other = drv_table_cache_create(parent);
    TST_CHECK(child != NULL && other != NULL);
    DrvPersonality p1 = with_grip(0.9), p2 = with_grip(0.97);
    DrvDriver *a = drv_create_ex(&p1, t, NULL, 1, child), *b = drv_create_ex(&p1, t, NULL, 2, other);
    DrvDriver *c = drv_create_ex(&p2, t, NULL, 3, child);
    TST_CHECK(a != NULL && b != NULL && c != NULL);
    TST_CHECK(a->profile == b->profile); /* both the parent's */
    TST_CHECK(drv_table_cache_count(parent) == 1 && drv_table_cache_count(child) == 1);
    TST_CHECK(drv_table_cache_count(other) == 0);
    DrvTables found;
    TST_CHECK(drv_tables_find(child, t, &c->car, 0.97, &found) && found.profile == c->profile);
    TST_CHECK(!drv_tables_find(parent, t, &c->car, 0.97, &found));
    TST_CHECK(drv_table_cache_count(child) == 1);
    drv_destroy(b);
    drv_destroy(a);
    drv_destroy(c);
    drv_table_cache_destroy(child);
    drv_table_cache_destroy(other);
    drv_table_cache_destroy(parent);
    trk_free(t);
    return 0;
}

/* Drivers of two grip uses, shared or building their own, destroyed in several orders: every table is freed once
 * (the sanitizer build reports any leak or double free). */
static int test_destroy_any_order(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    static const int orders[3][6] = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {3, 0, 5, 1, 4, 2}};
    for (int o = 0; o < 3; o++) {
        DrvTableCache *cache = drv_table_cache_create(NULL);
        TST_CHECK(cache != NULL);
        DrvDriver *d[6];
        for (int i = 0; i < 6; i++) {
            DrvPersonality p = with_grip(i % 2 ? 0.9 : 0.95);
            d[i] = i < 4 ? drv_create_ex(&p, t, NULL, (uint64_t)i, cache) : drv_create(&p, t, NULL, (uint64_t)i);
            TST_CHECK(d[i] != NULL);
        }
        TST_CHECK(drv_table_cache_count(cache) == 2);
        for (int i = 0; i < 6; i++)
            drv_destroy(d[orders[o][i]]);
        drv_table_cache_destroy(cache);
    }
    drv_table_cache_destroy(NULL);
    trk_free(t);
    return 0;
}

/* Four cars of two grip uses race a lap of the oval: the world's hash is the same whether the drivers share their
 * tables or each builds its own (the shared tables change no decision). */
static uint64_t race_hash(const TrkTrack *t, DrvTableCache *cache)
{
    SimWorldDef wd = sim_default_world_def();
    wd.track = t;
    wd.laps = 1;
    wd.seed = 5;
    SimWorld *w = sim_world_create(&wd);
    SimCarSpec spec = sim_default_car_spec();
    DrvDriver *d[4];
    for (int i = 0; i < 4; i++) {
        DrvPersonality p = with_grip(i % 2 ? 0.9 : 0.98);
        d[i] = drv_create_ex(&p, t, &spec.dyn, 1000 + (uint64_t)i * 7919, cache);
        SimCarDef c = {.name = "car", .number = i, .spec = spec, .s_m = -10.0 * (i + 1), .d_m = (i % 2 ? -2.5 : 2.5),
                       .race_dist_m = -10.0 * (i + 1), .think = drv_think_fn, .driver = d[i]};
        sim_world_add_car(w, &c);
    }
    sim_world_run(w);
    uint64_t h = sim_world_hash(w);
    sim_world_destroy(w);
    for (int i = 0; i < 4; i++)
        drv_destroy(d[i]);
    return h;
}

static int test_shared_race_identical(void)
{
    TrkTrack *t = load_track("data/tracks/oval.ini");
    TST_CHECK(t != NULL);
    DrvTableCache *cache = drv_table_cache_create(NULL);
    TST_CHECK(cache != NULL);
    uint64_t own = race_hash(t, NULL), shared = race_hash(t, cache);
    TST_CHECK(drv_table_cache_count(cache) == 2);
    TST_CHECK(own == shared);
    drv_table_cache_destroy(cache);
    trk_free(t);
    return 0;
}

/* A race of three grip uses (ace and driver.ini share 0.99): a session lent the race's tables borrows every
 * driver's from them, adds none, and races exactly as a session that builds its own. */
static const char *mixed_race = "[race]\ntrack = oval.ini\nlaps = 1\nseed = 3\ntick_hz = 100\n[grid]\n"
                                "driver = ../../../data/drivers/ace.ini\ndriver = ../../../data/drivers/rookie.ini\n"
                                "driver = driver.ini, number = 2\ndriver = ../../../data/drivers/tow.ini\n"
                                "driver = ../../../data/drivers/rookie.ini, number = 23\n";

static int session_hash(const SimRace *race, const TrkTrack *t, const DrvTableCache *tables, uint64_t *hash)
{
    char err[1024];
    SimSessionDef def = sim_default_session_def(race);
    def.track = t;
    def.tables = tables;
    def.shuffle_grid = true;
    SimSession *s = sim_session_create(race, &def, err, sizeof err);
    TST_CHECK(s != NULL);
    for (int id = 0; tables != NULL && id < race->entry_count; id++) {
        const DrvDriver *d = sim_session_driver(s, id);
        DrvTables found;
        TST_CHECK(d != NULL && d->own_profile == NULL && d->own_lanes == NULL);
        TST_CHECK(drv_tables_find(tables, t, &d->car, d->p.grip_use, &found));
        TST_CHECK(found.profile == d->profile && found.lanes == d->lanes);
    }
    sim_world_run(sim_session_world(s));
    *hash = sim_world_hash(sim_session_world(s));
    sim_session_destroy(s);
    return 0;
}

static int test_session_lent_tables(void)
{
    static SimRace race;
    char err[1024];
    TST_CHECK(sim_race_parse_string(mixed_race, "tests/data/sim/mixed.ini", &race, err, sizeof err) == 0);
    TrkTrack *t = load_track(race.track_path);
    TST_CHECK(t != NULL);
    DrvTableCache *tables = sim_race_tables_create(&race, t, NULL, 0);
    TST_CHECK(tables != NULL && drv_table_cache_count(tables) == 3);
    uint64_t own = 0, lent = 0;
    TST_CHECK(session_hash(&race, t, NULL, &own) == 0);
    TST_CHECK(session_hash(&race, t, tables, &lent) == 0);
    TST_CHECK(drv_table_cache_count(tables) == 3);
    TST_CHECK(own == lent);
    /* an A/B candidate's grip use adds its tables */
    DrvPersonality extra = with_grip(0.91);
    const DrvPersonality *extras[1] = {&extra};
    DrvTableCache *more = sim_race_tables_create(&race, t, extras, 1);
    TST_CHECK(more != NULL && drv_table_cache_count(more) == 4);
    drv_table_cache_destroy(more);
    drv_table_cache_destroy(tables);
    trk_free(t);
    return 0;
}

/* The track's part of the tables, built once and used for several grips in turn (the way a race's cache uses it),
 * gives each grip the plan and lanes a build of its own gives, bit for bit: using it changes nothing in it. */
static int test_track_part_shared_across_grips(void)
{
    const char *paths[] = {"data/tracks/gp.ini", "data/tracks/tech.ini"};
    const double grips[] = {1.0, 0.88, 0.95, 0.88};
    TrkCarParams car = trk_default_car();
    for (int t = 0; t < 2; t++) {
        TrkTrack *track = load_track(paths[t]);
        TST_CHECK(track != NULL);
        TrkProfileBase *base = trk_profile_base_create(track, TRK_PATH_RACING_LINE_DRIVEN);
        DrvLanesTrack *lt = drv_lanes_track_create(track);
        TST_CHECK(base != NULL && lt != NULL);
        double length = trk_length(track);
        for (int g = 0; g < 4; g++) {
            TrkSpeedProfile *shared = trk_speed_profile_create_on(base, &car, grips[g]);
            TrkSpeedProfile *own = trk_speed_profile_create(track, &car, TRK_PATH_RACING_LINE_DRIVEN, grips[g]);
            DrvLanes *shared_l = drv_lanes_create_on(lt, &car, 0.92 * grips[g], grips[g]);
            DrvLanes *own_l = drv_lanes_create(track, &car, 0.92 * grips[g], grips[g]);
            TST_CHECK(shared != NULL && own != NULL && shared_l != NULL && own_l != NULL);
            TST_CHECK(trk_profile_lap_time(shared) == trk_profile_lap_time(own));
            bool same = true;
            for (double s = 0.0; s < length && same; s += 0.5)
                same = trk_speed_at(shared, s, NULL) == trk_speed_at(own, s, NULL) &&
                       trk_speed_limit_at(shared, s, NULL) == trk_speed_limit_at(own, s, NULL) &&
                       trk_speed_floor(shared, s, 200.0) == trk_speed_floor(own, s, 200.0);
            TST_CHECK(same);
            TST_CHECK(shared_l->n == own_l->n && shared_l->count == own_l->count);
            size_t bytes = (size_t)own_l->n * (size_t)own_l->count * sizeof own_l->v_mps[0];
            TST_CHECK(memcmp(shared_l->v_mps, own_l->v_mps, bytes) == 0);
            trk_speed_profile_free(shared);
            trk_speed_profile_free(own);
            drv_lanes_destroy(shared_l);
            drv_lanes_destroy(own_l);
        }
        trk_profile_base_free(base);
        drv_lanes_track_destroy(lt);
        trk_free(track);
    }
    return 0;
}

/* Where a map's slots fall among the lanes, kept by the driver: each slot's place is drv_lanes_place's, and a new
 * span or slot count is worked out again, not read from the old one. */
static int test_lanes_slots_kept(void)
{
    TrkTrack *track = load_track("data/tracks/gp.ini");
    TST_CHECK(track != NULL);
    TrkCarParams car = trk_default_car();
    DrvLanes *lanes = drv_lanes_create(track, &car, 0.9, 0.95);
    TST_CHECK(lanes != NULL);
    DrvLanesSlots kept = {0};
    const struct {
        int slots;
        double left, step;
    } maps[] = {{32, 5.5, 0.3}, {32, 5.5, 0.3}, {32, 4.9, 0.3}, {20, 4.9, 0.5}};
    for (int m = 0; m < 4; m++) {
        const DrvLanesSlots *ls = drv_lanes_slots(&kept, lanes, maps[m].slots, maps[m].left, maps[m].step);
        TST_CHECK(ls == &kept && ls->slots == maps[m].slots);
        for (int i = 0; i < maps[m].slots; i++) {
            int j;
            double t;
            drv_lanes_place(lanes->d0_m, lanes->spacing_m, lanes->count, maps[m].left - i * maps[m].step, &j, &t);
            TST_CHECK(ls->j[i] == j && ls->t[i] == t);
        }
    }
    drv_lanes_destroy(lanes);
    trk_free(track);
    return 0;
}

int main(void)
{
    TST_RUN(test_same_inputs_share);
    TST_RUN(test_different_inputs_do_not_share);
    TST_RUN(test_parent_is_read_only);
    TST_RUN(test_destroy_any_order);
    TST_RUN(test_shared_race_identical);
    TST_RUN(test_session_lent_tables);
    TST_RUN(test_track_part_shared_across_grips);
    TST_RUN(test_lanes_slots_kept);
    return tst_report();
}
