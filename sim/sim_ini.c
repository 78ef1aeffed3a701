/* sim_ini.c: the line-counting inih reader, error collection and strict number parsing for the sim's file parsers. */
#include "sim.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*----------------------------------------------------------------------------------------------------------------
 * Reader
 *--------------------------------------------------------------------------------------------------------------*/

/* Next raw character of the source, or EOF. */
static int sim_ini_getc(SimIniReader *r)
{
    if (!r->text || r->text[r->pos] == '\0')
        return EOF;
    return (unsigned char)r->text[r->pos++];
}

/* "[name]" (blanks allowed around) -> name in out; returns 1 when the line is a header. */
static int sim_ini_header(const char *line, char *out, size_t out_len)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line != '[')
        return 0;
    line++;
    const char *end = strchr(line, ']');
    if (!end)
        return 0;
    size_t n = (size_t)(end - line);
    if (n >= out_len)
        n = out_len - 1;
    memcpy(out, line, n);
    out[n] = '\0';
    return 1;
}

char *sim_ini_read(char *str, int num, void *stream)
{
    SimIniReader *r = stream;
    int c = sim_ini_getc(r);
    if (c == EOF || num < 2)
        return NULL;
    int n = 0;
    bool too_long = false;
    /* keep one byte for '\n' and one for the terminator; past that the rest of the line is dropped */
    while (c != EOF) {
        if (c == '\0')
            c = ' '; /* a NUL would silently end inih's line */
        if (n < num - 2)
            str[n++] = (char)c;
        else if (c != '\n')
            too_long = true;
        if (c == '\n')
            break;
        c = sim_ini_getc(r);
    }
    if (n == 0 || str[n - 1] != '\n')
        str[n++] = '\n';
    str[n] = '\0';
    r->line++;
    if (too_long && r->long_line == 0)
        r->long_line = r->line;
    char name[128];
    if (r->on_section && sim_ini_header(str, name, sizeof name))
        r->on_section(r->user, name);
    return str;
}

/*----------------------------------------------------------------------------------------------------------------
 * Errors
 *--------------------------------------------------------------------------------------------------------------*/

void sim_ini_fail(SimIniError *e, int line, const char *fmt, ...)
{
    if (e->failed)
        return; /* the first error is the one reported */
    e->failed = true;
    if (!e->buf || e->len == 0)
        return;
    int k = snprintf(e->buf, e->len, "%s:%d: ", e->path, line);
    if (k < 0 || (size_t)k >= e->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->buf + k, e->len - (size_t)k, fmt, ap);
    va_end(ap);
    trk_text_printable(e->buf);
}

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
