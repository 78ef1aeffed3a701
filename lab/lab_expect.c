/* lab_expect.c: the [expect] section of a race file (scenarios) and its evaluation on a finished run.
 * See lab_expect.h for the keys and their meaning. */
#include "lab.h"


#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Scalar keys, in the order they are evaluated (and the index of their line in LabExpect.key_line). */
typedef enum LabExpectKey {
    LAB_KEY_SEEDS = 0,
    LAB_KEY_COLLISIONS_MAX,
    LAB_KEY_OVERTAKES_MIN,
    LAB_KEY_OVERTAKES_MAX,
    LAB_KEY_OFFTRACK_S_MAX,
    LAB_KEY_FINISH_ALL,
    LAB_KEY_COLLISIONS_MEAN_MAX, /* across seeds: lab_expect_eval_across */
    LAB_KEY_OFFTRACK_S_MEAN_MAX,
    LAB_KEY_OVERTAKES_AFTER_LAP1_MIN,
    LAB_KEY_COLLISIONS_AFTER_LAP1_MAX,
    LAB_KEY_OVERTAKES_AFTER_LAP1_MEAN_MIN, /* across seeds */
    LAB_KEY_MERIT_AFTER_LAP1_MEAN_MIN,     /* across seeds */
    LAB_KEY_MERIT_MEAN_MIN,                /* across seeds */
    LAB_KEY_COUNT
} LabExpectKey;

_Static_assert(LAB_KEY_COUNT <= LAB_EXPECT_SCALAR_KEYS, "LabExpect.key_line needs a slot per scalar key");

static const char *const lab_expect_key_names[LAB_KEY_COUNT] = {
    "seeds",          "collisions_max", "overtakes_min",       "overtakes_max",
    "offtrack_s_max", "finish_all",     "collisions_mean_max", "offtrack_s_mean_max",
    "overtakes_after_lap1_min",         "collisions_after_lap1_max",
    "overtakes_after_lap1_mean_min",    "overtakes_after_lap1_on_merit_mean_min",
    "overtakes_on_merit_mean_min"};

/*----------------------------------------------------------------------------------------------------------------
 * Parsing
 *--------------------------------------------------------------------------------------------------------------*/

/* Copies text without surrounding blanks; returns nonzero when it does not fit. */
static int lab_expect_trim(const char *text, size_t n, char *out, size_t out_len)
{
    while (n > 0 && isspace((unsigned char)*text)) {
        text++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    if (n >= out_len)
        return 1;
    memcpy(out, text, n);
    out[n] = '\0';
    return 0;
}

/* "A-B" with A <= B (blanks allowed around the numbers); also a single "A". */
int lab_expect_parse_seeds(const char *value, uint64_t *first, uint64_t *last)
{
    char a[32], b[32];
    const char *dash = strchr(value, '-');
    size_t n = dash ? (size_t)(dash - value) : strlen(value);
    if (lab_expect_trim(value, n, a, sizeof a) != 0 || sim_parse_u64(a, first) != 0)
        return 1;
    if (!dash) {
        *last = *first;
        return 0;
    }
    if (lab_expect_trim(dash + 1, strlen(dash + 1), b, sizeof b) != 0 || sim_parse_u64(b, last) != 0)
        return 1;
    return *first <= *last && *last - *first < 100000 ? 0 : 1;
}

static int lab_expect_int(const char *value, int *out)
{
    long v;
    if (sim_parse_long(value, &v) != 0 || v < 0 || v > 1000000)
        return 1;
    *out = (int)v;
    return 0;
}

static int lab_expect_bool(const char *value, bool *out)
{
    char v[16];
    if (lab_expect_trim(value, strlen(value), v, sizeof v) != 0)
        return 1;
    if (strcmp(v, "true") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "1") == 0)
        *out = true;
    else if (strcmp(v, "false") == 0 || strcmp(v, "no") == 0 || strcmp(v, "0") == 0)
        *out = false;
    else
        return 1;
    return 0;
}

/* A key whose value is a real number 0..1000000 (offtrack_s_max and the means); returns 0 ok, 1 bad value. */
static int lab_expect_real(LabExpect *ex, LabExpectKey key, const char *value, char *msg, size_t msg_len)
{
    double *dst = key == LAB_KEY_OFFTRACK_S_MAX                  ? &ex->offtrack_s_max
                  : key == LAB_KEY_COLLISIONS_MEAN_MAX           ? &ex->collisions_mean_max
                  : key == LAB_KEY_OVERTAKES_AFTER_LAP1_MEAN_MIN ? &ex->overtakes_after_lap1_mean_min
                  : key == LAB_KEY_MERIT_AFTER_LAP1_MEAN_MIN     ? &ex->overtakes_after_lap1_on_merit_mean_min
                  : key == LAB_KEY_MERIT_MEAN_MIN                ? &ex->overtakes_on_merit_mean_min
                                                                 : &ex->offtrack_s_mean_max;
    bool *have = key == LAB_KEY_OFFTRACK_S_MAX                  ? &ex->have_offtrack_s_max
                 : key == LAB_KEY_COLLISIONS_MEAN_MAX           ? &ex->have_collisions_mean_max
                 : key == LAB_KEY_OVERTAKES_AFTER_LAP1_MEAN_MIN ? &ex->have_overtakes_after_lap1_mean_min
                 : key == LAB_KEY_MERIT_AFTER_LAP1_MEAN_MIN     ? &ex->have_overtakes_after_lap1_on_merit_mean_min
                 : key == LAB_KEY_MERIT_MEAN_MIN                ? &ex->have_overtakes_on_merit_mean_min
                                                                : &ex->have_offtrack_s_mean_max;
    *have = true;
    if (sim_parse_double(value, dst) == 0 && *dst >= 0.0 && *dst <= 1e6)
        return 0;
    bool seconds = key == LAB_KEY_OFFTRACK_S_MAX || key == LAB_KEY_OFFTRACK_S_MEAN_MAX;
    snprintf(msg, msg_len, "[expect] %s: expected a number%s 0..1000000, got '%s'", lab_expect_key_names[key],
             seconds ? " of seconds" : "", value);
    return 1;
}

/* One scalar key; returns 0 ok, 1 bad value (msg written). */
static int lab_expect_scalar(LabExpect *ex, LabExpectKey key, const char *value, char *msg, size_t msg_len)
{
    const char *name = lab_expect_key_names[key];
    switch (key) {
    case LAB_KEY_SEEDS:
        ex->have_seeds = true;
        if (lab_expect_parse_seeds(value, &ex->seed_first, &ex->seed_last) == 0)
            return 0;
        snprintf(msg, msg_len, "[expect] seeds: expected 'A-B' with A <= B (at most 100000 seeds), got '%s'", value);
        return 1;
    case LAB_KEY_COLLISIONS_MAX:
    case LAB_KEY_OVERTAKES_MIN:
    case LAB_KEY_OVERTAKES_MAX:
    case LAB_KEY_OVERTAKES_AFTER_LAP1_MIN:
    case LAB_KEY_COLLISIONS_AFTER_LAP1_MAX: {
        int *dst = key == LAB_KEY_COLLISIONS_MAX             ? &ex->collisions_max
                   : key == LAB_KEY_OVERTAKES_MIN            ? &ex->overtakes_min
                   : key == LAB_KEY_OVERTAKES_MAX            ? &ex->overtakes_max
                   : key == LAB_KEY_OVERTAKES_AFTER_LAP1_MIN ? &ex->overtakes_after_lap1_min
                                                             : &ex->collisions_after_lap1_max;
        bool *have = key == LAB_KEY_COLLISIONS_MAX             ? &ex->have_collisions_max
                     : key == LAB_KEY_OVERTAKES_MIN            ? &ex->have_overtakes_min
                     : key == LAB_KEY_OVERTAKES_MAX            ? &ex->have_overtakes_max
                     : key == LAB_KEY_OVERTAKES_AFTER_LAP1_MIN ? &ex->have_overtakes_after_lap1_min
                                                               : &ex->have_collisions_after_lap1_max;
        *have = true;
        if (lab_expect_int(value, dst) == 0)
            return 0;
        snprintf(msg, msg_len, "[expect] %s: expected an integer 0..1000000, got '%s'", name, value);
        return 1;
    }
    case LAB_KEY_OFFTRACK_S_MAX:
    case LAB_KEY_COLLISIONS_MEAN_MAX:
    case LAB_KEY_OFFTRACK_S_MEAN_MAX:
    case LAB_KEY_OVERTAKES_AFTER_LAP1_MEAN_MIN:
    case LAB_KEY_MERIT_AFTER_LAP1_MEAN_MIN:
    case LAB_KEY_MERIT_MEAN_MIN:
        return lab_expect_real(ex, key, value, msg, msg_len);
    case LAB_KEY_FINISH_ALL:
        ex->have_finish_all = true;
        if (lab_expect_bool(value, &ex->finish_all) == 0)
            return 0;
        snprintf(msg, msg_len, "[expect] finish_all: expected true or false, got '%s'", value);
        return 1;
    case LAB_KEY_COUNT: break;
    }
    return 1;
}

/* Exactly n comma-separated fields, none empty, each shorter than LAB_EXPECT_REF_LEN. */
static int lab_expect_fields(const char *value, int n, char field[][LAB_EXPECT_REF_LEN])
{
    const char *p = value;
    for (int i = 0; i < n; i++) {
        const char *comma = strchr(p, ',');
        if ((i + 1 < n) != (comma != NULL))
            return 1;
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (lab_expect_trim(p, len, field[i], LAB_EXPECT_REF_LEN) != 0 || field[i][0] == '\0')
            return 1;
        p = comma ? comma + 1 : p + len;
    }
    return 0;
}

static const char *lab_expect_ref_key(LabExpectRefKind kind)
{
    static const char *const keys[] = {"position", "ahead_of", "no_contact_between", "clearance_min",
                                       "drafted_s_min"};
    return keys[kind];
}

static const char *lab_expect_ref_form(LabExpectRefKind kind)
{
    static const char *const forms[] = {"CAR, POSITION", "CAR, CAR", "CAR, CAR", "CAR, CAR, METRES",
                                        "CAR, SECONDS"};
    return forms[kind];
}

static int lab_expect_ref(LabExpect *ex, LabExpectRefKind kind, const char *name, const char *value, int line,
                          char *msg, size_t msg_len)
{
    if (ex->ref_count >= LAB_EXPECT_MAX_REFS) {
        snprintf(msg, msg_len, "[expect] %s: more than %d position, ahead_of and no_contact_between lines", name,
                 LAB_EXPECT_MAX_REFS);
        return 1;
    }
    LabExpectRef *r = &ex->refs[ex->ref_count];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->line = line;
    r->entry_a = r->entry_b = -1;
    char f[3][LAB_EXPECT_REF_LEN];
    int n = kind == LAB_EXPECT_CLEARANCE ? 3 : 2;
    if (lab_expect_fields(value, n, f) != 0) {
        snprintf(msg, msg_len, "[expect] %s: expected '%s', got '%s'", name, lab_expect_ref_form(kind), value);
        return 1;
    }
    memcpy(r->a, f[0], sizeof r->a);
    if (kind == LAB_EXPECT_POSITION) {
        long p;
        if (sim_parse_long(f[1], &p) != 0 || p < 1 || p > LAB_EXPECT_MAX_ENTRIES) {
            snprintf(msg, msg_len, "[expect] position: expected a position 1..%d after the car, got '%s'",
                     LAB_EXPECT_MAX_ENTRIES, f[1]);
            return 1;
        }
        r->position = (int)p;
    } else if (kind == LAB_EXPECT_DRAFTED) {
        if (sim_parse_double(f[1], &r->value) != 0 || r->value < 0.0 || r->value > 1e6) {
            snprintf(msg, msg_len, "[expect] drafted_s_min: expected seconds 0..1000000 after the car, got '%s'",
                     f[1]);
            return 1;
        }
    } else {
        memcpy(r->b, f[1], sizeof r->b);
        if (kind == LAB_EXPECT_CLEARANCE &&
            (sim_parse_double(f[2], &r->value) != 0 || r->value < 0.0 || r->value > 100.0)) {
            snprintf(msg, msg_len, "[expect] clearance_min: expected metres 0..100 after the cars, got '%s'", f[2]);
            return 1;
        }
    }
    ex->ref_count++;
    return 0;
}

int lab_expect_parse_kv(LabExpect *ex, const char *name, const char *value, int line, char *msg, size_t msg_len)
{
    if (!ex->present) {
        ex->present = true;
        ex->line = line;
    }
    for (int k = 0; k < LAB_KEY_COUNT; k++) {
        if (strcmp(name, lab_expect_key_names[k]) != 0)
            continue;
        if (ex->key_line[k] != 0) {
            snprintf(msg, msg_len, "[expect] %s given twice (first on line %d)", name, ex->key_line[k]);
            return 1;
        }
        ex->key_line[k] = line;
        return lab_expect_scalar(ex, (LabExpectKey)k, value, msg, msg_len);
    }
    if (strcmp(name, "position") == 0)
        return lab_expect_ref(ex, LAB_EXPECT_POSITION, name, value, line, msg, msg_len);
    if (strcmp(name, "ahead_of") == 0)
        return lab_expect_ref(ex, LAB_EXPECT_AHEAD_OF, name, value, line, msg, msg_len);
    if (strcmp(name, "no_contact_between") == 0)
        return lab_expect_ref(ex, LAB_EXPECT_NO_CONTACT, name, value, line, msg, msg_len);
    if (strcmp(name, "clearance_min") == 0)
        return lab_expect_ref(ex, LAB_EXPECT_CLEARANCE, name, value, line, msg, msg_len);
    if (strcmp(name, "drafted_s_min") == 0)
        return lab_expect_ref(ex, LAB_EXPECT_DRAFTED, name, value, line, msg, msg_len);
    snprintf(msg, msg_len,
             "[expect] unknown key '%s' (expected seeds, collisions_max, collisions_mean_max, overtakes_min, "
             "overtakes_max, overtakes_after_lap1_min, overtakes_after_lap1_mean_min, "
             "overtakes_after_lap1_on_merit_mean_min, overtakes_on_merit_mean_min, collisions_after_lap1_max, "
             "offtrack_s_max, offtrack_s_mean_max, finish_all, position, ahead_of, no_contact_between, clearance_min "
             "or drafted_s_min)",
             name);
    return 1;
}

/*----------------------------------------------------------------------------------------------------------------
 * Car references
 *--------------------------------------------------------------------------------------------------------------*/

/* The entry a reference names, or -1 with msg set. */
static int lab_expect_find(const SimRace *race, const char *ref, const char *key, char *msg, size_t msg_len)
{
    if (ref[0] == '#') {
        long n;
        if (sim_parse_long(ref + 1, &n) != 0 || n < 1 || n > race->entry_count) {
            snprintf(msg, msg_len, "[expect] %s: '%s': expected #1..#%d (the race has %d cars)", key, ref,
                     race->entry_count, race->entry_count);
            return -1;
        }
        return (int)n - 1;
    }
    int found = -1, count = 0;
    for (int i = 0; i < race->entry_count; i++) {
        if (strcmp(race->entries[i].personality.name, ref) == 0) {
            if (found < 0)
                found = i;
            count++;
        }
    }
    if (count == 1)
        return found;
    if (count == 0)
        snprintf(msg, msg_len, "[expect] %s: no car is driven by '%s' (use a driver's name or #N)", key, ref);
    else
        snprintf(msg, msg_len, "[expect] %s: %d cars are driven by '%s' (use #N, the car's place in the file)", key,
                 count, ref);
    return -1;
}

int lab_expect_resolve(LabExpect *ex, const SimRace *race, int *line, char *msg, size_t msg_len)
{
    for (int i = 0; i < ex->ref_count; i++) {
        LabExpectRef *r = &ex->refs[i];
        const char *key = lab_expect_ref_key(r->kind);
        *line = r->line;
        r->entry_a = lab_expect_find(race, r->a, key, msg, msg_len);
        if (r->entry_a < 0)
            return 1;
        if (r->kind == LAB_EXPECT_DRAFTED)
            continue;
        if (r->kind == LAB_EXPECT_POSITION) {
            if (r->position > race->entry_count) {
                snprintf(msg, msg_len, "[expect] position: %d is beyond the %d cars of the race", r->position,
                         race->entry_count);
                return 1;
            }
            continue;
        }
        r->entry_b = lab_expect_find(race, r->b, key, msg, msg_len);
        if (r->entry_b < 0)
            return 1;
        if (r->entry_b == r->entry_a) {
            snprintf(msg, msg_len, "[expect] %s: '%s' and '%s' are the same car", key, r->a, r->b);
            return 1;
        }
    }
    if (ex->have_overtakes_min && ex->have_overtakes_max && ex->overtakes_min > ex->overtakes_max) {
        *line = ex->key_line[LAB_KEY_OVERTAKES_MAX];
        snprintf(msg, msg_len, "[expect] overtakes_max: %d is below overtakes_min = %d", ex->overtakes_max,
                 ex->overtakes_min);
        return 1;
    }
    return 0;
}

int lab_expect_load(LabExpect *ex, const SimRace *race, char *err, size_t err_len)
{
    memset(ex, 0, sizeof *ex);
    char msg[512];
    int line = 0;
    int rc = 0;
    for (int i = 0; i < race->expect.count && rc == 0; i++) {
        const SimSectionLine *l = &race->expect.lines[i];
        line = l->line;
        rc = lab_expect_parse_kv(ex, l->key, l->value, l->line, msg, sizeof msg);
    }
    if (rc == 0)
        rc = lab_expect_resolve(ex, race, &line, msg, sizeof msg);
    if (rc != 0 && err != NULL && err_len > 0)
        snprintf(err, err_len, "%s:%d: %s", race->path, line, msg);
    return rc;
}

/*----------------------------------------------------------------------------------------------------------------
 * Facts of a session
 *--------------------------------------------------------------------------------------------------------------*/

/* No event seen yet. */
static void lab_expect_moments_clear(LabExpectFacts *f)
{
    for (int k = 0; k < LAB_EXPECT_MOMENTS; k++)
        f->collision_at_s[k] = f->collision_after_lap1_at_s[k] = f->overtake_at_s[k] = -1.0f;
    f->first_offtrack_s = f->first_retire_s = -1.0f;
}

void lab_expect_facts_begin(LabExpectFacts *facts)
{
    memset(facts, 0, sizeof *facts);
    for (int i = 0; i < LAB_EXPECT_MAX_ENTRIES; i++)
        for (int j = 0; j < LAB_EXPECT_MAX_ENTRIES; j++)
            facts->min_clearance_m[i][j] = LAB_EXPECT_FAR;
    lab_expect_moments_clear(facts);
}

/* Box-to-box clearance of two running cars (see LabExpectFacts.min_clearance_m). */
static double lab_expect_clearance(const TrkTrack *track, const SimCar *a, const SimCar *b)
{
    double gap_s = fabs(trk_delta_s(track, a->s_m, b->s_m)) - 0.5 * (a->spec.length_m + b->spec.length_m);
    double gap_d = fabs(a->d_m - b->d_m) - 0.5 * (a->spec.width_m + b->spec.width_m);
    return gap_s > gap_d ? gap_s : gap_d;
}

void lab_expect_observe(LabExpectFacts *f, const SimSession *session)
{
    SimSession *s = (SimSession *)session; /* read only: the world accessor is not const */
    const SimWorld *w = sim_session_world(s);
    const TrkTrack *track = sim_world_track(w);
    int n = sim_world_car_count(w) < LAB_EXPECT_MAX_ENTRIES ? sim_world_car_count(w) : LAB_EXPECT_MAX_ENTRIES;
    double dt = 1.0 / sim_world_def(w)->tick_hz;
    f->observed = true;
    for (int i = 0; i < n; i++) {
        const SimCar *a = sim_world_car(w, i);
        if (a->status != SIM_RUNNING)
            continue;
        int ea = sim_session_entry_of(session, i);
        if (a->drafting_now)
            f->cars[ea].drafted_s += dt;
        for (int j = i + 1; j < n; j++) {
            const SimCar *b = sim_world_car(w, j);
            if (b->status != SIM_RUNNING)
                continue;
            int eb = sim_session_entry_of(session, j);
            float c = (float)lab_expect_clearance(track, a, b);
            if (c < f->min_clearance_m[ea][eb]) {
                f->min_clearance_m[ea][eb] = f->min_clearance_m[eb][ea] = c;
                f->min_clearance_at_s[ea][eb] = f->min_clearance_at_s[eb][ea] = (float)sim_world_time(w);
            }
        }
    }
}

void lab_expect_run_session(SimSession *session, LabExpectFacts *out)
{
    SimWorld *w = sim_session_world(session);
    lab_expect_facts_begin(out);
    while (!sim_world_done(w)) {
        sim_world_step(w);
        lab_expect_observe(out, session);
    }
    lab_expect_facts_from_session(session, out);
}

void lab_expect_facts_from_session(const SimSession *session, LabExpectFacts *out)
{
    SimSession *s = (SimSession *)session; /* read only: the world accessor is not const */
    const SimWorld *w = sim_session_world(s);
    /* per-tick observations stay; the counts are rebuilt from the final state and the events */
    out->collisions = out->overtakes = out->offtracks = 0;
    out->overtakes_after_lap1 = out->collisions_after_lap1 = out->overtakes_after_lap1_on_merit = 0;
    out->overtakes_on_merit = 0;
    out->offtrack_s = 0.0;
    memset(out->contacts, 0, sizeof out->contacts);
    lab_expect_moments_clear(out);
    out->seed = sim_session_def(session)->seed;
    int n = sim_world_car_count(w);
    out->car_count = n < LAB_EXPECT_MAX_ENTRIES ? n : LAB_EXPECT_MAX_ENTRIES;
    int entry_of[LAB_EXPECT_MAX_ENTRIES];
    for (int id = 0; id < out->car_count; id++) {
        const SimCar *c = sim_world_car(w, id);
        int e = sim_session_entry_of(session, id);
        entry_of[id] = (e >= 0 && e < out->car_count) ? e : id;
        LabExpectCar *fc = &out->cars[entry_of[id]];
        snprintf(fc->name, sizeof fc->name, "%s", c->name);
        fc->position = c->position;
        fc->status = c->status;
        fc->offtrack_s = c->offtrack_s;
        out->offtrack_s += c->offtrack_s;
    }
    out->duration_s = sim_world_time(w);
    double dt = 1.0 / sim_world_def(w)->tick_hz;
    int count;
    const SimEvent *ev = sim_world_events(w, &count);
    for (int i = 0; i < count; i++) {
        float at = (float)((double)ev[i].tick * dt);
        if (ev[i].type == SIM_EV_COLLISION && ev[i].race_lap > 1 && out->collisions_after_lap1 < LAB_EXPECT_MOMENTS)
            out->collision_after_lap1_at_s[out->collisions_after_lap1] = at;
        /* the race's lap when it happened (the leader's): lap 1 is the start's lottery, later ones are racing */
        if (ev[i].type == SIM_EV_OVERTAKE || ev[i].type == SIM_EV_COLLISION) {
            int *later = ev[i].type == SIM_EV_OVERTAKE ? &out->overtakes_after_lap1 : &out->collisions_after_lap1;
            *later += ev[i].race_lap > 1;
        }
        /* a pass by the driver faster alone (value: the pace gap, NaN when unknown, which is not > 0) */
        bool merit = ev[i].type == SIM_EV_OVERTAKE && ev[i].value > 0.0;
        out->overtakes_on_merit += merit;
        out->overtakes_after_lap1_on_merit += merit && ev[i].race_lap > 1;
        if (ev[i].type == SIM_EV_OVERTAKE && out->overtakes < LAB_EXPECT_MOMENTS)
            out->overtake_at_s[out->overtakes] = at;
        if (ev[i].type == SIM_EV_OFFTRACK && out->first_offtrack_s < 0.0f)
            out->first_offtrack_s = at;
        if (ev[i].type == SIM_EV_RETIRE && out->first_retire_s < 0.0f)
            out->first_retire_s = at;
        if (ev[i].type == SIM_EV_OVERTAKE)
            out->overtakes++;
        else if (ev[i].type == SIM_EV_OFFTRACK)
            out->offtracks++;
        if (ev[i].type != SIM_EV_COLLISION || ev[i].a < 0 || ev[i].b < 0 || ev[i].a >= out->car_count ||
            ev[i].b >= out->car_count)
            continue;
        if (out->collisions < LAB_EXPECT_MOMENTS)
            out->collision_at_s[out->collisions] = at;
        out->collisions++;
        int a = entry_of[ev[i].a], b = entry_of[ev[i].b];
        if (out->contacts[a][b] == 0)
            out->first_contact_s[a][b] = out->first_contact_s[b][a] = at;
        if (out->contacts[a][b] < UINT16_MAX)
            out->contacts[a][b] = ++out->contacts[b][a];
    }
}

/*----------------------------------------------------------------------------------------------------------------
 * Evaluation
 *--------------------------------------------------------------------------------------------------------------*/

static LabExpectCheck *lab_expect_add(LabExpectReport *r, const char *name, int line, LabExpectOp op,
                                      double measured, double limit)
{
    LabExpectCheck *c = &r->checks[r->count++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->line = line;
    c->op = op;
    c->measured = measured;
    c->limit = limit;
    c->pass = op == LAB_EXPECT_LE ? measured <= limit : op == LAB_EXPECT_GE ? measured >= limit : measured != 0.0;
    c->at_s = -1.0;
    return c;
}

/* The moment the last check added shows its failure: `at_s` when it failed (a negative time: none). */
static void lab_expect_at(LabExpectReport *r, double at_s)
{
    LabExpectCheck *c = &r->checks[r->count - 1];
    c->at_s = !c->pass && at_s >= 0.0 ? at_s : -1.0;
}

/* The time of the event past a limit of `limit` events, from the first LAB_EXPECT_MOMENTS of them. */
static double lab_expect_nth(const float *at_s, int limit)
{
    return limit >= 0 && limit < LAB_EXPECT_MOMENTS ? (double)at_s[limit] : -1.0;
}

static void lab_expect_count(LabExpectReport *r, const char *name, int line, LabExpectOp op, int measured,
                             int limit)
{
    LabExpectCheck *c = lab_expect_add(r, name, line, op, measured, limit);
    snprintf(c->measured_text, sizeof c->measured_text, "%d", measured);
    snprintf(c->limit_text, sizeof c->limit_text, "%s %d", op == LAB_EXPECT_LE ? "<=" : ">=", limit);
}

static void lab_expect_eval_scalars(const LabExpect *ex, const LabExpectFacts *f, LabExpectReport *r)
{
    const int *kl = ex->key_line;
    if (ex->have_collisions_max) {
        lab_expect_count(r, "collisions_max", kl[LAB_KEY_COLLISIONS_MAX], LAB_EXPECT_LE, f->collisions,
                         ex->collisions_max);
        lab_expect_at(r, lab_expect_nth(f->collision_at_s, ex->collisions_max));
    }
    if (ex->have_overtakes_min)
        lab_expect_count(r, "overtakes_min", kl[LAB_KEY_OVERTAKES_MIN], LAB_EXPECT_GE, f->overtakes,
                         ex->overtakes_min);
    if (ex->have_overtakes_max) {
        lab_expect_count(r, "overtakes_max", kl[LAB_KEY_OVERTAKES_MAX], LAB_EXPECT_LE, f->overtakes,
                         ex->overtakes_max);
        lab_expect_at(r, lab_expect_nth(f->overtake_at_s, ex->overtakes_max));
    }
    if (ex->have_overtakes_after_lap1_min)
        lab_expect_count(r, "overtakes_after_lap1_min", kl[LAB_KEY_OVERTAKES_AFTER_LAP1_MIN], LAB_EXPECT_GE,
                         f->overtakes_after_lap1, ex->overtakes_after_lap1_min);
    if (ex->have_collisions_after_lap1_max) {
        lab_expect_count(r, "collisions_after_lap1_max", kl[LAB_KEY_COLLISIONS_AFTER_LAP1_MAX], LAB_EXPECT_LE,
                         f->collisions_after_lap1, ex->collisions_after_lap1_max);
        lab_expect_at(r, lab_expect_nth(f->collision_after_lap1_at_s, ex->collisions_after_lap1_max));
    }
    if (ex->have_offtrack_s_max) {
        LabExpectCheck *c = lab_expect_add(r, "offtrack_s_max", kl[LAB_KEY_OFFTRACK_S_MAX], LAB_EXPECT_LE,
                                           f->offtrack_s, ex->offtrack_s_max);
        snprintf(c->measured_text, sizeof c->measured_text, "%.2f s", f->offtrack_s);
        snprintf(c->limit_text, sizeof c->limit_text, "<= %.2f s", ex->offtrack_s_max);
        lab_expect_at(r, f->first_offtrack_s);
    }
    if (ex->have_finish_all) {
        int dnf = 0;
        for (int i = 0; i < f->car_count; i++)
            dnf += f->cars[i].status == SIM_DNF;
        bool holds = ex->finish_all ? dnf == 0 : true;
        LabExpectCheck *c = lab_expect_add(r, "finish_all", kl[LAB_KEY_FINISH_ALL], LAB_EXPECT_TRUE, holds, 1);
        snprintf(c->measured_text, sizeof c->measured_text, "%d/%d classified", f->car_count - dnf, f->car_count);
        snprintf(c->limit_text, sizeof c->limit_text, ex->finish_all ? "all" : "any");
        lab_expect_at(r, f->first_retire_s);
    }
}

static void lab_expect_eval_ref(const LabExpectRef *ref, const LabExpectFacts *f, LabExpectReport *r)
{
    char name[96];
    const char *key = lab_expect_ref_key(ref->kind);
    int a = ref->entry_a, b = ref->entry_b;
    bool single = ref->kind == LAB_EXPECT_POSITION || ref->kind == LAB_EXPECT_DRAFTED;
    bool known = a >= 0 && a < f->car_count && (single || (b >= 0 && b < f->car_count));
    if (single)
        snprintf(name, sizeof name, "%s %s", key, ref->a);
    else
        snprintf(name, sizeof name, "%s %s, %s", key, ref->a, ref->b);
    if (!known) { /* the run has fewer cars than the race it was resolved against */
        LabExpectCheck *c = lab_expect_add(r, name, ref->line, LAB_EXPECT_TRUE, 0, 1);
        snprintf(c->measured_text, sizeof c->measured_text, "car missing");
        snprintf(c->limit_text, sizeof c->limit_text, "present");
        return;
    }
    LabExpectCheck *c;
    switch (ref->kind) {
    case LAB_EXPECT_POSITION:
        c = lab_expect_add(r, name, ref->line, LAB_EXPECT_TRUE, f->cars[a].position == ref->position, 1);
        snprintf(c->measured_text, sizeof c->measured_text, "P%d", f->cars[a].position);
        snprintf(c->limit_text, sizeof c->limit_text, "= P%d", ref->position);
        lab_expect_at(r, f->duration_s); /* the places are the finish's */
        break;
    case LAB_EXPECT_AHEAD_OF:
        c = lab_expect_add(r, name, ref->line, LAB_EXPECT_TRUE, f->cars[a].position < f->cars[b].position, 1);
        snprintf(c->measured_text, sizeof c->measured_text, "P%d vs P%d", f->cars[a].position, f->cars[b].position);
        snprintf(c->limit_text, sizeof c->limit_text, "ahead");
        lab_expect_at(r, f->duration_s);
        break;
    case LAB_EXPECT_NO_CONTACT:
        c = lab_expect_add(r, name, ref->line, LAB_EXPECT_LE, f->contacts[a][b], 0);
        if (f->contacts[a][b] == 0)
            snprintf(c->measured_text, sizeof c->measured_text, "0 contacts");
        else
            snprintf(c->measured_text, sizeof c->measured_text, "%d contact%s (first at %.2f s)", f->contacts[a][b],
                     f->contacts[a][b] == 1 ? "" : "s", (double)f->first_contact_s[a][b]);
        snprintf(c->limit_text, sizeof c->limit_text, "none");
        lab_expect_at(r, f->first_contact_s[a][b]);
        break;
    case LAB_EXPECT_CLEARANCE: {
        double m = f->min_clearance_m[a][b];
        c = lab_expect_add(r, name, ref->line, LAB_EXPECT_GE, f->observed ? m : -LAB_EXPECT_FAR, ref->value);
        if (!f->observed)
            snprintf(c->measured_text, sizeof c->measured_text, "not observed");
        else if (m >= LAB_EXPECT_FAR)
            snprintf(c->measured_text, sizeof c->measured_text, "never together");
        else
            snprintf(c->measured_text, sizeof c->measured_text, "%.2f m", m);
        snprintf(c->limit_text, sizeof c->limit_text, ">= %.2f m", ref->value);
        lab_expect_at(r, f->observed && m < LAB_EXPECT_FAR ? f->min_clearance_at_s[a][b] : -1.0);
        break;
    }
    case LAB_EXPECT_DRAFTED:
        c = lab_expect_add(r, name, ref->line, LAB_EXPECT_GE, f->observed ? f->cars[a].drafted_s : -1.0,
                           ref->value);
        if (f->observed)
            snprintf(c->measured_text, sizeof c->measured_text, "%.2f s", f->cars[a].drafted_s);
        else
            snprintf(c->measured_text, sizeof c->measured_text, "not observed");
        snprintf(c->limit_text, sizeof c->limit_text, ">= %.2f s", ref->value);
        break;
    }
}

void lab_expect_eval(const LabExpect *ex, const LabExpectFacts *facts, LabExpectReport *out)
{
    memset(out, 0, sizeof *out);
    lab_expect_eval_scalars(ex, facts, out);
    for (int i = 0; i < ex->ref_count; i++)
        lab_expect_eval_ref(&ex->refs[i], facts, out);
    out->pass = true;
    out->at_s = -1.0;
    for (int i = 0; i < out->count; i++) {
        const LabExpectCheck *c = &out->checks[i];
        out->pass = out->pass && c->pass;
        if (c->at_s >= 0.0 && (out->at_s < 0.0 || c->at_s < out->at_s))
            out->at_s = c->at_s;
    }
    out->collisions = facts->collisions;
    out->offtrack_s = facts->offtrack_s;
    out->overtakes_after_lap1 = facts->overtakes_after_lap1;
    out->overtakes_after_lap1_on_merit = facts->overtakes_after_lap1_on_merit;
    out->overtakes_on_merit = facts->overtakes_on_merit;
}

/* Decimals for a mean and its limit: 2, or more when a mean just past its limit (over a maximum, under a minimum)
 * would print the same as it. */
static int lab_expect_decimals(LabExpectOp op, double measured, double limit)
{
    char m[64], l[64];
    int d = 2;
    for (; d < 6 && (op == LAB_EXPECT_LE ? measured > limit : measured < limit); d++) {
        snprintf(m, sizeof m, "%.*f", d, measured);
        snprintf(l, sizeof l, "%.*f", d, limit);
        if (strcmp(m, l) != 0)
            break;
    }
    return d;
}

/* One check across seeds: "0.80 over 20 seeds" against "<= 1.00" or ">= 0.30" (unit " s" or ""). */
static void lab_expect_mean(LabExpectReport *r, const char *name, int line, LabExpectOp op, double mean,
                            double limit, int runs, const char *unit)
{
    LabExpectCheck *c = lab_expect_add(r, name, line, op, mean, limit);
    int d = lab_expect_decimals(op, mean, limit);
    snprintf(c->measured_text, sizeof c->measured_text, "%.*f%s over %d seed%s", d, mean, unit, runs,
             runs == 1 ? "" : "s");
    snprintf(c->limit_text, sizeof c->limit_text, "%s %.*f%s", op == LAB_EXPECT_LE ? "<=" : ">=", d, limit, unit);
}

void lab_expect_eval_across(const LabExpect *ex, const LabExpectReport *runs, int run_count, LabExpectReport *out)
{
    memset(out, 0, sizeof *out);
    double collisions = 0.0, offtrack_s = 0.0, overtakes_after_lap1 = 0.0, merit_after_lap1 = 0.0, merit = 0.0;
    for (int k = 0; k < run_count; k++) { /* in run order: the sum does not depend on which run finished first */
        collisions += runs[k].collisions;
        offtrack_s += runs[k].offtrack_s;
        overtakes_after_lap1 += runs[k].overtakes_after_lap1;
        merit_after_lap1 += runs[k].overtakes_after_lap1_on_merit;
        merit += runs[k].overtakes_on_merit;
    }
    double n = run_count > 0 ? run_count : 1.0; /* no runs: means of 0 */
    const int *kl = ex->key_line;
    if (ex->have_collisions_mean_max)
        lab_expect_mean(out, "collisions_mean_max", kl[LAB_KEY_COLLISIONS_MEAN_MAX], LAB_EXPECT_LE, collisions / n,
                        ex->collisions_mean_max, run_count, "");
    if (ex->have_offtrack_s_mean_max)
        lab_expect_mean(out, "offtrack_s_mean_max", kl[LAB_KEY_OFFTRACK_S_MEAN_MAX], LAB_EXPECT_LE, offtrack_s / n,
                        ex->offtrack_s_mean_max, run_count, " s");
    if (ex->have_overtakes_after_lap1_mean_min)
        lab_expect_mean(out, "overtakes_after_lap1_mean_min", kl[LAB_KEY_OVERTAKES_AFTER_LAP1_MEAN_MIN],
                        LAB_EXPECT_GE, overtakes_after_lap1 / n, ex->overtakes_after_lap1_mean_min, run_count, "");
    if (ex->have_overtakes_after_lap1_on_merit_mean_min)
        lab_expect_mean(out, "overtakes_after_lap1_on_merit_mean_min", kl[LAB_KEY_MERIT_AFTER_LAP1_MEAN_MIN],
                        LAB_EXPECT_GE, merit_after_lap1 / n, ex->overtakes_after_lap1_on_merit_mean_min, run_count,
                        "");
    if (ex->have_overtakes_on_merit_mean_min)
        lab_expect_mean(out, "overtakes_on_merit_mean_min", kl[LAB_KEY_MERIT_MEAN_MIN], LAB_EXPECT_GE, merit / n,
                        ex->overtakes_on_merit_mean_min, run_count, "");
    out->pass = true;
    for (int i = 0; i < out->count; i++)
        out->pass = out->pass && out->checks[i].pass;
}

int lab_expect_worst_run(const LabExpectReport *reports, int run_count, int check)
{
    int worst = 0;
    for (int k = 0; k < run_count; k++) {
        const LabExpectCheck *c = &reports[k].checks[check], *w = &reports[worst].checks[check];
        bool worse;
        if (c->op == LAB_EXPECT_LE)
            worse = c->measured > w->measured;
        else if (c->op == LAB_EXPECT_GE)
            worse = c->measured < w->measured;
        else
            worse = !c->pass && w->pass;
        if (worse)
            worst = k;
    }
    return worst;
}
