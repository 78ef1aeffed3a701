/* lab_stats.c: means, intervals and paired tests (see lab_stats.h). */
#include "lab.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define LAB_Z95 1.959963984540054 /* standard normal 97.5% quantile */

/* ---- running mean and variance ------------------------------------------------------------------------------ */

LabRunning lab_running_init(void)
{
    LabRunning r = {0, 0.0, 0.0, 0.0, 0.0};
    return r;
}

void lab_running_add(LabRunning *r, double x)
{
    r->n++;
    double delta = x - r->mean;
    r->mean += delta / (double)r->n;
    r->m2 += delta * (x - r->mean);
    if (r->n == 1 || x < r->min)
        r->min = x;
    if (r->n == 1 || x > r->max)
        r->max = x;
}

double lab_running_sd(const LabRunning *r)
{
    if (r->n < 2 || r->m2 <= 0.0)
        return 0.0;
    return sqrt(r->m2 / (double)(r->n - 1));
}

LabEstimate lab_estimate(const LabRunning *r)
{
    LabEstimate e = {r->n, r->mean, lab_running_sd(r), r->mean, r->mean};
    if (r->n >= 2) {
        double half = lab_stats_t_quantile(0.975, (double)(r->n - 1)) * e.sd / sqrt((double)r->n);
        e.lo = e.mean - half;
        e.hi = e.mean + half;
    }
    return e;
}

LabRate lab_rate(long k, long n)
{
    LabRate r = {k, n, 0.0, 0.0, 1.0};
    if (n <= 0)
        return r;
    double nn = (double)n, p = (double)k / nn, z2 = LAB_Z95 * LAB_Z95;
    double denom = 1.0 + z2 / nn;
    double centre = (p + z2 / (2.0 * nn)) / denom;
    double half = LAB_Z95 / denom * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn));
    r.p = p;
    r.lo = fmax(0.0, centre - half);
    r.hi = fmin(1.0, centre + half);
    return r;
}

/* ---- special functions -------------------------------------------------------------------------------------- */

double lab_stats_lgamma(double x)
{
    /* Lanczos approximation (g = 7, n = 9), good to ~15 digits for x > 0; reflection is not needed here. */
    static const double c[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                                771.32342877765313,   -176.61502916214059,   12.507343278686905,
                                -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
    if (x < 0.5) /* lgamma(x) = lgamma(x + 1) - log(x) keeps the series in its accurate range */
        return lab_stats_lgamma(x + 1.0) - log(x);
    x -= 1.0;
    double a = c[0];
    double t = x + 7.5;
    for (int i = 1; i < 9; i++)
        a += c[i] / (x + (double)i);
    return 0.5 * log(2.0 * 3.14159265358979323846) + (x + 0.5) * log(t) - t + log(a);
}

/* Continued fraction for the incomplete beta (modified Lentz), converging for x < (a + 1) / (a + b + 2). */
static double stats_betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    if (fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 1000; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-15)
            break;
    }
    return h;
}

double lab_stats_betainc(double a, double b, double x)
{
    if (!(x > 0.0))
        return 0.0;
    if (!(x < 1.0))
        return 1.0;
    double lbt = lab_stats_lgamma(a + b) - lab_stats_lgamma(a) - lab_stats_lgamma(b) + a * log(x) + b * log1p(-x);
    double bt = exp(lbt);
    if (x < (a + 1.0) / (a + b + 2.0))
        return bt * stats_betacf(a, b, x) / a;
    return 1.0 - bt * stats_betacf(b, a, 1.0 - x) / b;
}

double lab_stats_t_p2(double t, double df)
{
    if (isnan(t))
        return 1.0;
    if (isinf(t))
        return 0.0;
    return lab_stats_betainc(df / 2.0, 0.5, df / (df + t * t));
}

double lab_stats_t_cdf(double t, double df)
{
    double tail = 0.5 * lab_stats_t_p2(t, df);
    return t >= 0.0 ? 1.0 - tail : tail;
}

double lab_stats_t_quantile(double p, double df)
{
    if (!(p > 0.0 && p < 1.0))
        return p >= 1.0 ? INFINITY : -INFINITY;
    if (p < 0.5)
        return -lab_stats_t_quantile(1.0 - p, df);
    /* Bisection on the monotone cdf: slow but exact to the last bits, and quantiles are computed rarely. */
    double lo = 0.0, hi = 1.0;
    while (lab_stats_t_cdf(hi, df) < p && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (lab_stats_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double lab_stats_normal_p2(double z) { return erfc(fabs(z) / sqrt(2.0)); }

/* ---- paired tests ------------------------------------------------------------------------------------------- */

LabPairedTest lab_paired_t(const double *d, long n)
{
    LabRunning r = lab_running_init();
    for (long i = 0; i < n; i++)
        lab_running_add(&r, d[i]);
    LabEstimate e = lab_estimate(&r);
    LabPairedTest t = {n, e.mean, e.lo, e.hi, 0.0, 1.0};
    if (n < 2)
        return t;
    if (e.sd == 0.0) {
        t.t = t.p = NAN;
        return t;
    }
    t.t = e.mean / (e.sd / sqrt((double)n));
    t.p = lab_stats_t_p2(t.t, (double)(n - 1));
    return t;
}

static int stats_cmp_abs(const void *pa, const void *pb)
{
    double a = fabs(*(const double *)pa), b = fabs(*(const double *)pb);
    return (a > b) - (a < b);
}

LabPairedTest lab_wilcoxon(const double *d, long n, double *scratch)
{
    LabPairedTest t = lab_paired_t(d, n);
    long m = 0;
    for (long i = 0; i < n; i++)
        if (d[i] != 0.0)
            scratch[m++] = d[i];
    t.n = m;
    t.t = 0.0;
    t.p = 1.0;
    if (m == 0)
        return t;
    qsort(scratch, (size_t)m, sizeof *scratch, stats_cmp_abs);
    double w_plus = 0.0, ties = 0.0;
    for (long i = 0; i < m;) {
        long j = i;
        while (j + 1 < m && fabs(scratch[j + 1]) == fabs(scratch[i]))
            j++;
        double rank = 0.5 * (double)(i + j) + 1.0; /* average of ranks i+1 .. j+1 */
        double count = (double)(j - i + 1);
        for (long k = i; k <= j; k++)
            if (scratch[k] > 0.0)
                w_plus += rank;
        ties += count * count * count - count;
        i = j + 1;
    }
    double mm = (double)m;
    double mean = mm * (mm + 1.0) / 4.0;
    double var = mm * (mm + 1.0) * (2.0 * mm + 1.0) / 24.0 - ties / 48.0;
    if (var <= 0.0)
        return t;
    double diff = w_plus - mean;
    double corrected = diff > 0.5 ? diff - 0.5 : diff < -0.5 ? diff + 0.5 : 0.0; /* continuity correction */
    t.t = corrected / sqrt(var);
    t.p = lab_stats_normal_p2(t.t);
    return t;
}
