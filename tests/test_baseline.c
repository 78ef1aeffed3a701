/* test_baseline.c: baseline files: round trip, damaged files (truncated, edited, malformed), stale baselines, and
 * the verdict of a comparison under tolerances. */
#include "../lab/lab.h"
#include "tst.h"

#include <inttypes.h>
#include <stdlib.h>

static SimRace race;
static char err[2048];

/* A baseline of tests/data/sim/race.ini with two real runs (seeds 3 and 4). */
static int make_baseline(LabBaseline *b)
{
    if (sim_race_load("tests/data/sim/race.ini", &race, err, sizeof err) != 0)
        return 1;
    if (lab_baseline_init(b, &race, false, err, sizeof err) != 0 || lab_baseline_alloc_runs(b, 2) != 0)
        return 1;
    for (int i = 0; i < 2; i++) {
        SimSessionDef def = sim_default_session_def(&race);
        def.seed = 3 + (uint64_t)i;
        SimSession *s = sim_session_create(&race, &def, err, sizeof err);
        if (!s)
            return 1;
        sim_world_run(sim_session_world(s));
        lab_baseline_run_from_session(s, &b->runs[i]);
        sim_session_destroy(s);
    }
    return 0;
}

/* FNV-1a 64, as documented for the checksum line, to forge well-formed files with bad content. */
static uint64_t fnv(const char *text, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)text[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Replaces the first `from` by `to` in text and rewrites the checksum line, so only the content is wrong. */
static char *forge(const char *text, const char *from, const char *to)
{
    static char out[8192];
    const char *at = strstr(text, from);
    const char *ck = strstr(text, "checksum ");
    if (!at || !ck || at > ck)
        return NULL;
    int n = snprintf(out, sizeof out, "%.*s%s%.*s", (int)(at - text), text, to, (int)(ck - at - strlen(from)),
                     at + strlen(from));
    snprintf(out + n, sizeof out - (size_t)n, "checksum %016" PRIx64 "\n", fnv(out, (size_t)n));
    return out;
}

static int parse_error(const char *text, const char *want)
{
    LabBaseline b;
    if (lab_baseline_parse(text, strlen(text), "base.txt", &b, err, sizeof err) == 0) {
        lab_baseline_free(&b);
        fprintf(stderr, "parsed without error\n");
        return 1;
    }
    TST_STR_EQ(err, want);
    return 0;
}

static int test_round_trip(void)
{
    LabBaseline b, back;
    TST_CHECK(make_baseline(&b) == 0);
    b.tol.overtakes = 2;
    b.tol.orders = 1;
    char *text = lab_baseline_write(&b);
    TST_CHECK(text != NULL);
    TST_CHECK(strncmp(text, "racesim-baseline 1\nrace tests/data/sim/race.ini\ntrack 1953.933 Test Oval\nlaps 2\n",
                      75) == 0);
    TST_CHECK(lab_baseline_parse(text, strlen(text), "base.txt", &back, err, sizeof err) == 0);
    TST_STR_EQ(back.race_path, b.race_path);
    TST_STR_EQ(back.track_name, "Test Oval");
    TST_STR_EQ(back.track_length, b.track_length);
    TST_CHECK(back.laps == 2 && back.cars == 4 && !back.shuffle_grid);
    TST_STR_EQ(back.drivers[3], "Car Four");
    TST_CHECK(back.files_hash == b.files_hash);
    TST_CHECK(back.tol.overtakes == 2 && back.tol.collisions == 0 && back.tol.orders == 1);
    TST_CHECK(back.run_count == 2 && back.runs[0].seed == 3 && back.runs[1].seed == 4);
    for (int i = 0; i < 2; i++) {
        TST_CHECK(!lab_baseline_run_counts_differ(&back.runs[i], &b.runs[i]));
        TST_CHECK(!lab_baseline_run_order_differs(&back.runs[i], &b.runs[i]));
    }
    LabBaselineVerdict v = lab_baseline_compare(&back, &b);
    TST_CHECK(v.pass && v.changed_seeds == 0 && !v.exact);
    TST_CHECK(lab_baseline_check_stale(&back, &b, "base.txt", err, sizeof err) == 0);
    /* writing what was read gives the same bytes */
    char *again = lab_baseline_write(&back);
    TST_CHECK(again != NULL);
    TST_STR_EQ(again, text);
    free(again);
    free(text);
    lab_baseline_free(&back);
    lab_baseline_free(&b);
    return 0;
}

static int test_damaged(void)
{
    LabBaseline b;
    TST_CHECK(make_baseline(&b) == 0);
    char *text = lab_baseline_write(&b);
    TST_CHECK(text != NULL);
    char totals[256]; /* the counts depend on the drivers: computed, not hard-coded */
    snprintf(totals, sizeof totals,
             "base.txt:16: totals do not match the seed lines (2 seeds, %d overtakes, %d collisions, %d offtracks)",
             b.runs[0].overtakes + b.runs[1].overtakes, b.runs[0].collisions + b.runs[1].collisions,
             b.runs[0].offtracks + b.runs[1].offtracks);
    lab_baseline_free(&b);
    /* 7 header lines + 4 drivers + files, tolerance, 2 seeds, total, checksum = 17 lines */
    char cut[8192];
    size_t len = strlen(text);
    snprintf(cut, sizeof cut, "%.*s", (int)(len - 30), text); /* cut inside the totals line */
    TST_CHECK(parse_error(cut, "base.txt:16: truncated: the last line is not 'checksum HASH' (record the baseline "
                               "again)") == 0);
    snprintf(cut, sizeof cut, "%.*s", (int)(len - 1), text); /* only the final newline lost */
    TST_CHECK(parse_error(cut, "base.txt:17: truncated: the last line is not 'checksum HASH' (record the baseline "
                               "again)") == 0);
    char *edited = strdup(text);
    char *laps = strstr(edited, "laps 2");
    laps[5] = '3';
    TST_CHECK(parse_error(edited, "base.txt:17: checksum mismatch: the file was edited or damaged (record the "
                                  "baseline again)") == 0);
    TST_CHECK(parse_error("", "base.txt:1: empty file (not a racesim baseline)") == 0);
    TST_CHECK(parse_error("[race]\ntrack = x\n", "base.txt:1: not a racesim baseline (expected 'racesim-baseline 1' "
                                                 "on the first line)") == 0);
    TST_CHECK(parse_error("racesim-baseline 2\n",
                          "base.txt:1: unsupported baseline version '2' (this racesim reads version 1)") == 0);
    /* well-formed envelope, bad content: the message names the line */
    char order_err[256];
    const char *order = strstr(text, "order=") + 6;
    snprintf(order_err, sizeof order_err, "base.txt:14: order: expected each car 1..4 once, got '1,%.*s'",
             (int)strcspn(order, "\n"), order);
    TST_CHECK(parse_error(forge(text, "order=", "order=1,"), order_err) == 0);
    TST_CHECK(parse_error(forge(text, "total seeds=2", "total seeds=3"), totals) == 0);
    TST_CHECK(parse_error(forge(text, "driver 4 ", "driver 5 "), "base.txt:11: expected 'driver 4 NAME'") == 0);
    TST_CHECK(parse_error(forge(text, "collisions=0", "collisions=x"),
                          "base.txt:13: collisions: expected an integer 0..1000000000, got 'x'") == 0);
    free(edited);
    free(text);
    return 0;
}

static int test_stale(void)
{
    LabBaseline rec, now;
    TST_CHECK(make_baseline(&rec) == 0);
    static SimRace other;
    TST_CHECK(sim_race_parse_string("[race]\ntrack = ../../../data/tracks/oval.ini\nlaps = 2\n[grid]\n"
                                    "driver = driver.ini\ndriver = driver.ini, number = 2\ndriver = driver.ini, number = 3\n"
                                    "driver = driver.ini, number = 4\n",
                                    "tests/data/sim/other.ini", &other, err, sizeof err) == 0);
    TST_CHECK(lab_baseline_init(&now, &other, false, err, sizeof err) == 0);
    TST_CHECK(lab_baseline_check_stale(&rec, &now, "base.txt", err, sizeof err) != 0);
    TST_STR_EQ(err, "base.txt:3: stale baseline: recorded on track 'Test Oval' (1953.933 m), the race now uses 'Speed "
                    "Oval' (3107.960 m)");
    TST_CHECK(sim_race_parse_string("[race]\ntrack = oval.ini\nlaps = 2\n[grid]\ndriver = driver.ini\n"
                                    "driver = driver.ini, number = 2\ndriver = driver.ini, number = 3\n",
                                    "tests/data/sim/other.ini", &other, err, sizeof err) == 0);
    TST_CHECK(lab_baseline_init(&now, &other, false, err, sizeof err) == 0);
    TST_CHECK(lab_baseline_check_stale(&rec, &now, "base.txt", err, sizeof err) != 0);
    TST_STR_EQ(err, "base.txt:6: stale baseline: recorded with 4 cars, the race now has 3");
    lab_baseline_free(&rec);
    return 0;
}

static int test_verdict(void)
{
    LabBaseline rec, now;
    TST_CHECK(make_baseline(&rec) == 0);
    TST_CHECK(make_baseline(&now) == 0);
    /* a change that cancels in the totals: exact mode still fails */
    now.runs[0].overtakes += 1;
    now.runs[1].overtakes -= 1;
    LabBaselineVerdict v = lab_baseline_compare(&rec, &now);
    TST_CHECK(v.exact && !v.pass && v.changed_seeds == 2 && v.d_overtakes == 0);
    /* with a tolerance, totals decide */
    rec.tol.overtakes = 1;
    v = lab_baseline_compare(&rec, &now);
    TST_CHECK(!v.exact && v.pass);
    now.runs[0].overtakes += 2;
    v = lab_baseline_compare(&rec, &now);
    TST_CHECK(!v.pass && v.d_overtakes == 2);
    now.runs[0].overtakes -= 2;
    /* order changes count against `orders` */
    uint8_t t = now.runs[1].order[0];
    now.runs[1].order[0] = now.runs[1].order[1];
    now.runs[1].order[1] = t;
    v = lab_baseline_compare(&rec, &now);
    TST_CHECK(!v.pass && v.changed_orders == 1);
    rec.tol.orders = 1;
    v = lab_baseline_compare(&rec, &now);
    TST_CHECK(v.pass);
    lab_baseline_free(&rec);
    lab_baseline_free(&now);
    return 0;
}

/* A rerun of three cars (race entries 0, 1, 2) given as its running order every 10 ticks ("012" = entry 0 leads;
 * an 'r' after a digit: that car has retired), and the tick lab_order_track_parted finds against the recorded
 * finishing order `was` ("012" likewise). */
static long parted(const char *const *orders, const char *was_text)
{
    LabOrderTrack t;
    if (lab_order_track_init(&t) != 0)
        return -2;
    for (int i = 0; orders[i]; i++) {
        uint8_t order[3];
        bool retired[3] = {false, false, false};
        int k = 0;
        for (const char *c = orders[i]; *c; c++) {
            if (*c == 'r' && k > 0)
                retired[k - 1] = true;
            else if (k < 3)
                order[k++] = (uint8_t)(*c - '0');
        }
        lab_order_track_push(&t, 10L * i, order, retired, 3);
    }
    LabBaselineRun was;
    memset(&was, 0, sizeof was);
    for (const char *c = was_text; *c; c++) {
        if (*c == 'r' && was.car_count > 0)
            was.retired[was.car_count - 1] = true;
        else if (was.car_count < 3)
            was.order[was.car_count++] = (uint8_t)(*c - '0');
    }
    long at = lab_order_track_parted(&t, &was);
    lab_order_track_free(&t);
    return at;
}

/* Where a rerun's finishing order parted from the recorded one, from its running order alone */
static int test_order_parted(void)
{
    /* 1 passes 0 at 10, 0 passes back at 20, 1 again at 30 for good; 2 passes 0 at 40. Recorded: 0, 1, 2. Both pairs
     * finish the other way round; (0, 1) settled first, at 30 (not at 10: it changed back) */
    static const char *const twice[] = {"012", "102", "012", "102", "120", "120", NULL};
    TST_CHECK(parted(twice, "012") == 30);
    /* recorded 1, 0, 2: only (0, 2) differs, settled at 40 */
    TST_CHECK(parted(twice, "102") == 40);
    /* the same order as recorded: nothing parted */
    TST_CHECK(parted(twice, "120") == -1);
    /* recorded 0, 2, 1: 2 passed 1 in the recorded race, never in the rerun, where 1 and 0 swapped at 10 and back
     * at 20; the cars whose places differ (1 and 2) last moved at 20: from then on they hold their final places */
    static const char *const held[] = {"012", "102", "012", "012", NULL};
    TST_CHECK(parted(held, "021") == 20);
    /* they never moved at all: no moment in the rerun */
    static const char *const still[] = {"012", "012", "012", NULL};
    TST_CHECK(parted(still, "021") == -1);
    /* a car that retires in the rerun and not in the recorded race, in the place it was in: its retirement */
    static const char *const retire[] = {"012", "012", "012r", "012r", NULL};
    TST_CHECK(parted(retire, "012") == 20);
    TST_CHECK(parted(retire, "012r") == -1); /* the recorded race had it too */
    /* 2 passes 1 at 10, then 0 retires and drops back at 20: against a record of 0, 1, 2 the pass came first;
     * against one where 0 retired too, only the pass differs */
    static const char *const drop[] = {"012", "021", "210r", "210r", NULL};
    TST_CHECK(parted(drop, "012") == 10);
    TST_CHECK(parted(drop, "120r") == 10);
    return 0;
}

int main(void)
{
    TST_RUN(test_round_trip);
    TST_RUN(test_damaged);
    TST_RUN(test_stale);
    TST_RUN(test_verdict);
    TST_RUN(test_order_parted);
    return tst_report();
}
