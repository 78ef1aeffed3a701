/* app_tune.h: what `racesim tune` needs beyond the experiment helpers: the --param specs checked against a driver's
 * personality, personalities at points of the normalised box, and the tuned driver file's text. */
#ifndef APP_TUNE_H
#define APP_TUNE_H

#include "../lab/lab.h"

#include <stddef.h>

/* One tuned key: SECTION.KEY=LO:HI. */
typedef struct AppTuneParam {
    char section[32], key[32];
    double lo, hi;      /* the tuned range, inside the key's documented range, lo < hi */
    double start;       /* the driver's value, in lo..hi */
} AppTuneParam;

/* Parses "SECTION.KEY=LO:HI" (no check against a personality yet). Nonzero with the reason in err. */
int app_tune_param_parse(const char *spec, AppTuneParam *out, char *err, size_t err_len);
/* Checks the parameter against the driver's personality (a real-number key, LO and HI inside its documented range,
 * the driver's value inside LO..HI) and sets out->start. Nonzero with the reason in err. */
int app_tune_param_check(AppTuneParam *param, const DrvPersonality *driver, const char *driver_path, char *err,
                         size_t err_len);
/* The real value of normalised x (0..1) in the parameter's range, kept inside LO..HI. */
double app_tune_value(const AppTuneParam *param, double x);
/* base with each parameter set to its value at the normalised point x (n parameters); `digits` significant
 * digits (17 keeps the value exact). Nonzero with the reason in err. */
int app_tune_personality(const DrvPersonality *base, const AppTuneParam *params, int n, const double *x, int digits,
                         DrvPersonality *out, char *err, size_t err_len);

/* The driver file's text with each parameter's key set to values[i] (text as written), keeping every other line;
 * a key the file lacks goes at the end of its section (a section it lacks, at the end of the file). Returns a
 * malloc'd string, or NULL when out of memory. */
char *app_tune_ini_text(const char *text, const AppTuneParam *params, int n, const char *const *values);

#endif
