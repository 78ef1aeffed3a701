/* rnd_director.c: the TV director. It picks the car the director camera follows, as a race broadcast does: the
 * closest fight on track (the smallest interval between consecutive cars, under RND_BATTLE_S), a car that has just
 * passed another or touched it, else the leader. A shot is held at least RND_SHOT_MIN_S before any cut and a fight
 * at least RND_SHOT_FIGHT_S before another fight replaces it, and a fight stays a fight until its interval grows
 * past RND_FIGHT_KEEP_S: without this hysteresis the camera would flicker between pairs whose intervals cross.
 *
 * The director runs after every sim step on the world's state and events only (never on frame or wall-clock time),
 * so the same race gives the same shots, watched or in a screenshot. It lives in the view; the sim knows nothing. */
#include "rnd_internal.h"

#include <stdio.h>

#define RND_SHOT_MIN_S 3.0     /* no cut before a shot is this old (s of race time) */
#define RND_SHOT_FIGHT_S 6.0   /* a fight is held this long before a closer one replaces it */
#define RND_FIGHT_KEEP_S 1.5   /* the fight being shown stays one until its interval grows past this */
#define RND_FIGHT_BETTER_S 0.3 /* another fight replaces it only when this much closer */
#define RND_EVENT_FRESH_S 3.0  /* a pass or contact is still worth cutting to this long after it */

void rnd_director_reset(RndDirector *d, const SimWorld *world)
{
    *d = (RndDirector){0};
    d->car = -1;
    d->rival = -1;
    d->pending_car = -1;
    d->last_event_tick = -1;
    int n = sim_world_car_count(world);
    double best = -1e300;
    for (int i = 0; i < n; i++) { /* the car at the front of the grid */
        const SimCar *c = sim_world_car(world, i);
        if (c->race_dist_m > best) {
            best = c->race_dist_m;
            d->car = i;
        }
    }
    d->reason = RND_SHOT_LEADER;
}

static void rnd_director_cut(RndDirector *d, int car, int rival, RndShotReason reason, double now_s)
{
    d->car = car;
    d->rival = rival;
    d->reason = reason;
    d->shot_start_s = now_s;
}

/* The newest pass or contact of the step's events, remembered until the shot may cut to it. */
static void rnd_director_events(RndDirector *d, const SimWorld *world, double dt)
{
    int count = 0;
    const SimEvent *ev = sim_world_events(world, &count);
    int first = count;
    while (first > 0 && ev[first - 1].tick > d->last_event_tick)
        first--;
    for (int i = first; i < count; i++) {
        if (ev[i].type != SIM_EV_OVERTAKE && ev[i].type != SIM_EV_COLLISION)
            continue;
        d->pending_car = ev[i].a;
        d->pending_rival = ev[i].b;
        d->pending_reason = ev[i].type == SIM_EV_OVERTAKE ? RND_SHOT_PASS : RND_SHOT_CONTACT;
        d->pending_s = ev[i].tick * dt;
    }
    d->last_event_tick = sim_world_tick(world);
}

/* The closest fight: of the rows marked as fights (both cars racing, under RND_BATTLE_S apart), the smallest
 * interval (-1 when none). */
static int rnd_director_closest(const RndTimingRow *rows, int n)
{
    int best = -1;
    for (int k = 1; k < n; k++)
        if (rows[k].battle && (best < 0 || rows[k].interval_s < rows[best].interval_s))
            best = k;
    return best;
}

/* The row of the fight being shown (its car right behind its rival), or -1. */
static int rnd_director_current_fight(const RndDirector *d, const RndTimingRow *rows, int n)
{
    for (int k = 1; k < n; k++)
        if (rows[k].car == d->car && rows[k - 1].car == d->rival)
            return k;
    return -1;
}

static bool rnd_running(const SimWorld *world, int id)
{
    return id >= 0 && id < sim_world_car_count(world) && sim_world_car(world, id)->status == SIM_RUNNING;
}

void rnd_director_observe(RndDirector *d, const RndTiming *timing, const SimWorld *world)
{
    double hz = sim_world_def(world)->tick_hz;
    double dt = hz > 0.0 ? 1.0 / hz : 0.01, now = sim_world_time(world);
    rnd_director_events(d, world, dt);
    RndTimingRow rows[SIM_MAX_CARS];
    int n = rnd_timing_rows(timing, world, rows);
    if (n == 0)
        return;
    double held = now - d->shot_start_s;
    bool lost = !rnd_running(world, d->car);
    int leader = -1;
    for (int k = 0; k < n && leader < 0; k++)
        leader = rnd_running(world, rows[k].car) ? rows[k].car : -1;
    if (held < RND_SHOT_MIN_S && !lost)
        return;
    /* a fresh pass or contact first */
    if (d->pending_car >= 0 && now - d->pending_s <= RND_EVENT_FRESH_S && rnd_running(world, d->pending_car)) {
        rnd_director_cut(d, d->pending_car, d->pending_rival, d->pending_reason, now);
        d->pending_car = -1;
        return;
    }
    d->pending_car = -1;
    int cur = rnd_director_current_fight(d, rows, n);
    bool fighting = cur >= 0 && rows[cur].has_interval && rows[cur].interval_s < RND_FIGHT_KEEP_S && !lost &&
                    rnd_running(world, d->rival);
    int best = rnd_director_closest(rows, n);
    if (best >= 0 && best != cur &&
        (!fighting || (held >= RND_SHOT_FIGHT_S && rows[best].interval_s < rows[cur].interval_s - RND_FIGHT_BETTER_S))) {
        rnd_director_cut(d, rows[best].car, rows[best - 1].car, RND_SHOT_FIGHT, now);
        return;
    }
    if (fighting) {
        d->reason = RND_SHOT_FIGHT; /* a pass shot that became a fight */
        return;
    }
    if (lost && leader >= 0)
        rnd_director_cut(d, leader, -1, RND_SHOT_LEADER, now);
    else if (d->reason != RND_SHOT_LEADER && leader >= 0 && held >= RND_SHOT_FIGHT_S)
        rnd_director_cut(d, leader, -1, RND_SHOT_LEADER, now); /* the fight is over: back to the front */
}

/* "TV: #7 Vera Lind vs #1 Ace Moreau" (or the one car), fitted into a banner at the top of the view area. */
void rnd_director_draw_caption(RndAa *aa, RndText *text, const RndDirector *d, const SimWorld *world,
                               float left_px, float right_px)
{
    SDL_Renderer *r = aa->renderer;
    int n = sim_world_car_count(world);
    if (d->car < 0 || d->car >= n)
        return;
    const SimCar *a = sim_world_car(world, d->car);
    char line[2 * DRV_NAME_LEN + 48];
    if (d->rival >= 0 && d->rival < n) {
        const SimCar *b = sim_world_car(world, d->rival);
        snprintf(line, sizeof line, "TV: #%d %s vs #%d %s", a->number, a->name, b->number, b->name);
    } else {
        snprintf(line, sizeof line, "TV: #%d %s", a->number, a->name);
    }
    float pad = 8.0f, max_w = right_px - left_px - 2 * pad;
    if (max_w < 40.0f)
        return;
    char fit[sizeof line + 8];
    int w = rnd_text_fit(text, RND_FONT_BOLD, line, (int)(max_w - 2 * pad), fit, sizeof fit);
    float bw = (float)w + 2 * pad, bh = (float)rnd_text_height(text, RND_FONT_BOLD) + 8.0f;
    float x = left_px + (right_px - left_px - bw) * 0.5f, y = 10.0f;
    rnd_aa_panel(aa, x, y, bw, bh, 200);
    rnd_fill_rect(r, x, y + bh - 2.0f, bw, 2.0f, rnd_rgba(a->colour[0], a->colour[1], a->colour[2], 255));
    rnd_text_draw(text, RND_FONT_BOLD, fit, x + pad, y + 4.0f, rnd_rgba(245, 245, 250, 255), RND_LEFT);
}
