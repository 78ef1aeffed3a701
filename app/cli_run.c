/* cli_run.c: the command line of `racesim run` (see cli.h). */
#include "app.h"
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void cli_run_usage(FILE *out)
{
    fprintf(out,
            "usage: racesim run [RACE.ini] [options]\n\n"
            "Runs a race (default %s). With a display it opens the viewer; with --headless, or when no\n"
            "display is available, it runs as fast as the machine allows and prints a results table.\n"
            "The same race file and seed always give the same results.\n\n"
            "options:\n"
            "  --headless          no window: run to the end and print the results table\n"
            "  --seed N            the race's seed (default: the race file's)\n"
            "  --laps N            laps, 1..1000 (default: the race file's)\n"
            "  --shuffle-grid      permute the grid with the seed\n"
            "  --json FILE|-       write the results as JSON (with the event list); - = stdout; also after the\n"
            "                      viewer or a screenshot (the same race, run again headless)\n"
            "  --csv FILE|-        write one CSV row per car; - = stdout\n"
            "  --chart FILE.svg    write a lap chart and a gap chart of the race (SVG)\n"
            "  --trace FILE.csv    write every running car at every tick (position, speed, targets, requests,\n"
            "                      flags, what set the target speed, the attack verdict) as CSV\n"
            "  --screenshot FILE   render one frame at --at seconds to a PNG (BMP for a .bmp name; no display\n"
            "                      needed) and exit\n"
            "  --at SECONDS        the moment of the screenshot (default 0); without --screenshot, the window\n"
            "                      opens there, paused (left / right arrows rewind and go forward)\n"
            "  --video FILE        render the race from --from to --to (--fps frames a second of race time, no\n"
            "                      display needed) and encode it with ffmpeg into FILE (.mp4, .mkv, .webm or .mov)\n"
            "  --from SECONDS      start of the --video clip (default 0)\n"
            "  --to SECONDS        end of the --video clip (default 10 s after --from)\n"
            "  --fps N             frames a second of the --video, 1..120 (default 30)\n"
            "  --size WxH          pixels of the window, the --screenshot or the --video, 960x540..3840x2160\n"
            "                      (default 1280x800; a video's width and height must be even; the panels keep\n"
            "                      their size, so a larger frame shows more of the track)\n"
            "  --camera MODE       overview | follow | chase | director: the first camera (default: director in a\n"
            "                      window and a video, overview in a screenshot)\n"
            "  --font PATH         TTF font for the viewer (default: DejaVu Sans)\n"
            "  -q, --quiet         no results table\n"
            "  --timing            print ticks and wall time of the headless run on stderr\n"
            "  -h, --help          this text\n\n"
            "Exit status: 0 ok, 1 the run failed, 2 bad usage or a bad file (`path:line: what is wrong`).\n",
            APP_DEFAULT_RACE);
}

static int cli_run_bad(FILE *err, const char *opt, const char *what, const char *got)
{
    fprintf(err, "racesim run: %s: expected %s, got '%s'\n", opt, what, got);
    return 2;
}

/* One option with a value; returns 0, or the exit code for bad usage. */
static int cli_run_value_opt(CliRunOpts *o, const char *opt, const char *val, FILE *err)
{
    long n;
    if (strcmp(opt, "--seed") == 0) {
        if (cli_parse_u64(val, &o->seed) != 0)
            return cli_run_bad(err, opt, "an integer 0..18446744073709551615", val);
        o->have_seed = true;
    } else if (strcmp(opt, "--laps") == 0) {
        if (cli_parse_long(val, 1, 1000, &n) != 0)
            return cli_run_bad(err, opt, "an integer 1..1000", val);
        o->laps = (int)n;
    } else if (strcmp(opt, "--at") == 0 || strcmp(opt, "--from") == 0 || strcmp(opt, "--to") == 0) {
        char *end;
        double t = strtod(val, &end);
        if (end == val || *end != '\0' || !isfinite(t) || t < 0.0 || t > 1e6)
            return cli_run_bad(err, opt, "a number of seconds 0..1000000", val);
        *(strcmp(opt, "--at") == 0 ? &o->at_s : strcmp(opt, "--from") == 0 ? &o->from_s : &o->to_s) = t;
        o->have_to |= strcmp(opt, "--to") == 0;
    } else if (strcmp(opt, "--size") == 0) {
        if (cli_parse_size(val, &o->width, &o->height) != 0)
            return cli_run_bad(err, opt, "WIDTHxHEIGHT in pixels, 960x540..3840x2160 (e.g. 1920x1080)", val);
    } else if (strcmp(opt, "--fps") == 0) {
        if (cli_parse_long(val, 1, 120, &n) != 0)
            return cli_run_bad(err, opt, "frames a second, an integer 1..120", val);
        o->fps = (int)n;
    } else if (strcmp(opt, "--video") == 0) {
        if (val[0] && !cli_video_format(val))
            return cli_run_bad(err, opt, "a file name ending in .mp4, .mkv, .webm or .mov", val);
        o->video_path = val;
    } else if (strcmp(opt, "--json") == 0) {
        o->json_path = val;
    } else if (strcmp(opt, "--csv") == 0) {
        o->csv_path = val;
    } else if (strcmp(opt, "--screenshot") == 0) {
        o->screenshot_path = val;
    } else if (strcmp(opt, "--font") == 0) {
        o->font_path = val;
    } else if (strcmp(opt, "--camera") == 0) {
        if (strcmp(val, "overview") != 0 && strcmp(val, "follow") != 0 && strcmp(val, "director") != 0 &&
            strcmp(val, "chase") != 0)
            return cli_run_bad(err, opt, "overview, follow, chase or director", val);
        o->camera = val;
    } else if (strcmp(opt, "--chart") == 0) {
        o->chart_path = val;
    } else if (strcmp(opt, "--trace") == 0) {
        o->trace_path = val;
    }
    if ((strcmp(opt, "--json") == 0 || strcmp(opt, "--csv") == 0 || strcmp(opt, "--screenshot") == 0 ||
         strcmp(opt, "--font") == 0 || strcmp(opt, "--trace") == 0 || strcmp(opt, "--video") == 0) &&
        val[0] == '\0')
        return cli_run_bad(err, opt, "a file path", val);
    return 0;
}

int cli_run_parse(int argc, char **argv, CliRunOpts *o, FILE *out, FILE *err)
{
    memset(o, 0, sizeof *o);
    static const struct option longs[] = {
        {"headless", no_argument, NULL, 'H'},       {"shuffle-grid", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},          {"timing", no_argument, NULL, 'T'},
        {"seed", required_argument, NULL, 's'},     {"laps", required_argument, NULL, 'l'},
        {"json", required_argument, NULL, 'j'},     {"csv", required_argument, NULL, 'c'},
        {"screenshot", required_argument, NULL, 'p'}, {"at", required_argument, NULL, 'a'},
        {"font", required_argument, NULL, 'f'},     {"chart", required_argument, NULL, 'g'},
        {"trace", required_argument, NULL, 't'},    {"help", no_argument, NULL, 'h'},
        {"camera", required_argument, NULL, 'C'},  {"video", required_argument, NULL, 'V'},
        {"from", required_argument, NULL, 'F'},    {"to", required_argument, NULL, 'U'},
        {"size", required_argument, NULL, 'Z'},    {"fps", required_argument, NULL, 'R'},
        {NULL, 0, NULL, 0},
    };
    bool have_at = false, have_from = false;
    cli_getopt_reset();
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":hq", longs, &index)) != -1) {
        switch (c) {
        case 'h':
            cli_run_usage(out);
            return 0;
        case 'H':
            o->headless = true;
            break;
        case 'S':
            o->shuffle = true;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'T':
            o->timing = true;
            break;
        case 's': case 'l': case 'j': case 'c': case 'p': case 'a': case 'f': case 'g': case 't': case 'C':
        case 'V': case 'F': case 'U': case 'Z': case 'R': {
            char opt[32];
            snprintf(opt, sizeof opt, "--%s", longs[index].name);
            int rc = cli_run_value_opt(o, opt, optarg, err);
            if (rc != 0)
                return rc;
            have_at |= c == 'a';
            have_from |= c == 'F';
            break;
        }
        default:
            cli_opt_error(err, "run", c, argv, longs);
            fprintf(err, "(see racesim run --help)\n");
            return 2;
        }
        index = -1;
    }
    for (int i = optind; i < argc; i++) {
        if (o->race_path) {
            fprintf(err, "racesim run: more than one race file ('%s' and '%s')\n", o->race_path, argv[i]);
            return 2;
        }
        o->race_path = argv[i];
    }
    if (o->video_path && !o->have_to)
        o->to_s = o->from_s + 10.0;
    const char *conflict =
        o->headless && have_at ? "--at is the moment the viewer opens at (or a --screenshot's): it cannot be --headless"
        : o->headless && o->screenshot_path ? "--screenshot renders the viewer's frame: it cannot be --headless"
        : o->video_path && (o->headless || o->screenshot_path || have_at)
            ? "--video renders the viewer's frames from --from to --to: not with --headless, --screenshot or --at"
        : (have_from || o->have_to) && !o->video_path ? "--from and --to set the stretch of a --video"
        : o->video_path && o->to_s <= o->from_s ? "--to must be later than --from"
        : o->fps && !o->video_path ? "--fps sets the frame rate of a --video"
        : o->width && o->headless ? "--size is the window's, a --screenshot's or a --video's: not with --headless"
                                  : NULL;
    if (conflict) {
        fprintf(err, "racesim run: %s\n", conflict);
        return 2;
    }
    if (o->video_path && o->width && (o->width % 2 || o->height % 2)) { /* H.264 and VP9 in 4:2:0 colour */
        fprintf(err, "racesim run: --size %dx%d: a video's width and height must be even (its colour is stored for "
                     "each 2x2 block of pixels)\n", o->width, o->height);
        return 2;
    }
    if (cli_path_given(err, "run", "RACE.ini", o->race_path) || cli_path_given(err, "run", "--chart", o->chart_path))
        return 2;
    if (!o->race_path)
        o->race_path = app_default_race();
    return CLI_GO;
}

