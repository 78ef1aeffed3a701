/* rnd_hud.c: the heads-up display's left column (race info, the standings tower of rnd_tower.c, the event ticker),
 * the help overlay and the results screen. */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RND_TOWER_Y 10.0f
#define RND_PAD RND_PANEL_PAD
#define RND_TEXT_LINE 160 /* a fitted HUD line, bytes */

/* The left column's panels: see-through when the camera is close in, where cars pass under them (the overview
 * keeps the track clear of the column). */
static Uint8 rnd_panel_alpha(const RndCamera *cam)
{
    return cam->mode == RND_CAM_OVERVIEW ? 215 : RND_PANEL_SEE_THROUGH;
}
static const RndRgba rnd_text_main = {235, 235, 240, 255};
static const RndRgba rnd_text_dim = {150, 155, 170, 255};
static const RndRgba rnd_text_accent = {255, 205, 60, 255};

/* ---- timing and events --------------------------------------------------------------------------------------- */

void rnd_hud_reset(RndHudState *hud)
{
    *hud = (RndHudState){0};
    hud->last_event_tick = -1;
}

static void rnd_car_label(const SimWorld *world, int id, char *buf, size_t len)
{
    if (id < 0 || id >= sim_world_car_count(world)) {
        snprintf(buf, len, "%s", id < 0 ? "" : "?");
        return;
    }
    const SimCar *c = sim_world_car(world, id);
    snprintf(buf, len, "#%d %s", c->number, c->name);
}

static bool rnd_ticker_shows(SimEventType type)
{
    return type == SIM_EV_OVERTAKE || type == SIM_EV_LAPPING || type == SIM_EV_COLLISION ||
           type == SIM_EV_FINISH || type == SIM_EV_RETIRE; /* not laps or off-track starts */
}

static void rnd_ticker_push(RndHudState *hud, const SimWorld *world, const SimEvent *ev, double time_s)
{
    memmove(&hud->ticker[1], &hud->ticker[0], sizeof hud->ticker[0] * (RND_TICKER_LEN - 1));
    RndTickerItem *it = &hud->ticker[0];
    it->time_s = time_s;
    it->type = ev->type;
    it->value = ev->value;
    rnd_car_label(world, ev->a, it->a, sizeof it->a);
    rnd_car_label(world, ev->type == SIM_EV_FINISH || ev->type == SIM_EV_RETIRE ? -1 : ev->b, it->b, sizeof it->b);
    if (hud->ticker_count < RND_TICKER_LEN)
        hud->ticker_count++;
}

/* Events newer than the last observed tick, oldest first (works whether the list is per step or cumulative). */
static void rnd_hud_collect_events(RndHudState *hud, const SimWorld *world)
{
    int count = 0;
    const SimEvent *ev = sim_world_events(world, &count);
    int first = count;
    while (first > 0 && ev[first - 1].tick > hud->last_event_tick)
        first--;
    double dt = sim_world_def(world)->tick_hz > 0 ? 1.0 / sim_world_def(world)->tick_hz : 0.01;
    for (int i = first; i < count; i++)
        if (rnd_ticker_shows(ev[i].type))
            rnd_ticker_push(hud, world, &ev[i], ev[i].tick * dt);
    hud->last_event_tick = sim_world_tick(world);
}

void rnd_hud_observe(RndHudState *hud, const SimWorld *world)
{
    rnd_hud_collect_events(hud, world);
}

/* ---- race info and ticker -------------------------------------------------------------------------------------- */

static void rnd_speed_label(const RndUi *ui, char *buf, size_t len)
{
    double f = rnd_speed_factor(ui->speed_index);
    if (f < 1.0)
        snprintf(buf, len, "speed 1/%dx", (int)(1.0 / f + 0.5));
    else
        snprintf(buf, len, "speed %dx", (int)f);
}

/* Track name, sim speed and camera mode at the top of the left column (the race clock is in the tower's header);
 * returns the bottom edge. */
static float rnd_hud_info(RndAa *aa, RndText *text, const RndFrame *frame, const RndUi *ui,
                          const RndCamera *cam)
{
    const SimWorld *world = frame->world;
    float w = (float)rnd_tower_width(text), x = RND_TOWER_X, y = RND_TOWER_Y;
    float bold_h = (float)rnd_text_height(text, RND_FONT_BOLD), line_h = (float)rnd_text_height(text, RND_FONT_NORMAL);
    float h = RND_PAD * 2 + bold_h + line_h;
    rnd_aa_panel(aa, x, y, w, h, rnd_panel_alpha(cam));
    char buf[96];
    float status_w = ui->paused ? (float)rnd_text_width(text, RND_FONT_BOLD, "PAUSED") + 8.0f : 0.0f;
    rnd_text_draw_fit(text, RND_FONT_BOLD, trk_name(sim_world_track(world)), x + RND_PAD, y + RND_PAD,
                      w - 2 * RND_PAD - status_w, rnd_text_main, RND_LEFT);
    if (ui->paused)
        rnd_text_draw(text, RND_FONT_BOLD, "PAUSED", x + w - RND_PAD, y + RND_PAD, rnd_text_accent, RND_RIGHT);
    rnd_speed_label(ui, buf, sizeof buf);
    rnd_text_draw(text, RND_FONT_NORMAL, buf, x + RND_PAD, y + RND_PAD + bold_h, rnd_text_main, RND_LEFT);
    static const char *const modes[] = {"overview", "follow", "free", "director", "chase"};
    snprintf(buf, sizeof buf, "cam %s", modes[cam->mode]);
    rnd_text_draw(text, RND_FONT_NORMAL, buf, x + w - RND_PAD, y + RND_PAD + bold_h, rnd_text_dim, RND_RIGHT);
    return y + h;
}

static RndRgba rnd_event_colour(SimEventType type)
{
    switch (type) {
    case SIM_EV_COLLISION:
        return rnd_rgba(255, 110, 90, 255);
    case SIM_EV_OVERTAKE:
        return rnd_rgba(130, 210, 255, 255);
    case SIM_EV_FINISH:
        return rnd_rgba(255, 220, 90, 255);
    default:
        return rnd_text_main;
    }
}

static float rnd_ticker_height(RndText *text)
{
    return RND_PAD * 2 + RND_TICKER_LEN * (float)rnd_text_height(text, RND_FONT_SMALL);
}

/* The words around the cars' labels in an event's line: pre A mid B post. */
static void rnd_ticker_words(const RndTickerItem *it, const char **pre, const char **mid, char *post, size_t len)
{
    *pre = "";
    *mid = "";
    post[0] = '\0';
    switch (it->type) {
    case SIM_EV_OVERTAKE:
        *mid = " passes ";
        break;
    case SIM_EV_LAPPING:
        *mid = " laps ";
        break;
    case SIM_EV_COLLISION:
        *pre = "contact ";
        *mid = " / ";
        snprintf(post, len, ", %.0f m/s", fmin(fmax(it->value, 0.0), 999.0));
        break;
    case SIM_EV_FINISH:
        *mid = " finishes";
        break;
    case SIM_EV_RETIRE:
        *mid = " retires";
        break;
    default:
        break;
    }
}

/* An event's line fitted into max_w pixels. The words are kept and the cars' labels shortened: a short label keeps
 * its width and the other gets the rest, else they share the room equally, so both cars stay named. Labels start
 * with the number, so a shortened one still says which car it is. The whole line is fitted last, as a guard
 * against kerning across the joins. */
static void rnd_ticker_line(RndText *text, const RndTickerItem *it, int max_w, char *out, size_t len)
{
    const char *pre, *mid;
    char post[32], fixed[96];
    rnd_ticker_words(it, &pre, &mid, post, sizeof post);
    snprintf(fixed, sizeof fixed, "%s%s%s", pre, mid, post);
    int avail = max_w - rnd_text_width(text, RND_FONT_SMALL, fixed);
    int wa = rnd_text_width(text, RND_FONT_SMALL, it->a);
    int wb = it->b[0] ? rnd_text_width(text, RND_FONT_SMALL, it->b) : 0;
    int ba = wa, bb = wb;
    if (wa + wb > avail) {
        int half = avail / 2;
        if (!it->b[0])
            ba = avail;
        else if (wa <= half)
            bb = avail - wa;
        else if (wb <= half)
            ba = avail - wb;
        else {
            ba = half;
            bb = avail - half;
        }
    }
    char fa[RND_TICKER_LABEL + 8], fb[RND_TICKER_LABEL + 8], line[2 * RND_TICKER_LABEL + 128];
    rnd_text_fit(text, RND_FONT_SMALL, it->a, ba, fa, sizeof fa);
    fb[0] = '\0';
    if (it->b[0])
        rnd_text_fit(text, RND_FONT_SMALL, it->b, bb, fb, sizeof fb);
    snprintf(line, sizeof line, "%s%s%s%s%s", pre, fa, mid, fb, post);
    rnd_text_fit(text, RND_FONT_SMALL, line, max_w, out, len);
}

static void rnd_hud_ticker(RndAa *aa, RndText *text, const RndHudState *hud, const RndCamera *cam, float y)
{
    SDL_Renderer *r = aa->renderer;
    if (hud->ticker_count == 0)
        return;
    float line_h = (float)rnd_text_height(text, RND_FONT_SMALL);
    float w = (float)rnd_tower_width(text), x = RND_TOWER_X, h = RND_PAD * 2 + hud->ticker_count * line_h;
    rnd_aa_panel(aa, x, y, w, h, rnd_panel_alpha(cam));
    /* the clock column is as wide as a clock past 100 minutes; the lines take the rest, less the padding */
    float stamp_right = x + RND_PAD + (float)rnd_text_width(text, RND_FONT_SMALL, "000:00");
    float text_x = stamp_right + 8.0f;
    int text_w = (int)(x + w - RND_PAD - text_x);
    SDL_Rect clip = {(int)x, (int)y, (int)w, (int)h};
    SDL_RenderSetClipRect(r, &clip); /* a guard only: every line is fitted to the panel by measuring it */
    for (int i = 0; i < hud->ticker_count; i++) {
        const RndTickerItem *it = &hud->ticker[i];
        char stamp[32], line[RND_TEXT_LINE];
        rnd_format_time(stamp, sizeof stamp, it->time_s, 0);
        float ly = y + RND_PAD + i * line_h;
        rnd_text_draw(text, RND_FONT_SMALL, stamp, stamp_right, ly, rnd_text_dim, RND_RIGHT);
        RndRgba c = rnd_event_colour(it->type);
        if (i >= 3)
            c.a = 170; /* older lines fade */
        rnd_ticker_line(text, it, text_w, line, sizeof line);
        rnd_text_draw(text, RND_FONT_SMALL, line, text_x, ly, c, RND_LEFT);
    }
    SDL_RenderSetClipRect(r, NULL);
}

void rnd_hud_draw(RndAa *aa, RndText *text, const RndHudState *hud, const RndTiming *timing,
                  const RndFrame *frame, const RndUi *ui, const RndCamera *cam, bool timeline, int view_w, int view_h,
                  RndTowerHits *hits)
{
    (void)view_w;
    float y = rnd_hud_info(aa, text, frame, ui, cam) + 6.0f;
    float reserve = rnd_ticker_height(text) + 30.0f + (timeline ? RND_TIMELINE_H : 0.0f);
    y = rnd_tower_draw(aa, text, timing, frame, ui->selected, y, reserve, view_h, cam->mode != RND_CAM_OVERVIEW,
                       hits) + 6.0f;
    rnd_hud_ticker(aa, text, hud, cam, y);
    rnd_text_draw(text, RND_FONT_SMALL, "h: help", 12.0f, view_h - rnd_text_height(text, RND_FONT_SMALL) - 6.0f,
                  rnd_text_dim, RND_LEFT);
}

/* ---- help and results ----------------------------------------------------------------------------------------- */

static const char *const rnd_help_lines[][2] = {
    {"space", "pause / resume"},
    {".", "one tick while paused"},
    {"+  -", "sim speed (1/4x .. 64x)"},
    {"Tab / click", "select a car and follow it (shift+Tab: previous)"},
    {"click a row", "of the standings tower: select that car"},
    {"c", "camera: TV director / follow / chase (heading up) / overview"},
    {"wheel, drag", "zoom about the cursor, pan"},
    {"m", "context-map inspector of the selected car"},
    {"s", "screenshot (racesim-TICK.png)"},
    {"r", "restart with the same seed"},
    {"Enter", "hide / show the results at the end"},
    {"left  right", "rewind / forward 5 s (shift: 30 s); live again at the newest"},
    {"h", "this help"},
    {"Esc", "quit"},
};

void rnd_hud_draw_help(RndAa *aa, RndText *text, int view_w, int view_h)
{
    SDL_Renderer *r = aa->renderer;
    int n = (int)(sizeof rnd_help_lines / sizeof rnd_help_lines[0]);
    float line_h = (float)rnd_text_height(text, RND_FONT_NORMAL) + 2.0f;
    const float key_right = 120.0f, desc_x = 136.0f, margin = 2 * RND_PAD;
    char font[320];
    snprintf(font, sizeof font, "font: %.280s (--font PATH)", rnd_text_font_path(text));
    /* as wide as the widest line needs, within the window */
    float w = 460.0f;
    for (int i = 0; i < n; i++)
        w = fmaxf(w, desc_x + (float)rnd_text_width(text, RND_FONT_NORMAL, rnd_help_lines[i][1]) + margin);
    w = fmaxf(w, 2 * margin + (float)rnd_text_width(text, RND_FONT_SMALL, font));
    w = fminf(w, (float)view_w - 20.0f);
    float h = 2 * RND_PAD + rnd_text_height(text, RND_FONT_BOLD) + 8.0f + (n + 1) * line_h;
    float x = fmaxf((view_w - w) * 0.5f, 0.0f), y = fmaxf((view_h - h) * 0.5f, 0.0f);
    rnd_aa_panel(aa, x, y, w, h, 235);
    rnd_outline_rect(r, x, y, w, h, rnd_text_dim);
    rnd_text_draw(text, RND_FONT_BOLD, "Controls", x + margin, y + RND_PAD, rnd_text_accent, RND_LEFT);
    float ly = y + RND_PAD + rnd_text_height(text, RND_FONT_BOLD) + 8.0f;
    for (int i = 0; i < n; i++) {
        rnd_text_draw(text, RND_FONT_BOLD, rnd_help_lines[i][0], x + key_right, ly + i * line_h, rnd_text_main,
                      RND_RIGHT);
        rnd_text_draw_fit(text, RND_FONT_NORMAL, rnd_help_lines[i][1], x + desc_x, ly + i * line_h,
                          w - desc_x - margin, rnd_text_main, RND_LEFT);
    }
    rnd_text_draw_fit(text, RND_FONT_SMALL, font, x + margin, ly + n * line_h + 2.0f, w - 2 * margin, rnd_text_dim,
                      RND_LEFT);
}

