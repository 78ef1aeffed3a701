/* sim_ab.h: analysis of paired A/B races.
 *
 * Each pair is one seed run twice, identical but for the personality in the tested seat (A, then B). Per metric
 * the analysis takes the per-pair difference B - A and reports the mean of A, the mean of B, the mean difference
 * with its 95% interval, the two-sided paired t-test p-value and, as a second opinion, the Wilcoxon signed-rank
 * p-value. Race time uses only pairs where both cars finished; the DNFs are counted apart.
 * Pairs are added in seed order by both `racesim ab` and `racesim merge`, so both print the same report.
 */
#ifndef SIM_AB_H
#define SIM_AB_H

#include "sim_record.h"
#include "sim_stats.h"

#include <stdio.h>

typedef enum SimAbMetric {
    SIM_AB_POSITION = 0, /* finishing position, lower is better */
    SIM_AB_TIME,         /* race time, s, lower is better (pairs where both finished) */
    SIM_AB_OVERTAKES,    /* overtakes made, higher is better */
    SIM_AB_COLLISIONS,   /* collisions, lower is better */
    SIM_AB_OFFTRACK,     /* seconds off track, lower is better */
    SIM_AB_METRIC_COUNT
} SimAbMetric;

const char *sim_ab_metric_name(SimAbMetric m); /* "position", "time", "overtakes", "collisions", "offtrack" */
int sim_ab_metric_parse(const char *name);     /* -1 when unknown */
bool sim_ab_metric_higher_better(SimAbMetric m);

typedef struct SimAbTally {
    char race[SIM_PATH_LEN];
    char a_driver[SIM_PATH_LEN], b_driver[SIM_PATH_LEN];
    char a_name[DRV_NAME_LEN], b_name[DRV_NAME_LEN];
    int laps;
    long pairs;
    uint64_t first_seed, last_seed;
    int first_seat;
    bool seat_varies;      /* false: one fixed seat (--seat) */
    long dnf_a, dnf_b;
    long n[SIM_AB_METRIC_COUNT];
    double *a[SIM_AB_METRIC_COUNT], *b[SIM_AB_METRIC_COUNT], *diff[SIM_AB_METRIC_COUNT];
    long cap;
} SimAbTally;

void sim_ab_tally_init(SimAbTally *t);
void sim_ab_tally_free(SimAbTally *t);
/* Adds one pair; fails (err without a path prefix) on another kind, race, A or B, or a seed not after the last. */
int sim_ab_tally_add(SimAbTally *t, const SimRecord *rec, char *err, size_t err_len);

typedef struct SimAbResult {
    SimAbMetric metric;
    long n;                /* pairs used */
    double mean_a, mean_b;
    SimPairedTest t;       /* paired t-test on B - A */
    SimPairedTest wilcoxon;
} SimAbResult;

SimAbResult sim_ab_result(const SimAbTally *t, SimAbMetric m);
/* "p<0.001", "p=0.0034", "p=0.03", "p=0.41" */
void sim_ab_format_p(double p, char *buf, size_t len);
/* A plain-words verdict: "B finishes 0.80 places better than A (p<0.001)". Significance level 0.05. */
void sim_ab_verdict(const SimAbResult *r, char *buf, size_t len);
/* The report; `only` is a metric or -1 for all. */
void sim_ab_tally_print(const SimAbTally *t, int only, FILE *out);

#endif
