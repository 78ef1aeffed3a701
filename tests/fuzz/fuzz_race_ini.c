/* libFuzzer harness: race files and scenarios ([race], [grid], [start], [expect]). The target is in fuzz_targets.h.
 *
 * Inputs are parsed as if they were build/fuzz/sandbox/a/b/fuzz.ini. LLVMFuzzerInitialize builds that sandbox so
 * the relative paths of every seed resolve: ../tracks/X and ../../data/tracks/X to a small oval (a real track costs
 * tens of milliseconds to build, which would starve the fuzzer), ../drivers/X and ../../data/drivers/X to
 * data/drivers, drivers/X to tests/scenarios/drivers, and oval.ini, driver.ini, car.ini to tests/data/sim. */
#include "fuzz_targets.h"

#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_SANDBOX "build/fuzz/sandbox"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_link(const char *target, const char *link)
{
    char path[256];
    snprintf(path, sizeof path, FUZZ_SANDBOX "/%s", link);
    unlink(path);
    if (symlink(target, path) != 0)
        perror(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dirs[] = {"build", "build/fuzz", FUZZ_SANDBOX, FUZZ_SANDBOX "/small", FUZZ_SANDBOX "/a",
                          FUZZ_SANDBOX "/a/b", FUZZ_SANDBOX "/data"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        mkdir(dirs[i], 0777);
    const char *tracks[] = {"gp.ini", "fast.ini", "tech.ini", "oval.ini"};
    for (size_t i = 0; i < sizeof tracks / sizeof tracks[0]; i++) {
        char link[64];
        snprintf(link, sizeof link, "small/%s", tracks[i]);
        fuzz_link("../../../../tests/data/sim/oval.ini", link);
    }
    fuzz_link("../small", "a/tracks");
    fuzz_link("../../../../data/drivers", "a/drivers");
    fuzz_link("../small", "data/tracks");
    fuzz_link("../../../../data/drivers", "data/drivers");
    fuzz_link("../../../../../tests/scenarios/drivers", "a/b/drivers");
    fuzz_link("../../../../../tests/data/sim/oval.ini", "a/b/oval.ini");
    fuzz_link("../../../../../tests/data/sim/driver.ini", "a/b/driver.ini");
    fuzz_link("../../../../../tests/data/sim/car.ini", "a/b/car.ini");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_race_at(data, size, FUZZ_SANDBOX "/a/b/fuzz.ini");
}
