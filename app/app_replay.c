/* app_replay.c: keyframes of the watched race and seeking among them (app_replay.h). */
#include "app_replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double app_replay_dt(const AppReplay *rp)
{
    double hz = sim_world_def(sim_session_world(rp->session))->tick_hz;
    return hz > 0.0 ? 1.0 / hz : 0.01;
}

static void app_replay_key_free(AppReplayKey *k)
{
    sim_snapshot_destroy(k->snap);
    free(k->view_mark);
    memset(k, 0, sizeof *k);
}

/* A keyframe of the race and the view now, appended. */
static int app_replay_take(AppReplay *rp)
{
    AppReplayKey *k = &rp->keys[rp->count];
    k->snap = sim_snapshot_create(rp->session);
    k->view_mark = malloc(rnd_view_mark_bytes());
    if (!k->snap || !k->view_mark || sim_snapshot_take(k->snap, rp->session) != 0) {
        app_replay_key_free(k);
        return 1;
    }
    rnd_view_mark_save(rp->view, k->view_mark);
    k->tick = sim_snapshot_tick(k->snap);
    rp->key_s[rp->count] = (double)k->tick * app_replay_dt(rp);
    rp->count++;
    return 0;
}

/* All keyframes used: keep every second one (the start stays) and take them half as often. */
static void app_replay_thin(AppReplay *rp)
{
    int kept = 0;
    for (int i = 0; i < rp->count; i++) {
        if (i % 2 == 0) {
            rp->keys[kept] = rp->keys[i];
            rp->key_s[kept] = rp->key_s[i];
            kept++;
        } else {
            app_replay_key_free(&rp->keys[i]);
        }
    }
    rp->count = kept;
    rp->interval_ticks *= 2;
}

int app_replay_init(AppReplay *rp, SimSession *session, RndView *view)
{
    memset(rp, 0, sizeof *rp);
    rp->session = session;
    rp->view = view;
    rp->interval_ticks = (long)ceil(APP_REPLAY_INTERVAL_S / app_replay_dt(rp) - 1e-9);
    rp->interval_ticks = rp->interval_ticks > 0 ? rp->interval_ticks : 1;
    rp->newest_tick = sim_world_tick(sim_session_world(session));
    return app_replay_take(rp);
}

void app_replay_free(AppReplay *rp)
{
    for (int i = 0; i < rp->count; i++)
        app_replay_key_free(&rp->keys[i]);
    rp->count = 0;
}

void app_replay_step(AppReplay *rp, RndSnapshot *prev)
{
    SimWorld *world = sim_session_world(rp->session);
    rnd_snapshot_capture(prev, world);
    sim_world_step(world);
    rnd_view_observe(rp->view, world);
    long tick = sim_world_tick(world);
    if (tick > rp->newest_tick)
        rp->newest_tick = tick;
    /* keyframes are only ever appended at the live edge: those behind it are the same race */
    if (rp->count > 0 && tick % rp->interval_ticks == 0 && tick > rp->keys[rp->count - 1].tick) {
        if (rp->count == APP_REPLAY_MAX_KEYS)
            app_replay_thin(rp);
        if (tick % rp->interval_ticks == 0) /* still due at the interval after thinning */
            app_replay_take(rp);            /* out of memory: this keyframe is missing, the seek steps further */
    }
}

int app_replay_seek(AppReplay *rp, RndSnapshot *prev, long tick)
{
    SimWorld *world = sim_session_world(rp->session);
    tick = tick < 0 ? 0 : tick > rp->newest_tick ? rp->newest_tick : tick;
    long now = sim_world_tick(world);
    int k = 0;
    while (k + 1 < rp->count && rp->keys[k + 1].tick <= tick)
        k++;
    if (tick < now || rp->keys[k].tick > now) {
        if (sim_snapshot_restore(rp->keys[k].snap, rp->session) != 0)
            return 1;
        rnd_view_mark_restore(rp->view, rp->keys[k].view_mark);
        rnd_snapshot_capture(prev, world);
    }
    while (sim_world_tick(world) < tick && !sim_world_done(world))
        app_replay_step(rp, prev);
    return 0;
}

const RndTimeline *app_replay_timeline(AppReplay *rp)
{
    double dt = app_replay_dt(rp);
    rp->timeline.now_s = (double)sim_world_tick(sim_session_world(rp->session)) * dt;
    rp->timeline.newest_s = (double)rp->newest_tick * dt;
    rp->timeline.keyframe_count = rp->count;
    rp->timeline.keyframe_s = rp->key_s;
    return &rp->timeline;
}

size_t app_replay_bytes(const AppReplay *rp)
{
    size_t n = 0;
    for (int i = 0; i < rp->count; i++)
        n += sim_snapshot_bytes(rp->keys[i].snap) + rnd_view_mark_bytes();
    return n;
}
