/* sim_chart.h: SVG charts of races and A/B tests, written as plain text (no graphics library).
 *
 * Race: a lap chart (position of each car after each lap, in driver colours) above a gap chart (gap to the leader
 * in seconds at ten points per lap). A/B: one row per metric with the mean paired difference B - A, its 95%
 * interval, the side where B is better shaded, and the p-value. Errors come back in err ("cannot write x.svg").
 */
#ifndef SIM_CHART_H
#define SIM_CHART_H

#include "sim_ab.h"
#include "sim_trace.h"

#include <stdio.h>

/* Writes the race chart. `title` is the first line of the heading (e.g. race file and seed). */
int sim_chart_race_write(const SimTrace *trace, const char *title, const char *path, char *err, size_t err_len);
void sim_chart_race_svg(const SimTrace *trace, const char *title, FILE *out);

/* Writes the A/B chart; `only` is a metric or -1 for all. */
int sim_chart_ab_write(const SimAbTally *tally, int only, const char *path, char *err, size_t err_len);
void sim_chart_ab_svg(const SimAbTally *tally, int only, FILE *out);

#endif
