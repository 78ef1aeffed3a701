/* sim_results.c: the results of a session as a table, a JSON record and CSV.
 *
 * Everything written comes from the world's state and event list with fixed formats and a fixed key order, so the
 * same race and seed give byte-identical output. Cars are listed in finishing order. In the JSON events, car
 * references are grid numbers (1-based, the `grid` of a car).
 */
#include "sim_internal.h"
#include "sim.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/*----------------------------------------------------------------------------------------------------------------
 * Shared
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct SimTotals {
    int count[SIM_EV_COUNT];
    int kinds[SIM_KIND_COUNT];   /* overtakes and collisions by kind */
    int after_lap1[SIM_EV_COUNT]; /* events while the leader was past lap 1 */
    int merit, merit_after_lap1;  /* overtakes by the driver faster alone (SIM_EV_OVERTAKE's pace gap > 0) */
} SimTotals;

static SimTotals sim_totals(const SimWorld *w)
{
    SimTotals t;
    memset(&t, 0, sizeof t);
    int n;
    const SimEvent *ev = sim_world_events(w, &n);
    for (int i = 0; i < n; i++) {
        t.count[ev[i].type]++;
        t.kinds[ev[i].kind]++;
        t.after_lap1[ev[i].type] += ev[i].race_lap > 1;
        bool merit = ev[i].type == SIM_EV_OVERTAKE && ev[i].value > 0.0; /* NaN (a pace unknown) is not */
        t.merit += merit;
        t.merit_after_lap1 += merit && ev[i].race_lap > 1;
    }
    return t;
}

static SimWorld *sim_res_world(const SimSession *s)
{
    return sim_session_world((SimSession *)s); /* read only here; the accessor is not const */
}

/* "m:ss.sss" */
static void sim_fmt_time(char *buf, size_t len, double t)
{
    if (!(t > 0.0)) {
        snprintf(buf, len, "-");
        return;
    }
    long ms = lround(t * 1000.0);
    snprintf(buf, len, "%ld:%02ld.%03ld", ms / 60000, (ms / 1000) % 60, ms % 1000);
}

/* Gap to the winner: "+1.234", "+1 lap", "+2 laps"; "-" for the winner and for cars that did not finish. */
static void sim_fmt_gap(char *buf, size_t len, const SimCar *c, const SimCar *winner)
{
    if (c == winner || c->status != SIM_FINISHED || winner->status != SIM_FINISHED) {
        snprintf(buf, len, "-");
        return;
    }
    int down = winner->laps - c->laps;
    if (down > 0)
        snprintf(buf, len, "+%d lap%s", down, down == 1 ? "" : "s");
    else
        snprintf(buf, len, "+%.3f", c->finish_time_s - winner->finish_time_s);
}

const char *sim_status_name(SimStatus st)
{
    return st == SIM_FINISHED ? "finished" : (st == SIM_DNF ? "dnf" : "running");
}

/*----------------------------------------------------------------------------------------------------------------
 * Table
 *--------------------------------------------------------------------------------------------------------------*/

void sim_results_print_table(const SimSession *s, FILE *out)
{
    const SimWorld *w = sim_res_world(s);
    const SimRace *race = sim_session_race(s);
    int n = sim_world_car_count(w);
    const int *order = sim_world_order(w);
    const SimCar *winner = n > 0 ? sim_world_car(w, order[0]) : NULL;
    /* the name column is as wide as the longest name (at least 22): names are never cut */
    int name_w = 22;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(sim_world_car(w, i)->name);
        name_w = len > name_w ? len : name_w;
    }
    fprintf(out, "%-3s %-4s %-*s %4s %10s %9s %9s %4s %4s %4s %6s  %s\n", "Pos", "No", name_w, "Name", "Laps", "Time",
            "Gap", "Best", "Ovt", "Lost", "Coll", "Off s", "Status");
    for (int i = 0; i < n; i++) {
        const SimCar *c = sim_world_car(w, order[i]);
        char t[32], gap[32], best[32], status[96];
        sim_fmt_time(t, sizeof t, c->status == SIM_FINISHED ? c->finish_time_s : 0.0);
        sim_fmt_gap(gap, sizeof gap, c, winner);
        sim_fmt_time(best, sizeof best, c->best_lap_s);
        if (c->status == SIM_DNF)
            snprintf(status, sizeof status, "DNF (%s)", c->dnf_reason);
        else
            snprintf(status, sizeof status, "%s", sim_status_name(c->status));
        fprintf(out, "%-3d %-4d %-*s %4d %10s %9s %9s %4d %4d %4d %6.1f  %s\n", c->position, c->number, name_w,
                c->name, c->laps, t, gap, best, c->overtakes, c->positions_lost, c->collisions, c->offtrack_s,
                status);
    }
    SimTotals tot = sim_totals(w);
    fprintf(out, "\n%s: %d laps of %s (%.0f m), seed %llu, %ld ticks at %g Hz, %.2f s simulated\n", race->path,
            sim_world_def(w)->laps, trk_name(sim_world_track(w)), trk_length(sim_world_track(w)),
            (unsigned long long)sim_session_def(s)->seed, sim_world_tick(w), sim_world_def(w)->tick_hz,
            sim_world_time(w));
    fprintf(out, "overtakes %d, lappings %d, collisions %d, off-tracks %d\n", tot.count[SIM_EV_OVERTAKE],
            tot.count[SIM_EV_LAPPING], tot.count[SIM_EV_COLLISION], tot.count[SIM_EV_OFFTRACK]);
    if (tot.count[SIM_EV_OVERTAKE] > 0) {
        char merit[64] = ""; /* said only of the passes after lap 1: the start's shuffle says little of merit */
        if (tot.after_lap1[SIM_EV_OVERTAKE] > 0)
            snprintf(merit, sizeof merit, " (%d on merit: by the driver faster alone)", tot.merit_after_lap1);
        fprintf(out, "overtakes: %d after lap 1%s; drafting %d, braking %d, corner %d, pace %d, from a mistake %d\n",
                tot.after_lap1[SIM_EV_OVERTAKE], merit, tot.kinds[SIM_KIND_DRAFTING], tot.kinds[SIM_KIND_BRAKING],
                tot.kinds[SIM_KIND_CORNER], tot.kinds[SIM_KIND_PACE], tot.kinds[SIM_KIND_MISTAKE]);
    }
    if (tot.count[SIM_EV_COLLISION] > 0)
        fprintf(out, "collisions: %d after lap 1; rear-end %d, side %d\n", tot.after_lap1[SIM_EV_COLLISION],
                tot.kinds[SIM_KIND_REAR_END], tot.kinds[SIM_KIND_SIDE]);
}

/*----------------------------------------------------------------------------------------------------------------
 * JSON
 *--------------------------------------------------------------------------------------------------------------*/

void sim_json_write_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* A pace gap with 3 decimals (ms); null when unknown (NaN). */
static void sim_json_ms(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.3f", v);
    else
        fputs("null", out);
}

/* Seconds and metres with 6 decimals (microseconds); null when absent. */
static void sim_json_num(FILE *out, double v, bool present)
{
    if (present && isfinite(v))
        fprintf(out, "%.6f", v);
    else
        fputs("null", out);
}

typedef struct SimJson {
    FILE *out;
    bool compact;
    int depth;
} SimJson;

static void sim_json_nl(const SimJson *j)
{
    if (j->compact)
        return;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

static void sim_json_key(const SimJson *j, const char *key, bool first)
{
    if (!first)
        fputc(',', j->out);
    sim_json_nl(j);
    fprintf(j->out, "\"%s\":%s", key, j->compact ? "" : " ");
}

static void sim_json_car(SimJson *j, const SimSession *s, const SimCar *c)
{
    const SimRace *race = sim_session_race(s);
    int entry = sim_session_entry_of(s, c->id);
    FILE *out = j->out;
    fputc('{', out);
    j->depth++;
    sim_json_key(j, "name", true);
    sim_json_write_string(out, c->name);
    sim_json_key(j, "driver_file", false);
    sim_json_write_string(out, entry >= 0 ? race->entries[entry].driver_path : "");
    sim_json_key(j, "number", false);
    fprintf(out, "%d", c->number);
    sim_json_key(j, "grid", false);
    fprintf(out, "%d", c->id + 1);
    sim_json_key(j, "position", false);
    fprintf(out, "%d", c->position);
    sim_json_key(j, "status", false);
    sim_json_write_string(out, sim_status_name(c->status));
    sim_json_key(j, "dnf_reason", false);
    sim_json_write_string(out, c->status == SIM_DNF ? c->dnf_reason : "");
    sim_json_key(j, "laps", false);
    fprintf(out, "%d", c->laps);
    sim_json_key(j, "time_s", false);
    sim_json_num(out, c->finish_time_s, c->status == SIM_FINISHED);
    sim_json_key(j, "best_lap_s", false);
    sim_json_num(out, c->best_lap_s, c->laps > 0);
    sim_json_key(j, "race_dist_m", false);
    sim_json_num(out, c->race_dist_m, true);
    const int counts[] = {c->overtakes, c->positions_lost, c->lappings, c->collisions, c->offtracks};
    const char *names[] = {"overtakes", "positions_lost", "lappings", "collisions", "offtracks"};
    for (int i = 0; i < 5; i++) {
        sim_json_key(j, names[i], false);
        fprintf(out, "%d", counts[i]);
    }
    sim_json_key(j, "offtrack_s", false);
    sim_json_num(out, c->offtrack_s, true);
    j->depth--;
    sim_json_nl(j);
    fputc('}', out);
}

static void sim_json_event(SimJson *j, const SimWorld *w, const SimEvent *e)
{
    FILE *out = j->out;
    fprintf(out, "{\"tick\":%s%ld,%s\"type\":%s", j->compact ? "" : " ", e->tick, j->compact ? "" : " ",
            j->compact ? "" : " ");
    sim_json_write_string(out, sim_event_name(e->type));
    const char *sep = j->compact ? "," : ", ";
    const char *colon = j->compact ? ":" : ": ";
    /* cars by race number, as everywhere else (the grid slot is the car's "grid" key) */
    int a = sim_world_car(w, e->a)->number, b = e->b >= 0 ? sim_world_car(w, e->b)->number : 0;
    switch (e->type) {
    case SIM_EV_OVERTAKE:
        fprintf(out, "%s\"passer\"%s%d%s\"passed\"%s%d%s\"kind\"%s\"%s\"%s\"race_lap\"%s%d", sep, colon, a, sep, colon, b, sep,
                colon, sim_event_kind_name(e->kind), sep, colon, e->race_lap);
        fprintf(out, "%s\"pace_gap_s\"%s", sep, colon);
        sim_json_ms(out, e->value);
        break;
    case SIM_EV_LAPPING: fprintf(out, "%s\"passer\"%s%d%s\"lapped\"%s%d", sep, colon, a, sep, colon, b); break;
    case SIM_EV_COLLISION:
        fprintf(out, "%s\"a\"%s%d%s\"b\"%s%d%s\"rel_speed_mps\"%s%.3f%s\"kind\"%s\"%s\"%s\"race_lap\"%s%d", sep, colon, a,
                sep, colon, b, sep, colon, e->value, sep, colon, sim_event_kind_name(e->kind), sep, colon, e->race_lap);
        break;
    case SIM_EV_LAP:
        fprintf(out, "%s\"car\"%s%d%s\"lap\"%s%d%s\"lap_s\"%s%.6f", sep, colon, a, sep, colon, e->lap, sep, colon,
                e->value);
        break;
    case SIM_EV_FINISH: fprintf(out, "%s\"car\"%s%d%s\"time_s\"%s%.6f", sep, colon, a, sep, colon, e->value); break;
    case SIM_EV_RETIRE:
        fprintf(out, "%s\"car\"%s%d%s\"reason\"%s", sep, colon, a, sep, colon);
        sim_json_write_string(out, sim_world_car(w, e->a)->dnf_reason);
        break;
    default: fprintf(out, "%s\"car\"%s%d%s\"lap\"%s%d", sep, colon, a, sep, colon, e->lap); break;
    }
    fputc('}', out);
}

static void sim_json_totals(SimJson *j, const SimWorld *w)
{
    SimTotals tot = sim_totals(w);
    fputc('{', j->out);
    j->depth++;
    sim_json_key(j, "overtakes", true);
    fprintf(j->out, "%d", tot.count[SIM_EV_OVERTAKE]);
    sim_json_key(j, "lappings", false);
    fprintf(j->out, "%d", tot.count[SIM_EV_LAPPING]);
    sim_json_key(j, "collisions", false);
    fprintf(j->out, "%d", tot.count[SIM_EV_COLLISION]);
    sim_json_key(j, "offtracks", false);
    fprintf(j->out, "%d", tot.count[SIM_EV_OFFTRACK]);
    if (!j->compact) { /* the classification, in run --json only (batch records keep their schema) */
        sim_json_key(j, "overtakes_after_lap1", false);
        fprintf(j->out, "%d", tot.after_lap1[SIM_EV_OVERTAKE]);
        sim_json_key(j, "overtakes_on_merit", false);
        fprintf(j->out, "%d", tot.merit);
        sim_json_key(j, "overtakes_after_lap1_on_merit", false);
        fprintf(j->out, "%d", tot.merit_after_lap1);
        sim_json_key(j, "collisions_after_lap1", false);
        fprintf(j->out, "%d", tot.after_lap1[SIM_EV_COLLISION]);
        for (int k = SIM_KIND_MISTAKE; k < SIM_KIND_COUNT; k++) {
            char key[48];
            snprintf(key, sizeof key, "%s_%s", k >= SIM_KIND_REAR_END ? "collisions" : "overtakes",
                     sim_event_kind_name((SimEventKind)k));
            for (char *c = key; *c; c++)
                *c = *c == '-' ? '_' : *c;
            sim_json_key(j, key, false);
            fprintf(j->out, "%d", tot.kinds[k]);
        }
    }
    j->depth--;
    sim_json_nl(j);
    fputc('}', j->out);
}

void sim_results_write_json(const SimSession *s, FILE *out, bool with_events, bool compact)
{
    const SimWorld *w = sim_res_world(s);
    const SimRace *race = sim_session_race(s);
    SimJson j = {out, compact, 1};
    fputc('{', out);
    sim_json_key(&j, "race_file", true);
    sim_json_write_string(out, race->path);
    sim_json_key(&j, "seed", false);
    fprintf(out, "%llu", (unsigned long long)sim_session_def(s)->seed);
    sim_json_key(&j, "track", false);
    sim_json_write_string(out, trk_name(sim_world_track(w)));
    sim_json_key(&j, "track_file", false);
    sim_json_write_string(out, race->track_path);
    sim_json_key(&j, "track_length_m", false);
    sim_json_num(out, trk_length(sim_world_track(w)), true);
    sim_json_key(&j, "laps", false);
    fprintf(out, "%d", sim_world_def(w)->laps);
    sim_json_key(&j, "tick_hz", false);
    fprintf(out, "%g", sim_world_def(w)->tick_hz);
    sim_json_key(&j, "shuffle_grid", false);
    fputs(sim_session_def(s)->shuffle_grid ? "true" : "false", out);
    sim_json_key(&j, "ticks", false);
    fprintf(out, "%ld", sim_world_tick(w));
    sim_json_key(&j, "sim_time_s", false);
    sim_json_num(out, sim_world_time(w), true);
    sim_json_key(&j, "totals", false);
    sim_json_totals(&j, w);
    sim_json_key(&j, "cars", false);
    fputc('[', out);
    j.depth++;
    const int *order = sim_world_order(w);
    for (int i = 0; i < sim_world_car_count(w); i++) {
        if (i > 0)
            fputc(',', out);
        sim_json_nl(&j);
        sim_json_car(&j, s, sim_world_car(w, order[i]));
    }
    j.depth--;
    sim_json_nl(&j);
    fputc(']', out);
    if (with_events) {
        sim_json_key(&j, "events", false);
        fputc('[', out);
        j.depth++;
        int n;
        const SimEvent *ev = sim_world_events(w, &n);
        for (int i = 0; i < n; i++) {
            if (i > 0)
                fputc(',', out);
            sim_json_nl(&j);
            sim_json_event(&j, w, &ev[i]);
        }
        j.depth--;
        if (n > 0)
            sim_json_nl(&j);
        fputc(']', out);
    }
    j.depth = 0;
    sim_json_nl(&j);
    fputs("}\n", out);
}

/*----------------------------------------------------------------------------------------------------------------
 * CSV
 *--------------------------------------------------------------------------------------------------------------*/

static void sim_csv_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void sim_results_write_csv(const SimSession *s, FILE *out)
{
    const SimWorld *w = sim_res_world(s);
    const SimRace *race = sim_session_race(s);
    const int *order = sim_world_order(w);
    fputs(SIM_CSV_HEADER "\n", out);
    uint64_t seed = sim_session_def(s)->seed;
    for (int i = 0; i < sim_world_car_count(w); i++) {
        const SimCar *c = sim_world_car(w, order[i]);
        int entry = sim_session_entry_of(s, c->id);
        SimCsvRow row = {seed, c->position, c->number, c->name,
                         entry >= 0 ? race->entries[entry].driver_path : "", c->id + 1, c->status, c->laps,
                         c->finish_time_s, c->best_lap_s, c->overtakes, c->positions_lost, c->lappings,
                         c->collisions, c->offtracks, c->offtrack_s, c->dnf_reason};
        sim_csv_write_row(out, &row);
    }
}

void sim_csv_write_row(FILE *out, const SimCsvRow *r)
{
    fprintf(out, "%" PRIu64 ",%d,%d,", r->seed, r->position, r->number);
    sim_csv_field(out, r->name);
    fputc(',', out);
    sim_csv_field(out, r->driver_file);
    fprintf(out, ",%d,%s,%d,", r->grid, sim_status_name(r->status), r->laps);
    if (r->status == SIM_FINISHED)
        fprintf(out, "%.6f", r->time_s);
    fputc(',', out);
    if (r->laps > 0)
        fprintf(out, "%.6f", r->best_lap_s);
    fprintf(out, ",%d,%d,%d,%d,%d,%.6f,", r->overtakes, r->positions_lost, r->lappings, r->collisions, r->offtracks,
            r->offtrack_s);
    sim_csv_field(out, r->status == SIM_DNF ? r->dnf_reason : "");
    fputc('\n', out);
}
