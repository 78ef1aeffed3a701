/* app_out.c: safe output files (see app_out.h). */
#include "app_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of path ("." when none), into dir. */
static void app_out_dir(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

static bool app_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int app_out_check(const char *path, const char *const *inputs, int n, const char *const *others, int m, char *err,
                  size_t err_len)
{
    if (strcmp(path, "-") == 0)
        return 0;
    if (path[0] == '\0') {
        snprintf(err, err_len, "an output path is empty");
        return 1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, err_len, "cannot write '%s': it is a directory", path);
        return 1;
    }
    char dir[4096];
    app_out_dir(path, dir, sizeof dir);
    if (access(dir, W_OK) != 0) {
        snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        return 1;
    }
    for (int i = 0; i < n; i++)
        if (inputs[i] != NULL && app_same_file(path, inputs[i])) {
            snprintf(err, err_len, "refusing to write '%s': it is an input of this command", path);
            return 1;
        }
    for (int i = 0; i < m; i++)
        if (others[i] != NULL && others[i] != path && strcmp(others[i], "-") != 0 &&
            (strcmp(others[i], path) == 0 || app_same_file(path, others[i]))) {
            snprintf(err, err_len, "'%s' is given as two outputs", path);
            return 1;
        }
    return 0;
}

int app_race_inputs(const SimRace *race, const char **out, int max)
{
    int k = 0;
    if (k < max)
        out[k++] = race->path;
    if (k < max)
        out[k++] = race->track_path;
    for (int i = 0; i < race->entry_count && k < max; i++)
        out[k++] = race->entries[i].driver_path;
    return k;
}

int app_out_open(AppOut *o, const char *path, char *err, size_t err_len)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = true;
        snprintf(o->path, sizeof o->path, "-");
        return 0;
    }
    if (strlen(path) >= sizeof o->path) {
        snprintf(err, err_len, "cannot write '%.64s...': the path is too long", path);
        return 1;
    }
    snprintf(o->path, sizeof o->path, "%s", path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* a device or a pipe (/dev/null, /dev/stdout, a FIFO): written directly, never replaced */
        if (!(o->f = fopen(path, "w"))) {
            snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
            return 1;
        }
        o->direct = true;
        return 0;
    }
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        return 1;
    }
    /* mkstemp makes it private (0600): an output gets the usual permissions */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    return 0;
}

int app_out_commit(AppOut *o, char *err, size_t err_len)
{
    if (o->f == NULL)
        return 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (o->is_stdout) {
        o->f = NULL;
        if (bad)
            snprintf(err, err_len, "write error on standard output: %s", strerror(saved));
        return bad;
    }
    bad |= fclose(o->f) != 0;
    if (bad && saved == 0)
        saved = errno;
    o->f = NULL;
    if (o->direct) {
        if (bad)
            snprintf(err, err_len, "cannot write '%s': %s", o->path, strerror(saved ? saved : EIO));
        return bad;
    }
    if (!bad && rename(o->tmp, o->path) != 0) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        unlink(o->tmp);
        snprintf(err, err_len, "cannot write '%s': %s", o->path, strerror(saved ? saved : EIO));
    }
    return bad;
}

void app_out_abort(AppOut *o)
{
    if (o->f == NULL)
        return;
    if (o->is_stdout) {
        fflush(o->f);
    } else {
        fclose(o->f);
        if (!o->direct)
            unlink(o->tmp);
    }
    o->f = NULL;
}
