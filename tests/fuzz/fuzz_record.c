/* libFuzzer harness: JSON-lines records (racesim batch / ab / merge) and the JSON reader.
 * The target is in fuzz_targets.h (shared with tests/test_fuzz_regress.c). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_record(data, size);
}
