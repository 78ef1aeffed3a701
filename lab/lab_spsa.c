/* lab_spsa.c: simultaneous perturbation stochastic approximation on a normalised box (see lab.h, "SPSA"). */
#include "lab.h"

#include <math.h>
#include <string.h>

LabSpsaDef lab_spsa_default_def(int dim, long iterations, uint64_t seed)
{
    LabSpsaDef def;
    memset(&def, 0, sizeof def);
    def.dim = dim;
    def.iterations = iterations;
    def.c = 0.1;
    def.big_a = 0.1 * (double)iterations;
    def.alpha = 0.602;
    def.gamma = 0.101;
    def.max_step = 0.2;
    def.seed = seed;
    /* a typical first difference (|L+ - L-| = s_0) then moves each parameter 0.1 of its range */
    def.a = 0.1 * 2.0 * def.c * pow(1.0 + def.big_a, def.alpha);
    return def;
}

double lab_spsa_gain_a(const LabSpsaDef *def, long k) { return def->a / pow((double)k + 1.0 + def->big_a, def->alpha); }

double lab_spsa_gain_c(const LabSpsaDef *def, long k) { return def->c / pow((double)k + 1.0, def->gamma); }

/* SplitMix64: a stateless mix, so iteration k's perturbation needs no earlier draw. */
static uint64_t lab_spsa_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

void lab_spsa_delta(const LabSpsaDef *def, long k, double *delta)
{
    uint64_t bits = lab_spsa_mix(lab_spsa_mix(def->seed) ^ (uint64_t)k);
    for (int i = 0; i < def->dim; i++)
        delta[i] = (bits >> (63 - i)) & 1 ? 1.0 : -1.0; /* the high bits mix best */
}

static double lab_spsa_clip(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

void lab_spsa_init(LabSpsa *s, const LabSpsaDef *def, const double *theta0)
{
    memset(s, 0, sizeof *s);
    s->def = *def;
    for (int i = 0; i < def->dim; i++)
        s->theta[i] = lab_spsa_clip(theta0[i], 0.0, 1.0);
}

void lab_spsa_points(const LabSpsa *s, double *plus, double *minus, double *delta)
{
    double d[LAB_SPSA_MAX_PARAMS];
    lab_spsa_delta(&s->def, s->k, d);
    double c = lab_spsa_gain_c(&s->def, s->k);
    for (int i = 0; i < s->def.dim; i++) {
        double m = c < 0.5 ? lab_spsa_clip(s->theta[i], c, 1.0 - c) : 0.5; /* both points inside the box */
        plus[i] = m + c * d[i];
        minus[i] = m - c * d[i];
        if (delta)
            delta[i] = d[i];
    }
}

void lab_spsa_update(LabSpsa *s, double loss_plus, double loss_minus, double *step)
{
    const LabSpsaDef *def = &s->def;
    double d[LAB_SPSA_MAX_PARAMS];
    lab_spsa_delta(def, s->k, d);
    double diff = loss_plus - loss_minus;
    s->sum_d2 += diff * diff;
    double rms = sqrt(s->sum_d2 / (double)(s->k + 1));
    double scaled = rms > 0.0 ? diff / rms : 0.0;
    double ak = lab_spsa_gain_a(def, s->k), ck = lab_spsa_gain_c(def, s->k);
    for (int i = 0; i < def->dim; i++) {
        double move = lab_spsa_clip(-ak * scaled / (2.0 * ck) * d[i], -def->max_step, def->max_step);
        double next = lab_spsa_clip(s->theta[i] + move, 0.0, 1.0);
        if (step)
            step[i] = next - s->theta[i];
        s->theta[i] = next;
    }
    s->k++;
}
