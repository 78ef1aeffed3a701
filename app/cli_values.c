/* cli_values.c: the option values and messages every command line shares (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int cli_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        return 1;
    *out = v;
    return 0;
}

const char *cli_video_format(const char *path)
{
    static const char *const known[][2] = {{".mp4", "mp4"}, {".mkv", "matroska"}, {".webm", "webm"}, {".mov", "mov"}};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t k = strlen(known[i][0]);
        if (n > k && strcasecmp(path + n - k, known[i][0]) == 0)
            return known[i][1];
    }
    return NULL;
}

int cli_parse_size(const char *s, int *w, int *h)
{
    const char *x = strpbrk(s, "xX");
    char wtext[16];
    long lw, lh;
    if (!x || x == s || (size_t)(x - s) >= sizeof wtext)
        return 1;
    snprintf(wtext, sizeof wtext, "%.*s", (int)(x - s), s);
    if (wtext[0] < '0' || wtext[0] > '9' || x[1] < '0' || x[1] > '9' || /* no sign, no space */
        cli_parse_long(wtext, CLI_MIN_W, CLI_MAX_W, &lw) != 0 || cli_parse_long(x + 1, CLI_MIN_H, CLI_MAX_H, &lh) != 0)
        return 1;
    *w = (int)lw;
    *h = (int)lh;
    return 0;
}

int cli_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v))
        return 1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (s[0] < '0' || s[0] > '9')
        return 1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != '\0')
        return 1;
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_shard(const char *s, int *index, int *count)
{
    char buf[64];
    const char *slash = strchr(s, '/');
    long i, n;
    if (!slash || (size_t)(slash - s) >= sizeof buf)
        return 1;
    memcpy(buf, s, (size_t)(slash - s));
    buf[slash - s] = '\0';
    if (cli_parse_long(buf, 1, 1000000, &i) || cli_parse_long(slash + 1, 1, 1000000, &n) || i > n)
        return 1;
    *index = (int)i;
    *count = (int)n;
    return 0;
}

void cli_getopt_reset(void)
{
    optind = 0; /* glibc: 0 re-initialises getopt_long, forgetting a parse left inside a cluster ("-hq") */
    opterr = 0; /* the parsers word their own messages (cli_opt_error) */
}

void cli_opt_error(FILE *err, const char *cmd, int c, char **argv, const struct option *longs)
{
    /* getopt_long leaves a long option's word at argv[optind - 1]; a short option is named by its letter (optopt),
     * since inside a cluster ("-xq" stops at x) optind has not yet moved past the cluster */
    const char *word = optind > 0 ? argv[optind - 1] : "";
    if (c == ':') {
        fprintf(err, "racesim %s: %s needs a value\n", cmd, word);
        return;
    }
    if (word[0] == '-' && word[1] == '-' && optopt != 0) {
        /* a known option that takes no value given one (--headless=3): optopt is its code */
        size_t n = strcspn(word + 2, "=");
        for (const struct option *o = longs; o->name; o++)
            if (o->val == optopt && o->has_arg == no_argument && strncmp(o->name, word + 2, n) == 0) {
                fprintf(err, "racesim %s: --%s takes no value\n", cmd, o->name);
                return;
            }
    }
    if (optopt != 0)
        fprintf(err, "racesim %s: unknown option '-%c'\n", cmd, optopt);
    else
        fprintf(err, "racesim %s: unknown option '%s'\n", cmd, word);
}

int cli_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

const char *cli_option_expects(const char *option)
{
    static const struct {
        const char *option, *text;
    } table[] = {
        {"--races", "an integer 1..100000000"},
        {"--seed", "an unsigned 64-bit integer"},
        {"--jobs", "an integer 1..256"},
        {"--seat", "a grid line 1..128"},
        {"--laps", "an integer 1..1000"},
        {"--shard", "I/N with 1 <= I <= N"},
        {"--metric", "position, time, overtakes, collisions, offtrack or points"},
        {"--max-races", "an integer 1..100000000"},
        {"--h0", "a finite number (the metric's unit)"},
        {"--h1", "a finite number (the metric's unit)"},
        {"--alpha", "a number in (0, 0.5)"},
        {"--beta", "a number in (0, 0.5)"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(option, table[i].option) == 0)
            return table[i].text;
    return "a valid value";
}

int cli_path_given(FILE *err, const char *cmd, const char *what, const char *path)
{
    if (!path || path[0] != '\0')
        return 0;
    fprintf(err, "racesim %s: %s: expected a file path, got ''\n", cmd, what);
    return 2;
}
