/* sim_race.c: race files.
 *
 *   [race]   track = PATH (required), laps = 0..1000 (default 5; 0 needs duration_s), seed = N (default 1),
 *            tick_hz = 10..1000 (default 100), car = PATH (optional car file), duration_s = S (optional),
 *            shuffle_grid = true|false (default false; true: the grid permuted with the seed, as run --shuffle-grid),
 *            points = P1, P2, ... (championship points by position: 1-40 integers 0..10000, non-increasing;
 *            default 25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
 *   [car]    inline car spec (same keys as a car file; not together with `car =`)
 *   [grid]   driver = PATH, one line per car in grid order (1..SIM_MAX_CARS)
 *   [start]  N = s_m, d_m, speed_mps: place grid car N (1-based) explicitly instead of on the grid (scenarios)
 *            car = PATH, s_m, d_m, speed_mps[, hold]: one more car, placed there (after the grid cars of lines
 *            before it, in file order); `hold` = no driver: it holds its line and speed (a slow or stopped car)
 *   [expect] what a scenario must achieve: kept as written (SimSection), read and checked by lab/ (lab_expect_load)
 *
 * Paths are relative to the race file. Every file named is loaded and validated here, so a race that loads runs.
 * Errors are "path:line: what is wrong" for the file that is wrong (line 0 when it is not about one line).
 */
#include "sim.h"
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* The sections of a race file; the order is SimRaceSection's. */
static const char *const sim_race_sections[] = {"race", "car", "grid", "start", "expect", NULL};
typedef enum SimRaceSection { SIM_SEC_RACE, SIM_SEC_CAR, SIM_SEC_GRID, SIM_SEC_START, SIM_SEC_EXPECT } SimRaceSection;

/* An explicit start, kept with its line until the grid is complete. */
typedef struct SimRacePlace {
    int slot; /* 1-based */
    int line;
    double s_m, d_m, speed_mps;
} SimRacePlace;

typedef struct SimRaceParse {
    TrkIni ini;
    SimRace *race;
    bool have_track, have_laps, have_seed, have_tick, have_car_file, have_duration, have_car_inline, have_points;
    bool have_strict, have_shuffle;
    int car_line;
    int place_count;
    SimRacePlace places[SIM_MAX_CARS];
} SimRaceParse;

/*----------------------------------------------------------------------------------------------------------------
 * Sections and keys
 *--------------------------------------------------------------------------------------------------------------*/

static void sim_race_on_section(void *user, int section)
{
    SimRaceParse *p = user;
    if (section == SIM_SEC_EXPECT)
        p->race->expect.present = true; /* even when empty */
}

/* Keeps the message of a file the race names (it has its own path and line) and where the race named it. */
static void sim_race_named_fail(SimRaceParse *p, const char *msg)
{
    if (p->ini.failed)
        return;
    p->ini.failed = true;
    p->ini.err_line = p->ini.line;
    snprintf(p->ini.err, p->ini.err_len, "%s (named at %s:%d)", msg, p->ini.path, p->ini.line);
}

/* Returns 1 when the key was already given (and reports it). */
static int sim_race_dup(SimRaceParse *p, bool *seen, const char *name)
{
    if (*seen) {
        trk_ini_fail(&p->ini, p->ini.line, "[race] %s given twice", name);
        return 1;
    }
    *seen = true;
    return 0;
}

/* Resolves a path relative to the race file and checks it opens. */
static int sim_race_path(SimRaceParse *p, const char *sec, const char *key, const char *value, char *out)
{
    if (value[0] == '\0') {
        trk_ini_fail(&p->ini, p->ini.line, "[%s] %s: expected a file path, got ''", sec, key);
        return 1;
    }
    if (sim_path_join(out, SIM_PATH_LEN, p->ini.path, value) != 0) {
        trk_ini_fail(&p->ini, p->ini.line, "[%s] %s: path too long", sec, key);
        return 1;
    }
    FILE *f = fopen(out, "rb");
    if (!f) {
        trk_ini_fail(&p->ini, p->ini.line, "[%s] %s: cannot open '%s'", sec, key, out);
        return 1;
    }
    fclose(f);
    return 0;
}

static void sim_race_key_car_file(SimRaceParse *p, const char *value)
{
    char path[SIM_PATH_LEN], msg[SIM_PATH_LEN + 256];
    if (p->have_car_inline) {
        trk_ini_fail(&p->ini, p->ini.line, "[race] car: the car is already given by a [car] section");
        return;
    }
    if (sim_race_path(p, "race", "car", value, path) != 0)
        return;
    if (sim_car_spec_load(path, &p->race->car, msg, sizeof msg) != 0)
        sim_race_named_fail(p, msg);
}

/* A [race] number key in lo..hi (range as the message spells it), set once. */
static void sim_race_key_number(SimRaceParse *p, bool *seen, const char *name, const char *value, double lo, double hi,
                                const char *range, double *out)
{
    double x;
    if (sim_race_dup(p, seen, name))
        return;
    if (sim_parse_double(value, &x) != 0 || x < lo || x > hi)
        trk_ini_fail(&p->ini, p->ini.line, "[race] %s: expected a number %s, got '%s'", name, range, value);
    else
        *out = x;
}

/* "25, 18, 15": a comma-separated list of non-increasing integers (a later place never scores more). */
static void sim_race_key_points(SimRaceParse *p, const char *value)
{
    SimRace *r = p->race;
    int count = 0, values[SIM_MAX_POINTS];
    const char *at = value;
    for (;;) {
        char item[32];
        size_t len = strcspn(at, ",");
        long n;
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item - 1 ? len : sizeof item - 1), at);
        if (count == SIM_MAX_POINTS) {
            trk_ini_fail(&p->ini, p->ini.line, "[race] points: at most %d values", SIM_MAX_POINTS);
            return;
        }
        if (len >= sizeof item || sim_parse_long(item, &n) != 0 || n < 0 || n > 10000) {
            size_t skip = strspn(at, " \t"), shown = len - skip;
            while (shown > 0 && (at[skip + shown - 1] == ' ' || at[skip + shown - 1] == '\t'))
                shown--;
            trk_ini_fail(&p->ini, p->ini.line, "[race] points: value %d: expected an integer 0..10000, got "
                         "'%.*s'", count + 1, (int)(shown < 40 ? shown : 40), at + skip);
            return;
        }
        if (count > 0 && n > values[count - 1]) {
            trk_ini_fail(&p->ini, p->ini.line, "[race] points: value %d (%ld) is more than value %d (%d): "
                         "points must not increase with the position", count + 1, n, count, values[count - 1]);
            return;
        }
        values[count++] = (int)n;
        if (at[len] == '\0')
            break;
        at += len + 1;
    }
    r->points_count = count;
    memcpy(r->points, values, (size_t)count * sizeof values[0]);
}

/* A [race] key that is true or false, given once. */
static void sim_race_key_bool(SimRaceParse *p, bool *seen, const char *name, const char *value, bool *out)
{
    if (sim_race_dup(p, seen, name))
        return;
    if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
        *out = strcmp(value, "true") == 0;
    else
        trk_ini_fail(&p->ini, p->ini.line, "[race] %s: expected true or false, got '%s'", name, value);
}

static void sim_race_key_race(SimRaceParse *p, const char *name, const char *value)
{
    SimRace *r = p->race;
    int line = p->ini.line;
    long n;
    if (strcmp(name, "track") == 0) {
        if (!sim_race_dup(p, &p->have_track, name))
            sim_race_path(p, "race", "track", value, r->track_path);
    } else if (strcmp(name, "laps") == 0) {
        if (!sim_race_dup(p, &p->have_laps, name)) {
            if (sim_parse_long(value, &n) != 0 || n < 0 || n > 1000)
                trk_ini_fail(&p->ini, line, "[race] laps: expected an integer 0..1000, got '%s'", value);
            else
                r->laps = (int)n;
        }
    } else if (strcmp(name, "seed") == 0) {
        if (!sim_race_dup(p, &p->have_seed, name) && sim_parse_u64(value, &r->seed) != 0)
            trk_ini_fail(&p->ini, line, "[race] seed: expected an integer 0..18446744073709551615, got '%s'",
                         value);
    } else if (strcmp(name, "tick_hz") == 0) {
        sim_race_key_number(p, &p->have_tick, name, value, 10.0, 1000.0, "10..1000", &r->tick_hz);
    } else if (strcmp(name, "duration_s") == 0) {
        sim_race_key_number(p, &p->have_duration, name, value, 0.0, 1e6, "0..1000000", &r->duration_s);
    } else if (strcmp(name, "points") == 0) {
        if (!sim_race_dup(p, &p->have_points, name))
            sim_race_key_points(p, value);
    } else if (strcmp(name, "strict_track") == 0) {
        sim_race_key_bool(p, &p->have_strict, name, value, &r->strict_track);
    } else if (strcmp(name, "shuffle_grid") == 0) {
        sim_race_key_bool(p, &p->have_shuffle, name, value, &r->shuffle_grid);
    } else if (strcmp(name, "car") == 0) {
        if (!sim_race_dup(p, &p->have_car_file, name)) {
            p->car_line = line;
            sim_race_key_car_file(p, value);
        }
    } else {
        trk_ini_fail(&p->ini, line, "[race] unknown key '%s'", name);
    }
}

static void sim_race_key_car(SimRaceParse *p, const char *name, const char *value)
{
    char msg[256];
    if (p->have_car_file) {
        trk_ini_fail(&p->ini, p->ini.line, "[car] the car is already given by 'car =' on line %d",
                     p->car_line);
        return;
    }
    p->have_car_inline = true;
    int rc = sim_car_set_key(&p->race->car, name, value, msg, sizeof msg);
    if (rc == 1)
        trk_ini_fail(&p->ini, p->ini.line, "[car] unknown key '%s'", name);
    else if (rc == 2)
        trk_ini_fail(&p->ini, p->ini.line, "%s", msg);
}

/* Where a grid line's next override (", name = ...", ", number = ...", ", colour = ...") starts, or NULL. */
static const char *sim_grid_next_override(const char *s)
{
    static const char *const keys[] = {"name", "number", "colour"};
    for (const char *c = strchr(s, ','); c; c = strchr(c + 1, ',')) {
        const char *k = c + 1;
        while (*k == ' ' || *k == '\t')
            k++;
        for (int i = 0; i < 3; i++) {
            size_t n = strlen(keys[i]);
            if (strncmp(k, keys[i], n) != 0)
                continue;
            const char *e = k + n;
            while (*e == ' ' || *e == '\t')
                e++;
            if (*e == '=')
                return c;
        }
    }
    return NULL;
}

/* Copies s[0..n) without surrounding blanks. */
static void sim_grid_trim(const char *s, size_t n, char *out, size_t out_len)
{
    while (n > 0 && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= out_len)
        n = out_len - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* "name = X, number = N, colour = #rrggbb" after a grid line's path: this car's own identity. */
static void sim_grid_overrides(SimRaceParse *p, const char *at, DrvPersonality *pers)
{
    while (at && !p->ini.failed) {
        const char *next = sim_grid_next_override(at + 1);
        const char *eq = strchr(at, '=');
        char key[16], value[128], why[160];
        sim_grid_trim(at + 1, (size_t)(eq - at - 1), key, sizeof key);
        sim_grid_trim(eq + 1, next ? (size_t)(next - eq - 1) : strlen(eq + 1), value, sizeof value);
        if (drv_personality_set(pers, "driver", key, value, why, sizeof why) != 0)
            trk_ini_fail(&p->ini, p->ini.line, "[grid] driver: %s: %s, got '%s'", key, why, value);
        at = next;
    }
}

static void sim_race_key_grid(SimRaceParse *p, const char *name, const char *value)
{
    SimRace *r = p->race;
    if (strcmp(name, "driver") != 0) {
        trk_ini_fail(&p->ini, p->ini.line,
                     "[grid] unknown key '%s' (expected 'driver = path[, name = N][, number = N][, colour = #rrggbb]')",
                     name);
        return;
    }
    if (r->entry_count >= SIM_MAX_CARS) {
        trk_ini_fail(&p->ini, p->ini.line, "[grid] more than %d drivers", SIM_MAX_CARS);
        return;
    }
    SimRaceEntry *e = &r->entries[r->entry_count];
    memset(e, 0, sizeof *e);
    const char *over = sim_grid_next_override(value);
    char path[SIM_PATH_LEN];
    sim_grid_trim(value, over ? (size_t)(over - value) : strlen(value), path, sizeof path);
    if (sim_race_path(p, "grid", "driver", path, e->driver_path) != 0)
        return;
    char msg[SIM_PATH_LEN + 256];
    if (drv_personality_load(e->driver_path, &e->personality, msg, sizeof msg) != 0) {
        sim_race_named_fail(p, msg);
        return;
    }
    sim_grid_overrides(p, over, &e->personality);
    if (p->ini.failed)
        return;
    /* one car, one number: the tower, the ticker, the tables and the batch tallies tell cars apart by it */
    for (int i = 0; i < r->entry_count; i++) {
        if (r->entries[i].personality.number == e->personality.number) {
            trk_ini_fail(&p->ini, p->ini.line,
                         "[grid] driver: number %d is already %s's (grid slot %d): give this car its own, "
                         "e.g. 'driver = %s, number = N, name = ...'",
                         e->personality.number, r->entries[i].personality.name, i + 1, path);
            return;
        }
    }
    r->entry_count++;
}

/* "car = PATH, s_m, d_m, speed_mps[, hold]": fields split at commas; returns the count of fields (at most 6). */
static int sim_race_split(char *buf, char *field[6])
{
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (k == 6)
            return 7;
        while (*tok == ' ' || *tok == '\t')
            tok++;
        size_t n = strlen(tok);
        while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
            tok[--n] = '\0';
        field[k++] = tok;
    }
    return k;
}

static void sim_race_key_start_car(SimRaceParse *p, const char *value)
{
    SimRace *r = p->race;
    int line = p->ini.line;
    char buf[SIM_PATH_LEN + 256], *f[6];
    double v[3];
    snprintf(buf, sizeof buf, "%s", value);
    int n = sim_race_split(buf, f);
    bool ok = n == 4 || (n == 5 && strcmp(f[4], "hold") == 0);
    for (int k = 0; ok && k < 3; k++)
        ok = sim_parse_double(f[k + 1], &v[k]) == 0;
    if (!ok || fabs(v[0]) > 1e6 || fabs(v[1]) > 100.0 || v[2] < 0.0 || v[2] > 150.0) {
        trk_ini_fail(&p->ini, line,
                     "[start] car: expected 'driver.ini, s_m, d_m, speed_mps[, hold]' (|d| <= 100, speed 0..150), "
                     "got '%s'", value);
        return;
    }
    if (r->entry_count >= SIM_MAX_CARS) {
        trk_ini_fail(&p->ini, line, "[start] more than %d cars", SIM_MAX_CARS);
        return;
    }
    SimRaceEntry *e = &r->entries[r->entry_count];
    memset(e, 0, sizeof *e);
    if (sim_race_path(p, "start", "car", f[0], e->driver_path) != 0)
        return;
    char msg[SIM_PATH_LEN + 256];
    if (drv_personality_load(e->driver_path, &e->personality, msg, sizeof msg) != 0) {
        sim_race_named_fail(p, msg);
        return;
    }
    e->placed = true;
    e->s_m = v[0];
    e->d_m = v[1];
    e->speed_mps = v[2];
    e->hold = n == 5;
    r->entry_count++;
}

/* "N = s_m, d_m, speed_mps" */
static void sim_race_key_start(SimRaceParse *p, const char *name, const char *value)
{
    long slot;
    int line = p->ini.line;
    if (strcmp(name, "car") == 0) {
        sim_race_key_start_car(p, value);
        return;
    }
    if (sim_parse_long(name, &slot) != 0 || slot < 1 || slot > SIM_MAX_CARS) {
        trk_ini_fail(&p->ini, line, "[start] '%s': expected a grid number 1..%d", name, SIM_MAX_CARS);
        return;
    }
    for (int i = 0; i < p->place_count; i++) {
        if (p->places[i].slot == (int)slot) {
            trk_ini_fail(&p->ini, line, "[start] %ld given twice", slot);
            return;
        }
    }
    double v[3];
    char buf[256];
    snprintf(buf, sizeof buf, "%s", value);
    char *save = NULL, *tok = strtok_r(buf, ",", &save);
    int k = 0;
    for (; tok && k < 3; k++, tok = strtok_r(NULL, ",", &save))
        if (sim_parse_double(tok, &v[k]) != 0)
            break;
    if (k != 3 || tok != NULL || fabs(v[0]) > 1e6 || fabs(v[1]) > 100.0 || v[2] < 0.0 || v[2] > 150.0) {
        trk_ini_fail(&p->ini, line,
                     "[start] %ld: expected 's_m, d_m, speed_mps' (|d| <= 100, speed 0..150), got '%s'", slot,
                     value);
        return;
    }
    SimRacePlace *pl = &p->places[p->place_count++];
    pl->slot = (int)slot;
    pl->line = line;
    pl->s_m = v[0];
    pl->d_m = v[1];
    pl->speed_mps = v[2];
}

/* A line of a section another module reads (lab/ reads [expect]): kept as written. */
static void sim_race_key_section(SimRaceParse *p, SimSection *sec, const char *name, const char *value)
{
    if (sec->count >= SIM_SECTION_MAX_LINES) {
        trk_ini_fail(&p->ini, p->ini.line, "too many lines in this section (at most %d)", SIM_SECTION_MAX_LINES);
        return;
    }
    if (strlen(name) >= SIM_SECTION_KEY_LEN || strlen(value) >= SIM_SECTION_VALUE_LEN) {
        trk_ini_fail(&p->ini, p->ini.line, "'%s': line too long", name);
        return;
    }
    SimSectionLine *l = &sec->lines[sec->count++];
    l->line = p->ini.line;
    snprintf(l->key, sizeof l->key, "%s", name);
    snprintf(l->value, sizeof l->value, "%s", value);
}

static void sim_race_handler(void *user, const char *section, const char *name, const char *value)
{
    SimRaceParse *p = user;
    (void)section; /* the reader keeps the index of the current one */
    switch ((SimRaceSection)p->ini.section) {
    case SIM_SEC_RACE: sim_race_key_race(p, name, value); break;
    case SIM_SEC_CAR: sim_race_key_car(p, name, value); break;
    case SIM_SEC_GRID: sim_race_key_grid(p, name, value); break;
    case SIM_SEC_START: sim_race_key_start(p, name, value); break;
    case SIM_SEC_EXPECT: sim_race_key_section(p, &p->race->expect, name, value); break;
    }
}

/*----------------------------------------------------------------------------------------------------------------
 * Whole-file checks
 *--------------------------------------------------------------------------------------------------------------*/

TrkDef sim_race_track_def(const SimRace *race)
{
    TrkDef def = trk_default_def();
    def.strict = race->strict_track;
    return def;
}

/* The track's warnings into the race, whole lines only. */
static void sim_race_keep_warning(SimRace *r, const char *w)
{
    size_t len = strlen(w);
    if (len >= sizeof r->track_warning) {
        len = sizeof r->track_warning - 1;
        while (len > 0 && w[len - 1] != '\n')
            len--;
    }
    memcpy(r->track_warning, w, len);
    r->track_warning[len] = '\0';
}

static void sim_race_finish(SimRaceParse *p)
{
    SimRace *r = p->race;
    if (!p->have_track)
        trk_ini_fail(&p->ini, 0, "[race] track is required");
    if (r->entry_count == 0)
        trk_ini_fail(&p->ini, 0, "[grid] needs at least one 'driver = path' line");
    if (r->laps == 0 && r->duration_s <= 0.0)
        trk_ini_fail(&p->ini, 0, "[race] laps = 0 needs a duration_s");
    for (int i = 0; i < p->place_count && !p->ini.failed; i++) {
        SimRacePlace *pl = &p->places[i];
        if (pl->slot > r->entry_count) {
            trk_ini_fail(&p->ini, pl->line, "[start] %d: the grid has only %d drivers", pl->slot, r->entry_count);
            break;
        }
        SimRaceEntry *e = &r->entries[pl->slot - 1];
        e->placed = true;
        e->s_m = pl->s_m;
        e->d_m = pl->d_m;
        e->speed_mps = pl->speed_mps;
    }
    if (p->ini.failed)
        return;
    /* the track is checked by loading it (without its racing line, which cannot fail and costs most of a load:
     * the session builds the track again); its own message names its path and line */
    char msg[SIM_PATH_LEN + TRK_ERR_LEN];
    TrkDef tdef = sim_race_track_def(r);
    tdef.skip_line = true;
    TrkTrack *t = trk_load(r->track_path, &tdef, msg, sizeof msg);
    if (!t) {
        p->ini.failed = true;
        snprintf(p->ini.err, p->ini.err_len, "%s", msg);
        return;
    }
    sim_race_keep_warning(r, trk_warning(t));
    /* a car must fit between the edges everywhere, or no driver can stay on the track */
    double narrowest = trk_summary(t).min_width_m;
    if (narrowest < r->car.width_m)
        trk_ini_fail(&p->ini, 0, "[race] track %s is %.3g m wide at its narrowest, narrower than the car (%.3g m)",
                     r->track_path, narrowest, r->car.width_m);
    trk_free(t);
}

static int sim_race_parse(SimRaceParse *p, const char *text, const char *path, SimRace *out, char *err,
                          size_t err_len)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    out->laps = 5;
    out->seed = 1;
    out->tick_hz = 100.0;
    out->car = sim_default_car_spec();
    const int points[SIM_DEFAULT_POINTS_COUNT] = SIM_DEFAULT_POINTS;
    out->points_count = SIM_DEFAULT_POINTS_COUNT;
    memcpy(out->points, points, sizeof points);
    p->race = out;
    trk_ini_init(&p->ini, path, sim_race_sections, err, err_len);
    p->ini.on_section = sim_race_on_section;
    if (trk_ini_parse(&p->ini, text, sim_race_handler, p) == 0)
        sim_race_finish(p);
    return p->ini.failed ? 1 : 0;
}

int sim_race_parse_string(const char *text, const char *path, SimRace *out, char *err, size_t err_len)
{
    SimRaceParse *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, err_len, "%s:0: out of memory", path);
        return 1;
    }
    int rc = sim_race_parse(p, text, path, out, err, err_len);
    free(p);
    return rc;
}

int sim_race_load(const char *path, SimRace *out, char *err, size_t err_len)
{
    if (strlen(path) >= SIM_PATH_LEN) {
        /* the path is recorded (JSON, baselines) and compared later: cutting it would silently break that */
        memset(out, 0, sizeof *out);
        snprintf(err, err_len, "%.64s...:0: path too long (at most %d bytes)", path, SIM_PATH_LEN - 1);
        return 1;
    }
    char *text = trk_file_read(path, SIM_MAX_INI_BYTES, NULL, err, err_len);
    if (!text) {
        memset(out, 0, sizeof *out);
        return 1;
    }
    int rc = sim_race_parse_string(text, path, out, err, err_len);
    free(text);
    return rc;
}
