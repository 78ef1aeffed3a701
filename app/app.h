/* app.h: the racesim program's commands. main.c dispatches `racesim CMD ...` to cmd_CMD(argc, argv), where argv[0]
 * is the command name. Each command lives in its own app/cmd_*.c, reads its command line with cli_CMD_parse (cli.h:
 * options, --help and usage errors, in app/cli_*.c) and returns the process exit code (0 ok, 1 a failed check or
 * run, 2 bad usage or bad input). app/ is the only place that knows every module. */
#ifndef APP_H
#define APP_H

#define APP_DEFAULT_RACE "data/races/default.ini"
#define APP_VERSION "0.8.0"
/* The default race: data/races/default.ini in the current directory, else the one `make install` put beside the
 * program (PREFIX/share/racesim/data/..., found from PREFIX/bin/racesim). */
const char *app_default_race(void);

int cmd_track(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_tune(int argc, char **argv);

#endif
