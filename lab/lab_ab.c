/* lab_ab.c: paired A/B analysis and its report (see lab_ab.h). */
#include "lab.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct AbMetricInfo {
    const char *name;   /* for --metric and the table */
    const char *label;  /* in verdicts */
    bool higher_better;
    const char *good, *bad; /* how B compares when it is better / worse */
} AbMetricInfo;

static const AbMetricInfo ab_metrics[LAB_AB_METRIC_COUNT] = {
    {"position", "finishing position", false, "finishes %.2f places better", "finishes %.2f places worse"},
    {"time", "race time", false, "is %.2f s faster", "is %.2f s slower"},
    {"overtakes", "overtakes", true, "makes %.2f more overtakes per race", "makes %.2f fewer overtakes per race"},
    {"collisions", "collisions", false, "has %.2f fewer collisions per race", "has %.2f more collisions per race"},
    {"offtrack", "off-track time", false, "spends %.2f s less off track per race",
     "spends %.2f s more off track per race"},
    {"points", "championship points", true, "scores %.2f more points per race", "scores %.2f fewer points per race"},
};

const char *lab_ab_metric_name(LabAbMetric m) { return ab_metrics[m].name; }
bool lab_ab_metric_higher_better(LabAbMetric m) { return ab_metrics[m].higher_better; }

int lab_ab_metric_parse(const char *name)
{
    for (int m = 0; m < LAB_AB_METRIC_COUNT; m++)
        if (strcmp(name, ab_metrics[m].name) == 0)
            return m;
    return -1;
}

/* ---- the tally ---------------------------------------------------------------------------------------------- */

void lab_ab_tally_init(LabAbTally *t) { memset(t, 0, sizeof *t); }

void lab_ab_tally_free(LabAbTally *t)
{
    for (int m = 0; m < LAB_AB_METRIC_COUNT; m++) {
        free(t->a[m]);
        free(t->b[m]);
        free(t->diff[m]);
    }
    lab_ab_tally_init(t);
}

static int ab_grow(LabAbTally *t)
{
    if (t->pairs < t->cap)
        return 0;
    long cap = t->cap ? t->cap * 2 : 256;
    for (int m = 0; m < LAB_AB_METRIC_COUNT; m++) {
        double **arrays[3] = {&t->a[m], &t->b[m], &t->diff[m]};
        for (int k = 0; k < 3; k++) {
            double *p = realloc(*arrays[k], (size_t)cap * sizeof(double));
            if (!p)
                return 1;
            *arrays[k] = p;
        }
    }
    t->cap = cap;
    return 0;
}

static int ab_check(LabAbTally *t, const LabRecord *rec, char *err, size_t err_len)
{
    if (rec->kind != LAB_RECORD_AB) {
        snprintf(err, err_len, "a race record among A/B records (files from `batch` and `ab` cannot be merged)");
        return 1;
    }
    if (t->pairs == 0) {
        snprintf(t->race, sizeof t->race, "%s", rec->race);
        snprintf(t->a_driver, sizeof t->a_driver, "%s", rec->a.driver);
        snprintf(t->b_driver, sizeof t->b_driver, "%s", rec->b.driver);
        snprintf(t->a_name, sizeof t->a_name, "%s", rec->a.name);
        snprintf(t->b_name, sizeof t->b_name, "%s", rec->b.name);
        t->laps = rec->laps;
        t->first_seed = rec->seed;
        t->first_seat = rec->seat;
        t->points_count = rec->points_count;
        memcpy(t->points, rec->points, sizeof t->points);
        return 0;
    }
    if (strcmp(rec->race, t->race) != 0 || rec->laps != t->laps || strcmp(rec->a.driver, t->a_driver) != 0 ||
        strcmp(rec->b.driver, t->b_driver) != 0) {
        snprintf(err, err_len, "race \"%.200s\" (%d laps) with A \"%.200s\" and B \"%.200s\" differs from the first "
                 "record's", rec->race, rec->laps, rec->a.driver, rec->b.driver);
        return 1;
    }
    if (rec->points_count != t->points_count ||
        memcmp(rec->points, t->points, (size_t)t->points_count * sizeof t->points[0]) != 0) {
        snprintf(err, err_len, "points table differs from the first record's");
        return 1;
    }
    if (rec->seed <= t->last_seed) {
        snprintf(err, err_len, "seed %" PRIu64 " is not after seed %" PRIu64 " (records must be in increasing "
                 "seed order, without repeats)", rec->seed, t->last_seed);
        return 1;
    }
    return 0;
}

static void ab_put(LabAbTally *t, LabAbMetric m, double a, double b)
{
    long i = t->n[m]++;
    t->a[m][i] = a;
    t->b[m][i] = b;
    t->diff[m][i] = b - a;
}

int lab_ab_tally_add(LabAbTally *t, const LabRecord *rec, char *err, size_t err_len)
{
    if (ab_check(t, rec, err, err_len))
        return 1;
    if (ab_grow(t)) {
        snprintf(err, err_len, "out of memory");
        return 1;
    }
    const LabCarRecord *a = &rec->a, *b = &rec->b;
    ab_put(t, LAB_AB_POSITION, a->position, b->position);
    if (a->status == SIM_FINISHED && b->status == SIM_FINISHED)
        ab_put(t, LAB_AB_TIME, a->time_s, b->time_s);
    ab_put(t, LAB_AB_OVERTAKES, a->overtakes, b->overtakes);
    ab_put(t, LAB_AB_COLLISIONS, a->collisions, b->collisions);
    ab_put(t, LAB_AB_OFFTRACK, a->offtrack_s, b->offtrack_s);
    ab_put(t, LAB_AB_POINTS, lab_record_points(t->points, t->points_count, a),
           lab_record_points(t->points, t->points_count, b));
    t->dnf_a += a->status != SIM_FINISHED;
    t->dnf_b += b->status != SIM_FINISHED;
    t->seat_varies = t->seat_varies || rec->seat != t->first_seat;
    t->pairs++;
    t->last_seed = rec->seed;
    return 0;
}

/* ---- results ------------------------------------------------------------------------------------------------ */

LabAbResult lab_ab_result(const LabAbTally *t, LabAbMetric m)
{
    LabAbResult r;
    memset(&r, 0, sizeof r);
    r.metric = m;
    r.n = t->n[m];
    LabRunning ra = lab_running_init(), rb = lab_running_init();
    for (long i = 0; i < r.n; i++) {
        lab_running_add(&ra, t->a[m][i]);
        lab_running_add(&rb, t->b[m][i]);
    }
    r.mean_a = ra.mean;
    r.mean_b = rb.mean;
    r.t = lab_paired_t(t->diff[m], r.n);
    r.no_variance = r.n >= 2 && isnan(r.t.p);
    r.testable = r.n >= LAB_AB_MIN_PAIRS && !r.no_variance;
    double *scratch = malloc((size_t)(r.n > 0 ? r.n : 1) * sizeof(double));
    if (scratch) {
        r.wilcoxon = lab_wilcoxon(t->diff[m], r.n, scratch);
        free(scratch);
    } else {
        r.wilcoxon = r.t;
        r.wilcoxon.p = NAN;
    }
    if (!r.testable)
        r.t.p = r.wilcoxon.p = NAN;
    return r;
}

void lab_ab_format_p(double p, char *buf, size_t len)
{
    if (isnan(p))
        snprintf(buf, len, "p=-");
    else if (p < 0.001)
        snprintf(buf, len, "p<0.001");
    else if (p < 0.01)
        snprintf(buf, len, "p=%.4f", p);
    else
        snprintf(buf, len, "p=%.2f", p);
}

void lab_ab_verdict(const LabAbResult *r, char *buf, size_t len)
{
    const AbMetricInfo *info = &ab_metrics[r->metric];
    char p[32], amount[96];
    lab_ab_format_p(r->t.p, p, sizeof p);
    if (r->n < LAB_AB_MIN_PAIRS) {
        snprintf(buf, len, "%s: too few pairs to tell (%ld; a test needs at least %d)", info->label, r->n,
                 LAB_AB_MIN_PAIRS);
        return;
    }
    if (r->no_variance && r->t.mean == 0.0) {
        snprintf(buf, len, "no difference in %s: every pair is equal (no variance, no p-value)", info->label);
        return;
    }
    if (!r->no_variance && !(r->t.p < 0.05)) {
        snprintf(buf, len, "no significant difference in %s (%s)", info->label, p);
        return;
    }
    bool b_higher = r->t.mean > 0.0;
    bool b_better = b_higher == info->higher_better;
    snprintf(amount, sizeof amount, b_better ? info->good : info->bad, fabs(r->t.mean));
    if (r->no_variance)
        snprintf(buf, len, "B %s than A in every pair (no variance, no p-value)", amount);
    else
        snprintf(buf, len, "B %s than A (%s)", amount, p);
    /* "makes 0.40 more overtakes per race than A" reads badly; put "than A" before "per race" */
    char *per = strstr(buf, " per race than A");
    if (per)
        memcpy(per, " than A per race", strlen(" than A per race"));
}

static void ab_print_header(const LabAbTally *t, FILE *out)
{
    fprintf(out, "A/B test on %s: %ld paired races (seeds %" PRIu64 "..%" PRIu64 "), %d lap%s\n", t->race, t->pairs,
            t->first_seed, t->last_seed, t->laps, t->laps == 1 ? "" : "s");
    fprintf(out, "A = %s (%s)\nB = %s (%s)\n", t->a_driver, t->a_name, t->b_driver, t->b_name);
    if (t->seat_varies)
        fprintf(out, "tested seat: each grid line in turn (seed mod cars); grid shuffled by seed, same for A and B\n");
    else
        fprintf(out, "tested seat: grid line %d; grid shuffled by seed, same for A and B\n", t->first_seat + 1);
    fprintf(out, "DNFs: A %ld, B %ld (pairs with a DNF are left out of race time)\n", t->dnf_a, t->dnf_b);
    fprintf(out, "difference = B - A per pair; 95%% interval and p from a two-sided paired t-test; "
                 "Wilcoxon signed-rank p as a second opinion\n\n");
    fprintf(out, "%-11s %-7s %6s %11s %11s %11s  %-23s %-9s %s\n", "metric", "better", "pairs", "mean A", "mean B",
            "B - A", "95% interval", "p (t)", "p (Wilcoxon)");
}

/* A p-value column: "<0.001", "0.03"; "no var" when the differences do not vary, "-" below the minimum pairs. */
static void ab_p_cell(const LabAbResult *r, double p, char *buf, size_t len)
{
    char text[32];
    lab_ab_format_p(p, text, sizeof text);
    if (r->no_variance && r->n >= LAB_AB_MIN_PAIRS)
        snprintf(buf, len, "no var");
    else
        snprintf(buf, len, "%s", text[1] == '=' ? text + 2 : text + 1);
}

static void ab_print_row(const LabAbResult *r, FILE *out)
{
    char interval[64], p[32], pw[32];
    snprintf(interval, sizeof interval, "[%+.3f, %+.3f]", r->t.lo, r->t.hi);
    ab_p_cell(r, r->t.p, p, sizeof p);
    ab_p_cell(r, r->wilcoxon.p, pw, sizeof pw);
    fprintf(out, "%-11s %-7s %6ld %11.3f %11.3f %+11.3f  %-23s %-9s %s\n", ab_metrics[r->metric].name,
            ab_metrics[r->metric].higher_better ? "higher" : "lower", r->n, r->mean_a, r->mean_b, r->t.mean,
            interval, p, pw);
}

void lab_ab_tally_print(const LabAbTally *t, int only, FILE *out)
{
    ab_print_header(t, out);
    LabAbResult results[LAB_AB_METRIC_COUNT];
    for (int m = 0; m < LAB_AB_METRIC_COUNT; m++) {
        if (only >= 0 && m != only)
            continue;
        results[m] = lab_ab_result(t, (LabAbMetric)m);
        ab_print_row(&results[m], out);
    }
    fputc('\n', out);
    for (int m = 0; m < LAB_AB_METRIC_COUNT; m++) {
        if (only >= 0 && m != only)
            continue;
        char verdict[256];
        lab_ab_verdict(&results[m], verdict, sizeof verdict);
        fprintf(out, "%-11s %s\n", ab_metrics[m].name, verdict);
    }
}
