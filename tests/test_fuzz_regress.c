/* test_fuzz_regress.c: replays every saved fuzz input (every file in tests/fuzz/regress/<target>/) and every fuzz seed
 * (tests/fuzz/seeds/<target>/) through the target it was found with (tests/fuzz/fuzz_targets.h). Passing means no
 * crash; under the sanitized build (make test-san) it also means no memory error or undefined behaviour, which is
 * what proves a fix. Race inputs are parsed as if they lived in data/races/, so their relative paths reach the real
 * tracks and drivers. */
#include "tst.h"

#include "fuzz/fuzz_targets.h"

#include <dirent.h>

typedef int FuzzTargetFn(const uint8_t *data, size_t size);

static int fuzz_race_data(const uint8_t *data, size_t size)
{
    return fuzz_race_at(data, size, "data/races/fuzz-regress.ini");
}

typedef struct FuzzTarget {
    const char *name; /* directory name under tests/fuzz/regress/ and tests/fuzz/seeds/ */
    FuzzTargetFn *fn;
} FuzzTarget;

static const FuzzTarget fuzz_targets[] = {
    {"track_ini", fuzz_track_ini}, {"track_csv", fuzz_track_csv}, {"track_xml", fuzz_track_xml},
    {"driver_ini", fuzz_driver_ini}, {"car_ini", fuzz_car_ini}, {"race_ini", fuzz_race_data},
    {"baseline", fuzz_baseline},   {"record", fuzz_record},       {"cli", fuzz_cli},
};

/* Reads a whole file; NULL when it cannot. */
static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0, n;
    uint8_t *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    *size = len;
    return buf;
}

/* Replays every regular file of dir; returns how many, or -1 when a file cannot be read. */
static int replay_dir(const char *dir, FuzzTargetFn *fn)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* no saved inputs for this target */
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t size = 0;
        uint8_t *data = read_all(path, &size);
        if (!data) {
            fprintf(stderr, "cannot read %s\n", path);
            closedir(d);
            return -1;
        }
        fn(data, size);
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

static int test_replay_all(void)
{
    int total = 0;
    for (size_t i = 0; i < sizeof fuzz_targets / sizeof fuzz_targets[0]; i++) {
        char dir[256];
        snprintf(dir, sizeof dir, "tests/fuzz/regress/%s", fuzz_targets[i].name);
        int n = replay_dir(dir, fuzz_targets[i].fn);
        TST_CHECK(n >= 0);
        snprintf(dir, sizeof dir, "tests/fuzz/seeds/%s", fuzz_targets[i].name);
        int m = replay_dir(dir, fuzz_targets[i].fn);
        TST_CHECK(m >= 0);
        total += n + m;
    }
    TST_CHECK(total > 0); /* the seeds at least: a moved directory must not pass silently */
    return 0;
}

/* Each target on empty input and on bytes that are not text at all. */
static int test_targets_survive_garbage(void)
{
    static const uint8_t junk[] = {0x00, 0xff, '[', 0x00, ']', '\n', '=', '=', '\r', 0x80, '"', '{', '\\'};
    for (size_t i = 0; i < sizeof fuzz_targets / sizeof fuzz_targets[0]; i++) {
        TST_CHECK(fuzz_targets[i].fn(junk, 0) == 0);
        TST_CHECK(fuzz_targets[i].fn(junk, sizeof junk) == 0);
    }
    return 0;
}

int main(void)
{
    TST_RUN(test_replay_all);
    TST_RUN(test_targets_survive_garbage);
    return tst_report();
}
