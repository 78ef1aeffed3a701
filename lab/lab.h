/* lab.h: the experiments module (public API): everything that runs many races and judges them. Batches on a
 * thread pool, records of races as JSON lines and their reader, statistics, paired A/B tests, scenario
 * expectations, baselines, tallies and charts.
 *
 * Depends on sim/ (and through it drivers/ and track/), never on render/ or SDL. Nothing here prints on its own
 * account except the writers that are handed a FILE; errors are returned in message buffers.
 */
#ifndef LAB_H
#define LAB_H

#include "../sim/sim.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ==== Statistics ================================================================================================== */

/* the statistics behind batches and A/B tests.
 *
 * Means with Student-t confidence intervals, Wilson intervals for rates, the two-sided paired t-test and the
 * Wilcoxon signed-rank test (normal approximation) as a second opinion. Pure functions over arrays or running
 * sums; no globals (our own log-gamma, because libm's lgamma writes the global signgam), no printing.
 */
/* A running mean and variance (Welford). Adding the same values in the same order gives bit-identical results,
 * which is what lets `merge` reproduce an unsharded batch exactly. */
typedef struct LabRunning {
    long n;
    double mean;
    double m2;    /* sum of squared deviations from the mean */
    double min, max;
} LabRunning;

LabRunning lab_running_init(void);
void lab_running_add(LabRunning *r, double x);
double lab_running_sd(const LabRunning *r); /* sample standard deviation (n - 1); 0 when n < 2 */

/* A mean with its two-sided 95% confidence interval (Student t with n - 1 degrees of freedom). */
typedef struct LabEstimate {
    long n;
    double mean;
    double sd;
    double lo, hi; /* equal to mean when n < 2 */
} LabEstimate;

LabEstimate lab_estimate(const LabRunning *r);

/* A rate k/n with its 95% Wilson score interval, all in [0, 1]. n = 0 gives 0, [0, 1]. */
typedef struct LabRate {
    long k, n;
    double p, lo, hi;
} LabRate;

LabRate lab_rate(long k, long n);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1]. */
double lab_stats_betainc(double a, double b, double x);
/* Natural log of the gamma function for x > 0. */
double lab_stats_lgamma(double x);
/* Student t: P(T <= t) with df > 0 degrees of freedom, and its inverse for p in (0, 1). */
double lab_stats_t_cdf(double t, double df);
double lab_stats_t_quantile(double p, double df);
/* Two-sided p-value of a t statistic: P(|T| >= |t|). */
double lab_stats_t_p2(double t, double df);
/* Standard normal two-sided p-value P(|Z| >= |z|). */
double lab_stats_normal_p2(double z);

/* A two-sided test of "the mean paired difference is 0". */
typedef struct LabPairedTest {
    long n;        /* pairs used */
    double mean;   /* mean difference */
    double lo, hi; /* 95% interval of the mean difference */
    double t;      /* statistic (t for the t-test, z for Wilcoxon) */
    double p;      /* two-sided p-value */
} LabPairedTest;

/* Paired t-test on differences d[0..n). When every difference is the same value the variance is 0 and there is no
 * test: t and p are NaN (a constant shift, even of 0, says nothing about the spread of the next pair) and the
 * interval collapses to the mean. */
LabPairedTest lab_paired_t(const double *d, long n);
/* Wilcoxon signed-rank test on the same differences: zeros dropped, tied ranks averaged, normal approximation with
 * tie and continuity corrections. `scratch` needs room for n doubles (it is overwritten). mean/lo/hi are the
 * t-test's; n is the number of nonzero differences. */
LabPairedTest lab_wilcoxon(const double *d, long n, double *scratch);

/* ==== JSON reading =============================================================================================== */

/* a small strict JSON reader, for racesim's own JSON-lines records (strings are written by sim_json_write_string).
 *
 * Strict RFC 8259 syntax (no comments, no trailing commas, no NaN), duplicate keys rejected, nesting limited. The
 * parsed tree lives in a LabJsonDoc and dies with it. Errors say what is wrong and at which column, without a path:
 * the caller knows the file and line. No globals, no printing.
 */
#define LAB_JSON_MAX_DEPTH 32
#define LAB_JSON_MAX_MEMBERS 256 /* per object: keeps the duplicate-key check cheap on hostile input */

typedef enum LabJsonType {
    LAB_JSON_NULL = 0,
    LAB_JSON_BOOL,
    LAB_JSON_NUMBER,
    LAB_JSON_STRING,
    LAB_JSON_ARRAY,
    LAB_JSON_OBJECT
} LabJsonType;

typedef struct LabJson LabJson;
struct LabJson {
    LabJsonType type;
    bool boolean;
    double number;      /* strtod of the token: exact for numbers written with "%.17g" */
    const char *token;  /* numbers: the literal text; strings: the decoded text (NUL-terminated) */
    size_t len;         /* strings: decoded length in bytes (a string may hold "\u0000") */
    const char *key;    /* members of an object: the key; NULL otherwise */
    LabJson *child;     /* arrays and objects: the first element or member */
    LabJson *next;      /* the next sibling */
    int count;          /* arrays and objects: how many children */
};

typedef struct LabJsonBlock LabJsonBlock;
typedef struct LabJsonDoc {
    LabJson *root;
    char *strings;        /* decoded strings and number tokens */
    LabJsonBlock *blocks; /* node storage */
} LabJsonDoc;

/* Parses text[0..len) as one JSON value (surrounding white space allowed). Returns 0 and sets doc->root, or nonzero
 * with err like "column 17: expected ':' after an object key". Always call lab_json_free afterwards. */
int lab_json_parse(const char *text, size_t len, LabJsonDoc *doc, char *err, size_t err_len);
void lab_json_free(LabJsonDoc *doc);

/* The member `key` of an object, or NULL. */
const LabJson *lab_json_get(const LabJson *object, const char *key);
const char *lab_json_type_name(LabJsonType type);

/* ==== Records: one race as a JSON line ============================================================================ */

/* per-race records of batches and A/B tests, as JSON lines.
 *
 * A race record is what `racesim batch` writes for each race: exactly the compact `racesim run --json` record
 * without its event list (sim_results_write_json): race_file, seed, laps and per car its driver file, name,
 * number, start slot, finishing position, status, time, best lap and incident counts (other keys are ignored).
 * An A/B record ("kind": "ab") is one pair of `racesim ab`: the seed, the tested grid line and the tested car in
 * run A and run B, each car with the same keys as a car of a race record. `batch` and `ab` build their tables from
 * the lines as written, parsed back, so `racesim merge` of the lines prints exactly what the run printed.
 *
 * Reading is strict (see lab_json.h) and checks every field; errors read "path:line: what is wrong". No globals,
 * no printing beyond the FILE* the caller passes.
 */
#define LAB_RECORD_MAX_LINE (1 << 20) /* bytes; longer lines are rejected */

typedef enum LabRecordKind { LAB_RECORD_RACE = 0, LAB_RECORD_AB = 1 } LabRecordKind;

/* One car's result in one race. */
typedef struct LabCarRecord {
    int grid;                    /* start slot after any shuffle, 1 = pole */
    char name[DRV_NAME_LEN];
    char driver[SIM_PATH_LEN];   /* personality file ("driver_file") */
    int number;
    int position;                /* 1-based finishing position */
    SimStatus status;            /* "finished", "dnf", or "running" when the race's time limit stopped it */
    int laps;                    /* completed laps */
    double time_s;               /* race time when finished, else 0 */
    double best_lap_s;           /* 0 when no lap was completed */
    int overtakes, positions_lost, lappings, collisions, offtracks;
    double offtrack_s;
    char dnf_reason[64];         /* "" unless the record holds one (race records of `run --json`) */
} LabCarRecord;

typedef struct LabRecord {
    LabRecordKind kind;
    char race[SIM_PATH_LEN];     /* "race_file": the race file as given on the command line */
    uint64_t seed;
    int laps;
    /* race records: every car, in finishing order */
    int car_count;
    LabCarRecord cars[SIM_MAX_CARS];
    /* A/B records */
    int seat;                    /* the tested grid line, 0-based */
    LabCarRecord a, b;           /* the tested car in the run with A and in the run with B */
    /* the race's points table ("points": written only when it is not SIM_DEFAULT_POINTS; read back as the
     * default when absent) */
    int points_count;
    int points[SIM_MAX_POINTS];
} LabRecord;

/* One car of a finished session, by car id (the driver file is the race entry's). */
void lab_car_record_from_session(const SimSession *session, int car_id, LabCarRecord *out);

/* Writes the record as one JSON line (with the trailing newline), doubles with "%.17g". Race records get the keys
 * the reader needs (a subset of sim_results_write_json's). Returns nonzero on a write error. */
int lab_record_write(const LabRecord *rec, FILE *out);

/* A race record's cars as CSV rows (SIM_CSV_HEADER's columns, in finishing order), exactly the rows `racesim run
 * --csv` writes for that race. Returns nonzero on a write error. */
int lab_record_write_csv(const LabRecord *rec, FILE *out);

/* Parses one line (without its newline). `path` and `line` only go into messages: "path:line: what is wrong". */
int lab_record_parse(const char *text, size_t len, const char *path, long line, LabRecord *out, char *err,
                     size_t err_len);

/* Reads JSON lines one at a time from a file, counting lines; blank lines are skipped. */
typedef struct LabRecordReader {
    FILE *file;
    const char *path;
    long line;
    char *buf;
    size_t cap;
} LabRecordReader;

/* Returns 1 with a record, 0 at the end of the file, -1 with err filled. */
int lab_record_read(LabRecordReader *reader, LabRecord *out, char *err, size_t err_len);
void lab_record_reader_free(LabRecordReader *reader);

/* Sets the record's points table to SIM_DEFAULT_POINTS. */
void lab_record_default_points(LabRecord *rec);
/* Championship points of a car: the table's value for its position; a retired car (dnf) scores 0. */
int lab_record_points(const int *points, int points_count, const LabCarRecord *car);

/* ==== Batch tallies =============================================================================================== */

/* the per-driver aggregate of a batch of races.
 *
 * Records are added in seed order (strictly increasing seeds); `racesim batch` and `racesim merge` both feed
 * records read back from their JSON lines through this one tally, so both print the same table byte for byte.
 * A "driver" is a car identified by its personality file, name and number (a race whose grid names the same file
 * twice gives two cars with the same identity, which the tally rejects); rows keep the first record's car order.
 */
typedef struct LabDriverTally {
    char name[DRV_NAME_LEN];
    char driver[SIM_PATH_LEN];
    int number;
    long races, wins, podiums, dnfs;
    LabRunning position, overtakes, positions_lost, collisions, offtrack_s;
    LabRunning best_lap_s; /* races in which the car completed a lap */
} LabDriverTally;

typedef struct LabBatchTally {
    char race[SIM_PATH_LEN];
    int laps;
    int car_count;
    long races;
    uint64_t first_seed, last_seed;
    LabDriverTally drivers[SIM_MAX_CARS]; /* in the first record's order */
} LabBatchTally;

void lab_batch_tally_init(LabBatchTally *t);
/* Adds one race record. Fails (err without a path prefix) when the record is of another kind, another race file,
 * lap count or grid, or its seed is not after the previous record's. */
int lab_batch_tally_add(LabBatchTally *t, const LabRecord *rec, char *err, size_t err_len);
/* The table, drivers sorted by mean finishing position. */
void lab_batch_tally_print(const LabBatchTally *t, FILE *out);
/* The rows (indices into drivers) of the drivers with races, by mean finishing position as in the table; the count. */
int lab_batch_tally_order(const LabBatchTally *t, int rows[SIM_MAX_CARS]);
/* The tally's row of a record's car, or -1. */
int lab_batch_tally_row(const LabBatchTally *t, const LabCarRecord *car);

/* ==== A/B tests =================================================================================================== */

/* analysis of paired A/B races.
 *
 * Each pair is one seed run twice, identical but for the personality in the tested seat (A, then B). Per metric
 * the analysis takes the per-pair difference B - A and reports the mean of A, the mean of B, the mean difference
 * with its 95% interval, the two-sided paired t-test p-value and, as a second opinion, the Wilcoxon signed-rank
 * p-value. Race time uses only pairs where both cars finished; the DNFs are counted apart.
 * Pairs are added in seed order by both `racesim ab` and `racesim merge`, so both print the same report.
 */
typedef enum LabAbMetric {
    LAB_AB_POSITION = 0, /* finishing position, lower is better */
    LAB_AB_TIME,         /* race time, s, lower is better (pairs where both finished) */
    LAB_AB_OVERTAKES,    /* overtakes made, higher is better */
    LAB_AB_COLLISIONS,   /* collisions, lower is better */
    LAB_AB_OFFTRACK,     /* seconds off track, lower is better */
    LAB_AB_POINTS,       /* championship points by position (the race's points table), higher is better */
    LAB_AB_METRIC_COUNT
} LabAbMetric;

/* "position", "time", "overtakes", "collisions", "offtrack", "points" */
const char *lab_ab_metric_name(LabAbMetric m);
int lab_ab_metric_parse(const char *name);     /* -1 when unknown */
bool lab_ab_metric_higher_better(LabAbMetric m);

typedef struct LabAbTally {
    char race[SIM_PATH_LEN];
    char a_driver[SIM_PATH_LEN], b_driver[SIM_PATH_LEN];
    char a_name[DRV_NAME_LEN], b_name[DRV_NAME_LEN];
    int laps;
    long pairs;
    uint64_t first_seed, last_seed;
    int first_seat;
    bool seat_varies;      /* false: one fixed seat (--seat) */
    int points_count;      /* the first record's points table; every record must carry the same */
    int points[SIM_MAX_POINTS];
    long dnf_a, dnf_b;
    long n[LAB_AB_METRIC_COUNT];
    double *a[LAB_AB_METRIC_COUNT], *b[LAB_AB_METRIC_COUNT], *diff[LAB_AB_METRIC_COUNT];
    long cap;
} LabAbTally;

void lab_ab_tally_init(LabAbTally *t);
void lab_ab_tally_free(LabAbTally *t);
/* Adds one pair; fails (err without a path prefix) on another kind, race, A or B, points table, or a seed not after
 * the last. */
int lab_ab_tally_add(LabAbTally *t, const LabRecord *rec, char *err, size_t err_len);

/* Below this many pairs the report gives no p-value and no verdict: with 5 pairs even the exact two-sided
 * Wilcoxon test cannot go below p = 2/2^5 = 0.0625, and a t-test on so few leans wholly on normality. */
#define LAB_AB_MIN_PAIRS 6

typedef struct LabAbResult {
    LabAbMetric metric;
    long n;                /* pairs used */
    bool testable;         /* n >= LAB_AB_MIN_PAIRS and the differences vary: p-values are NaN otherwise */
    bool no_variance;      /* n >= 2 and every difference is the same */
    double mean_a, mean_b;
    LabPairedTest t;       /* paired t-test on B - A */
    LabPairedTest wilcoxon;
} LabAbResult;

LabAbResult lab_ab_result(const LabAbTally *t, LabAbMetric m);
/* "p<0.001", "p=0.0034", "p=0.03", "p=0.41"; "p=-" for NaN (no test) */
void lab_ab_format_p(double p, char *buf, size_t len);
/* A plain-words verdict: "B finishes 0.80 places better than A (p<0.001)". Significance level 0.05. Fewer than
 * LAB_AB_MIN_PAIRS pairs, or differences without variance, get no p-value and say so. */
void lab_ab_verdict(const LabAbResult *r, char *buf, size_t len);
/* The report; `only` is a metric or -1 for all. */
void lab_ab_tally_print(const LabAbTally *t, int only, FILE *out);

/* ==== Sequential tests ============================================================================================ */

/* the generalised sequential probability ratio test (GSPRT) on paired differences d = B - A.
 *
 * Two simple hypotheses on the mean difference, H0: mu = h0 and H1: mu = h1, in the metric's own unit. After n
 * pairs with mean m and sample variance s^2 the log-likelihood ratio of normal models with variance s^2 is
 *     LLR = (h1 - h0) (2 sum d - n (h0 + h1)) / (2 s^2) = n (h1 - h0) (2 m - h0 - h1) / (2 s^2)
 * and the test stops when LLR >= ln((1 - beta) / alpha) (accept H1) or LLR <= ln(beta / (1 - alpha)) (accept H0),
 * as fishtest's normalised model does. No decision before min_pairs pairs, nor while s^2 = 0 (the LLR is then
 * undefined). Pairs are added in seed order, so the decision does not depend on the number of threads.
 */
typedef struct LabSprtDef {
    double h0, h1;      /* mean difference B - A under H0 and under H1, metric unit; h0 != h1 */
    double alpha, beta; /* error rates, each in (0, 0.5): accepting H1 when H0 holds, H0 when H1 holds */
    long min_pairs;     /* no decision before this many pairs (LAB_AB_MIN_PAIRS) */
} LabSprtDef;

LabSprtDef lab_sprt_default_def(void); /* alpha = beta = 0.05, h0 = h1 = 0 (to be set) */
/* Returns 0, or nonzero with err saying what is wrong (h0 == h1, alpha or beta outside (0, 0.5)). */
int lab_sprt_check_def(const LabSprtDef *def, char *err, size_t err_len);
/* The LLR above; NaN when n < 2 or var <= 0. */
double lab_sprt_llr(long n, double mean, double var, double h0, double h1);

typedef enum LabSprtDecision { LAB_SPRT_CONTINUE = 0, LAB_SPRT_H0, LAB_SPRT_H1 } LabSprtDecision;

typedef struct LabSprt {
    LabSprtDef def;
    double lower, upper;     /* ln(beta / (1 - alpha)), ln((1 - beta) / alpha) */
    LabRunning d;            /* the differences so far */
    double llr;              /* after the last pair; NaN when undefined */
    LabSprtDecision decision; /* the first crossing; later pairs update d and llr but not this */
    long decided_at;         /* pairs at the first crossing, 0 before */
    double decided_llr;
    LabEstimate decided_est; /* the mean difference and its 95% interval at the crossing */
} LabSprt;

void lab_sprt_init(LabSprt *s, const LabSprtDef *def);
/* Adds the next pair's difference; returns the decision (the first crossing, once there is one). */
LabSprtDecision lab_sprt_add(LabSprt *s, double d);
/* The test's state in words, for the A/B report; `metric` names the metric. */
void lab_sprt_print(const LabSprt *s, const char *metric, FILE *out);

/* ==== SPSA: tuning parameters on noisy paired measurements ======================================================= */

/* simultaneous perturbation stochastic approximation (Spall), minimising a noisy loss over a box.
 *
 * Coordinates are normalised: each parameter runs over 0..1 (its LO..HI). Iteration k (from 0) draws a Rademacher
 * vector delta (each component +1 or -1, from the seed and k alone), measures the loss at x+ = m + c_k delta and at
 * x- = m - c_k delta, where m is theta pulled inside [c_k, 1 - c_k] so that both points lie in the box, and steps
 *     g_k = (L+ - L-) / (2 c_k s_k) delta,   theta <- clip(theta - a_k g_k, 0, 1)
 * with the standard gains c_k = c / (k + 1)^gamma and a_k = a / (k + 1 + A)^alpha. s_k is the root mean square of
 * the differences L+ - L- seen so far (this one included): it makes the step independent of the loss's unit
 * (seconds, places, points), so a is in units of the range: with |L+ - L-| = s_k the first step moves
 * a / (1 + A)^alpha / (2 c) per parameter. A step is clipped to max_step per parameter, which keeps one
 * lucky difference early in a run (when s_k rests on few values) from throwing theta across the box.
 * No globals, no printing: the same inputs give the same iterates bit for bit.
 */
#define LAB_SPSA_MAX_PARAMS 16

typedef struct LabSpsaDef {
    int dim;          /* parameters, 1..LAB_SPSA_MAX_PARAMS */
    long iterations;  /* planned iterations (sets the default A) */
    double a;         /* step gain, normalised units; lab_spsa_default_def: first step 0.1 of the range */
    double c;         /* perturbation at k = 0, normalised units (0.1: a tenth of the range) */
    double big_a;     /* stability constant A, iterations (10% of the iterations) */
    double alpha;     /* step decay exponent (0.602) */
    double gamma;     /* perturbation decay exponent (0.101) */
    double max_step;  /* largest move of one parameter in one step, normalised units (0.2) */
    uint64_t seed;    /* the perturbations' seed */
} LabSpsaDef;

/* The defaults above for `dim` parameters and `iterations` iterations. */
LabSpsaDef lab_spsa_default_def(int dim, long iterations, uint64_t seed);
double lab_spsa_gain_a(const LabSpsaDef *def, long k); /* a_k */
double lab_spsa_gain_c(const LabSpsaDef *def, long k); /* c_k */
/* The perturbation of iteration k: def->dim components, each +1 or -1, from def->seed and k only. */
void lab_spsa_delta(const LabSpsaDef *def, long k, double *delta);

typedef struct LabSpsa {
    LabSpsaDef def;
    long k;                            /* the next iteration */
    double theta[LAB_SPSA_MAX_PARAMS]; /* the current estimate, normalised, in [0, 1] */
    double sum_d2;                     /* sum of the squared differences L+ - L- so far */
} LabSpsa;

/* Starts at theta0 (normalised; clipped to [0, 1]). */
void lab_spsa_init(LabSpsa *s, const LabSpsaDef *def, const double *theta0);
/* The two points to measure in iteration s->k, and its perturbation (each def.dim long; delta may be NULL). */
void lab_spsa_points(const LabSpsa *s, double *plus, double *minus, double *delta);
/* Takes the mean losses measured at the two points (lower is better), moves theta and goes to the next iteration.
 * `step` (may be NULL) receives the move of each parameter, normalised. */
void lab_spsa_update(LabSpsa *s, double loss_plus, double loss_minus, double *step);

/* ==== Batches: many races on a thread pool ======================================================================== */

/* runs many independent jobs (races) on worker threads and hands their outputs back in job order.
 *
 * The sim keeps no global state, so sessions on different threads never share anything but the read-only race.
 * Each job produces a malloc'd text (a JSON line); the consumer sees the texts strictly in job order, whatever the
 * number of threads, so everything computed from them is the same for any --jobs. No printing: progress is
 * reported through a callback and the caller decides what to show.
 */
/* Runs job `index`; returns a malloc'd NUL-terminated text, or NULL with err filled. Called on worker threads. */
typedef char *LabBatchWorkFn(void *ctx, long index, char *err, size_t err_len);
/* Receives job `index`'s text (and owns it), in increasing index order, one call at a time. A positive return stops
 * the batch with err filled (a failure); LAB_BATCH_ENOUGH says the consumer needs no more jobs (a sequential test
 * decided): the batch is complete, later jobs are not consumed (those already running finish and are dropped) and
 * lab_batch_run returns 0. */
#define LAB_BATCH_ENOUGH (-1)
typedef int LabBatchConsumeFn(void *ctx, long index, char *text, char *err, size_t err_len);
/* Called after each finished job with the count done so far, one call at a time. */
typedef void LabBatchProgressFn(void *ctx, long done, long total);

typedef struct LabBatchDef {
    long count;                   /* jobs 0..count-1 */
    long start;                   /* first job to run (the ones before were consumed by the caller), default 0 */
    const volatile sig_atomic_t *stop; /* when it turns nonzero (a signal handler's flag), no further job starts;
                                        * the running ones finish and are consumed; NULL: never */
    long *consumed;               /* when not NULL: set to the number of jobs consumed (start included) */
    int threads;                  /* >= 1 */
    LabBatchWorkFn *work;
    LabBatchConsumeFn *consume;
    LabBatchProgressFn *progress; /* may be NULL */
    void *ctx;
} LabBatchDef;

LabBatchDef lab_batch_default_def(void);

/* Runs the batch. Returns 0 when it is complete (every job consumed, or the consumer had enough),
 * LAB_BATCH_INTERRUPTED when *stop ended it unfinished (the jobs before *def->consumed were consumed, in order; the
 * caller may resume from there), or 1 with err holding the first failure (later jobs are not started). */
#define LAB_BATCH_INTERRUPTED 2
int lab_batch_run(const LabBatchDef *def, char *err, size_t err_len);

/* ==== Charts (SVG) ================================================================================================ */

/* SVG charts of races and A/B tests, written as plain text (no graphics library).
 *
 * Race: a lap chart (the position of each car at each of the trace's points, in driver colours, with its overtakes
 * and contacts marked) above a gap chart (gap to the leader in seconds at the same points; the end labels never
 * overlap). A/B: one row per metric with the mean paired difference B - A, its 95% interval, the side where B is
 * better shaded, and the p-value. Batch: per driver, how often it finished in each place and the spread of its best
 * laps. The app writes the files (atomically, see app_out.h). Runs of spaces in titles survive (as no-break spaces).
 */
/* The race chart. `title` is the first line of the heading (e.g. race file and seed). */
void lab_chart_race_svg(const SimTrace *trace, const char *title, FILE *out);

/* The A/B chart; `only` is a metric or -1 for all. */
void lab_chart_ab_svg(const LabAbTally *tally, int only, FILE *out);

/* What a batch chart needs beyond the tally: every race's finishing place and best lap per driver (tally row). */
typedef struct LabBatchChart {
    uint8_t colour[SIM_MAX_CARS][3];            /* per tally row, set by the caller (grey until then) */
    long finish[SIM_MAX_CARS][SIM_MAX_CARS + 1]; /* [row][position - 1]: races; [row][SIM_MAX_CARS]: retired */
    double *best_lap_s[SIM_MAX_CARS];            /* [row]: one per race in which the car completed a lap */
    long best_n[SIM_MAX_CARS], best_cap[SIM_MAX_CARS];
} LabBatchChart;

LabBatchChart *lab_batch_chart_create(void);
void lab_batch_chart_destroy(LabBatchChart *chart);
/* Adds a record already added to `tally`. Nonzero (err filled) on a car the tally does not know or out of memory. */
int lab_batch_chart_add(LabBatchChart *chart, const LabBatchTally *tally, const LabRecord *rec, char *err,
                        size_t err_len);
/* Rows in the table's order (mean finishing position): the place distribution as dots whose area is the share of
 * races, the mean place as a tick, and a box plot of the best laps. */
void lab_chart_batch_svg(const LabBatchTally *tally, const LabBatchChart *chart, FILE *out);

/* ==== Scenario expectations ======================================================================================= */

/* what a scenario expects of its race ([expect] section of a race file) and the verdict on a run.
 *
 *   [expect]
 *   seeds = 1-5                 seeds to run (default: the race's seed); `racesim check --seeds` overrides
 *   collisions_max = N          collisions of the whole race (every pair's contacts, counted as the sim counts them)
 *   collisions_mean_max = X     the mean over the seeds run of collisions_max's count is at most X (X >= 0, real)
 *   overtakes_min = N           overtakes of the whole race (lappings are not overtakes)
 *   overtakes_max = N
 *   overtakes_after_lap1_min = N   overtakes once the leader is past lap 1 (the start's shuffle left out)
 *   collisions_after_lap1_max = N  collisions once the leader is past lap 1
 *   overtakes_after_lap1_mean_min = X  the mean over the seeds run of overtakes_after_lap1_min's count is at least X
 *   overtakes_after_lap1_on_merit_mean_min = X  the same of the passes on merit among them: by the driver faster
 *                               alone (SIM_EV_OVERTAKE's pace gap > 0, as run --json's overtakes_after_lap1_on_merit)
 *   overtakes_on_merit_mean_min = X  the mean over the seeds run of the passes on merit of the whole race
 *   offtrack_s_max = S          seconds off the track, summed over every car
 *   offtrack_s_mean_max = S     the mean over the seeds run of offtrack_s_max's figure is at most S
 *   finish_all = true|false     true: every car is classified (none retired)
 *   position = CAR, P           CAR is classified P-th (1-based); one line per car
 *   ahead_of = A, B             car A is classified ahead of car B; any number of lines
 *   no_contact_between = A, B   no collision between A and B; any number of lines
 *   clearance_min = A, B, M     A and B never came closer than M metres (box to box; see LabExpectFacts)
 *   drafted_s_min = CAR, S      CAR spent at least S seconds in another car's wake (the sim's drafting_now)
 *
 * CAR is a driver's name (the `name` of its personality file) when exactly one car has it, or `#N`: the N-th car of
 * the race file, counting its [grid] `driver =` and [start] `car =` lines in the order they appear. References are
 * checked when the race loads (an unknown or ambiguous name is an error on its line).
 *
 * Evaluation works on plain facts (per car and per pair, indexed by race entry) so tests can hand-make them; the
 * facts of a finished session come from lab_expect_facts_from_session. No printing: each check gives its measured
 * figure and its limit as text and a PASS/FAIL.
 *
 * The *_mean_max and *_mean_min keys are checked across seeds, not per seed: the largest
 * collision count (or the fewest overtakes) of a chaotic multi-car race over a few seeds is mostly luck, its mean
 * over enough seeds much less so. lab_expect_eval leaves them out;
 * lab_expect_eval_across evaluates them on the per-seed reports of one scenario.
 */
#define LAB_EXPECT_MAX_REFS 32   /* position, ahead_of and no_contact_between lines together */
#define LAB_EXPECT_REF_LEN 48    /* DRV_NAME_LEN: a car reference as written */
#define LAB_EXPECT_MAX_CHECKS (6 + LAB_EXPECT_MAX_REFS)
#define LAB_EXPECT_MAX_ENTRIES 128 /* SIM_MAX_CARS */
#define LAB_EXPECT_SCALAR_KEYS 13  /* seeds and the keys with one number or flag, each given at most once */

typedef enum LabExpectRefKind {
    LAB_EXPECT_POSITION = 0,
    LAB_EXPECT_AHEAD_OF,
    LAB_EXPECT_NO_CONTACT,
    LAB_EXPECT_CLEARANCE,
    LAB_EXPECT_DRAFTED
} LabExpectRefKind;

/* One per-car expectation line. Entries are 0-based race entries, filled by lab_expect_resolve. */
typedef struct LabExpectRef {
    LabExpectRefKind kind;
    int line;                         /* line in the race file, for messages */
    char a[LAB_EXPECT_REF_LEN], b[LAB_EXPECT_REF_LEN]; /* as written (b unused for position) */
    int entry_a, entry_b;
    int position;                     /* LAB_EXPECT_POSITION: 1-based */
    double value;                     /* clearance_min: m; drafted_s_min: s */
} LabExpectRef;

typedef struct LabExpect {
    bool present;                     /* the file has an [expect] section */
    int line;                         /* its header line */
    bool have_seeds;
    uint64_t seed_first, seed_last;   /* inclusive */
    bool have_collisions_max, have_overtakes_min, have_overtakes_max, have_offtrack_s_max, have_finish_all;
    bool have_overtakes_after_lap1_min, have_collisions_after_lap1_max;
    int overtakes_after_lap1_min, collisions_after_lap1_max; /* overtakes and collisions after the race's lap 1 */
    int collisions_max, overtakes_min, overtakes_max;
    double offtrack_s_max;            /* s */
    bool finish_all;
    bool have_collisions_mean_max, have_offtrack_s_mean_max; /* checked across seeds (lab_expect_eval_across) */
    double collisions_mean_max;       /* collisions per run */
    double offtrack_s_mean_max;       /* s per run */
    bool have_overtakes_after_lap1_mean_min, have_overtakes_after_lap1_on_merit_mean_min; /* also across seeds */
    double overtakes_after_lap1_mean_min; /* overtakes after the race's lap 1 per run */
    double overtakes_after_lap1_on_merit_mean_min; /* those by the driver faster alone, per run */
    bool have_overtakes_on_merit_mean_min; /* across seeds */
    double overtakes_on_merit_mean_min; /* overtakes of the whole race by the driver faster alone, per run */
    int ref_count;
    LabExpectRef refs[LAB_EXPECT_MAX_REFS];
    int key_line[LAB_EXPECT_SCALAR_KEYS]; /* lines of the scalar keys, in LabExpectKey order (0 = not given) */
} LabExpect;

/* What happened in one run, per race entry (0-based, the file's car order). */
typedef struct LabExpectCar {
    char name[DRV_NAME_LEN];
    int position;                     /* classification, 1-based */
    SimStatus status;
    double offtrack_s;
    double drafted_s;                 /* time in another car's wake (per-tick observation) */
} LabExpectCar;

#define LAB_EXPECT_MOMENTS 64 /* event times kept per kind (LabExpectFacts.collision_at_s ...) */

typedef struct LabExpectFacts {
    uint64_t seed;
    int car_count;
    LabExpectCar cars[LAB_EXPECT_MAX_ENTRIES];
    int collisions, overtakes, offtracks;
    int overtakes_after_lap1, collisions_after_lap1; /* in the race's later laps (the leader's lap > 1) */
    int overtakes_after_lap1_on_merit; /* of overtakes_after_lap1, those by the driver faster alone (pace gap > 0) */
    int overtakes_on_merit;           /* of all overtakes, those by the driver faster alone */
    double offtrack_s;                /* summed over cars */
    double duration_s;                /* sim time at the end */
    /* contacts between entries (symmetric) and the sim time of the first, s */
    uint16_t contacts[LAB_EXPECT_MAX_ENTRIES][LAB_EXPECT_MAX_ENTRIES];
    float first_contact_s[LAB_EXPECT_MAX_ENTRIES][LAB_EXPECT_MAX_ENTRIES];
    /* Closest approach of each pair while both ran, m, observed every tick (lab_expect_observe): the larger of
     * the bumper-to-bumper gap along the track and the side-to-side gap across it, so 0 or less is contact and
     * a car passing 0.3 m beside another scores 0.3. LAB_EXPECT_FAR when never observed. */
    float min_clearance_m[LAB_EXPECT_MAX_ENTRIES][LAB_EXPECT_MAX_ENTRIES];
    float min_clearance_at_s[LAB_EXPECT_MAX_ENTRIES][LAB_EXPECT_MAX_ENTRIES]; /* when it was closest, s */
    bool observed;                    /* lab_expect_observe ran: clearance and drafting are measured */
    /* When things happened, for the moment a failed check shows (LabExpectCheck.at_s): the sim time of the k-th
     * collision, collision after lap 1 and overtake (the first LAB_EXPECT_MOMENTS of each), of the first off-track
     * and of the first retirement, s; -1 when there was none. */
    float collision_at_s[LAB_EXPECT_MOMENTS], collision_after_lap1_at_s[LAB_EXPECT_MOMENTS];
    float overtake_at_s[LAB_EXPECT_MOMENTS];
    float first_offtrack_s, first_retire_s;
} LabExpectFacts;

#define LAB_EXPECT_FAR 1e9f

/* How a check's measured value compares with its limit; also says which seed is the worst for it. */
typedef enum LabExpectOp { LAB_EXPECT_LE = 0, LAB_EXPECT_GE, LAB_EXPECT_TRUE } LabExpectOp;

typedef struct LabExpectCheck {
    char name[96];                    /* "collisions_max", "ahead_of Ace Moreau, #2" */
    int line;                         /* of the key in the race file */
    LabExpectOp op;
    double measured, limit;           /* LAB_EXPECT_TRUE: measured 1 = holds */
    char measured_text[64];           /* "0", "3.20 s", "P1 vs P3", "1 contact (first at 4.21 s)" */
    char limit_text[64];              /* "<= 0", ">= 1", "= P1" */
    bool pass;
    /* a failed check: the sim time its failure shows, s (the event that broke a limit, the first contact of the
     * pair, the closest approach, the first off-track or retirement, the finish for places); -1 when it has none
     * (too few overtakes, too little drafting) or passed */
    double at_s;
} LabExpectCheck;

typedef struct LabExpectReport {
    int count;
    LabExpectCheck checks[LAB_EXPECT_MAX_CHECKS];
    bool pass;                        /* every check passed */
    double at_s;                      /* the earliest at_s of its failed checks, -1 when none has one */
    /* the run's figures that the checks across seeds average (kept whether or not a check uses them) */
    int collisions;
    double offtrack_s;                /* s, summed over cars */
    int overtakes_after_lap1, overtakes_after_lap1_on_merit, overtakes_on_merit;
} LabExpectReport;

/* ---- parsing (called by the race parser) ------------------------------------------------------------------- */

struct SimRace;

/* One `key = value` of the [expect] section. Returns 0, or nonzero with msg holding what is wrong (without the
 * path and line, e.g. "[expect] collisions_max: expected an integer 0..1000000, got 'x'"). */
/* Reads a race's [expect] lines (SimRace.expect) into `ex` and resolves its car references against the race. On
 * error returns nonzero and err holds "race.ini:line: [expect] what is wrong". A race without the section gives
 * ex->present == false. */
int lab_expect_load(LabExpect *ex, const struct SimRace *race, char *err, size_t err_len);
int lab_expect_parse_kv(LabExpect *ex, const char *name, const char *value, int line, char *msg, size_t msg_len);
/* "A-B" (A <= B, at most 100000 seeds) or "A"; blanks allowed around the numbers. Returns 0 on success. */
int lab_expect_parse_seeds(const char *text, uint64_t *first, uint64_t *last);
/* Resolves the car references once every car of the race is known. Returns 0, or nonzero with *line and msg set. */
int lab_expect_resolve(LabExpect *ex, const struct SimRace *race, int *line, char *msg, size_t msg_len);

/* ---- evaluation -------------------------------------------------------------------------------------------- */

struct SimSession;

/* Clears the facts before a run. */
void lab_expect_facts_begin(LabExpectFacts *facts);
/* Observes the state after one step (clearances, drafting); call after every sim_world_step. */
void lab_expect_observe(LabExpectFacts *facts, const struct SimSession *session);
/* Fills the rest of the facts from the finished session (keeps what lab_expect_observe measured). */
void lab_expect_facts_from_session(const struct SimSession *session, LabExpectFacts *out);
/* Runs a session to the end with observation: begin, step + observe until done, facts. */
void lab_expect_run_session(struct SimSession *session, LabExpectFacts *out);
/* Evaluates every per-seed expectation of `ex` on the facts, in a fixed order: scalar limits, then the reference
 * lines. The checks across seeds are left out (see lab_expect_eval_across). */
void lab_expect_eval(const LabExpect *ex, const LabExpectFacts *facts, LabExpectReport *out);
/* Evaluates the checks across seeds (collisions_mean_max, offtrack_s_mean_max, overtakes_after_lap1_mean_min, then
 * overtakes_after_lap1_on_merit_mean_min) on the reports of one scenario's runs, summed in array order so the result
 * does not depend on the order the runs finished in. out->count is 0 (and out->pass true) when `ex` has none. */
void lab_expect_eval_across(const LabExpect *ex, const LabExpectReport *runs, int run_count, LabExpectReport *out);
/* The index of the check that is worst across several runs of one scenario: for each check, the run whose
 * measured value is furthest on the failing side (first failing run for true/false checks). */
int lab_expect_worst_run(const LabExpectReport *reports, int run_count, int check);

/* ==== Baselines =================================================================================================== */

/* regression baselines of a race: per-seed counts (overtakes, collisions, off-tracks) and finishing
 * orders, recorded once and compared with a rerun.
 *
 * File format (text, one record per line, fields separated by single spaces, written by lab_baseline_write):
 *   racesim-baseline 1                       format and version (first line)
 *   race PATH                                the race file, as given when recording (rest of the line)
 *   track LENGTH_M NAME                      "%.3f" length, then the track's name (rest of the line)
 *   laps N / tick_hz HZ / cars N / shuffle_grid 0|1
 *   driver K NAME                            one per car, K = 1..cars in race-file order
 *   files HASH                               FNV-1a 64 of the race, track, car and driver files' bytes (16 hex)
 *   tolerance overtakes=N collisions=N offtracks=N orders=N
 *   seed S overtakes=N collisions=N offtracks=N order=E,E,...   one per seed, ascending; E = race entry (1-based),
 *                                            finishing order, with an 'r' suffix for a retired car
 *   total seeds=N overtakes=N collisions=N offtracks=N
 *   checksum HASH                            FNV-1a 64 of every byte before this line (16 hex); the last line
 *
 * Tolerances: |total now - total recorded| may be at most the tolerance of each count, and at most `orders` seeds
 * may change their finishing order. All zero (the default) means exact: any change of any seed fails, since runs
 * are deterministic. A file is stale when its track (name, length), laps, tick rate, car count, grid option or
 * driver names differ from the race now; a changed `files` hash alone is only a note (personalities were tuned).
 */
#define LAB_BASELINE_VERSION 1
#define LAB_BASELINE_MAX_SEEDS 100000

typedef struct LabBaselineRun {
    uint64_t seed;
    int overtakes, collisions, offtracks;
    int car_count;
    uint8_t order[SIM_MAX_CARS];      /* race entries (0-based) in finishing order */
    bool retired[SIM_MAX_CARS];       /* by finishing place */
} LabBaselineRun;

typedef struct LabBaselineTol {
    int overtakes, collisions, offtracks; /* allowed change of each total */
    int orders;                       /* seeds allowed to change their finishing order */
} LabBaselineTol;

typedef struct LabBaseline {
    char race_path[SIM_PATH_LEN];
    char track_name[128];
    char track_length[32];            /* "%.3f" m, compared as text */
    int laps;
    char tick_hz[32];                 /* "%g" */
    int cars;
    bool shuffle_grid;
    char drivers[SIM_MAX_CARS][DRV_NAME_LEN];
    uint64_t files_hash;
    LabBaselineTol tol;
    int run_count;
    LabBaselineRun *runs;             /* malloc'd, run_count long */
} LabBaseline;

/* The fingerprint of a race as it is now (track loaded for its name and length; files hashed), no runs.
 * Returns 0, or nonzero with err "path:0: ...". */
int lab_baseline_init(LabBaseline *b, const SimRace *race, bool shuffle_grid, char *err, size_t err_len);
void lab_baseline_free(LabBaseline *b);
/* Makes room for `count` runs (zeroed). Returns 0, nonzero when out of memory. */
int lab_baseline_alloc_runs(LabBaseline *b, int count);
/* The run of a finished session. */
void lab_baseline_run_from_session(const SimSession *session, LabBaselineRun *out);

/* The file's text (malloc'd, NUL-terminated) or NULL when out of memory. */
char *lab_baseline_write(const LabBaseline *b);
/* Parses a baseline; `path` is for messages. Errors are "path:line: what is wrong": a missing checksum line
 * (truncated), a checksum that does not match (edited or damaged), any malformed or inconsistent line. */
int lab_baseline_parse(const char *text, size_t len, const char *path, LabBaseline *out, char *err, size_t err_len);
int lab_baseline_load(const char *path, LabBaseline *out, char *err, size_t err_len);

/* Whether the recorded baseline still describes the race now (fingerprints from lab_baseline_init). Returns 0, or
 * nonzero with err "path:line: stale baseline: ..." (path and line of the baseline file). */
int lab_baseline_check_stale(const LabBaseline *recorded, const LabBaseline *now, const char *path, char *err,
                             size_t err_len);

/* Verdict of a rerun (same seeds in the same order). */
typedef struct LabBaselineVerdict {
    int d_overtakes, d_collisions, d_offtracks; /* now - recorded totals */
    int changed_seeds;                /* seeds with any difference */
    int changed_orders;               /* seeds whose finishing order differs */
    bool exact;                       /* every tolerance is zero */
    bool pass;
} LabBaselineVerdict;

/* Whether run a and b differ in counts / in finishing order. */
bool lab_baseline_run_counts_differ(const LabBaselineRun *a, const LabBaselineRun *b);
bool lab_baseline_run_order_differs(const LabBaselineRun *a, const LabBaselineRun *b);
/* Compares a rerun with the recorded runs under the recorded tolerances. Both must hold the same seeds. */
LabBaselineVerdict lab_baseline_compare(const LabBaseline *recorded, const LabBaseline *now);

/* Where a rerun's finishing order parted from the recorded one. A baseline keeps only each seed's finishing order,
 * so the rerun is followed tick by tick: its running order (sim_world_order: race distance, then finishers in
 * finishing order, retired cars last, the order the finishing order is taken from) is pushed after every step, and
 * for every pair of cars the tracker keeps the last tick the two changed places. */
typedef struct LabOrderTrack {
    int car_count;
    long tick;                        /* of the last order pushed, -1 before the first */
    uint8_t place[SIM_MAX_CARS];      /* by race entry (0-based): its place in that order, 0 = the leader */
    long retired_tick[SIM_MAX_CARS];  /* by race entry: the first tick it was seen retired, -1 never */
    long moved_tick[SIM_MAX_CARS];    /* by race entry: the last tick its place changed, -1 never */
    long *swapped;                    /* malloc'd [a * SIM_MAX_CARS + b] for entries a < b: the last tick the two
                                         changed places, -1 never */
} LabOrderTrack;

/* Returns 0, nonzero when out of memory. */
int lab_order_track_init(LabOrderTrack *t);
void lab_order_track_free(LabOrderTrack *t);
/* The running order at `tick` (ascending from one push to the next): race entries (0-based) from the leader back,
 * and whether the car in each place has retired. The first push is the start. */
void lab_order_track_push(LabOrderTrack *t, long tick, const uint8_t *order, const bool *retired, int count);
/* The same from a session's world, as it is now. */
void lab_order_track_session(LabOrderTrack *t, const SimSession *session);
/* The tick from which the rerun's order differed from the recorded finishing order `was` for good:
 *  - of the pairs of cars that finished the other way round from `was`, the earliest last change of places between
 *    the two (from that tick to the flag they run in the order that differs), or the retirement of a car `was` did
 *    not retire, whichever comes first;
 *  - when there is neither (every such pair ran in its final order from the start: it is the recorded race that
 *    changed their places), the last change of places of any car whose finishing place differs: from then on those
 *    cars hold the places they finish in, which are not the recorded ones.
 * -1 when those cars never changed places at all. Pushes must have reached the end of the race. */
long lab_order_track_parted(const LabOrderTrack *t, const LabBaselineRun *was);

#endif
