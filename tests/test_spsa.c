/* test_spsa.c: the SPSA gains, its perturbations and its update, which must walk a known quadratic to its minimum
 * the same way every time. */
#include "../lab/lab.h"
#include "tst.h"

#include <math.h>
#include <string.h>

static const double spsa_best[3] = {0.3, 0.8, 0.55};

/* A bowl with its minimum at spsa_best, steeper in the first parameter. */
static double spsa_bowl(const double *x, int dim)
{
    double loss = 0.0;
    for (int i = 0; i < dim; i++)
        loss += (i == 0 ? 4.0 : 1.0) * (x[i] - spsa_best[i]) * (x[i] - spsa_best[i]);
    return loss;
}

/* Runs n iterations from theta0; `noise` adds a deterministic wobble of that size to each measured loss. */
static LabSpsa spsa_run(int dim, long n, double noise, const double *theta0)
{
    LabSpsaDef def = lab_spsa_default_def(dim, n, 7);
    LabSpsa s;
    lab_spsa_init(&s, &def, theta0);
    uint64_t lcg = 12345;
    for (long k = 0; k < n; k++) {
        double plus[LAB_SPSA_MAX_PARAMS], minus[LAB_SPSA_MAX_PARAMS], w[2];
        lab_spsa_points(&s, plus, minus, NULL);
        for (int j = 0; j < 2; j++) {
            lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
            w[j] = noise * ((double)(lcg >> 11) / 9007199254740992.0 - 0.5);
        }
        lab_spsa_update(&s, spsa_bowl(plus, dim) + w[0], spsa_bowl(minus, dim) + w[1], NULL);
    }
    return s;
}

static int test_spsa_gains(void)
{
    LabSpsaDef def = lab_spsa_default_def(2, 50, 1);
    TST_NEAR(def.big_a, 5.0, 1e-15);
    TST_NEAR(lab_spsa_gain_c(&def, 0), 0.1, 1e-15);
    TST_NEAR(lab_spsa_gain_c(&def, 9), 0.1 / pow(10.0, 0.101), 1e-15);
    TST_NEAR(lab_spsa_gain_a(&def, 4), def.a / pow(10.0, 0.602), 1e-15);
    /* a first difference of typical size moves each parameter a tenth of its range */
    TST_NEAR(lab_spsa_gain_a(&def, 0) / (2.0 * lab_spsa_gain_c(&def, 0)), 0.1, 1e-12);
    return 0;
}

static int test_spsa_delta(void)
{
    LabSpsaDef def = lab_spsa_default_def(LAB_SPSA_MAX_PARAMS, 100, 42);
    int plus = 0, total = 0;
    for (long k = 0; k < 100; k++) {
        double d[LAB_SPSA_MAX_PARAMS], again[LAB_SPSA_MAX_PARAMS];
        lab_spsa_delta(&def, k, d);
        lab_spsa_delta(&def, k, again);
        TST_CHECK(memcmp(d, again, sizeof d) == 0);
        for (int i = 0; i < def.dim; i++, total++) {
            TST_CHECK(d[i] == 1.0 || d[i] == -1.0);
            plus += d[i] > 0.0;
        }
    }
    TST_CHECK(plus > total * 4 / 10 && plus < total * 6 / 10); /* about half of each sign */
    return 0;
}

static int test_spsa_first_step(void)
{
    LabSpsaDef def = lab_spsa_default_def(2, 20, 3);
    LabSpsa s;
    const double start[2] = {0.5, 0.02};
    lab_spsa_init(&s, &def, start);
    double plus[2], minus[2], delta[2], step[2];
    lab_spsa_points(&s, plus, minus, delta);
    /* the second parameter is pulled inside the box so that both points are in it */
    TST_NEAR(plus[0] - minus[0], 0.2 * delta[0], 1e-15);
    TST_NEAR((plus[1] + minus[1]) / 2.0, 0.1, 1e-15);
    TST_CHECK(minus[1] >= 0.0 && plus[1] >= 0.0);
    lab_spsa_update(&s, 2.0, 1.0, step); /* + worse: move towards - */
    TST_NEAR(step[0], -0.1 * delta[0], 1e-12);
    TST_CHECK(s.k == 1);
    return 0;
}

static int test_spsa_converges(void)
{
    const double start[3] = {0.95, 0.05, 0.1};
    for (int noisy = 0; noisy < 2; noisy++) {
        LabSpsa s = spsa_run(3, 300, noisy ? 0.02 : 0.0, start);
        for (int i = 0; i < 3; i++)
            TST_NEAR(s.theta[i], spsa_best[i], 0.05);
        LabSpsa again = spsa_run(3, 300, noisy ? 0.02 : 0.0, start);
        TST_CHECK(memcmp(s.theta, again.theta, sizeof s.theta) == 0);
    }
    return 0;
}

static int test_spsa_stays_in_box(void)
{
    const double start[1] = {0.9};
    /* a loss that falls forever to the right: theta ends on the edge, never past it */
    LabSpsaDef def = lab_spsa_default_def(1, 40, 9);
    LabSpsa s;
    lab_spsa_init(&s, &def, start);
    for (int k = 0; k < 40; k++) {
        double plus[1], minus[1];
        lab_spsa_points(&s, plus, minus, NULL);
        TST_CHECK(plus[0] >= 0.0 && plus[0] <= 1.0 && minus[0] >= 0.0 && minus[0] <= 1.0);
        lab_spsa_update(&s, -plus[0], -minus[0], NULL);
        TST_CHECK(s.theta[0] >= 0.0 && s.theta[0] <= 1.0);
    }
    TST_NEAR(s.theta[0], 1.0, 1e-12);
    return 0;
}

int main(void)
{
    TST_RUN(test_spsa_gains);
    TST_RUN(test_spsa_delta);
    TST_RUN(test_spsa_first_step);
    TST_RUN(test_spsa_converges);
    TST_RUN(test_spsa_stays_in_box);
    return tst_report();
}
