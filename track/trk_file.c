/* trk_file.c: the project's one way to read an input file whole. It lives in track/, the bottom layer, so the
 * driver, race, car, baseline and track readers all refuse the same things the same way: what is not a regular
 * file (a directory, a FIFO that would block, a device like /dev/zero that never ends), a file over the caller's
 * size limit, and a NUL byte (not a text file). */
#include "trk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *trk_file_kind(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a pipe";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a file";
}

char *trk_file_read(const char *path, size_t max_bytes, size_t *len_out, char *err, size_t err_len)
{
    if (len_out)
        *len_out = 0;
    /* O_NONBLOCK: opening a FIFO with no writer must not hang before fstat can refuse it */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_len, "%s:0: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, err_len, "%s:0: cannot read: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_len, "%s:0: not a regular file (%s)", path, trk_file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > (unsigned long long)max_bytes) {
        snprintf(err, err_len, "%s:0: file too large (%lld bytes, at most %zu)", path, (long long)st.st_size,
                 max_bytes);
        close(fd);
        return NULL;
    }
    /* the size may change while we read: read up to the limit plus one byte, whatever fstat said */
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        snprintf(err, err_len, "%s:0: out of memory", path);
        close(fd);
        return NULL;
    }
    for (;;) {
        if (len == cap) {
            if (cap > max_bytes)
                break;
            size_t ncap = cap * 2 < max_bytes + 1 ? cap * 2 : max_bytes + 1;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                snprintf(err, err_len, "%s:0: out of memory", path);
                free(buf);
                close(fd);
                return NULL;
            }
            buf = nb, cap = ncap;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, err_len, "%s:0: cannot read: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return NULL;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    if (len > max_bytes) {
        snprintf(err, err_len, "%s:0: file too large (at most %zu bytes)", path, max_bytes);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    const char *z = memchr(buf, '\0', len);
    if (z) {
        int line = 1;
        for (const char *c = buf; c < z; c++)
            line += *c == '\n';
        snprintf(err, err_len, "%s:%d: not a text file (a NUL byte)", path, line);
        free(buf);
        return NULL;
    }
    if (len_out)
        *len_out = len;
    return buf;
}

void trk_text_printable(char *s)
{
    for (unsigned char *c = (unsigned char *)s; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = '?';
}

bool trk_text_is_name(const char *s)
{
    const unsigned char *c = (const unsigned char *)s;
    while (*c) {
        if (*c < 0x20 || *c == 0x7f)
            return false;
        int extra = *c < 0x80 ? 0 : (*c & 0xe0) == 0xc0 ? 1 : (*c & 0xf0) == 0xe0 ? 2 : (*c & 0xf8) == 0xf0 ? 3 : -1;
        if (extra < 0 || (extra == 1 && *c < 0xc2) || (extra == 3 && *c > 0xf4))
            return false;
        /* the second byte's range also refuses overlong forms, surrogates and code points past U+10FFFF */
        unsigned lo = 0x80, hi = 0xbf;
        if (*c == 0xe0)
            lo = 0xa0;
        else if (*c == 0xed)
            hi = 0x9f;
        else if (*c == 0xf0)
            lo = 0x90;
        else if (*c == 0xf4)
            hi = 0x8f;
        c++;
        for (int k = 0; k < extra; k++, c++) {
            if (*c < (k == 0 ? lo : 0x80) || *c > (k == 0 ? hi : 0xbf))
                return false;
        }
    }
    return true;
}
