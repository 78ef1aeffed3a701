/* rnd_format.c: small helpers the panels share (the race clock's text, the speed-up steps), so that no panel
 * depends on another. */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>

double rnd_speed_factor(int speed_index)
{
    static const double factors[RND_SPEED_COUNT] = {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0};
    int i = speed_index < 0 ? 0 : speed_index >= RND_SPEED_COUNT ? RND_SPEED_COUNT - 1 : speed_index;
    return factors[i];
}

void rnd_format_time(char *buf, size_t len, double t_s, int decimals)
{
    if (!(t_s >= 0.0) || t_s > 1e7) {
        snprintf(buf, len, "--");
        return;
    }
    /* truncate to the digits shown, as a race clock does, so 59.96 s never prints as "60.0" */
    double unit = pow(10.0, -decimals);
    double t = floor(t_s / unit + 1e-9) * unit;
    int minutes = (int)(t / 60.0);
    double sec = t - 60.0 * minutes;
    if (minutes > 0)
        snprintf(buf, len, "%d:%0*.*f", minutes, decimals > 0 ? decimals + 3 : 2, decimals, sec);
    else
        snprintf(buf, len, "%.*f", decimals, sec);
}

void rnd_format_result_time(char *buf, size_t len, double t_s)
{
    rnd_format_time(buf, len, round(t_s * 1000.0) / 1000.0 + 1e-7, 3);
}
