/* lab_record.c: race and A/B records as JSON lines: from a session, to a line, and back (see lab_record.h). */
#include "lab.h"


#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ------------------------------------------------------------------------------------------------ */

/* "%.17g" round-trips every finite double; JSON has no NaN or infinity, so those become null, which the reader
 * rejects loudly rather than a silent wrong number. */
static void rec_write_double(FILE *out, const char *key, double x)
{
    if (isfinite(x))
        fprintf(out, ",\"%s\":%.17g", key, x);
    else
        fprintf(out, ",\"%s\":null", key);
}

/* A time that only exists in some states (a finished race, a completed lap): null otherwise, as in `run --json`. */
static void rec_write_opt(FILE *out, const char *key, double x, bool present)
{
    if (present)
        rec_write_double(out, key, x);
    else
        fprintf(out, ",\"%s\":null", key);
}

static void rec_write_car(FILE *out, const LabCarRecord *c)
{
    fputs("{\"name\":", out);
    sim_json_write_string(out, c->name);
    fputs(",\"driver_file\":", out);
    sim_json_write_string(out, c->driver);
    fprintf(out, ",\"number\":%d,\"grid\":%d,\"position\":%d,\"status\":\"%s\",\"laps\":%d", c->number, c->grid,
            c->position, sim_status_name(c->status), c->laps);
    rec_write_opt(out, "time_s", c->time_s, c->status == SIM_FINISHED);
    rec_write_opt(out, "best_lap_s", c->best_lap_s, c->laps > 0);
    fprintf(out, ",\"overtakes\":%d,\"positions_lost\":%d,\"lappings\":%d,\"collisions\":%d,\"offtracks\":%d",
            c->overtakes, c->positions_lost, c->lappings, c->collisions, c->offtracks);
    rec_write_double(out, "offtrack_s", c->offtrack_s);
    fputc('}', out);
}

static bool rec_points_default(const LabRecord *rec)
{
    const int def[SIM_DEFAULT_POINTS_COUNT] = SIM_DEFAULT_POINTS;
    return rec->points_count == SIM_DEFAULT_POINTS_COUNT && memcmp(rec->points, def, sizeof def) == 0;
}

/* Only a table other than the default is written, so records of races without `points =` stay as they were. */
static void rec_write_points(FILE *out, const LabRecord *rec)
{
    if (rec->points_count == 0 || rec_points_default(rec))
        return;
    fputs(",\"points\":[", out);
    for (int i = 0; i < rec->points_count; i++)
        fprintf(out, "%s%d", i ? "," : "", rec->points[i]);
    fputc(']', out);
}

void lab_record_default_points(LabRecord *rec)
{
    const int def[SIM_DEFAULT_POINTS_COUNT] = SIM_DEFAULT_POINTS;
    rec->points_count = SIM_DEFAULT_POINTS_COUNT;
    memcpy(rec->points, def, sizeof def);
}

int lab_record_points(const int *points, int points_count, const LabCarRecord *car)
{
    if (car->status == SIM_DNF || car->position < 1 || car->position > points_count)
        return 0;
    return points[car->position - 1];
}

int lab_record_write(const LabRecord *rec, FILE *out)
{
    fputs(rec->kind == LAB_RECORD_AB ? "{\"kind\":\"ab\",\"race_file\":" : "{\"race_file\":", out);
    sim_json_write_string(out, rec->race);
    fprintf(out, ",\"seed\":%" PRIu64 ",\"laps\":%d", rec->seed, rec->laps);
    if (rec->kind == LAB_RECORD_AB) {
        fprintf(out, ",\"seat\":%d,\"a\":", rec->seat + 1); /* 1-based, as --seat and the race file count */
        rec_write_car(out, &rec->a);
        fputs(",\"b\":", out);
        rec_write_car(out, &rec->b);
        rec_write_points(out, rec);
    } else {
        fputs(",\"cars\":[", out);
        for (int i = 0; i < rec->car_count; i++) {
            if (i)
                fputc(',', out);
            rec_write_car(out, &rec->cars[i]);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
    return ferror(out) ? 1 : 0;
}

/* ---- reading ------------------------------------------------------------------------------------------------ */

typedef struct RecParse {
    const char *path;
    long line;
    const char *where; /* "" or "cars[3]." style prefix of field names */
    char *err;
    size_t err_len;
    int failed;
} RecParse;

static int rec_fail(RecParse *rp, const char *key, const char *fmt, ...)
{
    if (rp->failed)
        return 1;
    rp->failed = 1;
    /* the field: "cars[3].position", "cars[3]" (a key missing inside it), "seed", or nothing for the whole line */
    char field[96];
    snprintf(field, sizeof field, "%s%s", rp->where, key ? key : "");
    size_t fl = strlen(field);
    if (fl && field[fl - 1] == '.')
        field[fl - 1] = '\0';
    int n = snprintf(rp->err, rp->err_len, "%s:%ld: %s%s", rp->path, rp->line, field, field[0] ? ": " : "");
    if (n >= 0 && (size_t)n < rp->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rp->err + n, rp->err_len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 1;
}

/* "got 1.5", "got a string": what a wrongly typed value was. */
static const char *rec_got(const LabJson *v, char *buf, size_t len)
{
    if (v->type == LAB_JSON_NUMBER)
        snprintf(buf, len, "%.40s", v->token);
    else
        snprintf(buf, len, "%s", lab_json_type_name(v->type));
    return buf;
}

static const LabJson *rec_member(RecParse *rp, const LabJson *obj, const char *key, LabJsonType type)
{
    char buf[64];
    const LabJson *v = lab_json_get(obj, key);
    if (!v) {
        rec_fail(rp, NULL, "missing key \"%s\"", key);
        return NULL;
    }
    if (v->type != type) {
        rec_fail(rp, key, "expected %s, got %s", lab_json_type_name(type), rec_got(v, buf, sizeof buf));
        return NULL;
    }
    return v;
}

static bool rec_is_integer_token(const char *t)
{
    if (*t == '-')
        t++;
    if (!*t)
        return false;
    for (; *t; t++)
        if (*t < '0' || *t > '9')
            return false;
    return true;
}

static int rec_int(RecParse *rp, const LabJson *obj, const char *key, int lo, int hi, int *out)
{
    const LabJson *v = rec_member(rp, obj, key, LAB_JSON_NUMBER);
    if (!v)
        return 1;
    errno = 0;
    long long x = rec_is_integer_token(v->token) ? strtoll(v->token, NULL, 10) : LLONG_MIN;
    if (errno || x < lo || x > hi)
        return rec_fail(rp, key, "expected an integer in %d..%d, got %.40s", lo, hi, v->token);
    *out = (int)x;
    return 0;
}

static int rec_double(RecParse *rp, const LabJson *obj, const char *key, double *out)
{
    const LabJson *v = rec_member(rp, obj, key, LAB_JSON_NUMBER);
    if (!v)
        return 1;
    if (!(v->number >= 0.0 && v->number <= 1e12))
        return rec_fail(rp, key, "expected a number in 0..1e12, got %.40s", v->token);
    *out = v->number;
    return 0;
}

/* A number, or null (stored as 0) where `run --json` writes null for "not reached". */
static int rec_opt_double(RecParse *rp, const LabJson *obj, const char *key, double *out)
{
    const LabJson *v = lab_json_get(obj, key);
    if (v && v->type == LAB_JSON_NULL) {
        *out = 0.0;
        return 0;
    }
    return rec_double(rp, obj, key, out);
}

static int rec_string(RecParse *rp, const LabJson *obj, const char *key, char *out, size_t cap)
{
    const LabJson *v = rec_member(rp, obj, key, LAB_JSON_STRING);
    if (!v)
        return 1;
    if (v->len >= cap || strlen(v->token) != v->len)
        return rec_fail(rp, key, v->len >= cap ? "longer than %zu bytes" : "contains a NUL character", cap - 1);
    memcpy(out, v->token, v->len + 1);
    return 0;
}

static int rec_status(RecParse *rp, const LabJson *obj, SimStatus *out)
{
    char s[16];
    if (rec_string(rp, obj, "status", s, sizeof s))
        return 1;
    for (int i = SIM_RUNNING; i <= SIM_DNF; i++)
        if (strcmp(s, sim_status_name((SimStatus)i)) == 0) {
            *out = (SimStatus)i;
            return 0;
        }
    return rec_fail(rp, "status", "expected \"finished\", \"dnf\" or \"running\", got \"%s\"", s);
}

static int rec_parse_car(RecParse *rp, const LabJson *obj, int max_cars, LabCarRecord *c)
{
    char buf[64];
    if (obj->type != LAB_JSON_OBJECT)
        return rec_fail(rp, NULL, "expected an object, got %s", rec_got(obj, buf, sizeof buf));
    memset(c, 0, sizeof *c);
    return rec_string(rp, obj, "name", c->name, sizeof c->name) ||
           rec_string(rp, obj, "driver_file", c->driver, sizeof c->driver) ||
           rec_int(rp, obj, "number", 0, 999, &c->number) || rec_int(rp, obj, "grid", 1, max_cars, &c->grid) ||
           rec_int(rp, obj, "position", 1, max_cars, &c->position) || rec_status(rp, obj, &c->status) ||
           rec_int(rp, obj, "laps", 0, 1000000, &c->laps) || rec_opt_double(rp, obj, "time_s", &c->time_s) ||
           rec_opt_double(rp, obj, "best_lap_s", &c->best_lap_s) ||
           rec_int(rp, obj, "overtakes", 0, INT_MAX, &c->overtakes) ||
           rec_int(rp, obj, "positions_lost", 0, INT_MAX, &c->positions_lost) ||
           rec_int(rp, obj, "lappings", 0, INT_MAX, &c->lappings) ||
           rec_int(rp, obj, "collisions", 0, INT_MAX, &c->collisions) ||
           rec_int(rp, obj, "offtracks", 0, INT_MAX, &c->offtracks) ||
           rec_double(rp, obj, "offtrack_s", &c->offtrack_s) ||
           (lab_json_get(obj, "dnf_reason") && rec_string(rp, obj, "dnf_reason", c->dnf_reason, sizeof c->dnf_reason));
}

static int rec_seed(RecParse *rp, const LabJson *root, uint64_t *out)
{
    const LabJson *v = rec_member(rp, root, "seed", LAB_JSON_NUMBER);
    if (!v)
        return 1;
    errno = 0;
    unsigned long long x = rec_is_integer_token(v->token) && v->token[0] != '-' ? strtoull(v->token, NULL, 10) : 0;
    if (errno || !rec_is_integer_token(v->token) || v->token[0] == '-')
        return rec_fail(rp, "seed", "expected an integer in 0..18446744073709551615, got %.40s", v->token);
    *out = (uint64_t)x;
    return 0;
}

/* The cars of a race record: start slots and positions each a permutation of 1..cars. */
static int rec_parse_cars(RecParse *rp, const LabJson *root, LabRecord *out)
{
    const LabJson *cars = rec_member(rp, root, "cars", LAB_JSON_ARRAY);
    if (!cars)
        return 1;
    if (cars->count < 1 || cars->count > SIM_MAX_CARS)
        return rec_fail(rp, "cars", "expected 1..%d cars, got %d", SIM_MAX_CARS, cars->count);
    out->car_count = cars->count;
    bool seen_grid[SIM_MAX_CARS] = {false}, seen_pos[SIM_MAX_CARS] = {false};
    char where[32];
    int i = 0;
    for (const LabJson *c = cars->child; c; c = c->next, i++) {
        snprintf(where, sizeof where, "cars[%d].", i);
        rp->where = where;
        LabCarRecord *car = &out->cars[i];
        if (rec_parse_car(rp, c, cars->count, car))
            return 1;
        const char *dup = seen_grid[car->grid - 1] ? "grid" : seen_pos[car->position - 1] ? "position" : NULL;
        if (dup)
            return rec_fail(rp, dup, "the same value as an earlier car");
        seen_grid[car->grid - 1] = seen_pos[car->position - 1] = true;
    }
    rp->where = "";
    return 0;
}

/* The optional points table: 1..SIM_MAX_POINTS integers 0..10000, non-increasing, as a race file allows. */
static int rec_parse_points(RecParse *rp, const LabJson *root, LabRecord *out)
{
    lab_record_default_points(out);
    if (!lab_json_get(root, "points"))
        return 0;
    const LabJson *arr = rec_member(rp, root, "points", LAB_JSON_ARRAY);
    if (!arr)
        return 1;
    if (arr->count < 1 || arr->count > SIM_MAX_POINTS)
        return rec_fail(rp, "points", "expected 1..%d values, got %d", SIM_MAX_POINTS, arr->count);
    int i = 0;
    for (const LabJson *v = arr->child; v; v = v->next, i++) {
        long long x = v->type == LAB_JSON_NUMBER && rec_is_integer_token(v->token) ? strtoll(v->token, NULL, 10)
                                                                                     : -1;
        if (x < 0 || x > 10000 || (i > 0 && x > out->points[i - 1]))
            return rec_fail(rp, "points", "value %d: expected an integer 0..10000, not more than the one before",
                            i + 1);
        out->points[i] = (int)x;
    }
    out->points_count = i;
    return 0;
}

static int rec_parse_ab(RecParse *rp, const LabJson *root, LabRecord *out)
{
    if (rec_int(rp, root, "seat", 1, SIM_MAX_CARS, &out->seat))
        return 1;
    out->seat--; /* written 1-based */
    const LabJson *a = rec_member(rp, root, "a", LAB_JSON_OBJECT);
    if (!a)
        return 1;
    rp->where = "a.";
    if (rec_parse_car(rp, a, SIM_MAX_CARS, &out->a))
        return 1;
    rp->where = "";
    const LabJson *b = rec_member(rp, root, "b", LAB_JSON_OBJECT);
    if (!b)
        return 1;
    rp->where = "b.";
    if (rec_parse_car(rp, b, SIM_MAX_CARS, &out->b))
        return 1;
    rp->where = "";
    return rec_parse_points(rp, root, out);
}

static int rec_parse_root(RecParse *rp, const LabJson *root, LabRecord *out)
{
    char buf[64], kind[8];
    if (root->type != LAB_JSON_OBJECT)
        return rec_fail(rp, NULL, "expected a JSON object, got %s", rec_got(root, buf, sizeof buf));
    /* race records are `run --json` records, which carry no "kind" */
    const LabJson *k = lab_json_get(root, "kind");
    if (k && rec_string(rp, root, "kind", kind, sizeof kind))
        return 1;
    if (k && strcmp(kind, "ab") != 0)
        return rec_fail(rp, "kind", "expected \"ab\" (or no kind: a race record), got \"%s\"", kind);
    out->kind = k ? LAB_RECORD_AB : LAB_RECORD_RACE;
    out->seat = -1;
    out->car_count = 0;
    lab_record_default_points(out);
    if (rec_string(rp, root, "race_file", out->race, sizeof out->race) || rec_seed(rp, root, &out->seed) ||
        rec_int(rp, root, "laps", 0, 1000000, &out->laps))
        return 1;
    return out->kind == LAB_RECORD_AB ? rec_parse_ab(rp, root, out) : rec_parse_cars(rp, root, out);
}

int lab_record_parse(const char *text, size_t len, const char *path, long line, LabRecord *out, char *err,
                     size_t err_len)
{
    RecParse rp = {path, line, "", err, err_len, 0};
    LabJsonDoc doc;
    char jerr[256];
    if (lab_json_parse(text, len, &doc, jerr, sizeof jerr)) {
        lab_json_free(&doc);
        return rec_fail(&rp, NULL, "%s", jerr);
    }
    int rc = rec_parse_root(&rp, doc.root, out);
    lab_json_free(&doc);
    return rc;
}

/* ---- a line reader ------------------------------------------------------------------------------------------ */

/* Reads one line into reader->buf (without the newline). Returns its length, -1 at the end, -2 when too long. */
static long rec_getline(LabRecordReader *r)
{
    size_t n = 0;
    int c;
    while ((c = fgetc(r->file)) != EOF && c != '\n') {
        if (n + 1 >= r->cap) {
            if (r->cap >= LAB_RECORD_MAX_LINE)
                return -2;
            size_t cap = r->cap ? r->cap * 2 : 4096;
            char *buf = realloc(r->buf, cap);
            if (!buf)
                return -2;
            r->buf = buf;
            r->cap = cap;
        }
        r->buf[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return -1;
    if (r->buf)
        r->buf[n] = '\0';
    return (long)n;
}

int lab_record_read(LabRecordReader *reader, LabRecord *out, char *err, size_t err_len)
{
    for (;;) {
        long n = rec_getline(reader);
        if (n == -1)
            return ferror(reader->file) ? (snprintf(err, err_len, "%s: read error", reader->path), -1) : 0;
        reader->line++;
        if (n == -2) {
            snprintf(err, err_len, "%s:%ld: line longer than %d bytes", reader->path, reader->line,
                     LAB_RECORD_MAX_LINE);
            return -1;
        }
        bool blank = true;
        for (long i = 0; i < n && blank; i++)
            blank = reader->buf[i] == ' ' || reader->buf[i] == '\t' || reader->buf[i] == '\r';
        if (blank)
            continue;
        return lab_record_parse(reader->buf, (size_t)n, reader->path, reader->line, out, err, err_len) ? -1 : 1;
    }
}

void lab_record_reader_free(LabRecordReader *reader)
{
    free(reader->buf);
    reader->buf = NULL;
    reader->cap = 0;
}

int lab_record_write_csv(const LabRecord *rec, FILE *out)
{
    /* by finishing position, as `run --csv` lists them */
    const LabCarRecord *by_pos[SIM_MAX_CARS] = {NULL};
    for (int i = 0; i < rec->car_count; i++)
        by_pos[rec->cars[i].position - 1] = &rec->cars[i];
    for (int p = 0; p < rec->car_count; p++) {
        const LabCarRecord *c = by_pos[p];
        if (!c)
            continue;
        SimCsvRow row = {rec->seed, c->position, c->number, c->name, c->driver, c->grid, c->status, c->laps,
                         c->time_s, c->best_lap_s, c->overtakes, c->positions_lost, c->lappings, c->collisions,
                         c->offtracks, c->offtrack_s, c->dnf_reason};
        sim_csv_write_row(out, &row);
    }
    return ferror(out) ? 1 : 0;
}
