/* app_out.h: how the commands write their output files: never over one of the command's inputs, checked before any
 * race runs, written to a temporary file beside the target and renamed into place only when complete, every write
 * error reported. "-" is standard output. */
#ifndef APP_OUT_H
#define APP_OUT_H

#include "../sim/sim.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct AppOut {
    FILE *f;            /* NULL until opened */
    bool is_stdout;
    bool direct;        /* not a regular file (a device, a pipe): written in place */
    char path[4096];    /* the target */
    char tmp[4200];     /* the temporary file beside it */
} AppOut;

/* Refuses (nonzero, message in err) an output path that is empty, a directory, in a directory that cannot be
 * written, or the same file as one of `inputs` (n of them; NULL entries are skipped) or as another output given in
 * `others` (m of them). "-" is always accepted. */
int app_out_check(const char *path, const char *const *inputs, int n, const char *const *others, int m, char *err,
                  size_t err_len);
/* The inputs of a race: the race file, its track file and every driver file, into `out` (at most max); the count. */
int app_race_inputs(const SimRace *race, const char **out, int max);
/* Opens the temporary file for `path` (or standard output for "-"). */
int app_out_open(AppOut *o, const char *path, char *err, size_t err_len);
/* Flushes and closes; on success renames the temporary file onto the target. On any write error the target is left
 * as it was and the temporary file removed. Nonzero with a message on failure. */
int app_out_commit(AppOut *o, char *err, size_t err_len);
/* Drops an unfinished output: the target is left as it was. */
void app_out_abort(AppOut *o);

#endif
