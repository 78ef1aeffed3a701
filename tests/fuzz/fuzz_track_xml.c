/* libFuzzer harness: TORCS track XML files. The target is in fuzz_targets.h (shared with tests/test_fuzz_regress.c). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_track_xml(data, size);
}
