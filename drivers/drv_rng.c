/* drv_rng.c: splitmix64, a tiny seeded generator with no global state. */
#include "drv.h"

DrvRng drv_rng_seed(uint64_t seed)
{
    DrvRng rng = {seed};
    return rng;
}

uint64_t drv_rng_next(DrvRng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double drv_rng_uniform(DrvRng *rng)
{
    /* top 53 bits: every value is an exact double in [0, 1) */
    return (double)(drv_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}
