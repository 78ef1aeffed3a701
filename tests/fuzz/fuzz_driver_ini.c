/* libFuzzer harness: the driver personality parser. */
#include "../../drivers/drv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char err[512];
    DrvPersonality p;
    drv_personality_parse_string(text, "fuzz.ini", &p, err, sizeof err);
    free(text);
    return 0;
}
