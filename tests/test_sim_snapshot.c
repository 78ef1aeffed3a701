/* test_sim_snapshot.c: keyframes of a session (sim_snapshot_*): a race restored to a keyframe goes on exactly as it
 * went (the same state hash at every tick, the same results file), however often it is rewound; a snapshot
 * restores only into its own session. */
#include "../sim/sim.h"
#include "tst.h"

#include <stdlib.h>

static SimRace *load_race(const char *path)
{
    SimRace *race = malloc(sizeof *race);
    char err[2048];
    if (race && sim_race_load(path, race, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        free(race);
        return NULL;
    }
    return race;
}

/* The JSON results of a finished session with its events, as text (the caller frees it). */
static char *results_json(const SimSession *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    sim_results_write_json(s, f, true, true);
    fclose(f);
    return buf;
}

static void step_to(SimWorld *w, long tick)
{
    while (sim_world_tick(w) < tick && !sim_world_done(w))
        sim_world_step(w);
}

/* The default race (ten cars, contacts and passes), with poses kept as the viewer does: keyframes at the start (an
 * unstarted world), 12 s and 40 s; after the finish rewound to each, in a jumbled order, and run to the end again:
 * the hash at the keyframe's tick and at the end and the results file are the uninterrupted run's. */
static int test_rewound_race_goes_on_as_it_went(void)
{
    SimRace *race = load_race("data/races/default.ini");
    TST_CHECK(race != NULL);
    char err[2048];
    SimSessionDef def = sim_default_session_def(race);
    def.seed = 3;
    def.laps = 2;
    SimSession *plain = sim_session_create(race, &def, err, sizeof err);
    TST_CHECK(plain != NULL);
    SimWorld *pw = sim_session_world(plain);
    const long marks[] = {0, 1200, 4000};
    uint64_t hash_at[3];
    for (int k = 0; k < 3; k++) {
        step_to(pw, marks[k]);
        hash_at[k] = sim_world_hash(pw);
    }
    sim_world_run(pw);
    uint64_t end_hash = sim_world_hash(pw);
    char *end_json = results_json(plain);
    TST_CHECK(end_json != NULL);

    SimSession *s = sim_session_create(race, &def, err, sizeof err);
    TST_CHECK(s != NULL);
    SimWorld *w = sim_session_world(s);
    sim_world_keep_poses(w, true);
    SimSnapshot *snap[3];
    for (int k = 0; k < 3; k++) {
        snap[k] = sim_snapshot_create(s);
        TST_CHECK(snap[k] != NULL);
        TST_CHECK(sim_snapshot_tick(snap[k]) == -1);
        step_to(w, marks[k]);
        TST_CHECK(sim_snapshot_take(snap[k], s) == 0);
        TST_CHECK(sim_snapshot_tick(snap[k]) == marks[k]);
        TST_CHECK(sim_snapshot_bytes(snap[k]) > 10 * drv_state_bytes());
    }
    sim_world_run(w);
    TST_CHECK(sim_world_hash(w) == end_hash);
    const int order[] = {1, 0, 2, 1};
    for (int i = 0; i < 4; i++) {
        int k = order[i];
        TST_CHECK(sim_snapshot_restore(snap[k], s) == 0);
        TST_CHECK(sim_world_tick(w) == marks[k]);
        TST_CHECK(!sim_world_done(w));
        TST_CHECK(sim_world_hash(w) == hash_at[k]);
        if (i == 1) /* half way to the next keyframe and back again */
            step_to(w, 2500);
        else
            sim_world_run(w);
        if (i == 1)
            continue;
        TST_CHECK(sim_world_hash(w) == end_hash);
        char *json = results_json(s);
        TST_CHECK(json != NULL);
        TST_STR_EQ(json, end_json);
        free(json);
    }
    /* another session of the same race is not the one the keyframe belongs to */
    TST_CHECK(sim_snapshot_restore(snap[1], plain) != 0);
    TST_CHECK(sim_world_hash(pw) == end_hash);
    for (int k = 0; k < 3; k++)
        sim_snapshot_destroy(snap[k]);
    free(end_json);
    sim_session_destroy(s);
    sim_session_destroy(plain);
    free(race);
    return 0;
}

/* A snapshot never taken restores nothing. */
static int test_untaken_snapshot_is_refused(void)
{
    SimRace *race = load_race("tests/data/sim/race.ini");
    TST_CHECK(race != NULL);
    char err[2048];
    SimSession *s = sim_session_create(race, NULL, err, sizeof err);
    TST_CHECK(s != NULL);
    SimSnapshot *snap = sim_snapshot_create(s);
    TST_CHECK(snap != NULL);
    step_to(sim_session_world(s), 50);
    uint64_t h = sim_world_hash(sim_session_world(s));
    TST_CHECK(sim_snapshot_restore(snap, s) != 0);
    TST_CHECK(sim_world_hash(sim_session_world(s)) == h);
    sim_snapshot_destroy(snap);
    sim_session_destroy(s);
    free(race);
    return 0;
}

int main(void)
{
    TST_RUN(test_rewound_race_goes_on_as_it_went);
    TST_RUN(test_untaken_snapshot_is_refused);
    return tst_report();
}
