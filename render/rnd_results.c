/* rnd_results.c: the results screen when a race is over: a styled standings table right of the tower (the tower
 * and the ticker stay in view), in finishing order with each car's colour, race time or gap to the winner, best lap
 * (the race's fastest in purple), laps and status. The figures are the world's own, the same as the terminal
 * table's. */
#include "rnd_internal.h"

#include <stdio.h>

#define RND_RESULTS_W 660.0f

static const RndRgba rnd_res_main = {235, 235, 240, 255};
static const RndRgba rnd_res_dim = {150, 155, 170, 255};
static const RndRgba rnd_res_accent = {255, 205, 60, 255};
static const RndRgba rnd_res_fastest = {190, 90, 255, 255}; /* as the tower's */
static const RndRgba rnd_res_dnf = {235, 90, 80, 255};

typedef struct RndResCols {
    float pos, chip, name, laps, time, best, status, right;
} RndResCols;

/* The winner's time and the race's fastest lap (and whose it is). */
static void rnd_results_marks(const SimWorld *world, double *win_s, double *fastest_s, int *fastest_car)
{
    *win_s = 0.0, *fastest_s = 0.0, *fastest_car = -1;
    for (int i = 0; i < sim_world_car_count(world); i++) {
        const SimCar *c = sim_world_car(world, i);
        if (c->status == SIM_FINISHED && (*win_s == 0.0 || c->finish_time_s < *win_s))
            *win_s = c->finish_time_s;
        if (c->best_lap_s > 0.0 && (*fastest_s == 0.0 || c->best_lap_s < *fastest_s))
            *fastest_s = c->best_lap_s, *fastest_car = i;
    }
}

static void rnd_results_row(SDL_Renderer *r, RndText *text, const SimCar *c, int pos, const RndResCols *k, float y,
                            float row_h, double win_s, int fastest_car)
{
    char buf[96];
    float th = (float)rnd_text_height(text, RND_FONT_NORMAL), ty = y + (row_h - th) * 0.5f;
    if (pos % 2 == 0)
        rnd_fill_rect(r, k->pos - 8.0f, y, k->right - k->pos + 16.0f, row_h, rnd_rgba(255, 255, 255, 10));
    snprintf(buf, sizeof buf, "%d", pos);
    rnd_text_draw(text, RND_FONT_BOLD, buf, k->chip - 10.0f, ty, pos <= 3 ? rnd_res_accent : rnd_res_main, RND_RIGHT);
    rnd_fill_rect(r, k->chip, y + 3.0f, 5.0f, row_h - 6.0f, rnd_rgba(c->colour[0], c->colour[1], c->colour[2], 255));
    snprintf(buf, sizeof buf, "%d", c->number);
    rnd_text_draw(text, RND_FONT_BOLD, buf, k->chip + 10.0f, ty, rnd_res_main, RND_LEFT);
    rnd_text_draw_fit(text, RND_FONT_NORMAL, c->name, k->name, ty, k->laps - k->name - 40.0f, rnd_res_main, RND_LEFT);
    snprintf(buf, sizeof buf, "%d", c->laps);
    rnd_text_draw(text, RND_FONT_NORMAL, buf, k->laps, ty, rnd_res_dim, RND_RIGHT);
    if (c->status == SIM_FINISHED && c->finish_time_s == win_s)
        rnd_format_result_time(buf, sizeof buf, c->finish_time_s);
    else if (c->status == SIM_FINISHED)
        snprintf(buf, sizeof buf, "+%.3f", c->finish_time_s - win_s); /* as the terminal table */
    else
        snprintf(buf, sizeof buf, "-");
    rnd_text_draw(text, RND_FONT_NORMAL, buf, k->time, ty, rnd_res_main, RND_RIGHT);
    if (c->best_lap_s > 0.0)
        rnd_format_result_time(buf, sizeof buf, c->best_lap_s);
    else
        snprintf(buf, sizeof buf, "-");
    rnd_text_draw(text, RND_FONT_NORMAL, buf, k->best, ty, c->id == fastest_car ? rnd_res_fastest : rnd_res_dim,
                  RND_RIGHT);
    const char *status = c->status == SIM_FINISHED ? "finished" : c->status == SIM_DNF ? "DNF" : "running";
    if (c->status == SIM_DNF && c->dnf_reason[0])
        snprintf(buf, sizeof buf, "DNF (%s)", c->dnf_reason);
    else
        snprintf(buf, sizeof buf, "%s", status);
    rnd_text_draw_fit(text, RND_FONT_SMALL, buf, k->status, ty + 2.0f, k->right - k->status,
                      c->status == SIM_DNF ? rnd_res_dnf : rnd_res_dim, RND_LEFT);
}

void rnd_hud_draw_results(RndAa *aa, RndText *text, const RndFrame *frame, int view_w, int view_h)
{
    SDL_Renderer *r = aa->renderer;
    const SimWorld *world = frame->world;
    const int *order = sim_world_order(world);
    int n = sim_world_car_count(world);
    if (!order || n <= 0)
        return;
    float left = RND_TOWER_X + (float)rnd_tower_width(text) + 10.0f;
    float room = view_w - left - 10.0f, w = room < RND_RESULTS_W ? room : RND_RESULTS_W;
    float big_h = (float)rnd_text_height(text, RND_FONT_BIG), small_h = (float)rnd_text_height(text, RND_FONT_SMALL);
    float row_h = (float)rnd_text_height(text, RND_FONT_NORMAL) + 4.0f, head = 16.0f + big_h + small_h + 14.0f;
    int rows = n;
    float fit = (view_h - 20.0f - head - 2.0f * small_h - 30.0f) / row_h;
    if (rows > (int)fit)
        rows = fit > 1.0f ? (int)fit : 1;
    float h = head + small_h + 6.0f + rows * row_h + small_h + 24.0f;
    float x = left + (room - w) * 0.5f, y = (view_h - h) * 0.5f;
    y = y < 10.0f ? 10.0f : y;
    rnd_aa_panel(aa, x, y, w, h, 235);
    rnd_fill_rect(r, x, y, w, 3.0f, rnd_res_accent);
    double win_s, fastest_s;
    int fastest_car;
    rnd_results_marks(world, &win_s, &fastest_s, &fastest_car);
    char buf[160];
    int laps = sim_world_def(world)->laps;
    snprintf(buf, sizeof buf, "Results: %.80s, %d lap%s", trk_name(sim_world_track(world)), laps, laps == 1 ? "" : "s");
    rnd_text_draw_fit(text, RND_FONT_BIG, buf, x + 16.0f, y + 12.0f, w - 32.0f, rnd_res_accent, RND_LEFT);
    if (fastest_car >= 0) {
        char t[32];
        const SimCar *f = sim_world_car(world, fastest_car);
        rnd_format_result_time(t, sizeof t, fastest_s);
        snprintf(buf, sizeof buf, "fastest lap #%d %s %s", f->number, f->name, t);
        rnd_text_draw_fit(text, RND_FONT_SMALL, buf, x + 16.0f, y + 14.0f + big_h, w - 32.0f, rnd_res_fastest,
                          RND_LEFT);
    }
    RndResCols k = {x + 16.0f, x + 52.0f, x + 100.0f, x + 330.0f, x + 430.0f, x + 520.0f, x + 540.0f, x + w - 16.0f};
    float hy = y + head;
    rnd_text_draw(text, RND_FONT_SMALL, "laps", k.laps, hy, rnd_res_dim, RND_RIGHT);
    rnd_text_draw(text, RND_FONT_SMALL, "time / gap", k.time, hy, rnd_res_dim, RND_RIGHT);
    rnd_text_draw(text, RND_FONT_SMALL, "best lap", k.best, hy, rnd_res_dim, RND_RIGHT);
    float ry = hy + small_h + 6.0f;
    for (int i = 0; i < rows; i++)
        rnd_results_row(r, text, sim_world_car(world, order[i]), i + 1, &k, ry + i * row_h, row_h, win_s,
                        fastest_car);
    if (rows < n) {
        snprintf(buf, sizeof buf, "+%d more (the terminal table has them all)", n - rows);
        rnd_text_draw(text, RND_FONT_SMALL, buf, k.pos, ry + rows * row_h, rnd_res_dim, RND_LEFT);
    }
    rnd_text_draw(text, RND_FONT_SMALL, "r: race again    Enter: hide    Esc: quit", x + w - 16.0f,
                  y + h - small_h - 10.0f, rnd_res_dim, RND_RIGHT);
}
