/* test_stats.c: statistics (against published values), records (exact round trip, exact error messages), the
 * batch and A/B tallies, and the thread pool's ordering. Reference values: Student t tables, and numerical
 * integration of the t density for p-values; Wilcoxon by hand (ranks worked out in the comment). */
#include "../lab/lab.h"
#include "tst.h"

#include <stdint.h>
#include <stdlib.h>

static int test_lgamma_and_beta(void)
{
    TST_NEAR(lab_stats_lgamma(0.5), 0.5723649429247001, 1e-13);
    TST_NEAR(lab_stats_lgamma(10.0), log(362880.0), 1e-12);
    TST_NEAR(lab_stats_lgamma(1.0), 0.0, 1e-14);
    TST_NEAR(lab_stats_betainc(2.0, 3.0, 0.5), 0.6875, 1e-14);
    TST_NEAR(lab_stats_betainc(0.5, 0.5, 0.5), 0.5, 1e-14);
    TST_CHECK(lab_stats_betainc(2.0, 3.0, 0.0) == 0.0 && lab_stats_betainc(2.0, 3.0, 1.0) == 1.0);
    return 0;
}

static int test_t_quantiles(void)
{
    TST_NEAR(lab_stats_t_quantile(0.975, 1), 12.706204736174698, 1e-9);
    TST_NEAR(lab_stats_t_quantile(0.975, 10), 2.2281388519649385, 1e-9);
    TST_NEAR(lab_stats_t_quantile(0.975, 30), 2.0422724563012373, 1e-9);
    TST_NEAR(lab_stats_t_quantile(0.975, 1000), 1.9623390808264078, 1e-9);
    TST_NEAR(lab_stats_t_quantile(0.025, 10), -2.2281388519649385, 1e-9);
    TST_NEAR(lab_stats_t_quantile(0.995, 5), 4.032142983557536, 1e-9);
    return 0;
}

static int test_t_pvalues(void)
{
    TST_NEAR(lab_stats_t_p2(2.0, 10), 0.07338803477074551, 1e-10);
    TST_NEAR(lab_stats_t_p2(-2.0, 10), 0.07338803477074551, 1e-10);
    TST_NEAR(lab_stats_t_p2(12.706204736174698, 1), 0.05, 1e-10);
    TST_NEAR(lab_stats_t_p2(0.0, 7), 1.0, 1e-15);
    TST_NEAR(lab_stats_t_cdf(2.2281388519649385, 10), 0.975, 1e-10);
    TST_NEAR(lab_stats_normal_p2(1.959963984540054), 0.05, 1e-12);
    return 0;
}

static int test_estimate_and_rate(void)
{
    LabRunning r = lab_running_init();
    for (int i = 1; i <= 5; i++)
        lab_running_add(&r, i);
    LabEstimate e = lab_estimate(&r);
    TST_NEAR(e.mean, 3.0, 1e-15);
    TST_NEAR(e.sd, sqrt(2.5), 1e-14);
    /* half-width = t(0.975, 4) * sd / sqrt(5) = 2.7764451051977987 * 1.5811388300841898 / 2.23606797749979 */
    TST_NEAR(e.hi - e.mean, 1.9632431614775607, 1e-9);
    TST_NEAR(e.mean - e.lo, 1.9632431614775607, 1e-9);
    TST_CHECK(r.min == 1.0 && r.max == 5.0);
    LabRunning one = lab_running_init();
    lab_running_add(&one, 7.0);
    LabEstimate e1 = lab_estimate(&one);
    TST_CHECK(e1.lo == 7.0 && e1.hi == 7.0 && e1.sd == 0.0);
    LabRate w = lab_rate(5, 10); /* Wilson: 0.2366 .. 0.7634 */
    TST_NEAR(w.lo, 0.2365930, 1e-6);
    TST_NEAR(w.hi, 0.7634070, 1e-6);
    LabRate z = lab_rate(0, 20);
    TST_CHECK(z.lo == 0.0 && z.p == 0.0);
    TST_NEAR(z.hi, 0.1611251, 1e-6);
    return 0;
}

static int test_paired_tests(void)
{
    double d[10] = {1, -2, 3, 3, -1, 4, 0, 5, 2, 2};
    LabPairedTest t = lab_paired_t(d, 10);
    TST_NEAR(t.mean, 1.7, 1e-14);
    TST_NEAR(t.t, 2.4285714285714284, 1e-12);
    TST_NEAR(t.p, 0.03807165500476062, 1e-9);
    double half = 2.2621571627409915 * 2.213594362117866 / sqrt(10.0); /* t(0.975, 9) * sd / sqrt(n) */
    TST_NEAR(t.hi - t.mean, half, 1e-9);
    /* Wilcoxon: zero dropped, n = 9; |d| ranks 1,1 -> 1.5; 2,2,2 -> 4; 3,3 -> 6.5; 4 -> 8; 5 -> 9. W+ = 39.5,
     * mean 22.5, var 9*10*19/24 - (6 + 24 + 6)/48 = 70.5, z = (39.5 - 22.5 - 0.5) / sqrt(70.5). */
    double scratch[10];
    LabPairedTest w = lab_wilcoxon(d, 10, scratch);
    TST_CHECK(w.n == 9);
    TST_NEAR(w.t, 1.9651214027788653, 1e-12);
    TST_NEAR(w.p, 0.04940018799120367, 1e-10);
    /* identical A and B: all differences zero; a constant shift: no variance, so no t-test at all */
    double zero[6] = {0};
    LabPairedTest tz = lab_paired_t(zero, 6);
    TST_CHECK(isnan(tz.p) && tz.lo == 0.0 && tz.hi == 0.0);
    TST_CHECK(lab_wilcoxon(zero, 6, scratch).p == 1.0);
    double shift[4] = {2, 2, 2, 2};
    LabPairedTest ts = lab_paired_t(shift, 4);
    TST_CHECK(isnan(ts.p) && ts.mean == 2.0 && ts.lo == 2.0 && ts.hi == 2.0);
    return 0;
}

/* ---- sequential test ---------------------------------------------------------------------------------------- */

/* LLR by hand for d = {1, -2, 3, 3, -1, 4, 0, 5, 2, 2}: sum 17, sum of squares 73, n = 10, mean 1.7,
 * s^2 = (73 - 10 * 1.7^2) / 9 = 4.9. H0 0, H1 1: (1 - 0)(2 * 17 - 10 * 1) / (2 * 4.9) = 24 / 9.8.
 * H0 0, H1 -0.3: (-0.3)(34 + 3) / 9.8 = -11.1 / 9.8. Partial sums for the sequence (H0 0, H1 1):
 * n = 7: sum 8, squares 40, s^2 = 36 / 7 = 5.142857..., LLR = (16 - 7) / (72 / 7) = 0.875;
 * n = 8: sum 13, squares 65, s^2 = 6.267857..., LLR = 18 / 12.535714... = 1.435897...;
 * n = 9: sum 15, squares 69, s^2 = 5.5, LLR = 21 / 11 = 1.909090...; n = 10: 24 / 9.8 = 2.448979... */
static int test_sprt_llr(void)
{
    TST_NEAR(lab_sprt_llr(10, 1.7, 4.9, 0.0, 1.0), 24.0 / 9.8, 1e-12);
    TST_NEAR(lab_sprt_llr(10, 1.7, 4.9, 0.0, -0.3), -11.1 / 9.8, 1e-12);
    /* swapping the hypotheses flips the sign */
    TST_NEAR(lab_sprt_llr(10, 1.7, 4.9, 1.0, 0.0), -24.0 / 9.8, 1e-12);
    /* the mean halfway between h0 and h1 is no evidence either way */
    TST_NEAR(lab_sprt_llr(25, 0.5, 2.0, 0.0, 1.0), 0.0, 1e-15);
    TST_CHECK(isnan(lab_sprt_llr(10, 2.0, 0.0, 0.0, 1.0)) && isnan(lab_sprt_llr(1, 2.0, 1.0, 0.0, 1.0)));

    LabSprtDef def = lab_sprt_default_def();
    def.h0 = 0.0, def.h1 = 1.0;
    LabSprt s;
    lab_sprt_init(&s, &def);
    TST_NEAR(s.lower, log(0.05 / 0.95), 1e-15);
    TST_NEAR(s.upper, 2.9444389791664403, 1e-12);
    double d[10] = {1, -2, 3, 3, -1, 4, 0, 5, 2, 2};
    const double llr[10] = {NAN, 0, 0, 0, 0, 0, 0.875, 18.0 / (351.0 / 28.0), 21.0 / 11.0, 24.0 / 9.8};
    def.alpha = def.beta = 0.1; /* bounds +-ln 9 = +-2.197: crossed at the tenth pair */
    lab_sprt_init(&s, &def);
    for (int i = 0; i < 10; i++) {
        LabSprtDecision dec = lab_sprt_add(&s, d[i]);
        if (i >= 6)
            TST_NEAR(s.llr, llr[i], 1e-12);
        TST_CHECK(dec == (i == 9 ? LAB_SPRT_H1 : LAB_SPRT_CONTINUE));
    }
    TST_CHECK(s.decided_at == 10 && s.decided_est.mean == s.d.mean);
    return 0;
}

/* No decision before min_pairs however large the LLR, nor while every difference is the same; bad definitions. */
static int test_sprt_rules(void)
{
    LabSprtDef def = lab_sprt_default_def();
    def.h0 = 0.0, def.h1 = 1.0;
    LabSprt s;
    lab_sprt_init(&s, &def);
    const double d[6] = {1.0, 1.1, 0.9, 1.0, 1.05, 0.95};
    for (int i = 0; i < 5; i++)
        TST_CHECK(lab_sprt_add(&s, d[i]) == LAB_SPRT_CONTINUE);
    TST_CHECK(s.llr > 100.0);
    TST_CHECK(lab_sprt_add(&s, d[5]) == LAB_SPRT_H1 && s.decided_at == 6);
    lab_sprt_init(&s, &def);
    for (int i = 0; i < 20; i++)
        TST_CHECK(lab_sprt_add(&s, -3.0) == LAB_SPRT_CONTINUE);
    TST_CHECK(isnan(s.llr));
    TST_CHECK(lab_sprt_add(&s, -3.5) == LAB_SPRT_H0); /* clearly below h0 once there is a spread */
    char err[256];
    TST_CHECK(lab_sprt_check_def(&def, err, sizeof err) == 0);
    def.h1 = 0.0;
    TST_CHECK(lab_sprt_check_def(&def, err, sizeof err) != 0);
    TST_STR_EQ(err, "--h0 and --h1 must differ (both are 0): the test tells two hypotheses apart");
    def.h1 = 1.0, def.alpha = 0.5;
    TST_CHECK(lab_sprt_check_def(&def, err, sizeof err) != 0);
    TST_STR_EQ(err, "--alpha and --beta must be in (0, 0.5), got 0.5 and 0.05");
    def.alpha = 0.05, def.beta = 0.0;
    TST_CHECK(lab_sprt_check_def(&def, err, sizeof err) != 0);
    return 0;
}

/* ---- records ------------------------------------------------------------------------------------------------ */

static void make_car(LabCarRecord *c, int entry, int grid, int position, double time_s)
{
    memset(c, 0, sizeof *c);
    c->grid = grid;
    snprintf(c->name, sizeof c->name, "Car \"%d\"\\é", entry);
    snprintf(c->driver, sizeof c->driver, "data/drivers/d%d.ini", entry);
    c->number = 10 + entry;
    c->position = position;
    c->status = time_s > 0.0 ? SIM_FINISHED : SIM_DNF;
    c->laps = 3;
    c->time_s = time_s;
    c->best_lap_s = time_s > 0.0 ? time_s / 3.0 + 1e-9 : 0.1;
    c->overtakes = entry;
    c->positions_lost = 2 * entry;
    c->collisions = 1;
    c->offtracks = 2;
    c->offtrack_s = 1.0 / 3.0 + entry;
}

static void make_race_record(LabRecord *r, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->kind = LAB_RECORD_RACE;
    snprintf(r->race, sizeof r->race, "data/races/test.ini");
    r->seed = seed;
    r->laps = 3;
    r->car_count = 3;
    make_car(&r->cars[0], 2, 1, 2, 271.123456789 + (double)(seed % 1000) * 0.1);
    make_car(&r->cars[1], 0, 2, 1, 270.0 + 1.0 / (double)(seed % 1000 + 3));
    make_car(&r->cars[2], 1, 3, 3, 0.0);
    r->seat = -1;
}

/* Writes a record to a string (malloc'd). */
static char *record_text(const LabRecord *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    lab_record_write(r, f);
    fclose(f);
    return buf;
}

static int test_record_round_trip(void)
{
    static LabRecord a, b;
    make_race_record(&a, 18446744073709551615u);
    char *text = record_text(&a);
    TST_CHECK(text != NULL);
    char err[512];
    size_t len = strlen(text);
    TST_CHECK(len > 0 && text[len - 1] == '\n');
    int rc = lab_record_parse(text, len - 1, "x.jsonl", 1, &b, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    TST_CHECK(rc == 0);
    TST_CHECK(b.seed == a.seed && b.car_count == 3 && b.laps == 3);
    for (int i = 0; i < 3; i++) {
        TST_CHECK(memcmp(&a.cars[i].time_s, &b.cars[i].time_s, sizeof(double)) == 0);
        TST_CHECK(memcmp(&a.cars[i].best_lap_s, &b.cars[i].best_lap_s, sizeof(double)) == 0);
        TST_CHECK(memcmp(&a.cars[i].offtrack_s, &b.cars[i].offtrack_s, sizeof(double)) == 0);
        TST_STR_EQ(b.cars[i].name, a.cars[i].name);
        TST_CHECK(b.cars[i].status == a.cars[i].status && b.cars[i].grid == a.cars[i].grid);
        TST_STR_EQ(b.cars[i].driver, a.cars[i].driver);
    }
    char *again = record_text(&b);
    TST_STR_EQ(again, text);
    free(again);
    free(text);
    return 0;
}

/* Strings go through the project's one JSON string writer and come back from the reader unchanged, whatever the
 * bytes a path holds. */
static int test_record_strings_escaped(void)
{
    static LabRecord a, b;
    make_race_record(&a, 4);
    snprintf(a.race, sizeof a.race, "r\"a\\c\nd\te\x01" "f\x7fg/\xc3\xa9.ini");
    char *text = record_text(&a);
    TST_CHECK(text != NULL);
    TST_CHECK(strstr(text, "\"race_file\":\"r\\\"a\\\\c\\nd\\te\\u0001f\\u007fg/\xc3\xa9.ini\"") != NULL);
    char err[512];
    TST_CHECK(lab_record_parse(text, strlen(text) - 1, "x.jsonl", 1, &b, err, sizeof err) == 0);
    TST_STR_EQ(b.race, a.race);
    free(text);
    return 0;
}

static int test_ab_record_round_trip(void)
{
    static LabRecord a, b;
    memset(&a, 0, sizeof a);
    a.kind = LAB_RECORD_AB;
    snprintf(a.race, sizeof a.race, "r.ini");
    a.seed = 42;
    a.laps = 2;
    a.seat = 1;
    make_car(&a.a, 1, 4, 3, 200.0 / 7.0);
    make_car(&a.b, 1, 4, 2, 0.0);
    char *text = record_text(&a);
    char err[512];
    TST_CHECK(lab_record_parse(text, strlen(text) - 1, "x.jsonl", 1, &b, err, sizeof err) == 0);
    TST_CHECK(b.kind == LAB_RECORD_AB && b.seat == 1 && b.a.position == 3 && b.b.status == SIM_DNF);
    TST_CHECK(memcmp(&a.a.time_s, &b.a.time_s, sizeof(double)) == 0);
    TST_CHECK(strstr(text, "points") == NULL && b.points_count == 10 && b.points[0] == 25); /* default: not written */
    free(text);
    /* a table of its own is written and read back; points by position, none for a retired car */
    a.points_count = 3;
    a.points[0] = 10, a.points[1] = 5, a.points[2] = 5;
    text = record_text(&a);
    TST_CHECK(strstr(text, ",\"points\":[10,5,5]}") != NULL);
    TST_CHECK(lab_record_parse(text, strlen(text) - 1, "x.jsonl", 1, &b, err, sizeof err) == 0);
    TST_CHECK(b.points_count == 3 && b.points[2] == 5);
    TST_CHECK(lab_record_points(b.points, b.points_count, &b.a) == 5); /* third */
    TST_CHECK(lab_record_points(b.points, b.points_count, &b.b) == 0); /* dnf */
    b.a.position = 4;
    TST_CHECK(lab_record_points(b.points, b.points_count, &b.a) == 0); /* past the table */
    free(text);
    return 0;
}

/* The exact message for one bad line, read through the file reader (line counting, blank lines skipped). */
static int check_bad_line(const char *line, const char *expected)
{
    static LabRecord rec;
    FILE *f = tmpfile();
    if (!f)
        return 1;
    fprintf(f, "\n%s\n", line); /* a blank first line: the bad one is line 2 */
    rewind(f);
    LabRecordReader reader = {f, "runs.jsonl", 0, NULL, 0};
    char err[512] = "";
    int rc = lab_record_read(&reader, &rec, err, sizeof err);
    lab_record_reader_free(&reader);
    fclose(f);
    if (rc != -1 || strcmp(err, expected) != 0) {
        fprintf(stderr, "  line:     %s\n  got:      %d '%s'\n  expected: '%s'\n", line, rc, err, expected);
        return 1;
    }
    return 0;
}

#define CAR0 "{\"name\":\"A\",\"driver_file\":\"a.ini\",\"number\":1,\"grid\":1,\"position\":1,"
#define CAR0_REST "\"status\":\"finished\",\"laps\":2,\"time_s\":100.5,\"best_lap_s\":50,\"overtakes\":0," \
    "\"positions_lost\":0,\"lappings\":0,\"collisions\":0,\"offtracks\":0,\"offtrack_s\":0}"
#define HEAD "{\"race_file\":\"r.ini\",\"seed\":3,\"laps\":2,"

static int test_record_errors(void)
{
    int bad = 0;
    bad |= check_bad_line(HEAD "\"cars\":[" CAR0 CAR0_REST "]",
                          "runs.jsonl:2: column 266: expected ',' or '}', found the end of the line");
    bad |= check_bad_line("{\"kind\":\"ab\",}", "runs.jsonl:2: column 14: expected a string key, found '}'");
    bad |= check_bad_line("[1,2]", "runs.jsonl:2: expected a JSON object, got an array");
    bad |= check_bad_line("{\"kind\":\"lap\"}",
                          "runs.jsonl:2: kind: expected \"ab\" (or no kind: a race record), got \"lap\"");
    bad |= check_bad_line("{\"seed\":1}", "runs.jsonl:2: missing key \"race_file\"");
    bad |= check_bad_line("{\"race_file\":\"r.ini\",\"seed\":-1}",
                          "runs.jsonl:2: seed: expected an integer in 0..18446744073709551615, got -1");
    bad |= check_bad_line("{\"race_file\":\"r.ini\",\"seed\":18446744073709551616}",
                          "runs.jsonl:2: seed: expected an integer in 0..18446744073709551615, got "
                          "18446744073709551616");
    bad |= check_bad_line(HEAD "\"cars\":[" CAR0 "\"status\":\"finished\"}]}", "runs.jsonl:2: cars[0]: missing key "
                          "\"laps\"");
    bad |= check_bad_line(HEAD "\"cars\":[{\"name\":\"A\",\"driver_file\":\"a.ini\",\"number\":1,\"grid\":1.5}]}",
                          "runs.jsonl:2: cars[0].grid: expected an integer in 1..1, got 1.5");
    bad |= check_bad_line(HEAD "\"cars\":[" CAR0 CAR0_REST "," CAR0 CAR0_REST "]}",
                          "runs.jsonl:2: cars[1].grid: the same value as an earlier car");
    bad |= check_bad_line(HEAD "\"cars\":{}}", "runs.jsonl:2: cars: expected an array, got an object");
    bad |= check_bad_line(HEAD "\"cars\":[" CAR0 "\"status\":\"won\"}]}",
                          "runs.jsonl:2: cars[0].status: expected \"finished\", \"dnf\" or \"running\", got \"won\"");
    bad |= check_bad_line(HEAD "\"cars\":[" CAR0 "\"status\":7}]}",
                          "runs.jsonl:2: cars[0].status: expected a string, got 7");
    bad |= check_bad_line("{\"kind\":\"ab\",\"kind\":\"ab\"}", "runs.jsonl:2: column 14: duplicate key \"kind\"");
    bad |= check_bad_line("{\"kind\":\"a\\qb\"}", "runs.jsonl:2: column 11: invalid escape in a string");
    bad |= check_bad_line("{\"seed\":1e999}", "runs.jsonl:2: column 9: number out of range");
    bad |= check_bad_line("{\"seed\":01}", "runs.jsonl:2: column 10: expected ',' or '}', found '1'");
    bad |= check_bad_line("{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
                          "runs.jsonl:2: column 38: nested deeper than 32 levels");
    bad |= check_bad_line(HEAD "\"cars\":[]}", "runs.jsonl:2: cars: expected 1..128 cars, got 0");
    bad |= check_bad_line("nul", "runs.jsonl:2: column 1: invalid literal (expected null)");
    bad |= check_bad_line("{\"kind\":\"ab\",\"race_file\":\"r.ini\",\"seed\":1,\"laps\":2,\"seat\":1,\"a\":[]}",
                          "runs.jsonl:2: a: expected an object, got an array");
    /* seats are 1-based, as --seat counts them */
    bad |= check_bad_line("{\"kind\":\"ab\",\"race_file\":\"r.ini\",\"seed\":1,\"laps\":2,\"seat\":0,\"a\":{}}",
                          "runs.jsonl:2: seat: expected an integer in 1..128, got 0");
    TST_CHECK(bad == 0);
    return 0;
}

/* ---- tallies ------------------------------------------------------------------------------------------------ */

static int test_batch_tally(void)
{
    static LabBatchTally t;
    static LabRecord r;
    char err[512];
    lab_batch_tally_init(&t);
    for (uint64_t seed = 5; seed < 9; seed++) {
        make_race_record(&r, seed);
        TST_CHECK(lab_batch_tally_add(&t, &r, err, sizeof err) == 0);
    }
    TST_CHECK(t.races == 4 && t.first_seed == 5 && t.last_seed == 8);
    /* rows in the first record's order: the car of grid line 2 (P2), of line 0 (the winner), of line 1 (DNF) */
    const LabDriverTally *winner = &t.drivers[1];
    TST_STR_EQ(winner->driver, "data/drivers/d0.ini");
    TST_CHECK(winner->wins == 4 && winner->podiums == 4 && winner->dnfs == 0 && winner->position.mean == 1.0);
    TST_CHECK(t.drivers[0].wins == 0 && t.drivers[0].position.mean == 2.0);
    TST_CHECK(t.drivers[2].dnfs == 4 && t.drivers[2].best_lap_s.n == 4);
    make_race_record(&r, 8);
    TST_CHECK(lab_batch_tally_add(&t, &r, err, sizeof err) != 0);
    TST_STR_EQ(err, "seed 8 is not after seed 8 (records must be in increasing seed order, without repeats)");
    make_race_record(&r, 9);
    r.kind = LAB_RECORD_AB;
    TST_CHECK(lab_batch_tally_add(&t, &r, err, sizeof err) != 0);
    TST_STR_EQ(err, "an A/B record among race records (files from `batch` and `ab` cannot be merged)");
    return 0;
}

/* Five pairs get no p-value; six pairs of the same nonzero difference get "no variance", never p<0.001. */
static int test_ab_small_samples(void)
{
    static LabAbTally t;
    static LabRecord r;
    char err[512], verdict[256];
    lab_ab_tally_init(&t);
    memset(&r, 0, sizeof r);
    r.kind = LAB_RECORD_AB;
    snprintf(r.race, sizeof r.race, "r.ini");
    for (int i = 0; i < 6; i++) {
        r.seed = (uint64_t)i + 1;
        make_car(&r.a, 1, 1, 1, 100.0);
        make_car(&r.b, 1, 1, 2 + (i % 2), 101.0);
        r.a.offtrack_s = 0.0, r.b.offtrack_s = 1.5;
        TST_CHECK(lab_ab_tally_add(&t, &r, err, sizeof err) == 0);
        if (i == 4) { /* five pairs */
            LabAbResult pos = lab_ab_result(&t, LAB_AB_POSITION);
            lab_ab_verdict(&pos, verdict, sizeof verdict);
            TST_STR_EQ(verdict, "finishing position: too few pairs to tell (5; a test needs at least 6)");
            TST_CHECK(!pos.testable && isnan(pos.t.p) && isnan(pos.wilcoxon.p));
        }
    }
    LabAbResult pos = lab_ab_result(&t, LAB_AB_POSITION);
    TST_CHECK(pos.testable && pos.t.p < 0.01);
    LabAbResult off = lab_ab_result(&t, LAB_AB_OFFTRACK);
    lab_ab_verdict(&off, verdict, sizeof verdict);
    TST_STR_EQ(verdict, "B spends 1.50 s more off track than A per race in every pair (no variance, no p-value)");
    lab_ab_tally_free(&t);
    return 0;
}

static int test_ab_tally(void)
{
    static LabAbTally t;
    static LabRecord r;
    char err[512], verdict[256];
    lab_ab_tally_init(&t);
    memset(&r, 0, sizeof r);
    r.kind = LAB_RECORD_AB;
    snprintf(r.race, sizeof r.race, "r.ini");
    r.laps = 2;
    /* B finishes one place worse every time except one pair where it is two places worse */
    for (int i = 0; i < 12; i++) {
        r.seed = (uint64_t)i + 1;
        r.seat = i % 3;
        make_car(&r.a, r.seat, 1, 2, 100.0);
        make_car(&r.b, r.seat, 1, i == 5 ? 4 : 3, i == 7 ? 0.0 : 101.0);
        snprintf(r.a.driver, sizeof r.a.driver, "a.ini");
        snprintf(r.b.driver, sizeof r.b.driver, "b.ini");
        TST_CHECK(lab_ab_tally_add(&t, &r, err, sizeof err) == 0);
    }
    TST_CHECK(t.pairs == 12 && t.dnf_b == 1 && t.dnf_a == 0 && t.seat_varies);
    LabAbResult pos = lab_ab_result(&t, LAB_AB_POSITION);
    TST_NEAR(pos.t.mean, 13.0 / 12.0, 1e-12);
    TST_CHECK(pos.t.p < 0.001);
    lab_ab_verdict(&pos, verdict, sizeof verdict);
    TST_STR_EQ(verdict, "B finishes 1.08 places worse than A (p<0.001)");
    LabAbResult time = lab_ab_result(&t, LAB_AB_TIME);
    TST_CHECK(time.n == 11);
    LabAbResult col = lab_ab_result(&t, LAB_AB_COLLISIONS);
    lab_ab_verdict(&col, verdict, sizeof verdict);
    TST_STR_EQ(verdict, "no difference in collisions: every pair is equal (no variance, no p-value)");
    TST_CHECK(!col.testable && col.no_variance && isnan(col.t.p));
    LabAbResult ovt = lab_ab_result(&t, LAB_AB_OVERTAKES); /* make_car: overtakes = seat for A and B alike */
    TST_CHECK(ovt.no_variance);
    r.seed = 3;
    TST_CHECK(lab_ab_tally_add(&t, &r, err, sizeof err) != 0);
    lab_ab_tally_free(&t);
    char p[32];
    lab_ab_format_p(0.0312, p, sizeof p);
    TST_STR_EQ(p, "p=0.03");
    lab_ab_format_p(0.00345, p, sizeof p);
    TST_STR_EQ(p, "p=0.0034");
    return 0;
}

/* ---- the thread pool ---------------------------------------------------------------------------------------- */

typedef struct PoolCtx {
    long next_expected;
    long sum;
    int out_of_order;
} PoolCtx;

static char *pool_work(void *ctx, long index, char *err, size_t err_len)
{
    (void)ctx;
    (void)err;
    (void)err_len;
    volatile double x = 0.0; /* uneven job lengths so threads finish out of order */
    for (long i = 0; i < (index % 7) * 20000; i++)
        x = x + 1.0;
    char *s = malloc(32);
    if (s)
        snprintf(s, 32, "%ld", index * index);
    return s;
}

static int pool_consume(void *ctx, long index, char *text, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    PoolCtx *c = ctx;
    c->out_of_order |= index != c->next_expected || atol(text) != index * index;
    c->next_expected++;
    c->sum += atol(text);
    free(text);
    return 0;
}

static int test_batch_pool_order(void)
{
    for (int threads = 1; threads <= 4; threads++) {
        PoolCtx ctx = {0, 0, 0};
        LabBatchDef def = lab_batch_default_def();
        def.count = 200;
        def.threads = threads;
        def.work = pool_work;
        def.consume = pool_consume;
        def.ctx = &ctx;
        char err[256];
        TST_CHECK(lab_batch_run(&def, err, sizeof err) == 0);
        TST_CHECK(ctx.out_of_order == 0 && ctx.next_expected == 200);
        TST_CHECK(ctx.sum == 199L * 200L * 399L / 6L);
    }
    return 0;
}

int main(void)
{
    TST_RUN(test_lgamma_and_beta);
    TST_RUN(test_t_quantiles);
    TST_RUN(test_t_pvalues);
    TST_RUN(test_estimate_and_rate);
    TST_RUN(test_paired_tests);
    TST_RUN(test_record_round_trip);
    TST_RUN(test_ab_record_round_trip);
    TST_RUN(test_record_strings_escaped);
    TST_RUN(test_ab_small_samples);
    TST_RUN(test_sprt_llr);
    TST_RUN(test_sprt_rules);
    TST_RUN(test_record_errors);
    TST_RUN(test_batch_tally);
    TST_RUN(test_ab_tally);
    TST_RUN(test_batch_pool_order);
    return tst_report();
}
