/* lab_baseline.c: baseline files (see lab_baseline.h for the format and the rules).
 *
 * The reader checks the envelope before the content: the first line says what the file is, the last line must be
 * the checksum (else the file was cut short), and the checksum must match (else it was edited). Only then are the
 * records parsed, strictly and in their fixed order, so every message names the line that is wrong.
 */
#include "lab.h"


#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*----------------------------------------------------------------------------------------------------------------
 * Hashing and fingerprints
 *--------------------------------------------------------------------------------------------------------------*/

static uint64_t lab_fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

#define LAB_FNV_SEED 14695981039346656037ULL

/* Hashes a file's bytes (and its name's absence: a missing file hashes as "missing"). */
static uint64_t lab_fnv_file(uint64_t h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return lab_fnv(h, "missing", 7);
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = lab_fnv(h, buf, n);
    fclose(f);
    return h;
}

int lab_baseline_init(LabBaseline *b, const SimRace *race, bool shuffle_grid, char *err, size_t err_len)
{
    memset(b, 0, sizeof *b);
    TrkDef tdef = sim_race_track_def(race);
    TrkTrack *t = trk_load(race->track_path, &tdef, err, err_len);
    if (!t)
        return 1;
    snprintf(b->race_path, sizeof b->race_path, "%s", race->path);
    snprintf(b->track_name, sizeof b->track_name, "%s", trk_name(t));
    snprintf(b->track_length, sizeof b->track_length, "%.3f", trk_length(t));
    trk_free(t);
    b->laps = race->laps;
    snprintf(b->tick_hz, sizeof b->tick_hz, "%g", race->tick_hz);
    b->cars = race->entry_count;
    b->shuffle_grid = shuffle_grid;
    uint64_t h = lab_fnv_file(LAB_FNV_SEED, race->path);
    h = lab_fnv_file(h, race->track_path);
    h = lab_fnv(h, &race->car, sizeof race->car); /* the car file's path is not kept: hash what it gave */
    for (int i = 0; i < race->entry_count; i++) {
        snprintf(b->drivers[i], sizeof b->drivers[i], "%s", race->entries[i].personality.name);
        h = lab_fnv_file(h, race->entries[i].driver_path);
    }
    b->files_hash = h;
    return 0;
}

void lab_baseline_free(LabBaseline *b)
{
    free(b->runs);
    b->runs = NULL;
    b->run_count = 0;
}

int lab_baseline_alloc_runs(LabBaseline *b, int count)
{
    free(b->runs);
    b->runs = calloc((size_t)(count > 0 ? count : 1), sizeof *b->runs);
    b->run_count = b->runs ? count : 0;
    return b->runs ? 0 : 1;
}

void lab_baseline_run_from_session(const SimSession *session, LabBaselineRun *out)
{
    SimWorld *w = sim_session_world((SimSession *)session); /* read only: the accessor is not const */
    memset(out, 0, sizeof *out);
    out->seed = sim_session_def(session)->seed;
    int n;
    const SimEvent *ev = sim_world_events(w, &n);
    for (int i = 0; i < n; i++) {
        out->overtakes += ev[i].type == SIM_EV_OVERTAKE;
        out->collisions += ev[i].type == SIM_EV_COLLISION;
        out->offtracks += ev[i].type == SIM_EV_OFFTRACK;
    }
    out->car_count = sim_world_car_count(w) < SIM_MAX_CARS ? sim_world_car_count(w) : SIM_MAX_CARS;
    const int *order = sim_world_order(w);
    for (int k = 0; k < out->car_count; k++) {
        out->order[k] = (uint8_t)sim_session_entry_of(session, order[k]);
        out->retired[k] = sim_world_car(w, order[k])->status == SIM_DNF;
    }
}

/*----------------------------------------------------------------------------------------------------------------
 * Writing
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct LabBuf {
    char *text;
    size_t len, cap;
    bool failed;
} LabBuf;

static void lab_buf_printf(LabBuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void lab_buf_printf(LabBuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)(n > 0 ? n : 0);
        char *t = n < 0 ? NULL : realloc(b->text, cap);
        if (!t) {
            b->failed = true;
            return;
        }
        b->text = t;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void lab_baseline_write_run(LabBuf *out, const LabBaselineRun *r)
{
    lab_buf_printf(out, "seed %" PRIu64 " overtakes=%d collisions=%d offtracks=%d order=", r->seed, r->overtakes,
                   r->collisions, r->offtracks);
    for (int k = 0; k < r->car_count; k++)
        lab_buf_printf(out, "%s%d%s", k ? "," : "", r->order[k] + 1, r->retired[k] ? "r" : "");
    lab_buf_printf(out, "\n");
}

char *lab_baseline_write(const LabBaseline *b)
{
    LabBuf out = {NULL, 0, 0, false};
    lab_buf_printf(&out, "racesim-baseline %d\nrace %s\ntrack %s %s\nlaps %d\ntick_hz %s\ncars %d\nshuffle_grid %d\n",
                   LAB_BASELINE_VERSION, b->race_path, b->track_length, b->track_name, b->laps, b->tick_hz, b->cars,
                   b->shuffle_grid ? 1 : 0);
    for (int i = 0; i < b->cars; i++)
        lab_buf_printf(&out, "driver %d %s\n", i + 1, b->drivers[i]);
    lab_buf_printf(&out, "files %016" PRIx64 "\n", b->files_hash);
    lab_buf_printf(&out, "tolerance overtakes=%d collisions=%d offtracks=%d orders=%d\n", b->tol.overtakes,
                   b->tol.collisions, b->tol.offtracks, b->tol.orders);
    long t_ov = 0, t_co = 0, t_of = 0;
    for (int i = 0; i < b->run_count; i++) {
        lab_baseline_write_run(&out, &b->runs[i]);
        t_ov += b->runs[i].overtakes;
        t_co += b->runs[i].collisions;
        t_of += b->runs[i].offtracks;
    }
    lab_buf_printf(&out, "total seeds=%d overtakes=%ld collisions=%ld offtracks=%ld\n", b->run_count, t_ov, t_co,
                   t_of);
    uint64_t sum = out.failed ? 0 : lab_fnv(LAB_FNV_SEED, out.text, out.len);
    lab_buf_printf(&out, "checksum %016" PRIx64 "\n", sum);
    if (out.failed) {
        free(out.text);
        return NULL;
    }
    return out.text;
}

/*----------------------------------------------------------------------------------------------------------------
 * Reading
 *--------------------------------------------------------------------------------------------------------------*/

typedef struct LabBlReader {
    const char *text;
    size_t len, pos;
    int line;                  /* number of the current line */
    char cur[8192];            /* the current line, without its newline */
    const char *path;
    char *err;
    size_t err_len;
} LabBlReader;

static int lab_bl_fail(LabBlReader *r, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int lab_bl_fail(LabBlReader *r, int line, const char *fmt, ...)
{
    int k = snprintf(r->err, r->err_len, "%s:%d: ", r->path, line);
    if (k >= 0 && (size_t)k < r->err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + k, r->err_len - (size_t)k, fmt, ap);
        va_end(ap);
        trk_text_printable(r->err); /* a quoted line may hold a CR or worse */
    }
    return 1;
}

/* Reads the next line into r->cur; returns 1 at the end of the text, 2 when it is too long. */
static int lab_bl_next(LabBlReader *r)
{
    if (r->pos >= r->len)
        return 1;
    const char *start = r->text + r->pos;
    const char *nl = memchr(start, '\n', r->len - r->pos);
    size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;
    r->pos += n + (nl ? 1 : 0);
    r->line++;
    if (n >= sizeof r->cur)
        return 2;
    memcpy(r->cur, start, n);
    r->cur[n] = '\0';
    if (memchr(r->cur, '\0', n))
        return 2; /* binary junk */
    return 0;
}

/* The next line, which must start with "key "; *rest points after it. */
static int lab_bl_expect(LabBlReader *r, const char *key, const char **rest)
{
    int rc = lab_bl_next(r);
    if (rc == 2)
        return lab_bl_fail(r, r->line, "malformed line (too long or not text)");
    size_t k = strlen(key);
    if (rc == 1 || strncmp(r->cur, key, k) != 0 || r->cur[k] != ' ')
        return lab_bl_fail(r, rc == 1 ? r->line + 1 : r->line, "expected '%s ...', got '%.60s'", key,
                           rc == 1 ? "" : r->cur);
    *rest = r->cur + k + 1;
    return 0;
}

static int lab_bl_int(LabBlReader *r, const char *text, const char *what, long lo, long hi, long *out)
{
    if (sim_parse_long(text, out) != 0 || *out < lo || *out > hi || text[0] == ' ')
        return lab_bl_fail(r, r->line, "%s: expected an integer %ld..%ld, got '%.40s'", what, lo, hi, text);
    return 0;
}

static int lab_bl_hex(const char *text, uint64_t *out)
{
    if (strlen(text) != 16)
        return 1;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = text[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return 1;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* "name=INT" fields in a fixed order, separated by single spaces; *rest points after the last one. */
static int lab_bl_fields(LabBlReader *r, const char *text, const char *const *names, int count, long *vals,
                         const char **rest)
{
    const char *p = text;
    for (int i = 0; i < count; i++) {
        size_t k = strlen(names[i]);
        if (strncmp(p, names[i], k) != 0 || p[k] != '=')
            return lab_bl_fail(r, r->line, "expected '%s=' at '%.40s'", names[i], p);
        p += k + 1;
        char num[32];
        size_t n = strcspn(p, " ");
        if (n == 0 || n >= sizeof num)
            return lab_bl_fail(r, r->line, "%s: expected an integer, got '%.40s'", names[i], p);
        memcpy(num, p, n);
        num[n] = '\0';
        if (lab_bl_int(r, num, names[i], 0, 1000000000L, &vals[i]) != 0)
            return 1;
        p += n;
        if (i + 1 < count || rest) {
            if (*p != ' ')
                return lab_bl_fail(r, r->line, "expected more fields after '%s'", names[i]);
            p++;
        }
    }
    if (rest)
        *rest = p;
    else if (*p != '\0')
        return lab_bl_fail(r, r->line, "unexpected text at the end: '%.40s'", p);
    return 0;
}

/* The envelope: first line, last line = checksum of everything before it. */
static int lab_bl_envelope(LabBlReader *r)
{
    const char *head = "racesim-baseline ";
    size_t hl = strlen(head);
    if (r->len < hl || strncmp(r->text, head, hl) != 0)
        return lab_bl_fail(r, 1, "not a racesim baseline (expected 'racesim-baseline %d' on the first line)",
                           LAB_BASELINE_VERSION);
    const char *v = r->text + hl; /* the text is NUL-terminated (lab_baseline_parse copies it) */
    size_t vlen = strcspn(v, "\n");
    long version = strtol(v, NULL, 10);
    if (version != LAB_BASELINE_VERSION || v[0] < '1' || v[0] > '9' || vlen != strspn(v, "0123456789"))
        return lab_bl_fail(r, 1, "unsupported baseline version '%.*s' (this racesim reads version %d)",
                           (int)(vlen < 10 ? vlen : 10), v, LAB_BASELINE_VERSION);
    int lines = 0;
    size_t last = 0; /* start of the last line */
    for (size_t i = 0; i < r->len; i++) {
        if (r->text[i] == '\n') {
            lines++;
            if (i + 1 < r->len)
                last = i + 1;
        }
    }
    const char *ck = "checksum ";
    uint64_t want;
    char hex[17] = {0};
    size_t tail = r->len - last;
    if (r->text[r->len - 1] != '\n' || tail != strlen(ck) + 17 || strncmp(r->text + last, ck, strlen(ck)) != 0 ||
        (memcpy(hex, r->text + last + strlen(ck), 16), lab_bl_hex(hex, &want) != 0))
        return lab_bl_fail(r, lines + (r->text[r->len - 1] != '\n'),
                           "truncated: the last line is not 'checksum HASH' (record the baseline again)");
    if (lab_fnv(LAB_FNV_SEED, r->text, last) != want)
        return lab_bl_fail(r, lines, "checksum mismatch: the file was edited or damaged (record the baseline again)");
    r->len = last; /* the records end where the checksum line starts */
    return 0;
}

static int lab_bl_header(LabBlReader *r, LabBaseline *b)
{
    const char *v;
    long n;
    if (lab_bl_expect(r, "racesim-baseline", &v) || lab_bl_expect(r, "race", &v))
        return 1;
    snprintf(b->race_path, sizeof b->race_path, "%s", v);
    if (lab_bl_expect(r, "track", &v))
        return 1;
    const char *sp = strchr(v, ' ');
    if (!sp || sp == v || (size_t)(sp - v) >= sizeof b->track_length)
        return lab_bl_fail(r, r->line, "expected 'track LENGTH NAME'");
    snprintf(b->track_length, sizeof b->track_length, "%.*s", (int)(sp - v), v);
    snprintf(b->track_name, sizeof b->track_name, "%s", sp + 1);
    if (lab_bl_expect(r, "laps", &v) || lab_bl_int(r, v, "laps", 0, 1000, &n))
        return 1;
    b->laps = (int)n;
    if (lab_bl_expect(r, "tick_hz", &v))
        return 1;
    snprintf(b->tick_hz, sizeof b->tick_hz, "%s", v);
    if (lab_bl_expect(r, "cars", &v) || lab_bl_int(r, v, "cars", 1, SIM_MAX_CARS, &n))
        return 1;
    b->cars = (int)n;
    if (lab_bl_expect(r, "shuffle_grid", &v) || lab_bl_int(r, v, "shuffle_grid", 0, 1, &n))
        return 1;
    b->shuffle_grid = n == 1;
    for (int i = 0; i < b->cars; i++) {
        char want[16];
        snprintf(want, sizeof want, "%d ", i + 1);
        if (lab_bl_expect(r, "driver", &v))
            return 1;
        if (strncmp(v, want, strlen(want)) != 0)
            return lab_bl_fail(r, r->line, "expected 'driver %d NAME'", i + 1);
        snprintf(b->drivers[i], sizeof b->drivers[i], "%s", v + strlen(want));
    }
    if (lab_bl_expect(r, "files", &v))
        return 1;
    if (lab_bl_hex(v, &b->files_hash) != 0)
        return lab_bl_fail(r, r->line, "files: expected 16 hex digits, got '%.40s'", v);
    static const char *const tol[] = {"overtakes", "collisions", "offtracks", "orders"};
    long t[4];
    if (lab_bl_expect(r, "tolerance", &v) || lab_bl_fields(r, v, tol, 4, t, NULL))
        return 1;
    b->tol.overtakes = (int)t[0];
    b->tol.collisions = (int)t[1];
    b->tol.offtracks = (int)t[2];
    b->tol.orders = (int)t[3];
    return 0;
}

/* "E,E,Er,..." with every entry 1..cars exactly once. */
static int lab_bl_order(LabBlReader *r, const char *text, int cars, LabBaselineRun *run)
{
    bool seen[SIM_MAX_CARS] = {false};
    const char *p = text;
    for (int k = 0; k < cars; k++) {
        char *end;
        errno = 0;
        long e = strtol(p, &end, 10);
        if (end == p || *p < '0' || *p > '9' || e < 1 || e > cars || seen[e - 1])
            return lab_bl_fail(r, r->line, "order: expected each car 1..%d once, got '%.40s'", cars, text);
        seen[e - 1] = true;
        run->order[k] = (uint8_t)(e - 1);
        run->retired[k] = *end == 'r';
        p = end + (*end == 'r');
        if (k + 1 < cars && *p++ != ',')
            return lab_bl_fail(r, r->line, "order: expected %d cars separated by commas", cars);
    }
    if (*p != '\0')
        return lab_bl_fail(r, r->line, "order: unexpected text at the end: '%.40s'", p);
    run->car_count = cars;
    return 0;
}

static int lab_bl_runs(LabBlReader *r, LabBaseline *b)
{
    static const char *const names[] = {"overtakes", "collisions", "offtracks"};
    static const char *const totals[] = {"seeds", "overtakes", "collisions", "offtracks"};
    int cap = 0;
    long sum[3] = {0, 0, 0};
    const char *v;
    for (;;) {
        size_t save_pos = r->pos;
        int save_line = r->line;
        if (lab_bl_next(r) == 0 && strncmp(r->cur, "total ", 6) == 0) {
            r->pos = save_pos;
            r->line = save_line;
            break;
        }
        r->pos = save_pos;
        r->line = save_line;
        if (lab_bl_expect(r, "seed", &v))
            return 1;
        if (b->run_count == LAB_BASELINE_MAX_SEEDS)
            return lab_bl_fail(r, r->line, "more than %d seeds", LAB_BASELINE_MAX_SEEDS);
        if (b->run_count == cap) {
            cap = cap ? cap * 2 : 64;
            LabBaselineRun *runs = realloc(b->runs, sizeof *runs * (size_t)cap);
            if (!runs)
                return lab_bl_fail(r, r->line, "out of memory");
            b->runs = runs;
        }
        LabBaselineRun *run = &b->runs[b->run_count];
        memset(run, 0, sizeof *run);
        char seed[32];
        size_t n = strcspn(v, " ");
        if (n == 0 || n >= sizeof seed)
            return lab_bl_fail(r, r->line, "seed: expected an integer");
        memcpy(seed, v, n);
        seed[n] = '\0';
        if (sim_parse_u64(seed, &run->seed) != 0 || v[n] != ' ')
            return lab_bl_fail(r, r->line, "seed: expected an integer and the counts, got '%.40s'", v);
        if (b->run_count > 0 && run->seed <= b->runs[b->run_count - 1].seed)
            return lab_bl_fail(r, r->line, "seeds must be in increasing order");
        long c[3];
        const char *rest = NULL;
        if (lab_bl_fields(r, v + n + 1, names, 3, c, &rest))
            return 1;
        if (strncmp(rest, "order=", 6) != 0)
            return lab_bl_fail(r, r->line, "expected 'order=' at '%.40s'", rest);
        if (lab_bl_order(r, rest + 6, b->cars, run))
            return 1;
        run->overtakes = (int)c[0];
        run->collisions = (int)c[1];
        run->offtracks = (int)c[2];
        for (int k = 0; k < 3; k++)
            sum[k] += c[k];
        b->run_count++;
    }
    long t[4];
    if (lab_bl_expect(r, "total", &v) || lab_bl_fields(r, v, totals, 4, t, NULL))
        return 1;
    if (t[0] != b->run_count || t[1] != sum[0] || t[2] != sum[1] || t[3] != sum[2])
        return lab_bl_fail(r, r->line, "totals do not match the seed lines (%d seeds, %ld overtakes, %ld collisions, "
                                       "%ld offtracks)", b->run_count, sum[0], sum[1], sum[2]);
    if (b->run_count == 0)
        return lab_bl_fail(r, r->line, "no seed lines");
    if (lab_bl_next(r) != 1)
        return lab_bl_fail(r, r->line, "unexpected line after the totals: '%.40s'", r->cur);
    return 0;
}

int lab_baseline_parse(const char *text, size_t len, const char *path, LabBaseline *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    LabBlReader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_len, "%s:0: out of memory", path);
        return 1;
    }
    char *copy = malloc(len + 1); /* NUL-terminated, so no string function can read past the end */
    if (!copy) {
        free(r);
        snprintf(err, err_len, "%s:0: out of memory", path);
        return 1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    r->text = copy;
    r->len = len;
    r->path = path;
    r->err = err;
    r->err_len = err_len;
    const char *cr = memchr(copy, '\r', len), *crlf = cr && cr[1] == '\n' ? cr : NULL; /* copy ends in a NUL */
    int rc = len == 0 ? lab_bl_fail(r, 1, "empty file (not a racesim baseline)")
             : crlf   ? lab_bl_fail(r, 1, "CR LF line endings: the file was converted after it was recorded (convert it "
                                          "back to LF, e.g. with dos2unix, or record the baseline again)")
                      : lab_bl_envelope(r);
    if (rc == 0)
        rc = lab_bl_header(r, out);
    if (rc == 0)
        rc = lab_bl_runs(r, out);
    free(copy);
    free(r);
    if (rc != 0)
        lab_baseline_free(out);
    return rc;
}

int lab_baseline_load(const char *path, LabBaseline *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *text = trk_file_read(path, (size_t)1 << 30, &len, err, err_len);
    if (!text)
        return 1;
    int rc = lab_baseline_parse(text, len, path, out, err, err_len);
    free(text);
    return rc;
}

/*----------------------------------------------------------------------------------------------------------------
 * Staleness and comparison
 *--------------------------------------------------------------------------------------------------------------*/

int lab_baseline_check_stale(const LabBaseline *rec, const LabBaseline *now, const char *path, char *err,
                             size_t err_len)
{
    /* line numbers of the header records, as written */
#define STALE(line, ...)                                                                                           \
    do {                                                                                                           \
        int k_ = snprintf(err, err_len, "%s:%d: stale baseline: ", path, line);                                    \
        if (k_ >= 0 && (size_t)k_ < err_len)                                                                       \
            snprintf(err + k_, err_len - (size_t)k_, __VA_ARGS__);                                                 \
        return 1;                                                                                                  \
    } while (0)
    if (strcmp(rec->track_name, now->track_name) != 0 || strcmp(rec->track_length, now->track_length) != 0)
        STALE(3, "recorded on track '%s' (%s m), the race now uses '%s' (%s m)", rec->track_name, rec->track_length,
              now->track_name, now->track_length);
    if (rec->laps != now->laps)
        STALE(4, "recorded with %d laps, the race now has %d", rec->laps, now->laps);
    if (strcmp(rec->tick_hz, now->tick_hz) != 0)
        STALE(5, "recorded at tick_hz %s, the race now uses %s", rec->tick_hz, now->tick_hz);
    if (rec->cars != now->cars)
        STALE(6, "recorded with %d cars, the race now has %d", rec->cars, now->cars);
    if (rec->shuffle_grid != now->shuffle_grid)
        STALE(7, "shuffle_grid differs");
    for (int i = 0; i < rec->cars; i++)
        if (strcmp(rec->drivers[i], now->drivers[i]) != 0)
            STALE(8 + i, "car %d was '%s', the race now has '%s'", i + 1, rec->drivers[i], now->drivers[i]);
#undef STALE
    return 0;
}

bool lab_baseline_run_counts_differ(const LabBaselineRun *a, const LabBaselineRun *b)
{
    return a->overtakes != b->overtakes || a->collisions != b->collisions || a->offtracks != b->offtracks;
}

bool lab_baseline_run_order_differs(const LabBaselineRun *a, const LabBaselineRun *b)
{
    if (a->car_count != b->car_count)
        return true;
    for (int k = 0; k < a->car_count; k++)
        if (a->order[k] != b->order[k] || a->retired[k] != b->retired[k])
            return true;
    return false;
}

static int lab_abs(int x) { return x < 0 ? -x : x; }

LabBaselineVerdict lab_baseline_compare(const LabBaseline *rec, const LabBaseline *now)
{
    LabBaselineVerdict v;
    memset(&v, 0, sizeof v);
    int n = rec->run_count < now->run_count ? rec->run_count : now->run_count;
    for (int i = 0; i < n; i++) {
        const LabBaselineRun *a = &rec->runs[i], *b = &now->runs[i];
        v.d_overtakes += b->overtakes - a->overtakes;
        v.d_collisions += b->collisions - a->collisions;
        v.d_offtracks += b->offtracks - a->offtracks;
        bool order = lab_baseline_run_order_differs(a, b);
        v.changed_orders += order;
        v.changed_seeds += order || lab_baseline_run_counts_differ(a, b) || a->seed != b->seed;
    }
    const LabBaselineTol *t = &rec->tol;
    v.exact = t->overtakes == 0 && t->collisions == 0 && t->offtracks == 0 && t->orders == 0;
    v.pass = rec->run_count == now->run_count && lab_abs(v.d_overtakes) <= t->overtakes &&
             lab_abs(v.d_collisions) <= t->collisions && lab_abs(v.d_offtracks) <= t->offtracks &&
             v.changed_orders <= t->orders && (!v.exact || v.changed_seeds == 0);
    return v;
}

/*----------------------------------------------------------------------------------------------------------------
 * Where a rerun's order parted from the recorded one
 *--------------------------------------------------------------------------------------------------------------*/

int lab_order_track_init(LabOrderTrack *t)
{
    memset(t, 0, sizeof *t);
    t->tick = -1;
    for (int i = 0; i < SIM_MAX_CARS; i++)
        t->retired_tick[i] = t->moved_tick[i] = -1;
    t->swapped = malloc(sizeof *t->swapped * SIM_MAX_CARS * SIM_MAX_CARS);
    if (!t->swapped)
        return 1;
    for (int i = 0; i < SIM_MAX_CARS * SIM_MAX_CARS; i++)
        t->swapped[i] = -1;
    return 0;
}

void lab_order_track_free(LabOrderTrack *t)
{
    free(t->swapped);
    t->swapped = NULL;
}

void lab_order_track_push(LabOrderTrack *t, long tick, const uint8_t *order, const bool *retired, int count)
{
    count = count < SIM_MAX_CARS ? count : SIM_MAX_CARS;
    uint8_t place[SIM_MAX_CARS];
    memset(place, 0, sizeof place);
    for (int k = 0; k < count; k++) {
        int e = order[k] < SIM_MAX_CARS ? order[k] : SIM_MAX_CARS - 1;
        place[e] = (uint8_t)k;
        if (retired[k] && t->retired_tick[e] < 0)
            t->retired_tick[e] = tick;
    }
    bool first = t->tick < 0;
    if (!first && count == t->car_count && memcmp(place, t->place, (size_t)count) == 0) {
        t->tick = tick; /* nearly every tick: nobody changed places */
        return;
    }
    for (int a = 0; !first && a < count; a++) {
        if (place[a] != t->place[a])
            t->moved_tick[a] = tick;
        for (int b = a + 1; b < count; b++)
            if ((place[a] < place[b]) != (t->place[a] < t->place[b]))
                t->swapped[a * SIM_MAX_CARS + b] = tick;
    }
    memcpy(t->place, place, sizeof place);
    t->car_count = count;
    t->tick = tick;
}

void lab_order_track_session(LabOrderTrack *t, const SimSession *session)
{
    SimWorld *w = sim_session_world((SimSession *)session); /* read only: the accessor is not const */
    int n = sim_world_car_count(w) < SIM_MAX_CARS ? sim_world_car_count(w) : SIM_MAX_CARS;
    const int *order = sim_world_order(w);
    uint8_t entries[SIM_MAX_CARS];
    bool retired[SIM_MAX_CARS];
    for (int k = 0; k < n; k++) {
        entries[k] = (uint8_t)sim_session_entry_of(session, order[k]);
        retired[k] = sim_world_car(w, order[k])->status == SIM_DNF;
    }
    lab_order_track_push(t, sim_world_tick(w), entries, retired, n);
}

long lab_order_track_parted(const LabOrderTrack *t, const LabBaselineRun *was)
{
    int n = was->car_count < t->car_count ? was->car_count : t->car_count;
    uint8_t was_place[SIM_MAX_CARS];
    bool was_retired[SIM_MAX_CARS];
    memset(was_place, 0, sizeof was_place);
    memset(was_retired, 0, sizeof was_retired);
    for (int k = 0; k < n; k++) {
        was_place[was->order[k]] = (uint8_t)k;
        was_retired[was->order[k]] = was->retired[k];
    }
    long at = -1, settled = -1; /* the first settled difference; the last move of a car whose place differs */
    for (int a = 0; a < n; a++) {
        bool retired = t->retired_tick[a] >= 0;
        if (retired && !was_retired[a] && (at < 0 || t->retired_tick[a] < at))
            at = t->retired_tick[a];
        if ((was_place[a] != t->place[a] || retired != was_retired[a]) && t->moved_tick[a] > settled)
            settled = t->moved_tick[a];
        for (int b = a + 1; b < n; b++) {
            long swapped = t->swapped[a * SIM_MAX_CARS + b];
            bool differs = (was_place[a] < was_place[b]) != (t->place[a] < t->place[b]);
            if (differs && swapped >= 0 && (at < 0 || swapped < at))
                at = swapped;
        }
    }
    return at >= 0 ? at : settled;
}
