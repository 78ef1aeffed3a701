/* libFuzzer harness: race files (with [grid], [start], [expect] sections). sim_race_load reads a path, so the input
 * is written to build/fuzz/races/, beside which `make fuzz` links tracks/ and drivers/ to data/: relative paths in
 * the seed races (../tracks/gp.ini, ../drivers/ace.ini) then resolve to real files and the fuzzer reaches the
 * deeper validation. */
#include "../../sim/sim_race.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "build/fuzz/races/.fuzz-race-%ld.ini", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    static SimRace race; /* large; static keeps it off the fuzzer's stack */
    char err[1024];
    sim_race_load(path, &race, err, sizeof err);
    remove(path);
    return 0;
}
