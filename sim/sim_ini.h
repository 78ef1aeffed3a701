/* sim_ini.h: a line-counting reader for inih and strict number parsing (private to sim/).
 *
 * The system inih is built without INI_HANDLER_LINENO, so the parsers hand inih this reader: it counts the lines it
 * gives out (the handler reads the current line from it), reports section headers as they pass (so an empty
 * unknown section is still an error on its own line), and flags lines too long for inih's buffer instead of letting
 * inih split them into two bogus lines.
 */
#ifndef SIM_INI_H
#define SIM_INI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct SimIniReader {
    FILE *file;        /* source: a file, or */
    const char *text;  /* a string */
    size_t pos;
    int line;          /* number of the last line handed out (1-based) */
    int long_line;     /* first line that was too long, 0 if none */
    /* called for each "[name]" header line; returns 0 to accept */
    void (*on_section)(void *user, const char *name);
    void *user;
} SimIniReader;

/* The ini_reader for ini_parse_stream; `stream` is a SimIniReader. */
char *sim_ini_read(char *str, int num, void *stream);

/* Collects the first error of a parse as "path:line: message". */
typedef struct SimIniError {
    const char *path;
    char *buf;
    size_t len;
    bool failed;
} SimIniError;

void sim_ini_fail(SimIniError *e, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Strict conversions: the whole text (surrounding blanks allowed) must be the number; finite doubles only.
 * Return 0 on success. */
int sim_parse_double(const char *text, double *out);
int sim_parse_long(const char *text, long *out);
int sim_parse_u64(const char *text, uint64_t *out);

/* Joins a path relative to the directory of `base_file` (absolute paths are kept). Returns nonzero when the result
 * does not fit. */
int sim_path_join(char *out, size_t out_len, const char *base_file, const char *rel);

#endif
