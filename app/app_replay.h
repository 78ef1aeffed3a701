/* app_replay.h: the window's rewind: keyframes of the race taken as it runs, and going to any moment since the
 * start. The race is a pure function of its files and seed, so a session restored to a keyframe and stepped on is
 * the race as it was (sim_snapshot_*); the view's observations are restored with it (rnd_view_mark_*).
 *
 * A keyframe is taken every APP_REPLAY_INTERVAL_S of race time at first. At most APP_REPLAY_MAX_KEYS are kept: when
 * they are all used, every second one is dropped and the interval doubles, so memory stays bounded however long the
 * race and a seek steps at most one interval. */
#ifndef APP_REPLAY_H
#define APP_REPLAY_H

#include "../render/rnd.h"
#include "../sim/sim.h"

#define APP_REPLAY_INTERVAL_S 5.0
#define APP_REPLAY_MAX_KEYS 128

typedef struct AppReplayKey {
    SimSnapshot *snap;
    unsigned char *view_mark; /* rnd_view_mark_bytes() */
    long tick;
} AppReplayKey;

typedef struct AppReplay {
    SimSession *session;   /* borrowed */
    RndView *view;         /* borrowed */
    long interval_ticks;
    int count;
    AppReplayKey keys[APP_REPLAY_MAX_KEYS]; /* ascending ticks; keys[0] is the start */
    double key_s[APP_REPLAY_MAX_KEYS];      /* their race times, for the timeline */
    long newest_tick;      /* the furthest the race has run (the live edge) */
    RndTimeline timeline;  /* kept up to date for the view (rnd_view_set_timeline) */
} AppReplay;

/* Starts on a session that has not stepped yet (takes the keyframe of the start). Nonzero when out of memory. */
int app_replay_init(AppReplay *rp, SimSession *session, RndView *view);
void app_replay_free(AppReplay *rp);
/* One tick: the poses before it into prev, the step, the view's observation, a keyframe when one is due. */
void app_replay_step(AppReplay *rp, RndSnapshot *prev);
/* Shows the race at `tick` (clamped to the start and the newest tick): from the current tick when it lies ahead
 * within an interval, else from the last keyframe before it. Nonzero when a keyframe cannot be restored. */
int app_replay_seek(AppReplay *rp, RndSnapshot *prev, long tick);
/* The timeline for the view, updated to the current tick. */
const RndTimeline *app_replay_timeline(AppReplay *rp);
/* The memory the keyframes hold, bytes. */
size_t app_replay_bytes(const AppReplay *rp);

#endif
