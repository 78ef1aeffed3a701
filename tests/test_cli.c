/* test_cli.c: the command-line parsers (app/cli.h) called as a library: defaults, values, where messages go, and
 * several parses in one process (getopt_long's global state reset by each). */
#include "tst.h"

#include "../app/cli.h"

#include <stdlib.h>

/* A parse of a line of words (NULL-terminated, the command name first) with its streams captured. */
typedef struct CliCall {
    char *argv[32];
    int argc;
    char *out, *err;
    size_t out_len, err_len;
} CliCall;

static void cli_call_begin(CliCall *c, const char *const *words, FILE **out, FILE **err)
{
    memset(c, 0, sizeof *c);
    while (words[c->argc]) {
        c->argv[c->argc] = (char *)words[c->argc];
        c->argc++;
    }
    *out = open_memstream(&c->out, &c->out_len);
    *err = open_memstream(&c->err, &c->err_len);
}

static void cli_call_end(FILE *out, FILE *err)
{
    fclose(out);
    fclose(err);
}

static void cli_call_free(CliCall *c)
{
    free(c->out);
    free(c->err);
}

static int test_batch_values_and_defaults(void)
{
    static const char *const line[] = {"batch", "r.ini", "--races=3", "--shard", "2/4", "--laps", "7", NULL};
    CliCall c;
    FILE *out, *err;
    cli_call_begin(&c, line, &out, &err);
    CliBatchOpts o;
    int rc = cli_batch_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO);
    TST_CHECK(c.out_len == 0 && c.err_len == 0);
    TST_STR_EQ(o.race_path, "r.ini");
    TST_CHECK(o.races == 3 && o.shard_index == 2 && o.shard_count == 4 && o.laps == 7);
    TST_CHECK(o.jobs == cli_default_jobs() && !o.has_seed && !o.resume && !o.out_path);
    cli_call_free(&c);
    return 0;
}

/* --sprt without --max-races runs up to 10000 pairs; the hypotheses are taken as given */
static int test_ab_sprt(void)
{
    static const char *const line[] = {"ab", "r.ini", "--a", "a.ini", "--b", "b.ini", "--sprt", "--h0", "0",
                                       "--h1", "-0.5", "--metric", "points", NULL};
    CliCall c;
    FILE *out, *err;
    cli_call_begin(&c, line, &out, &err);
    CliAbOpts o;
    int rc = cli_ab_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO);
    TST_CHECK(o.sprt && o.races == 10000 && o.metric == LAB_AB_POINTS);
    TST_NEAR(o.sprt_def.h1, -0.5, 0.0);
    TST_NEAR(o.sprt_def.alpha, 0.05, 0.0);
    cli_call_free(&c);
    return 0;
}

/* A refusal writes its message to the given `err` only; --help writes the usage to `out` only. */
static int test_messages_go_to_the_given_streams(void)
{
    static const char *const bad[] = {"tune", "r.ini", "--driver", "d.ini", "--param", "behaviour.skirt=2:1",
                                      "--iterations", "3", NULL};
    CliCall c;
    FILE *out, *err;
    cli_call_begin(&c, bad, &out, &err);
    CliTuneOpts t;
    int rc = cli_tune_parse(c.argc, c.argv, &t, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == 2 && c.out_len == 0);
    TST_STR_EQ(c.err, "racesim tune: --param behaviour.skirt=2:1: LO must be below HI\n(see racesim tune --help)\n");
    cli_call_free(&c);
    static const char *const help[] = {"track", "--help", NULL};
    cli_call_begin(&c, help, &out, &err);
    CliTrackOpts k;
    rc = cli_track_parse(c.argc, c.argv, &k, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == 0 && c.err_len == 0);
    TST_CHECK(strncmp(c.out, "usage: racesim track FILE...", 28) == 0);
    cli_call_free(&c);
    return 0;
}

/* run's replay options: --at alone (the window opens there), --video with --from / --to and the 10 s default, and
 * the lines refused with --video, --from and --to */
static int test_run_at_and_video(void)
{
    static const char *const at[] = {"run", "r.ini", "--at", "42.5", NULL};
    static const char *const video[] = {"run", "--video", "clip.MKV", "--from=5", "--camera", "follow", NULL};
    static const char *const span[] = {"run", "--to", "12.5", "--video", "c.mp4", "--from", "2", NULL};
    CliCall c;
    FILE *out, *err;
    CliRunOpts o;
    cli_call_begin(&c, at, &out, &err);
    int rc = cli_run_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && c.err_len == 0 && o.at_s == 42.5 && !o.screenshot_path && !o.video_path);
    cli_call_free(&c);
    cli_call_begin(&c, video, &out, &err);
    rc = cli_run_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && c.err_len == 0);
    TST_STR_EQ(o.video_path, "clip.MKV");
    TST_CHECK(o.from_s == 5.0 && o.to_s == 15.0 && !o.have_to);
    cli_call_free(&c);
    cli_call_begin(&c, span, &out, &err);
    rc = cli_run_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && o.from_s == 2.0 && o.to_s == 12.5 && o.have_to);
    TST_CHECK(o.width == 0 && o.height == 0 && o.fps == 0); /* the defaults: 1280x800, 30 fps */
    cli_call_free(&c);
    static const char *const sized[] = {"run", "--video", "c.mp4", "--size", "1920X1080", "--fps=60", NULL};
    cli_call_begin(&c, sized, &out, &err);
    rc = cli_run_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && c.err_len == 0 && o.width == 1920 && o.height == 1080 && o.fps == 60);
    cli_call_free(&c);
    static const char *const odd[] = {"run", "--screenshot", "s.png", "--size", "1001x601", NULL}; /* a picture */
    cli_call_begin(&c, odd, &out, &err);
    rc = cli_run_parse(c.argc, c.argv, &o, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && o.width == 1001 && o.height == 601);
    cli_call_free(&c);
    static const struct {
        const char *words[8];
        const char *says;
    } refused[] = {
        {{"run", "--video", "c.avi", NULL},
         "racesim run: --video: expected a file name ending in .mp4, .mkv, .webm or .mov, got 'c.avi'"},
        {{"run", "--video=", NULL}, "racesim run: --video: expected a file path, got ''"},
        {{"run", "--video", ".mp4", NULL}, "expected a file name ending in .mp4"},
        {{"run", "--video", "c.mp4", "--headless", NULL}, "--video renders the viewer's frames"},
        {{"run", "--video", "c.mp4", "--at", "3", NULL}, "--video renders the viewer's frames"},
        {{"run", "--video", "c.mp4", "--screenshot", "s.png", NULL}, "--video renders the viewer's frames"},
        {{"run", "--from", "3", NULL}, "racesim run: --from and --to set the stretch of a --video"},
        {{"run", "--to", "3", "--screenshot", "s.png", NULL}, "--from and --to set the stretch of a --video"},
        {{"run", "--video", "c.mp4", "--from", "3", "--to", "3", NULL}, "racesim run: --to must be later than --from"},
        {{"run", "--video", "c.mp4", "--to", "1e7", NULL}, "--to: expected a number of seconds 0..1000000, got '1e7'"},
        {{"run", "--headless", "--at", "1", NULL}, "racesim run: --at is the moment the viewer opens at"},
        {{"run", "--size", "959x540", NULL},
         "racesim run: --size: expected WIDTHxHEIGHT in pixels, 960x540..3840x2160 (e.g. 1920x1080), got '959x540'"},
        {{"run", "--size", "1280*800", NULL}, "--size: expected WIDTHxHEIGHT"},
        {{"run", "--size", "1280x800", "--headless", NULL}, "racesim run: --size is the window's"},
        {{"run", "--video", "c.mp4", "--size", "1280x801", NULL}, "a video's width and height must be even"},
        {{"run", "--video", "c.mp4", "--fps", "0", NULL},
         "racesim run: --fps: expected frames a second, an integer 1..120, got '0'"},
        {{"run", "--fps", "30", NULL}, "racesim run: --fps sets the frame rate of a --video"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cli_call_begin(&c, refused[i].words, &out, &err);
        rc = cli_run_parse(c.argc, c.argv, &o, out, err);
        cli_call_end(out, err);
        TST_CHECK(rc == 2 && c.out_len == 0);
        TST_CHECK(c.err && strstr(c.err, refused[i].says) != NULL);
        cli_call_free(&c);
    }
    return 0;
}

/* the viewer's and the experiments' options from the charts branch: --camera chase, batch --chart (its .svg name is
 * the command's to check, like run --chart), and their refusals */
static int test_chase_and_batch_chart(void)
{
    static const char *const chase[] = {"run", "--camera=chase", "r.ini", NULL};
    static const char *const chart[] = {"batch", "r.ini", "--races", "3", "--chart", "b.svg", NULL};
    CliCall c;
    FILE *out, *err;
    CliRunOpts r;
    cli_call_begin(&c, chase, &out, &err);
    int rc = cli_run_parse(c.argc, c.argv, &r, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && c.err_len == 0);
    TST_STR_EQ(r.camera, "chase");
    cli_call_free(&c);
    CliBatchOpts b;
    cli_call_begin(&c, chart, &out, &err);
    rc = cli_batch_parse(c.argc, c.argv, &b, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && c.err_len == 0 && b.races == 3);
    TST_STR_EQ(b.chart_path, "b.svg");
    cli_call_free(&c);
    static const char *const no_chart[] = {"batch", "r.ini", "--races", "3", NULL};
    cli_call_begin(&c, no_chart, &out, &err);
    rc = cli_batch_parse(c.argc, c.argv, &b, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == CLI_GO && b.chart_path == NULL);
    cli_call_free(&c);
    static const char *const bad_camera[] = {"run", "--camera", "cockpit", NULL};
    cli_call_begin(&c, bad_camera, &out, &err);
    rc = cli_run_parse(c.argc, c.argv, &r, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == 2 && c.out_len == 0);
    TST_CHECK(c.err && strstr(c.err, "racesim run: --camera: expected overview, follow, chase or director, got "
                                     "'cockpit'") != NULL);
    cli_call_free(&c);
    static const char *const empty_chart[] = {"batch", "r.ini", "--races", "3", "--chart=", NULL};
    cli_call_begin(&c, empty_chart, &out, &err);
    rc = cli_batch_parse(c.argc, c.argv, &b, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == 2 && c.out_len == 0);
    TST_CHECK(c.err && strstr(c.err, "racesim batch: --chart: expected a file path, got ''") != NULL);
    cli_call_free(&c);
    return 0;
}

/* "-hq" stops inside a cluster (at h) of short options; the next parse, of another line, must not resume there. */
static int test_parses_in_a_row(void)
{
    static const char *const first[] = {"run", "-hq", NULL};
    static const char *const second[] = {"check", "-v", "a.ini", "b", "--seeds", "4-6", NULL};
    CliCall c;
    FILE *out, *err;
    cli_call_begin(&c, first, &out, &err);
    CliRunOpts r;
    int rc = cli_run_parse(c.argc, c.argv, &r, out, err);
    cli_call_end(out, err);
    TST_CHECK(rc == 0 && c.out_len > 0);
    cli_call_free(&c);
    for (int k = 0; k < 2; k++) {
        cli_call_begin(&c, second, &out, &err);
        CliCheckOpts o;
        rc = cli_check_parse(c.argc, c.argv, &o, out, err);
        cli_call_end(out, err);
        TST_CHECK(rc == CLI_GO && c.err_len == 0);
        TST_CHECK(o.verbose && !o.json && o.have_seeds && o.seed_first == 4 && o.seed_last == 6);
        TST_CHECK(o.path_count == 2);
        TST_STR_EQ(o.paths[0], "a.ini");
        TST_STR_EQ(o.paths[1], "b");
        cli_call_free(&c);
    }
    return 0;
}

int main(void)
{
    TST_RUN(test_batch_values_and_defaults);
    TST_RUN(test_ab_sprt);
    TST_RUN(test_messages_go_to_the_given_streams);
    TST_RUN(test_parses_in_a_row);
    TST_RUN(test_run_at_and_video);
    TST_RUN(test_chase_and_batch_chart);
    return tst_report();
}
