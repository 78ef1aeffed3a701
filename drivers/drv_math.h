/* drv_math.h: fmin and fmax as compares (private to drivers/).
 *
 * The library calls are not inlined without -ffinite-math-only, and the control and behaviour code calls them a few
 * dozen times a tick. These give bit for bit what glibc's x86-64 fmin/fmax give (minsd/maxsd after a NaN test): a NaN
 * operand yields the other one, and of two equal operands (+0.0 and -0.0 included) the second is returned. */
#ifndef DRV_MATH_H
#define DRV_MATH_H

static inline double drv_fmin(double a, double b) { return a < b || b != b ? a : b; }
static inline double drv_fmax(double a, double b) { return a > b || b != b ? a : b; }

#endif
