/* test_soak.c: long and extreme races must run to the end cleanly.
 *
 *   soak:    40 cars (the default grid repeated) on the tightest track (tests/data/soak.ini, data/tracks/tech.ini);
 *            1 lap here, 200 laps with `test_soak --full` (`make soak`).
 *   extreme: 60 cars on an 8 m wide track (tests/data/extreme.ini) with every driver at the minimum slot count (8),
 *            no skirt and grip use 1.0, 1 lap.
 *
 * Checks: the world's invariants after every tick (sim_world_check: finite state, s wrapped, speed >= 0, no car
 * beyond the world limit), the race ends before its time limit, every car finished or retired with a reason and none
 * retired for lack of progress (stuck), the JSON results hold no NaN or infinity, and a second run gives the same
 * JSON byte for byte. */
#include "tst.h"

#include "../sim/sim.h"

#include <stdlib.h>
#include <string.h>

typedef struct SoakDef {
    const char *race_path;
    int cars;        /* the race file's grid repeated to this many */
    int laps;
    int slots;       /* > 0: every driver's slot count */
    bool extreme;    /* skirt 0 and grip use 1.0 for every driver */
} SoakDef;

typedef struct SoakResult {
    char *json;      /* malloc'd */
    size_t json_len;
    long ticks;
    int finished, dnf, stuck;
    char problem[1100];  /* first invariant broken, "" when none */
} SoakResult;

static SimRace soak_race; /* large: static */

static int soak_load(const SoakDef *d)
{
    char err[1024];
    if (sim_race_load(d->race_path, &soak_race, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int base = soak_race.entry_count;
    for (int k = base; k < d->cars && k < SIM_MAX_CARS; k++)
        soak_race.entries[k] = soak_race.entries[k % base];
    soak_race.entry_count = d->cars;
    soak_race.laps = d->laps;
    for (int k = 0; k < soak_race.entry_count; k++) {
        DrvPersonality *p = &soak_race.entries[k].personality;
        if (d->slots > 0)
            p->slots = d->slots;
        if (d->extreme) {
            p->skirt_m = 0.0;
            p->grip_use = 1.0;
        }
    }
    return 0;
}

static void soak_tally(const SimWorld *w, SoakResult *r)
{
    for (int i = 0; i < sim_world_car_count(w); i++) {
        const SimCar *c = sim_world_car(w, i);
        if (c->status == SIM_FINISHED)
            r->finished++;
        else if (c->status == SIM_DNF)
            r->dnf++;
        if (c->status == SIM_DNF && (strncmp(c->dnf_reason, "no progress", 11) == 0 || c->dnf_reason[0] == '\0'))
            r->stuck++;
        if (c->status == SIM_DNF && r->problem[0] == '\0' && strcmp(c->dnf_reason, "time limit") == 0)
            snprintf(r->problem, sizeof r->problem, "car %d (%s) hit the time limit", i, c->name);
    }
}

/* One run of the loaded race; fills r (r->json must be freed). Returns nonzero when the session cannot be built. */
static int soak_run(SoakResult *r)
{
    memset(r, 0, sizeof *r);
    char err[1024];
    SimSessionDef def = sim_default_session_def(&soak_race);
    SimSession *s = sim_session_create(&soak_race, &def, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    SimWorld *w = sim_session_world(s);
    while (!sim_world_done(w)) {
        sim_world_step(w);
        if (r->problem[0] == '\0' && sim_world_check(w, err, sizeof err) != 0)
            snprintf(r->problem, sizeof r->problem, "tick %ld: %s", sim_world_tick(w), err);
    }
    r->ticks = sim_world_tick(w);
    soak_tally(w, r);
    FILE *mem = open_memstream(&r->json, &r->json_len);
    if (mem) {
        sim_results_write_json(s, mem, true, false);
        fclose(mem);
    }
    sim_session_destroy(s);
    return 0;
}

static bool soak_json_finite(const char *json)
{
    return !strstr(json, "nan") && !strstr(json, "NaN") && !strstr(json, "inf") && !strstr(json, "Infinity");
}

static int soak_check(const SoakDef *d)
{
    TST_CHECK(soak_load(d) == 0);
    SoakResult a, b;
    TST_CHECK(soak_run(&a) == 0);
    printf("%s: %d cars, %d laps: %ld ticks, %d finished, %d retired (%d stuck)%s%s\n", d->race_path, d->cars,
           d->laps, a.ticks, a.finished, a.dnf, a.stuck, a.problem[0] ? "; " : "", a.problem);
    TST_STR_EQ(a.problem, "");
    TST_CHECK(a.json != NULL);
    TST_CHECK(a.finished + a.dnf == d->cars);
    TST_CHECK(a.finished > 0);
    TST_CHECK(a.stuck == 0);
    TST_CHECK(soak_json_finite(a.json));
    TST_CHECK(soak_run(&b) == 0);
    TST_CHECK(b.json != NULL);
    TST_CHECK(a.json_len == b.json_len && memcmp(a.json, b.json, a.json_len) == 0);
    free(a.json);
    free(b.json);
    return 0;
}

static int soak_laps = 1;

static int test_soak_tight_track(void)
{
    SoakDef d = {"tests/data/soak.ini", 40, soak_laps, 0, false};
    return soak_check(&d);
}

static int test_extreme_narrow(void)
{
    SoakDef d = {"tests/data/extreme.ini", 60, 1, 8, true};
    return soak_check(&d);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--full") == 0) {
        soak_laps = 200;
        TST_RUN(test_soak_tight_track);
        return tst_report();
    }
    TST_RUN(test_soak_tight_track);
    TST_RUN(test_extreme_narrow);
    return tst_report();
}
