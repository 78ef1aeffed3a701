/* app_video.c: `racesim run RACE --video FILE --from T0 --to T1`: the viewer's frames of a stretch of the race,
 * drawn offscreen as the screenshot is (app_frames.c) and piped as raw RGB to ffmpeg, which encodes them into FILE
 * (a temporary file beside it, renamed when ffmpeg succeeded, as every output: app_out.h). */
#include "app_frames.h"
#include "app_out.h"
#include "cli.h" /* cli_video_format */

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

bool app_video_ffmpeg_found(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return false;
    char dir[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        char file[4200];
        snprintf(dir, sizeof dir, "%.*s", (int)n, p);
        snprintf(file, sizeof file, "%s/ffmpeg", n ? dir : ".");
        struct stat st;
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, X_OK) == 0)
            return true;
        p += n;
        p += *p == ':';
    }
    return false;
}

/* ffmpeg reading w x h RGB frames at fps from a pipe and writing `format` into `out`; its stdin is *to. */
static int app_video_spawn(pid_t *pid, FILE **to, int w, int h, int fps, const char *format, const char *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    char size[32], rate[16];
    snprintf(size, sizeof size, "%dx%d", w, h);
    snprintf(rate, sizeof rate, "%d", fps);
    char *argv[] = {"ffmpeg", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                    "-s", size, "-r", rate, "-i", "pipe:0", "-an", "-pix_fmt", "yuv420p", "-f", (char *)format,
                    (char *)out, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    int rc = posix_spawnp(pid, "ffmpeg", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        errno = rc;
        return -1;
    }
    *to = fdopen(fds[1], "wb");
    if (!*to) {
        close(fds[1]);
        waitpid(*pid, NULL, 0);
        return -1;
    }
    return 0;
}

static int app_video_fps(const AppViewOpts *opts)
{
    return opts->fps > 0 ? opts->fps : APP_VIDEO_FPS;
}

/* Draws and sends every frame of [from, to]; returns the frames sent, or -1 when the pipe broke. */
static long app_video_frames(AppFrames *f, const AppViewOpts *opts, FILE *to, char *err, size_t err_len)
{
    SimWorld *world = sim_session_world(f->session);
    double dt = app_frames_dt(world);
    int fps = app_video_fps(opts);
    long count = (long)floor((opts->to_s - opts->from_s) * fps + 1e-9) + 1;
    long sent = 0;
    for (long k = 0; k < count; k++) {
        double t = opts->from_s + (double)k / fps;
        long tick = (long)ceil(t / dt - 1e-9);
        app_frames_step_to(f, tick);
        if (sim_world_tick(world) < tick) { /* the race ended before */
            app_frames_warn_past_end(world, "--to", opts->to_s);
            break;
        }
        double alpha = 1.0 - ((double)tick * dt - t) / dt; /* t lies between the last two ticks */
        app_frames_draw(f, alpha < 0.0 ? 0.0 : alpha > 1.0 ? 1.0 : alpha);
        int w = 0, h = 0;
        uint8_t *rgb = rnd_read_rgb(f->renderer, &w, &h, err, err_len);
        if (!rgb)
            return -1;
        bool ok = fwrite(rgb, 3, (size_t)w * (size_t)h, to) == (size_t)w * (size_t)h;
        free(rgb);
        if (!ok) {
            snprintf(err, err_len, "ffmpeg stopped reading the frames");
            return -1;
        }
        sent++;
    }
    return sent;
}

int app_view_video(const SimRace *race, const AppViewOpts *opts)
{
    char err[4400];
    if (!app_video_ffmpeg_found()) {
        fprintf(stderr, "racesim run: --video needs ffmpeg, which is not installed (Debian: apt-get install ffmpeg; "
                        "tools/install-deps.sh installs it)\n");
        return 2;
    }
    AppFrames f;
    int rc = app_frames_open(&f, race, opts, RND_CAM_DIRECTOR);
    if (rc != 0)
        return rc;
    if (app_frames_seek(&f, "--from", opts->from_s)) {
        app_frames_close(&f);
        return 1;
    }
    AppOut out;
    if (app_out_open(&out, opts->video_path, err, sizeof err) != 0) {
        fprintf(stderr, "racesim run: %s\n", err);
        app_frames_close(&f);
        return 1;
    }
    int w, h;
    app_frames_size(opts, &w, &h);
    pid_t pid;
    FILE *to = NULL;
    /* ffmpeg writes the temporary file itself; it is renamed onto the target only when ffmpeg succeeded */
    if (app_video_spawn(&pid, &to, w, h, app_video_fps(opts), cli_video_format(opts->video_path), out.tmp) != 0) {
        fprintf(stderr, "racesim run: cannot start ffmpeg: %s\n", strerror(errno));
        app_out_abort(&out);
        app_frames_close(&f);
        return 1;
    }
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN); /* an ffmpeg that dies is an error here, not a signal */
    err[0] = '\0';
    long sent = app_video_frames(&f, opts, to, err, sizeof err);
    bool closed = fclose(to) == 0;
    int status = 0;
    bool waited = waitpid(pid, &status, 0) == pid;
    signal(SIGPIPE, old_pipe);
    app_frames_close(&f);
    if (sent <= 0 || !closed || !waited || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "racesim run: %s: the video was not written (%s)\n", opts->video_path,
                err[0] ? err : sent == 0 ? "no frame" : "ffmpeg failed");
        app_out_abort(&out);
        return 1;
    }
    if (app_out_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "racesim run: %s\n", err);
        return 1;
    }
    fprintf(stderr, "racesim run: wrote %s: %ld frames of %dx%d at %d fps from %.2f s of the race\n",
            opts->video_path, sent, w, h, app_video_fps(opts), opts->from_s);
    return 0;
}
