/* main.c: `racesim CMD ...` dispatch. With no arguments, runs the default race (a window when a display exists,
 * otherwise headless with a results table). */
#include "app.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct AppCommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} AppCommand;

static const AppCommand app_commands[] = {
    {"run", cmd_run, "run a race (window, or --headless with a results table)"},
    {"batch", cmd_batch, "run many races (seeds S..S+N-1) and print per-driver statistics"},
    {"ab", cmd_ab, "paired A/B test of two driver personalities"},
    {"tune", cmd_tune, "tune driver personality keys by SPSA on paired races"},
    {"merge", cmd_merge, "rebuild a batch or ab report from the JSON lines of its shards"},
    {"check", cmd_check, "run scenarios (race files with [expect]) and report PASS/FAIL per scenario"},
    {"baseline", cmd_baseline, "record per-seed counts of a race, or compare a rerun with them"},
    {"track", cmd_track, "validate a track file and print its summary"},
};

/* A command's exit code, or 1 when what it printed could not all be written (a full disk, a closed pipe): a report
 * that did not arrive must not look like a success. */
static int app_stdout_checked(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "racesim: write error on standard output\n");
        return rc == 0 ? 1 : rc;
    }
    return rc;
}

static void app_usage(FILE *out)
{
    fprintf(out, "usage: racesim [CMD [OPTIONS...]]\n\n"
                 "Racing-AI simulator: cars with context-steering drivers race on spline tracks.\n"
                 "With no command, runs %s (a window when a display exists, else headless).\n\ncommands:\n",
            APP_DEFAULT_RACE);
    for (size_t i = 0; i < sizeof app_commands / sizeof app_commands[0]; i++)
        fprintf(out, "  %-9s %s\n", app_commands[i].name, app_commands[i].summary);
    fprintf(out, "  %-9s %s\n", "version", "print the version (also --version)");
    fprintf(out, "\n`racesim CMD --help` documents each command; `man racesim` once installed.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        char *def_argv[] = {"run", (char *)app_default_race(), NULL};
        return app_stdout_checked(cmd_run(2, def_argv));
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        app_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("racesim %s\n", APP_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof app_commands / sizeof app_commands[0]; i++)
        if (strcmp(argv[1], app_commands[i].name) == 0)
            return app_stdout_checked(app_commands[i].fn(argc - 1, argv + 1));
    fprintf(stderr, "racesim: unknown command '%s'\n\n", argv[1]);
    app_usage(stderr);
    return 2;
}
