/* rnd_tower.c: the standings tower, as a race broadcast shows it. A header with the lap ("Lap 3/5") and the race
 * clock; a row per car in race order: position, places gained or lost since the start, the number on its colour,
 * the name, the interval to the car ahead, the gap to the leader and the last lap. A car within a second of the car
 * ahead has its interval marked (a fight for the place); the holder of the fastest lap has a purple mark. */
#include "rnd_internal.h"

#include <math.h>
#include <stdio.h>

static const RndRgba rnd_tower_text = {235, 235, 240, 255};
static const RndRgba rnd_tower_dim = {150, 155, 170, 255};
static const RndRgba rnd_tower_accent = {255, 205, 60, 255};
static const RndRgba rnd_tower_battle = {255, 150, 50, 255};
static const RndRgba rnd_tower_fastest = {190, 90, 255, 255};
static const RndRgba rnd_tower_up = {110, 220, 110, 255};
static const RndRgba rnd_tower_down = {240, 100, 90, 255};

/* Column edges of a row, measured with the font. */
typedef struct RndTowerCols {
    float x, w;
    float pos_right, delta_x, num_x, name_x, int_right, gap_right, last_right;
} RndTowerCols;

int rnd_tower_width(RndText *text)
{
    return rnd_text_width(text, RND_FONT_NORMAL, "00 000 MMMMMMMMMM +00.000 +00.000 0:00.00") +
           rnd_text_width(text, RND_FONT_SMALL, "+00") + 52;
}

static RndTowerCols rnd_tower_cols(RndText *text)
{
    RndTowerCols c;
    c.x = RND_TOWER_X;
    c.w = (float)rnd_tower_width(text);
    c.pos_right = c.x + 24.0f;
    c.delta_x = c.pos_right + 4.0f;
    c.num_x = c.delta_x + (float)rnd_text_width(text, RND_FONT_SMALL, "+00") + 8.0f;
    c.name_x = c.num_x + (float)rnd_text_width(text, RND_FONT_NORMAL, "000") + 8.0f;
    c.last_right = c.x + c.w - RND_PANEL_PAD;
    c.gap_right = c.last_right - (float)rnd_text_width(text, RND_FONT_NORMAL, "0:00.00") - 10.0f;
    /* a finished car's figures have three decimals */
    c.int_right = c.gap_right - (float)rnd_text_width(text, RND_FONT_NORMAL, "+00.000") - 10.0f;
    return c;
}

static int rnd_lap_now(const SimWorld *world)
{
    const int *order = sim_world_order(world);
    if (!order || sim_world_car_count(world) == 0)
        return 0;
    int lap = sim_world_car(world, order[0])->laps + 1;
    int laps = sim_world_def(world)->laps;
    return laps > 0 && lap > laps ? laps : lap;
}

/* A small chequered flag (two columns of 2 px squares, in the 5 px left of a two-digit position), marking a car
 * that has taken the flag. */
static void rnd_chequer(SDL_Renderer *r, float x, float y, float h)
{
    float sq = 2.0f;
    int rows = (int)(h / sq);
    for (int j = 0; j < rows; j++)
        for (int i = 0; i < 2; i++)
            rnd_fill_rect(r, x + i * sq, y + j * sq, sq, sq,
                          (i + j) % 2 ? rnd_rgba(20, 20, 20, 255) : rnd_rgba(235, 235, 235, 255));
}

/* The gap column's text: "-" for the leader, "+1 lap", "+12.3"; "" while not known yet (before the first timing
 * point the tower is the grid order). */
static void rnd_gap_text(const RndTimingRow *row, const SimCar *car, int k, char *buf, size_t len)
{
    if (car->status == SIM_DNF)
        snprintf(buf, len, "DNF");
    else if (k == 0)
        snprintf(buf, len, "-");
    else if (row->laps_down > 0)
        snprintf(buf, len, "+%d lap%s", row->laps_down, row->laps_down > 1 ? "s" : "");
    else if (row->has_gap)
        snprintf(buf, len, car->status == SIM_FINISHED ? "+%.3f" : "+%.1f", row->gap_s);
    else
        buf[0] = '\0';
}

static void rnd_interval_text(const RndTimingRow *row, const SimCar *car, int k, char *buf, size_t len)
{
    if (k == 0)
        snprintf(buf, len, "-");
    else if (car->status == SIM_DNF)
        buf[0] = '\0';
    else if (row->laps_behind_ahead > 0)
        snprintf(buf, len, "+%d lap%s", row->laps_behind_ahead, row->laps_behind_ahead > 1 ? "s" : "");
    else if (row->has_interval)
        snprintf(buf, len, car->status == SIM_FINISHED ? "+%.3f" : "+%.1f", row->interval_s);
    else
        buf[0] = '\0';
}

static void rnd_tower_header(RndText *text, const SimWorld *world, const RndTowerCols *c, float y)
{
    char buf[64];
    int laps = sim_world_def(world)->laps;
    if (laps > 0)
        snprintf(buf, sizeof buf, "Lap %d/%d", rnd_lap_now(world), laps);
    else
        snprintf(buf, sizeof buf, "Lap %d", rnd_lap_now(world));
    rnd_text_draw(text, RND_FONT_BOLD, buf, c->x + RND_PANEL_PAD, y + RND_PANEL_PAD, rnd_tower_accent, RND_LEFT);
    rnd_format_time(buf, sizeof buf, sim_world_time(world), 1);
    rnd_text_draw(text, RND_FONT_BOLD, buf, c->last_right, y + RND_PANEL_PAD, rnd_tower_text, RND_RIGHT);
    float cy = y + RND_PANEL_PAD + (float)rnd_text_height(text, RND_FONT_BOLD);
    rnd_text_draw(text, RND_FONT_SMALL, "int", c->int_right, cy, rnd_tower_dim, RND_RIGHT);
    rnd_text_draw(text, RND_FONT_SMALL, "gap", c->gap_right, cy, rnd_tower_dim, RND_RIGHT);
    rnd_text_draw(text, RND_FONT_SMALL, "last", c->last_right, cy, rnd_tower_dim, RND_RIGHT);
}

static void rnd_tower_row(SDL_Renderer *r, RndText *text, const SimWorld *world, const RndTimingRow *row, int k,
                          const RndTowerCols *c, float ry, float row_h, bool selected)
{
    const SimCar *car = sim_world_car(world, row->car);
    char buf[64];
    if (selected)
        rnd_fill_rect(r, c->x + 2, ry, c->w - 4, row_h, rnd_rgba(255, 255, 255, 40));
    RndRgba fg = car->status == SIM_DNF ? rnd_tower_dim : rnd_tower_text;
    snprintf(buf, sizeof buf, "%d", k + 1);
    rnd_text_draw(text, RND_FONT_NORMAL, buf, c->pos_right, ry, fg, RND_RIGHT);
    if (car->status == SIM_FINISHED)
        rnd_chequer(r, c->x + 1.0f, ry + 3.0f, row_h - 6.0f);
    if (row->gained != 0) {
        snprintf(buf, sizeof buf, "%+d", row->gained);
        rnd_text_draw(text, RND_FONT_SMALL, buf, c->delta_x, ry + 2.0f, row->gained > 0 ? rnd_tower_up : rnd_tower_down,
                      RND_LEFT);
    }
    rnd_fill_rect(r, c->num_x - 4.0f, ry + 2.0f, 3.0f, row_h - 4.0f,
                  rnd_rgba(car->colour[0], car->colour[1], car->colour[2], 255));
    snprintf(buf, sizeof buf, "%d", car->number);
    rnd_text_draw(text, RND_FONT_BOLD, buf, c->num_x, ry, fg, RND_LEFT);
    float name_right = c->int_right - (float)rnd_text_width(text, RND_FONT_NORMAL, "+00.0") - 8.0f;
    if (row->fastest) { /* a purple clock mark at the end of the name column */
        rnd_fill_rect(r, name_right - 8.0f, ry + row_h * 0.5f - 4.0f, 8.0f, 8.0f, rnd_tower_fastest);
        name_right -= 12.0f;
    }
    rnd_gap_text(row, car, k, buf, sizeof buf);
    rnd_text_draw(text, RND_FONT_NORMAL, buf, c->gap_right, ry, fg, RND_RIGHT);
    rnd_interval_text(row, car, k, buf, sizeof buf);
    int int_w = rnd_text_draw(text, RND_FONT_NORMAL, buf, c->int_right, ry, row->battle ? rnd_tower_battle : fg,
                              RND_RIGHT);
    if (row->battle) /* a bar left of the interval: fighting for the place */
        rnd_fill_rect(r, c->int_right - int_w - 6.0f, ry + 3.0f, 3.0f, row_h - 6.0f, rnd_tower_battle);
    /* the name has a fixed column, so it does not move as the figures tick; a wide interval ("+1 lap") takes
     * room from it */
    float name_w = fminf(name_right, c->int_right - int_w - 10.0f) - c->name_x;
    rnd_text_draw_fit(text, RND_FONT_NORMAL, car->name, c->name_x, ry, name_w, fg, RND_LEFT);
    if (car->last_lap_s > 0.0) {
        rnd_format_time(buf, sizeof buf, car->last_lap_s, 2);
        bool best = car->best_lap_s > 0.0 && car->last_lap_s <= car->best_lap_s;
        RndRgba lc = best && row->fastest ? rnd_tower_fastest : best ? rnd_rgba(120, 230, 120, 255) : fg;
        rnd_text_draw(text, RND_FONT_NORMAL, buf, c->last_right, ry, lc, RND_RIGHT);
    }
}

float rnd_tower_draw(RndAa *aa, RndText *text, const RndTiming *timing, const RndFrame *frame, int selected,
                     float y, float reserve_px, int view_h, bool translucent, RndTowerHits *hits)
{
    SDL_Renderer *r = aa->renderer;
    const SimWorld *world = frame->world;
    RndTimingRow rows[SIM_MAX_CARS];
    int n = rnd_timing_rows(timing, world, rows);
    RndTowerCols c = rnd_tower_cols(text);
    float row_h = (float)rnd_text_height(text, RND_FONT_NORMAL) + 2.0f;
    float head_h = (float)(rnd_text_height(text, RND_FONT_BOLD) + rnd_text_height(text, RND_FONT_SMALL)) +
                   RND_PANEL_PAD + 2.0f;
    int rows_shown = n;
    int fit = (int)((view_h - y - head_h - reserve_px) / row_h);
    if (rows_shown > fit)
        rows_shown = fit > 1 ? fit - 1 : 0; /* one row for "+N more" */
    float panel_h = head_h + (rows_shown + (rows_shown < n)) * row_h + RND_PANEL_PAD;
    rnd_aa_panel(aa, c.x, y, c.w, panel_h, translucent ? RND_PANEL_SEE_THROUGH : 215);
    rnd_tower_header(text, world, &c, y);
    for (int k = 0; k < rows_shown; k++)
        rnd_tower_row(r, text, world, &rows[k], k, &c, y + head_h + k * row_h, row_h, rows[k].car == selected);
    if (hits) {
        hits->count = rows_shown;
        for (int k = 0; k < rows_shown; k++) {
            hits->row[k] = (SDL_FRect){c.x, y + head_h + k * row_h, c.w, row_h};
            hits->car[k] = rows[k].car;
        }
    }
    if (rows_shown < n) {
        char buf[32];
        snprintf(buf, sizeof buf, "+%d more", n - rows_shown);
        rnd_text_draw(text, RND_FONT_SMALL, buf, c.x + RND_PANEL_PAD, y + head_h + rows_shown * row_h, rnd_tower_dim,
                      RND_LEFT);
    }
    return y + panel_h;
}
