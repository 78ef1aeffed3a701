/* fuzz_targets.h: one function per parser that must accept or reject any bytes without crashing. The libFuzzer
 * harnesses (tests/fuzz/fuzz_*.c) call one each; tests/test_fuzz_regress.c replays the saved inputs of
 * tests/fuzz/regress/<target>/ through the same functions, so every crash found stays fixed.
 *
 * Inputs that load also go through the queries their users make (a track answers pose and Frenet queries, a race
 * builds a session and steps it a little), so the fuzzer reaches past the parsers. */
#ifndef FUZZ_TARGETS_H
#define FUZZ_TARGETS_H

#include "../../drivers/drv.h"
#include "../../lab/lab.h"
#include "../../sim/sim.h"
#include "../../track/trk.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes as a NUL-terminated string (the text parsers' input); NULL when out of memory. */
static char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

/* A track that loads must answer queries anywhere, including at absurd arc lengths. */
static void fuzz_track_queries(TrkTrack *t)
{
    int hint = -1;
    double s = 0, d = 0, L = trk_length(t);
    const double at[] = {0.0, L * 0.37, L, -L * 2.5, 1e300, -1e300, NAN, INFINITY};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        TrkPose p = trk_pose_at(t, at[i], &hint);
        trk_to_frenet(t, p.x_m, p.y_m, &s, &d, &hint);
        trk_curvature(t, at[i], &hint);
        trk_width_left(t, at[i], NULL);
        trk_line_d(t, at[i], &hint);
    }
    trk_summary(t);
}

static int fuzz_track_ini(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_ini_string(text, "fuzz.ini", NULL, err, sizeof err);
    if (t)
        fuzz_track_queries(t);
    trk_free(t);
    free(text);
    return 0;
}

static int fuzz_track_csv(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_csv_string(text, "fuzz.csv", NULL, err, sizeof err);
    if (t)
        fuzz_track_queries(t);
    trk_free(t);
    free(text);
    return 0;
}

static int fuzz_track_xml(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_load_xml_string(text, "fuzz.xml", NULL, err, sizeof err);
    if (t)
        fuzz_track_queries(t);
    trk_free(t);
    free(text);
    return 0;
}

static int fuzz_driver_ini(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    DrvPersonality p;
    drv_personality_parse_string(text, "fuzz.ini", &p, err, sizeof err);
    free(text);
    return 0;
}

static int fuzz_car_ini(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    SimCarSpec spec;
    sim_car_spec_parse_string(text, "fuzz.ini", &spec, err, sizeof err);
    free(text);
    return 0;
}

/* Race files and scenarios ([race], [grid], [start], [expect]). `path` decides where the relative paths inside
 * resolve (the harness uses a sandbox of small tracks; the regression test the repository's data/races/). A race of
 * at most four cars that loads is built into a session and stepped for half a simulated second, checking the world's
 * invariants (bigger fields cost each driver's plans to build, which would slow the fuzzer to a crawl). */
static int fuzz_race_at(const uint8_t *data, size_t size, const char *path)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    static SimRace race; /* large; static keeps it off the fuzzer's stack */
    char err[1024];
    if (sim_race_parse_string(text, path, &race, err, sizeof err) == 0 && race.entry_count <= 4) {
        SimSessionDef def = sim_default_session_def(&race);
        SimSession *s = sim_session_create(&race, &def, err, sizeof err);
        if (s) {
            SimWorld *w = sim_session_world(s);
            for (int i = 0; i < 50 && !sim_world_done(w); i++)
                sim_world_step(w);
            if (sim_world_check(w, err, sizeof err) != 0) {
                fprintf(stderr, "fuzz_race: %s\n", err);
                abort();
            }
            sim_session_destroy(s);
        }
    }
    free(text);
    return 0;
}

/* FNV-1a 64, as the baseline format's checksum line. */
static uint64_t fuzz_fnv(const char *b, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Baseline files. A mutated file almost never keeps a valid checksum, so when the input has a checksum line its
 * value is recomputed first: the fuzzer then reaches the header and run lines (and, untouched, the checksum code
 * is fuzzed by inputs without that line's exact form). */
static int fuzz_baseline(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *mark = NULL;
    for (char *p = strstr(text, "\nchecksum "); p; p = strstr(p + 1, "\nchecksum "))
        mark = p;
    if (mark && strlen(mark + 10) >= 16) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fuzz_fnv(text, (size_t)(mark + 1 - text)));
        memcpy(mark + 10, hex, 16);
    }
    LabBaseline b;
    memset(&b, 0, sizeof b);
    char err[1024];
    if (lab_baseline_parse(text, size, "fuzz.baseline", &b, err, sizeof err) == 0) {
        char *again = lab_baseline_write(&b);
        free(again);
    }
    lab_baseline_free(&b);
    free(text);
    return 0;
}

/* One JSON-lines record of `racesim batch` / `racesim ab` (the bytes exactly, not NUL-terminated). */
static int fuzz_record(const uint8_t *data, size_t size)
{
    static LabRecord rec;
    char err[1024];
    const char *text = size ? (const char *)data : "";
    lab_record_parse(text, size, "fuzz.jsonl", 1, &rec, err, sizeof err);
    LabJsonDoc doc;
    memset(&doc, 0, sizeof doc);
    lab_json_parse(text, size, &doc, err, sizeof err);
    lab_json_free(&doc);
    return 0;
}

#endif
