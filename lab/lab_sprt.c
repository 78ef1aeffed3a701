/* lab_sprt.c: the sequential probability ratio test on paired differences (see lab.h, "Sequential tests"). */
#include "lab.h"

#include <math.h>
#include <string.h>

LabSprtDef lab_sprt_default_def(void)
{
    LabSprtDef def;
    memset(&def, 0, sizeof def);
    def.alpha = 0.05;
    def.beta = 0.05;
    def.min_pairs = LAB_AB_MIN_PAIRS;
    return def;
}

int lab_sprt_check_def(const LabSprtDef *def, char *err, size_t err_len)
{
    if (!isfinite(def->h0) || !isfinite(def->h1)) {
        snprintf(err, err_len, "--h0 and --h1 must be finite numbers");
        return 1;
    }
    if (def->h0 == def->h1) {
        snprintf(err, err_len, "--h0 and --h1 must differ (both are %g): the test tells two hypotheses apart",
                 def->h0);
        return 1;
    }
    if (!(def->alpha > 0.0 && def->alpha < 0.5) || !(def->beta > 0.0 && def->beta < 0.5)) {
        snprintf(err, err_len, "--alpha and --beta must be in (0, 0.5), got %g and %g", def->alpha, def->beta);
        return 1;
    }
    return 0;
}

double lab_sprt_llr(long n, double mean, double var, double h0, double h1)
{
    if (n < 2 || !(var > 0.0))
        return NAN;
    /* sum over the pairs of log N(d; h1, var) - log N(d; h0, var) = (h1 - h0)(2 sum d - n (h0 + h1)) / (2 var) */
    return (h1 - h0) * (2.0 * (double)n * mean - (double)n * (h0 + h1)) / (2.0 * var);
}

void lab_sprt_init(LabSprt *s, const LabSprtDef *def)
{
    memset(s, 0, sizeof *s);
    s->def = *def;
    s->lower = log(def->beta / (1.0 - def->alpha));
    s->upper = log((1.0 - def->beta) / def->alpha);
    s->d = lab_running_init();
    s->llr = NAN;
    s->decision = LAB_SPRT_CONTINUE;
}

LabSprtDecision lab_sprt_add(LabSprt *s, double d)
{
    lab_running_add(&s->d, d);
    double var = lab_running_sd(&s->d);
    var *= var;
    s->llr = lab_sprt_llr(s->d.n, s->d.mean, var, s->def.h0, s->def.h1);
    if (s->decision != LAB_SPRT_CONTINUE || s->d.n < s->def.min_pairs || isnan(s->llr))
        return s->decision;
    if (s->llr >= s->upper || s->llr <= s->lower) {
        s->decision = s->llr >= s->upper ? LAB_SPRT_H1 : LAB_SPRT_H0;
        s->decided_at = s->d.n;
        s->decided_llr = s->llr;
        s->decided_est = lab_estimate(&s->d);
    }
    return s->decision;
}

void lab_sprt_print(const LabSprt *s, const char *metric, FILE *out)
{
    const LabSprtDef *def = &s->def;
    LabEstimate e = lab_estimate(&s->d);
    fprintf(out, "\nSPRT on %s (B - A): H0 mean %+g, H1 mean %+g, alpha %g, beta %g; bounds [%.3f, %.3f]\n",
            metric, def->h0, def->h1, def->alpha, def->beta, s->lower, s->upper);
    if (s->decision != LAB_SPRT_CONTINUE) {
        fprintf(out, "%s accepted after %ld pairs: LLR %.3f %s bound %.3f\n",
                s->decision == LAB_SPRT_H1 ? "H1" : "H0", s->decided_at, s->decided_llr,
                s->decision == LAB_SPRT_H1 ? ">= upper" : "<= lower",
                s->decision == LAB_SPRT_H1 ? s->upper : s->lower);
        fprintf(out, "estimate B - A %+.3f, 95%% interval [%+.3f, %+.3f] at the stop (not adjusted for stopping)\n",
                s->decided_est.mean, s->decided_est.lo, s->decided_est.hi);
        if (s->d.n > s->decided_at)
            fprintf(out, "over all %ld pairs: LLR %.3f, estimate %+.3f [%+.3f, %+.3f]\n", s->d.n, s->llr, e.mean,
                    e.lo, e.hi);
        return;
    }
    if (isnan(s->llr))
        fprintf(out, "no decision after %ld pairs: LLR undefined (%s)\n", s->d.n,
                s->d.n < 2 ? "fewer than 2 pairs" : "no variance: every difference is the same");
    else if (s->d.n < def->min_pairs)
        fprintf(out, "no decision after %ld pairs: LLR %.3f (no decision before %ld pairs)\n", s->d.n, s->llr,
                def->min_pairs);
    else
        fprintf(out, "no decision after %ld pairs: LLR %.3f within the bounds\n", s->d.n, s->llr);
    fprintf(out, "estimate B - A %+.3f, 95%% interval [%+.3f, %+.3f]\n", e.mean, e.lo, e.hi);
}
