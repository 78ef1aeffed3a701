/* app_exp.c: shared pieces of the experiment commands (see app_exp.h). */
#include "app_exp.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A global because a signal handler can reach nothing else. */
static volatile sig_atomic_t app_stop_requested;

static void app_stop_handler(int sig) { app_stop_requested = sig; }

void app_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = app_stop_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

const volatile sig_atomic_t *app_stop_flag(void) { return &app_stop_requested; }

int app_stop_signal(void) { return (int)app_stop_requested; }

int app_seed_range_check(uint64_t first, long races, char *err, size_t err_len)
{
    if (races > 0 && first > UINT64_MAX - (uint64_t)(races - 1)) {
        snprintf(err, err_len, "seeds %" PRIu64 " + %ld races run past the largest seed (%" PRIu64 ")", first, races,
                 UINT64_MAX);
        return 1;
    }
    return 0;
}

uint64_t *app_shard_seeds(uint64_t first, long races, int index, int count, long *n)
{
    uint64_t *seeds = malloc((size_t)(races / count + 1) * sizeof *seeds);
    *n = 0;
    if (!seeds)
        return NULL;
    for (long k = index - 1; k < races; k += count)
        seeds[(*n)++] = first + (uint64_t)k;
    return seeds;
}

/* ---- resuming an interrupted output ---------------------------------------------------------------------------- */

long app_resume_read(const char *cmd, const char *path, long n, LabRecord *scratch, AppResumeMatchFn *matches,
                     void *ctx, char **kept_text)
{
    char err[1024];
    size_t len = 0;
    *kept_text = NULL;
    char *text = trk_file_read(path, (size_t)1 << 30, &len, err, sizeof err);
    if (!text) {
        if (access(path, F_OK) != 0) {
            fprintf(stderr, "racesim %s: %s does not exist yet: nothing to resume, running everything\n", cmd, path);
            return 0;
        }
        fprintf(stderr, "racesim %s: %s\n", cmd, err);
        return -1;
    }
    long kept = 0;
    size_t pos = 0;
    for (long line = 1; pos < len; line++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl) {
            fprintf(stderr, "racesim %s: %s:%ld: a cut line (the run stopped while writing it): run again\n", cmd,
                    path, line);
            break;
        }
        size_t line_len = (size_t)(nl - (text + pos));
        const char *why = NULL;
        if (lab_record_parse(text + pos, line_len, path, line, scratch, err, sizeof err) != 0)
            why = err;
        else if (kept >= n)
            why = "holds more records than this run";
        else
            why = matches(ctx, kept, scratch);
        if (why) {
            if (why == err)
                fprintf(stderr, "racesim %s: cannot resume: %s\n", cmd, err);
            else
                fprintf(stderr, "racesim %s: cannot resume: %s:%ld: %s (seed %" PRIu64 ")\n", cmd, path, line, why,
                        scratch->seed);
            free(text);
            return -1;
        }
        kept++;
        pos += line_len + 1;
    }
    text[pos] = '\0';
    *kept_text = text;
    return kept;
}

int app_resume_feed(const char *kept_text, long kept, LabBatchConsumeFn *consume, void *ctx, char *err,
                    size_t err_len)
{
    size_t at = 0;
    for (long i = 0; i < kept; i++) {
        size_t line_len = (size_t)(strchr(kept_text + at, '\n') - (kept_text + at)) + 1;
        char *line = strndup(kept_text + at, line_len);
        if (!line) {
            snprintf(err, err_len, "out of memory");
            return 1;
        }
        int rc = consume(ctx, i, line, err, err_len); /* the consumer owns the line */
        if (rc)
            return rc;
        at += line_len;
    }
    return 0;
}

/* ---- progress ----------------------------------------------------------------------------------------------- */

static double app_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Guards rates against a zero elapsed time. */
static double app_positive(double x) { return x > 1e-9 ? x : 1e-9; }

void app_progress_begin(AppProgress *p, const char *unit)
{
    p->unit = unit;
    p->on = isatty(STDERR_FILENO) != 0;
    p->start_s = p->last_s = p->on ? app_now_s() : 0.0;
}

void app_progress_update(AppProgress *p, long done, long total)
{
    if (!p->on)
        return;
    double now = app_now_s();
    if (done < total && now - p->last_s < 0.1) /* at most ten redraws a second */
        return;
    p->last_s = now;
    double rate = done / app_positive(now - p->start_s);
    int width = 30, fill = total > 0 ? (int)(width * done / total) : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    double left_s = rate > 0.0 ? (double)(total - done) / rate : 0.0;
    fprintf(stderr, "\r[%s] %ld/%ld %s  %.1f %s/s  %.0f s left ", bar, done, total, p->unit, rate, p->unit, left_s);
    fflush(stderr);
}

void app_progress_note(AppProgress *p, long done, const char *text)
{
    if (!p->on)
        return;
    double now = app_now_s();
    if (now - p->last_s < 0.1)
        return;
    p->last_s = now;
    double rate = done / app_positive(now - p->start_s);
    fprintf(stderr, "\r%ld %s  %s  %.1f %s/s ", done, p->unit, text, rate, p->unit);
    fflush(stderr);
}

void app_progress_end(AppProgress *p, long done)
{
    if (!p->on)
        return;
    double elapsed = app_now_s() - p->start_s;
    double rate = done / app_positive(elapsed);
    fprintf(stderr, "\r%ld %s in %.1f s (%.1f %s/s)%30s\n", done, p->unit, elapsed, rate, p->unit, "");
}

/* ---- one race ----------------------------------------------------------------------------------------------- */

SimSession *app_exp_run_race(const SimRace *race, const TrkTrack *track, const DrvTableCache *tables, uint64_t seed,
                             int laps, const DrvPersonality *override, const bool *seat_mask, char *err,
                             size_t err_len)
{
    SimSessionDef def = sim_default_session_def(race);
    def.seed = seed;
    def.shuffle_grid = true;
    def.laps = laps;
    def.seat_override = override;
    def.seat_mask = override ? seat_mask : NULL;
    def.track = track;
    def.tables = tables;
    SimSession *s = sim_session_create(race, &def, err, err_len);
    if (s)
        sim_world_run(sim_session_world(s));
    return s;
}

char *app_record_text(const LabRecord *rec)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int bad = lab_record_write(rec, f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

int app_race_load(const char *path, SimRace *race, char *err, size_t err_len)
{
    if (sim_race_load(path, race, err, err_len) != 0)
        return 1;
    fputs(race->track_warning, stderr); /* once per command: the sessions load the track again, silently */
    if (!race->expect.present)
        return 0;
    LabExpect *ex = malloc(sizeof *ex);
    if (ex == NULL) {
        snprintf(err, err_len, "%s:0: out of memory", path);
        return 1;
    }
    int rc = lab_expect_load(ex, race, err, err_len);
    free(ex);
    return rc;
}

void app_open_command(char *buf, size_t len, const char *race_path, uint64_t seed, bool shuffle, double at_s)
{
    size_t n = 0;
#define APP_PUT(...) (n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, __VA_ARGS__))
    APP_PUT("racesim run ");
    bool plain = race_path[0] != '\0';
    for (const char *c = race_path; *c; c++)
        plain = plain && (isalnum((unsigned char)*c) || strchr("_./-+,:@%", *c));
    if (plain) {
        APP_PUT("%s", race_path);
    } else { /* single quotes, each ' written as '\'' */
        APP_PUT("'");
        for (const char *c = race_path; *c; c++)
            APP_PUT("%s", *c == '\'' ? "'\\''" : (char[2]){*c, '\0'});
        APP_PUT("'");
    }
    APP_PUT(" --seed %llu%s", (unsigned long long)seed, shuffle ? " --shuffle-grid" : "");
    if (at_s >= 0.0)
        APP_PUT(" --at %.2f", at_s);
#undef APP_PUT
}

void app_print_open_command(FILE *out, const char *lead, const char *race_path, uint64_t seed, bool shuffle,
                            double at_s)
{
    char line[APP_OPEN_COMMAND_LEN];
    app_open_command(line, sizeof line, race_path, seed, shuffle, at_s);
    fprintf(out, "%s%s\n", lead, line);
}
