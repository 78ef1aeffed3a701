/* tst.h: a tiny test harness. Each test is `static int test_x(void)` returning 0; checks print file:line on failure
 * and return 1 from the test. main() runs tests with TST_RUN and ends with `return tst_report();`, which prints
 * "N passed, N failed" (the line tests/run_tests.sh adds up). */
#ifndef TST_H
#define TST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tst_passed, tst_failed;

#define TST_CHECK(cond)                                                                                             \
    do {                                                                                                            \
        if (!(cond)) {                                                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                                \
            return 1;                                                                                               \
        }                                                                                                           \
    } while (0)

#define TST_NEAR(a, b, tol)                                                                                         \
    do {                                                                                                            \
        double tst_a_ = (double)(a), tst_b_ = (double)(b), tst_t_ = (double)(tol);                                  \
        if (!(fabs(tst_a_ - tst_b_) <= tst_t_)) {                                                                   \
            fprintf(stderr, "%s:%d: %s = %.9g, expected %s = %.9g within %.3g\n", __FILE__, __LINE__, #a, tst_a_,   \
                    #b, tst_b_, tst_t_);                                                                            \
            return 1;                                                                                               \
        }                                                                                                           \
    } while (0)

#define TST_STR_EQ(a, b)                                                                                            \
    do {                                                                                                            \
        const char *tst_s1_ = (a), *tst_s2_ = (b);                                                                  \
        if (strcmp(tst_s1_, tst_s2_) != 0) {                                                                        \
            fprintf(stderr, "%s:%d: %s\n  got:      '%s'\n  expected: '%s'\n", __FILE__, __LINE__, #a, tst_s1_,   \
                    tst_s2_);                                                                                       \
            return 1;                                                                                               \
        }                                                                                                           \
    } while (0)

#define TST_RUN(fn)                                                                                                 \
    do {                                                                                                            \
        if (fn() == 0) {                                                                                            \
            tst_passed++;                                                                                           \
        } else {                                                                                                    \
            tst_failed++;                                                                                           \
            fprintf(stderr, "FAIL %s\n", #fn);                                                                      \
        }                                                                                                           \
    } while (0)

static inline int tst_report(void)
{
    printf("%d passed, %d failed\n", tst_passed, tst_failed);
    return tst_failed ? 1 : 0;
}

#endif
