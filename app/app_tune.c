/* app_tune.c: the --param specs of `racesim tune`, personalities at points of the normalised box, and the tuned
 * driver file's text (see app_tune.h). */
#include "app_tune.h"
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int app_tune_param_parse(const char *spec, AppTuneParam *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    const char *dot = strchr(spec, '.'), *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
    char lo[64], hi[64];
    size_t sec_len = dot ? (size_t)(dot - spec) : 0, key_len = dot && eq > dot ? (size_t)(eq - dot - 1) : 0;
    size_t lo_len = colon ? (size_t)(colon - eq - 1) : 0;
    if (!dot || !eq || !colon || sec_len == 0 || key_len == 0 || sec_len >= sizeof out->section ||
        key_len >= sizeof out->key || lo_len >= sizeof lo || strlen(colon + 1) >= sizeof hi) {
        snprintf(err, err_len, "--param: expected SECTION.KEY=LO:HI, got '%s'", spec);
        return 1;
    }
    memcpy(out->section, spec, sec_len);
    memcpy(out->key, dot + 1, key_len);
    memcpy(lo, eq + 1, lo_len);
    lo[lo_len] = '\0';
    snprintf(hi, sizeof hi, "%s", colon + 1);
    if (cli_parse_double(lo, &out->lo) || cli_parse_double(hi, &out->hi)) {
        snprintf(err, err_len, "--param %s: LO and HI must be numbers", spec);
        return 1;
    }
    if (!(out->lo < out->hi)) {
        snprintf(err, err_len, "--param %s: LO must be below HI", spec);
        return 1;
    }
    return 0;
}

int app_tune_param_check(AppTuneParam *param, const DrvPersonality *driver, const char *driver_path, char *err,
                         size_t err_len)
{
    char why[160];
    const char *name = param->key;
    int rc = drv_personality_get_number(driver, param->section, name, &param->start, why, sizeof why);
    if (rc) {
        snprintf(err, err_len, "--param %s.%s: %s%s", param->section, name, why,
                 rc == 2 ? " (only real-number keys can be tuned)" : "");
        return 1;
    }
    const double ends[2] = {param->lo, param->hi};
    for (int i = 0; i < 2; i++) {
        DrvPersonality probe = *driver;
        char text[32];
        snprintf(text, sizeof text, "%.17g", ends[i]);
        if (drv_personality_set(&probe, param->section, name, text, why, sizeof why)) {
            snprintf(err, err_len, "--param %s.%s: %s %g is outside the documented range: %s", param->section, name,
                     i ? "HI" : "LO", ends[i], why);
            return 1;
        }
    }
    if (param->start < param->lo || param->start > param->hi) {
        snprintf(err, err_len, "--param %s.%s: %s has %g, outside %g..%g", param->section, name, driver_path,
                 param->start, param->lo, param->hi);
        return 1;
    }
    return 0;
}

double app_tune_value(const AppTuneParam *param, double x)
{
    double v = param->lo + x * (param->hi - param->lo);
    return v < param->lo ? param->lo : v > param->hi ? param->hi : v;
}

int app_tune_personality(const DrvPersonality *base, const AppTuneParam *params, int n, const double *x, int digits,
                         DrvPersonality *out, char *err, size_t err_len)
{
    *out = *base;
    for (int i = 0; i < n; i++) {
        char text[40], why[160];
        snprintf(text, sizeof text, "%.*g", digits, app_tune_value(&params[i], x[i]));
        if (drv_personality_set(out, params[i].section, params[i].key, text, why, sizeof why)) {
            snprintf(err, err_len, "[%s] %s = %s: %s", params[i].section, params[i].key, text, why);
            return 1;
        }
    }
    return 0;
}

/* ---- the tuned driver file -------------------------------------------------------------------------------------- */

/* The section name of a "[name]" line, into buf; false for other lines. */
static bool app_tune_section_of(const char *line, size_t len, char *buf, size_t cap)
{
    while (len > 0 && isspace((unsigned char)*line))
        line++, len--;
    const char *close = len > 0 && line[0] == '[' ? memchr(line, ']', len) : NULL;
    if (!close || (size_t)(close - line - 1) >= cap)
        return false;
    memcpy(buf, line + 1, (size_t)(close - line - 1));
    buf[close - line - 1] = '\0';
    return true;
}

/* Whether the line sets `key` ("key = value", spaces allowed around the name). */
static bool app_tune_line_sets(const char *line, size_t len, const char *key)
{
    while (len > 0 && isspace((unsigned char)*line))
        line++, len--;
    size_t k = strlen(key);
    if (len <= k || strncmp(line, key, k) != 0)
        return false;
    for (line += k, len -= k; len > 0 && (*line == ' ' || *line == '\t'); line++, len--)
        ;
    return len > 0 && (*line == '=' || *line == ':');
}

/* Writes the parameters of `section` not yet written, marking them done. */
static void app_tune_flush(FILE *f, const char *section, const AppTuneParam *params, int n, const char *const *values,
                           bool *done)
{
    for (int i = 0; i < n; i++)
        if (!done[i] && strcmp(params[i].section, section) == 0) {
            fprintf(f, "%s = %s\n", params[i].key, values[i]);
            done[i] = true;
        }
}

char *app_tune_ini_text(const char *text, const AppTuneParam *params, int n, const char *const *values)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    bool done[LAB_SPSA_MAX_PARAMS] = {false}, seen[LAB_SPSA_MAX_PARAMS] = {false};
    char section[64] = "";
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char next[64];
        bool replaced = false;
        if (app_tune_section_of(line, len, next, sizeof next)) {
            if (section[0])
                app_tune_flush(f, section, params, n, values, done);
            snprintf(section, sizeof section, "%s", next);
            for (int i = 0; i < n; i++)
                seen[i] = seen[i] || strcmp(params[i].section, section) == 0;
        } else
            for (int i = 0; i < n && !replaced; i++)
                if (!done[i] && strcmp(params[i].section, section) == 0 && app_tune_line_sets(line, len, params[i].key)) {
                    fprintf(f, "%s = %s\n", params[i].key, values[i]);
                    done[i] = replaced = true;
                }
        if (!replaced)
            fprintf(f, "%.*s\n", (int)len, line);
        line += nl ? len + 1 : len;
    }
    if (section[0])
        app_tune_flush(f, section, params, n, values, done);
    for (int i = 0; i < n; i++)
        if (!done[i] && !seen[i]) {
            fprintf(f, "\n[%s]\n", params[i].section);
            app_tune_flush(f, params[i].section, params, n, values, done);
        }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}


