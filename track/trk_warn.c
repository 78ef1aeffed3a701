/* trk_warn.c: what a loaded track says about itself: its warnings, one "path:line: warning: ..." line each, and
 * the control point a place on the track belongs to (the line a message names). The builder and the fold repair
 * both write here. */
#include "trk_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int trk_nearest_cp(const double *cp_s, int np, double length, double s)
{
    int best = 0;
    double bd = INFINITY;
    for (int i = 0; i < np; i++) {
        double d = fabs(s - cp_s[i]);
        if (d > 0.5 * length)
            d = length - d;
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

/* One warning line; a warning that finds no memory is dropped: it must not fail a load. */
static void trk_warn_line(TrkTrack *t, const TrkWhere *where, int point, const char *msg)
{
    char line[TRK_ERR_LEN + 1100];
    if (where && where->path)
        snprintf(line, sizeof line, "%.1024s:%d: warning: %s", where->path,
                 point >= 0 && where->lines ? where->lines[point] : 0, msg);
    else
        snprintf(line, sizeof line, "warning: %s", msg);
    trk_text_printable(line);
    size_t old = t->warnings ? strlen(t->warnings) : 0, add = strlen(line);
    char *w = realloc(t->warnings, old + add + 2);
    if (!w)
        return;
    memcpy(w + old, line, add);
    w[old + add] = '\n';
    w[old + add + 1] = '\0';
    t->warnings = w;
}

/* Past TRK_MAX_WARNINGS a warning is only counted; trk_warn_end says how many were left out. */
void trk_warn(TrkTrack *t, const TrkWhere *where, int point, const char *fmt, ...)
{
    if (t->warning_count++ >= TRK_MAX_WARNINGS)
        return;
    char msg[TRK_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    trk_warn_line(t, where, point, msg);
}

void trk_warn_end(TrkTrack *t, const TrkWhere *where)
{
    if (t->warning_count <= TRK_MAX_WARNINGS)
        return;
    char msg[64];
    snprintf(msg, sizeof msg, "%d more warnings not shown", t->warning_count - TRK_MAX_WARNINGS);
    trk_warn_line(t, where, -1, msg);
}
