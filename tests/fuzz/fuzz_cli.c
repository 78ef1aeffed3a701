/* libFuzzer harness: the command lines of the eight commands (app/cli.h). The target is in fuzz_targets.h. */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_cli(data, size); }
