/* sim_stats.h: the statistics behind batches and A/B tests.
 *
 * Means with Student-t confidence intervals, Wilson intervals for rates, the two-sided paired t-test and the
 * Wilcoxon signed-rank test (normal approximation) as a second opinion. Pure functions over arrays or running
 * sums; no globals (our own log-gamma, because libm's lgamma writes the global signgam), no printing.
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stddef.h>

/* A running mean and variance (Welford). Adding the same values in the same order gives bit-identical results,
 * which is what lets `merge` reproduce an unsharded batch exactly. */
typedef struct SimRunning {
    long n;
    double mean;
    double m2;    /* sum of squared deviations from the mean */
    double min, max;
} SimRunning;

SimRunning sim_running_init(void);
void sim_running_add(SimRunning *r, double x);
double sim_running_sd(const SimRunning *r); /* sample standard deviation (n - 1); 0 when n < 2 */

/* A mean with its two-sided 95% confidence interval (Student t with n - 1 degrees of freedom). */
typedef struct SimEstimate {
    long n;
    double mean;
    double sd;
    double lo, hi; /* equal to mean when n < 2 */
} SimEstimate;

SimEstimate sim_estimate(const SimRunning *r);

/* A rate k/n with its 95% Wilson score interval, all in [0, 1]. n = 0 gives 0, [0, 1]. */
typedef struct SimRate {
    long k, n;
    double p, lo, hi;
} SimRate;

SimRate sim_rate(long k, long n);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1]. */
double sim_stats_betainc(double a, double b, double x);
/* Natural log of the gamma function for x > 0. */
double sim_stats_lgamma(double x);
/* Student t: P(T <= t) with df > 0 degrees of freedom, and its inverse for p in (0, 1). */
double sim_stats_t_cdf(double t, double df);
double sim_stats_t_quantile(double p, double df);
/* Two-sided p-value of a t statistic: P(|T| >= |t|). */
double sim_stats_t_p2(double t, double df);
/* Standard normal two-sided p-value P(|Z| >= |z|). */
double sim_stats_normal_p2(double z);

/* A two-sided test of "the mean paired difference is 0". */
typedef struct SimPairedTest {
    long n;        /* pairs used */
    double mean;   /* mean difference */
    double lo, hi; /* 95% interval of the mean difference */
    double t;      /* statistic (t for the t-test, z for Wilcoxon) */
    double p;      /* two-sided p-value */
} SimPairedTest;

/* Paired t-test on differences d[0..n). When every difference is the same value the variance is 0: p = 1 if that
 * value is 0 (nothing differs), else p = 0 (a constant nonzero shift), and the interval collapses to the mean. */
SimPairedTest sim_paired_t(const double *d, long n);
/* Wilcoxon signed-rank test on the same differences: zeros dropped, tied ranks averaged, normal approximation with
 * tie and continuity corrections. `scratch` needs room for n doubles (it is overwritten). mean/lo/hi are the
 * t-test's; n is the number of nonzero differences. */
SimPairedTest sim_wilcoxon(const double *d, long n, double *scratch);

#endif
