/* sim_ini.c: strict number parsing and relative paths for the file parsers of sim/ and lab/ (the INI reader itself is
 * trk_ini_parse). */
#include "sim.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*----------------------------------------------------------------------------------------------------------------
 * Numbers
 *--------------------------------------------------------------------------------------------------------------*/

static const char *sim_skip_blanks(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

int sim_parse_double(const char *text, double *out)
{
    const char *p = sim_skip_blanks(text);
    if (*p == '\0')
        return 1;
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(v))
        return 1;
    if (*sim_skip_blanks(end) != '\0')
        return 1;
    *out = v;
    return 0;
}

int sim_parse_long(const char *text, long *out)
{
    const char *p = sim_skip_blanks(text);
    if (*p == '\0')
        return 1;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || errno == ERANGE || *sim_skip_blanks(end) != '\0')
        return 1;
    *out = v;
    return 0;
}

int sim_parse_u64(const char *text, uint64_t *out)
{
    const char *p = sim_skip_blanks(text);
    if (!isdigit((unsigned char)*p)) /* strtoull would accept "-1" */
        return 1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE || *sim_skip_blanks(end) != '\0')
        return 1;
    *out = (uint64_t)v;
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * Paths
 *--------------------------------------------------------------------------------------------------------------*/

int sim_path_join(char *out, size_t out_len, const char *base_file, const char *rel)
{
    const char *slash = strrchr(base_file, '/');
    int k;
    if (rel[0] == '/' || !slash)
        k = snprintf(out, out_len, "%s", rel);
    else
        k = snprintf(out, out_len, "%.*s/%s", (int)(slash - base_file), base_file, rel);
    return (k < 0 || (size_t)k >= out_len) ? 1 : 0;
}
