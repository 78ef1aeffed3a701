/* app_trace.h: `racesim run --trace FILE.csv`: every running car at every tick, as CSV for pandas or R. */
#ifndef APP_TRACE_H
#define APP_TRACE_H

#include "../sim/sim.h"

#include <stdio.h>

/* The header line, then appends the running cars of the world's current tick. Return nonzero on a write error. */
int app_trace_header(FILE *out);
int app_trace_tick(FILE *out, SimSession *session);

#endif
