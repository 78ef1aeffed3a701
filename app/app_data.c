/* app_data.c: where the shipped data is: beside the program in a checkout, or under PREFIX/share/racesim once
 * installed (make install), found from the program's own path so it works from any directory. */
#include "app.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *app_default_race(void)
{
    static char installed[4096];
    if (access(APP_DEFAULT_RACE, R_OK) == 0)
        return APP_DEFAULT_RACE;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return APP_DEFAULT_RACE;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL)
        return APP_DEFAULT_RACE;
    *slash = '\0'; /* PREFIX/bin */
    int k = snprintf(installed, sizeof installed, "%s/../share/racesim/%s", exe, APP_DEFAULT_RACE);
    if (k < 0 || (size_t)k >= sizeof installed || access(installed, R_OK) != 0)
        return APP_DEFAULT_RACE;
    return installed;
}
