/* trk_ini.c: the project's one INI reader. Track, driver, car and race files are all parsed by inih through it, so
 * they count lines, refuse over-long lines, know their sections and word their errors the same way. It lives in
 * track/, the bottom layer, beside trk_file_read, so every module above can use it.
 *
 * The system inih is built without INI_HANDLER_LINENO: the reader counts the lines it hands out, which is the
 * current line while inih calls the handler. It also sees each "[section]" header as it passes (inih tells the
 * handler only about keys), so an empty unknown section is still an error on its own line. */
#include "trk.h"

#include <ini.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(TRK_INI_MAX_LINE == INI_MAX_LINE - 2, "a line, its newline and the terminator fill inih's buffer");

void trk_ini_init(TrkIni *ini, const char *path, const char *const *sections, char *err, size_t err_len)
{
    memset(ini, 0, sizeof *ini);
    ini->path = path ? path : "(string)";
    ini->sections = sections;
    ini->section = TRK_INI_NO_SECTION;
    ini->err = err;
    ini->err_len = err != NULL ? err_len : 0;
    if (ini->err_len > 0)
        err[0] = '\0';
}

void trk_ini_fail(TrkIni *ini, int line, const char *fmt, ...)
{
    if (ini->failed)
        return; /* the first error is the one reported */
    ini->failed = true;
    ini->err_line = line;
    if (ini->err_len == 0)
        return;
    int k = snprintf(ini->err, ini->err_len, "%s:%d: ", ini->path, line);
    if (k < 0 || (size_t)k >= ini->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ini->err + k, ini->err_len - (size_t)k, fmt, ap);
    va_end(ap);
    trk_text_printable(ini->err); /* a quoted name may hold a CR or worse */
}

/* "[a], [b] or [c]": the known sections, for messages. */
static void trk_ini_known(const TrkIni *ini, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    int n = 0;
    while (ini->sections && ini->sections[n])
        n++;
    for (int i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int k = snprintf(out + used, len - used, "%s[%s]", sep, ini->sections[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* The section a header line names, as inih reads it: after a byte-order mark on the first line and blanks, a '['
 * and the text up to the first ']' that comes before an inline comment (a ';' after a blank). A line with leading
 * blanks after a key of the same section is a continuation of that key's value for inih, not a header. Returns 1
 * and the name (cut to fit) for a header. */
static int trk_ini_header(const TrkIni *ini, const char *line, char *name, size_t len)
{
    const char *start = line;
    if (ini->line == 1 && strncmp(start, "\xEF\xBB\xBF", 3) == 0)
        start += 3;
    while (*start == ' ' || *start == '\t' || *start == '\r' || *start == '\f' || *start == '\v')
        start++;
    if (*start != '[' || (start > line && ini->key_seen))
        return 0;
    const char *end = start + 1;
    bool was_space = false;
    while (*end && *end != ']' && !(was_space && *end == ';')) {
        was_space = *end == ' ' || *end == '\t' || *end == '\r' || *end == '\f' || *end == '\v' || *end == '\n';
        end++;
    }
    if (*end != ']')
        return 0; /* inih reports the syntax error */
    size_t n = (size_t)(end - start - 1);
    if (n >= len)
        n = len - 1;
    memcpy(name, start + 1, n);
    name[n] = '\0';
    return 1;
}

static void trk_ini_on_header(TrkIni *ini, const char *name)
{
    ini->key_seen = false;
    for (int i = 0; ini->sections && ini->sections[i]; i++)
        if (strcmp(name, ini->sections[i]) == 0) {
            ini->section = i;
            if (ini->on_section)
                ini->on_section(ini->user, i);
            return;
        }
    ini->section = TRK_INI_UNKNOWN_SECTION;
    char known[256];
    trk_ini_known(ini, known, sizeof known);
    trk_ini_fail(ini, ini->line, "unknown section [%s] (expected %s)", name, known);
}

/* inih's reader: the next line of the text, always ending in a newline. A line too long for inih's buffer is
 * reported and handed over empty, never split into two bogus lines. The text ends at its first NUL (files holding
 * one never get here: trk_file_read refuses them). */
static char *trk_ini_read(char *str, int num, void *stream)
{
    TrkIni *ini = stream;
    const char *src = ini->text + ini->pos;
    if (*src == '\0' || num < TRK_INI_MAX_LINE + 2)
        return NULL;
    const char *nl = strchr(src, '\n');
    size_t n = nl ? (size_t)(nl - src) : strlen(src); /* without the newline */
    ini->pos += n + (nl ? 1 : 0);
    ini->line++;
    if (n > TRK_INI_MAX_LINE) {
        trk_ini_fail(ini, ini->line, "line too long (at most %d characters)", TRK_INI_MAX_LINE);
        n = 0;
    }
    memcpy(str, src, n);
    str[n] = '\n';
    str[n + 1] = '\0';
    char name[64];
    if (trk_ini_header(ini, str, name, sizeof name))
        trk_ini_on_header(ini, name);
    return str;
}

/* inih's handler: keys of known sections go to the caller's; keys outside any section are reported here, those of
 * an unknown section were reported at its header. Always goes on: the errors are kept in the TrkIni, so inih's
 * return reports only its own syntax errors. */
static int trk_ini_dispatch(void *user, const char *section, const char *name, const char *value)
{
    TrkIni *ini = user;
    ini->key_seen = ini->key_seen || name[0] != '\0'; /* as inih keeps the key a continuation line belongs to */
    if (ini->section >= 0) {
        ini->on_key(ini->user, section, name, value);
    } else if (ini->section == TRK_INI_NO_SECTION) {
        char known[256];
        trk_ini_known(ini, known, sizeof known);
        trk_ini_fail(ini, ini->line, "key '%s' outside a section (expected %s)", name, known);
    }
    return 1;
}

int trk_ini_parse(TrkIni *ini, const char *text, TrkIniHandler *on_key, void *user)
{
    ini->text = text ? text : "";
    ini->pos = 0;
    ini->line = 0;
    ini->key_seen = false;
    ini->on_key = on_key;
    ini->user = user;
    int rc = ini_parse_stream(trk_ini_read, ini, trk_ini_dispatch, ini);
    if (rc > 0 && (!ini->failed || rc < ini->err_line)) {
        /* inih goes on after a syntax error: the earlier of its first one and ours is reported */
        ini->failed = false;
        trk_ini_fail(ini, rc, "syntax error (expected [section], key = value or a ; comment)");
    } else if (rc < 0) {
        trk_ini_fail(ini, 0, "cannot parse (out of memory)");
    }
    return ini->failed ? 1 : 0;
}
