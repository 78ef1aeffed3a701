/* rnd_replay.c: what the view needs for the window's rewind: marks of what it has learnt from the race (saved and
 * restored with the race's keyframes) and the timeline bar. */
#include "rnd_internal.h"

#include <stdio.h>
#include <string.h>

/* The view's observations: the ticker, the director and the timing's figures. The timing's table of when the lead
 * reached each mark is not copied: it is only ever written past its count, and a rewound race writes it again the
 * same, so the count restored is enough. */
typedef struct RndViewMark {
    RndHudState hud;
    RndDirector director;
    RndTiming timing; /* its table pointer and capacity are the view's own */
} RndViewMark;

size_t rnd_view_mark_bytes(void)
{
    return sizeof(RndViewMark);
}

void rnd_view_mark_save(const RndView *view, void *buf)
{
    RndViewMark m = {view->hud, view->director, view->timing};
    memcpy(buf, &m, sizeof m);
}

void rnd_view_mark_restore(RndView *view, const void *buf)
{
    RndViewMark m;
    memcpy(&m, buf, sizeof m);
    view->hud = m.hud;
    view->director = m.director;
    m.timing.lead_time_s = view->timing.lead_time_s;
    m.timing.lead_cap = view->timing.lead_cap;
    if (m.timing.lead_marks > m.timing.lead_cap) /* a table that could not grow since: start it again */
        m.timing.lead_marks = 0;
    view->timing = m.timing;
}

void rnd_view_set_timeline(RndView *view, const RndTimeline *timeline)
{
    view->timeline = timeline;
}

/* ---- the timeline bar ------------------------------------------------------------------------------------------ */

static const RndRgba rnd_tl_bg = {16, 18, 24, 200};
static const RndRgba rnd_tl_span = {70, 90, 130, 255};   /* the race so far: every moment of it can be shown */
static const RndRgba rnd_tl_played = {255, 205, 60, 255}; /* up to the moment shown */
static const RndRgba rnd_tl_key = {150, 170, 210, 255};   /* a keyframe */
static const RndRgba rnd_tl_text = {235, 235, 240, 255};
static const RndRgba rnd_tl_replay = {255, 120, 90, 255};

void rnd_timeline_draw(SDL_Renderer *r, RndText *text, const RndTimeline *tl, float right_px, int view_h)
{
    float small_h = (float)rnd_text_height(text, RND_FONT_SMALL);
    float x = RND_TOWER_X, y = view_h - small_h - 6.0f - RND_TIMELINE_H + 2.0f;
    float w = right_px - x, h = RND_TIMELINE_H - 6.0f;
    if (w < 40.0f)
        return;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    rnd_fill_rect(r, x, y, w, h, rnd_tl_bg);
    double span = tl->newest_s > 0.0 ? tl->newest_s : 1.0;
    float inner = w - 4.0f;
    rnd_fill_rect(r, x + 2.0f, y + 2.0f, inner, h - 4.0f, rnd_tl_span);
    double f = tl->now_s / span;
    f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
    rnd_fill_rect(r, x + 2.0f, y + 2.0f, (float)(inner * f), h - 4.0f, rnd_tl_played);
    for (int k = 0; k < tl->keyframe_count; k++) {
        double kf = tl->keyframe_s[k] / span;
        if (kf >= 0.0 && kf <= 1.0)
            rnd_fill_rect(r, x + 2.0f + (float)(inner * kf), y + h - 4.0f, 1.0f, 3.0f, rnd_tl_key);
    }
    float mx = x + 2.0f + (float)(inner * f);
    rnd_fill_rect(r, mx - 1.0f, y - 2.0f, 3.0f, h + 4.0f, rnd_tl_text);
    /* the words, on the "h: help" line: the time shown, and LIVE or how far behind the newest it is */
    char now[32], newest[32], line[96];
    rnd_format_time(now, sizeof now, tl->now_s, 1);
    bool live = tl->now_s >= tl->newest_s - 1e-6;
    if (live) {
        snprintf(line, sizeof line, "LIVE  %s", now);
    } else {
        rnd_format_time(newest, sizeof newest, tl->newest_s, 1);
        snprintf(line, sizeof line, "REPLAY  %s / %s", now, newest);
    }
    float tw = (float)rnd_text_width(text, RND_FONT_SMALL, line);
    rnd_fill_rect(r, right_px - tw - 4.0f, view_h - small_h - 6.0f, tw + 4.0f, small_h, rnd_tl_bg); /* over the track */
    rnd_text_draw(text, RND_FONT_SMALL, line, right_px, view_h - small_h - 6.0f, live ? rnd_tl_text : rnd_tl_replay,
                  RND_RIGHT);
}
