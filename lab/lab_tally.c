/* lab_tally.c: per-driver batch aggregates and their table (see lab_tally.h). */
#include "lab.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void lab_batch_tally_init(LabBatchTally *t) { memset(t, 0, sizeof *t); }

static void tally_driver_init(LabDriverTally *d, const LabCarRecord *c)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", c->name);
    snprintf(d->driver, sizeof d->driver, "%s", c->driver);
    d->number = c->number;
    d->position = d->overtakes = d->positions_lost = lab_running_init();
    d->collisions = d->offtrack_s = d->best_lap_s = lab_running_init();
}

static bool tally_same(const LabDriverTally *d, const LabCarRecord *c)
{
    return d->number == c->number && strcmp(d->name, c->name) == 0 && strcmp(d->driver, c->driver) == 0;
}

/* The row of a car, or -1. */
static int tally_find(const LabBatchTally *t, const LabCarRecord *c)
{
    for (int i = 0; i < t->car_count; i++)
        if (tally_same(&t->drivers[i], c))
            return i;
    return -1;
}

int lab_batch_tally_row(const LabBatchTally *t, const LabCarRecord *car) { return tally_find(t, car); }

/* The first record fixes the race and its cars; every later one must be the same race in a later seed. */
static int tally_first(LabBatchTally *t, const LabRecord *rec, char *err, size_t err_len)
{
    snprintf(t->race, sizeof t->race, "%s", rec->race);
    t->laps = rec->laps;
    t->first_seed = rec->seed;
    t->car_count = 0;
    for (int i = 0; i < rec->car_count; i++) {
        if (tally_find(t, &rec->cars[i]) >= 0) {
            snprintf(err, err_len, "two cars are \"%.100s\" #%d (%.300s): the tally needs distinct drivers",
                     rec->cars[i].name, rec->cars[i].number, rec->cars[i].driver);
            return 1;
        }
        tally_driver_init(&t->drivers[t->car_count++], &rec->cars[i]);
    }
    return 0;
}

static int tally_check(LabBatchTally *t, const LabRecord *rec, char *err, size_t err_len)
{
    if (rec->kind != LAB_RECORD_RACE) {
        snprintf(err, err_len, "an A/B record among race records (files from `batch` and `ab` cannot be merged)");
        return 1;
    }
    if (t->races == 0)
        return tally_first(t, rec, err, err_len);
    if (strcmp(rec->race, t->race) != 0 || rec->laps != t->laps || rec->car_count != t->car_count) {
        snprintf(err, err_len, "race \"%.200s\" with %d laps and %d cars differs from the first record's \"%.200s\", "
                 "%d laps, %d cars", rec->race, rec->laps, rec->car_count, t->race, t->laps, t->car_count);
        return 1;
    }
    bool seen[SIM_MAX_CARS] = {false};
    for (int i = 0; i < rec->car_count; i++) {
        int row = tally_find(t, &rec->cars[i]);
        if (row < 0 || seen[row]) {
            snprintf(err, err_len, "\"%.100s\" #%d (%.300s) is %s", rec->cars[i].name, rec->cars[i].number,
                     rec->cars[i].driver, row < 0 ? "not in the first record's grid" : "in the grid twice");
            return 1;
        }
        seen[row] = true;
    }
    if (rec->seed <= t->last_seed) {
        snprintf(err, err_len, "seed %" PRIu64 " is not after seed %" PRIu64 " (records must be in increasing "
                 "seed order, without repeats)", rec->seed, t->last_seed);
        return 1;
    }
    return 0;
}

int lab_batch_tally_add(LabBatchTally *t, const LabRecord *rec, char *err, size_t err_len)
{
    if (tally_check(t, rec, err, err_len))
        return 1;
    for (int i = 0; i < rec->car_count; i++) {
        const LabCarRecord *c = &rec->cars[i];
        LabDriverTally *d = &t->drivers[tally_find(t, c)];
        d->races++;
        d->wins += c->position == 1;
        d->podiums += c->position <= 3;
        d->dnfs += c->status != SIM_FINISHED;
        lab_running_add(&d->position, c->position);
        lab_running_add(&d->overtakes, c->overtakes);
        lab_running_add(&d->positions_lost, c->positions_lost);
        lab_running_add(&d->collisions, c->collisions);
        lab_running_add(&d->offtrack_s, c->offtrack_s);
        if (c->laps > 0 && c->best_lap_s > 0.0)
            lab_running_add(&d->best_lap_s, c->best_lap_s);
    }
    t->races++;
    t->last_seed = rec->seed;
    return 0;
}

/* ---- the table ---------------------------------------------------------------------------------------------- */

typedef struct TallyRow {
    int entry;
    double mean_position;
} TallyRow;

static int tally_row_cmp(const void *pa, const void *pb)
{
    const TallyRow *a = pa, *b = pb;
    if (a->mean_position != b->mean_position)
        return a->mean_position < b->mean_position ? -1 : 1;
    return a->entry - b->entry;
}

/* Writes s left-aligned in a field of `width` characters; counts UTF-8 characters, not bytes, so "±" lines up. */
static void tally_pad(FILE *out, const char *s, int width)
{
    int chars = 0;
    for (const char *c = s; *c; c++)
        chars += ((unsigned char)*c & 0xC0) != 0x80;
    fprintf(out, "  %s%*s", s, width > chars ? width - chars : 0, "");
}

/* "4.31 ±0.22": a mean and the half-width of its interval (t intervals are symmetric). */
static void tally_cell_mean(FILE *out, const LabRunning *r, int decimals)
{
    char buf[40];
    if (r->n == 0)
        snprintf(buf, sizeof buf, "-");
    else {
        LabEstimate e = lab_estimate(r);
        snprintf(buf, sizeof buf, "%.*f ±%.*f", decimals, e.mean, decimals, e.hi - e.mean);
    }
    tally_pad(out, buf, 15);
}

/* "38% [29-48]": a rate and its Wilson interval, in percent. */
static void tally_cell_rate(FILE *out, long k, long n)
{
    char buf[40];
    LabRate r = lab_rate(k, n);
    snprintf(buf, sizeof buf, "%.0f%% [%.0f-%.0f]", 100.0 * r.p, 100.0 * r.lo, 100.0 * r.hi);
    tally_pad(out, buf, 13);
}

static void tally_print_row(FILE *out, const LabDriverTally *d)
{
    fprintf(out, "%-16.16s %3d", d->name, d->number);
    tally_cell_mean(out, &d->position, 2);
    tally_cell_rate(out, d->wins, d->races);
    tally_cell_rate(out, d->podiums, d->races);
    tally_cell_mean(out, &d->overtakes, 2);
    tally_cell_mean(out, &d->positions_lost, 2);
    tally_cell_mean(out, &d->collisions, 2);
    tally_cell_mean(out, &d->offtrack_s, 2);
    tally_cell_rate(out, d->dnfs, d->races);
    tally_cell_mean(out, &d->best_lap_s, 3);
    if (d->best_lap_s.n)
        fprintf(out, "  %.3f", d->best_lap_s.min);
    else
        fprintf(out, "  -");
    fputc('\n', out);
}

void lab_batch_tally_print(const LabBatchTally *t, FILE *out)
{
    fprintf(out, "race %s: %ld races (seeds %" PRIu64 "..%" PRIu64 "), %d lap%s, %d cars, grid shuffled by seed\n",
            t->race, t->races, t->first_seed, t->last_seed, t->laps, t->laps == 1 ? "" : "s", t->car_count);
    fprintf(out, "per race: mean ±half-width of the 95%% interval (Student t); wins, podiums, DNFs: rate "
                 "[95%% Wilson interval]\n\n");
    fprintf(out, "%-16s %3s  %-15s  %-13s  %-13s  %-15s  %-15s  %-15s  %-15s  %-13s  %-15s  %s\n", "driver", "#",
            "position", "wins", "podiums", "overtakes", "positions lost", "collisions", "off-track s", "DNFs",
            "best lap s", "fastest s");
    int rows[SIM_MAX_CARS];
    int n = lab_batch_tally_order(t, rows);
    for (int i = 0; i < n; i++)
        tally_print_row(out, &t->drivers[rows[i]]);
}

int lab_batch_tally_order(const LabBatchTally *t, int rows[SIM_MAX_CARS])
{
    TallyRow sorted[SIM_MAX_CARS];
    int n = 0;
    for (int e = 0; e < t->car_count; e++)
        if (t->drivers[e].races > 0)
            sorted[n++] = (TallyRow){e, t->drivers[e].position.mean};
    qsort(sorted, (size_t)n, sizeof sorted[0], tally_row_cmp);
    for (int i = 0; i < n; i++)
        rows[i] = sorted[i].entry;
    return n;
}
