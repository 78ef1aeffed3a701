/* lab_chart.c: SVG lap, gap and A/B charts (see lab_chart.h). Dark background, as on a timing screen, so that
 * bright driver colours read well. */
#include "lab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CH_BG "#15151e"
#define CH_GRID "#33333f"
#define CH_TEXT "#e8e8f0"
#define CH_DIM "#9a9aaa"
#define CH_FONT "font-family=\"DejaVu Sans, Arial, sans-serif\""

/* ---- SVG primitives ----------------------------------------------------------------------------------------- */

static void ch_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, out);
        }
    }
}

/* Text at (x, y); anchor "start", "middle" or "end". */
static void ch_text(FILE *out, double x, double y, const char *anchor, int size, const char *fill, const char *s)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">", x, y, anchor, size,
            fill);
    ch_escaped(out, s);
    fputs("</text>\n", out);
}

static void ch_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke, double width)
{
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n", x1,
            y1, x2, y2, stroke, width);
}

static void ch_colour(char *buf, size_t len, const uint8_t c[3])
{
    snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* A step of 1, 2 or 5 times a power of ten giving about `ticks` intervals over `range`. */
static double ch_nice_step(double range, int ticks)
{
    double raw = range / ticks, mag = pow(10.0, floor(log10(raw)));
    double r = raw / mag;
    return (r <= 1.0 ? 1.0 : r <= 2.0 ? 2.0 : r <= 5.0 ? 5.0 : 10.0) * mag;
}

static int ch_open(const char *path, FILE **out, char *err, size_t err_len)
{
    *out = fopen(path, "w");
    if (!*out)
        snprintf(err, err_len, "cannot write %s", path);
    return *out ? 0 : 1;
}

static int ch_close(const char *path, FILE *out, char *err, size_t err_len)
{
    int bad = ferror(out);
    if (fclose(out) != 0 || bad) {
        snprintf(err, err_len, "write error on %s", path);
        return 1;
    }
    return 0;
}

/* ---- the lap chart ------------------------------------------------------------------------------------------ */

typedef struct ChBox {
    double x, y, w, h;
} ChBox;

static double ch_lap_x(const ChBox *b, const SimTrace *t, double lap) { return b->x + b->w * lap / t->laps; }
static double ch_pos_y(const ChBox *b, const SimTrace *t, int pos)
{
    return t->car_count > 1 ? b->y + b->h * (pos - 1) / (t->car_count - 1) : b->y;
}

static void ch_lap_axes(FILE *out, const SimTrace *t, const ChBox *b)
{
    char s[32];
    ch_text(out, b->x, b->y - 22, "start", 15, CH_TEXT, "Lap chart: position at each lap line");
    int every = t->laps > 30 ? t->laps / 15 : 1;
    for (int lap = 0; lap <= t->laps; lap++) {
        double x = ch_lap_x(b, t, lap);
        ch_line(out, x, b->y - 6, x, b->y + b->h + 6, CH_GRID, 1);
        if (lap % every == 0 || lap == t->laps) {
            snprintf(s, sizeof s, lap == 0 ? "grid" : "L%d", lap);
            ch_text(out, x, b->y + b->h + 24, "middle", 12, CH_DIM, s);
        }
    }
}

/* A driver's label: "P3  #7 Ace Moreau", right-aligned left of the chart (grid) or after its line (finish). */
static void ch_car_label(FILE *out, const SimTraceCar *c, double x, double y, bool left, int pos, const char *col)
{
    char s[96];
    snprintf(s, sizeof s, "P%d  #%d %s", pos, c->number, c->name);
    ch_text(out, x, y + 4, left ? "end" : "start", 12, col, s);
}

static void ch_lap_car(FILE *out, const SimTrace *t, const ChBox *b, int c)
{
    const SimTraceCar *car = &t->cars[c];
    char col[16];
    ch_colour(col, sizeof col, car->colour);
    double last_x = ch_lap_x(b, t, 0), last_y = ch_pos_y(b, t, car->grid);
    int last_pos = car->grid;
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"3\" stroke-linejoin=\"round\" "
            "points=\"%.1f,%.1f", col, last_x, last_y);
    for (int lap = 1; lap <= t->laps; lap++) {
        int pos = sim_trace_position_at(t, c, lap * t->per_lap - 1);
        if (pos == 0)
            break;
        last_x = ch_lap_x(b, t, lap);
        last_y = ch_pos_y(b, t, pos);
        last_pos = pos;
        fprintf(out, " %.1f,%.1f", last_x, last_y);
    }
    fputs("\"/>\n", out);
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", last_x, last_y, col);
    ch_car_label(out, car, b->x - 10, ch_pos_y(b, t, car->grid), true, car->grid, col);
    if (car->status == SIM_DNF)
        ch_text(out, last_x + 8, last_y + 4, "start", 11, col, "DNF");
    else
        ch_car_label(out, car, b->x + b->w + 10, last_y, false, last_pos, col);
}

/* ---- the gap chart ------------------------------------------------------------------------------------------ */

/* Gap of car c at marker k to the first car across it, or -1. */
static double ch_gap(const SimTrace *t, int c, int k)
{
    double mine = t->cross_s[(long)c * t->markers + k], lead = -1.0;
    if (mine < 0.0)
        return -1.0;
    for (int o = 0; o < t->car_count; o++) {
        double x = t->cross_s[(long)o * t->markers + k];
        if (x >= 0.0 && (lead < 0.0 || x < lead))
            lead = x;
    }
    return mine - lead;
}

static int ch_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The scale's top: the largest gap, unless a few stragglers (a crashed or lapped car) would flatten everyone else:
 * then 1.25 x the 90th percentile, and lines beyond it are clipped at the bottom edge. */
static double ch_gap_top(const SimTrace *t)
{
    long n = 0, cap = (long)t->car_count * t->markers;
    double *g = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *g);
    if (!g)
        return 10.0;
    for (int c = 0; c < t->car_count; c++)
        for (int k = 0; k < t->markers; k++) {
            double x = ch_gap(t, c, k);
            if (x >= 0.0)
                g[n++] = x;
        }
    double top = 1.0;
    if (n > 0) {
        qsort(g, (size_t)n, sizeof *g, ch_cmp_double);
        double p90 = g[(long)(0.9 * (double)(n - 1))], max = g[n - 1];
        top = max > 3.0 * p90 && p90 > 0.0 ? 1.25 * p90 : max;
    }
    free(g);
    return top > 0.5 ? top : 0.5;
}

static void ch_gap_axes(FILE *out, const SimTrace *t, const ChBox *b, double top, double step)
{
    char s[32];
    ch_text(out, b->x, b->y - 22, "start", 15, CH_TEXT, "Gap chart: seconds behind the leader (10 points per lap)");
    for (double g = 0.0; g <= top + 1e-9; g += step) {
        double y = b->y + b->h * g / top;
        ch_line(out, b->x, y, b->x + b->w, y, CH_GRID, 1);
        snprintf(s, sizeof s, step < 1.0 ? "%.1f s" : "%.0f s", g);
        ch_text(out, b->x - 8, y + 4, "end", 12, CH_DIM, s);
    }
    int every = t->laps > 30 ? t->laps / 15 : 1;
    for (int lap = 0; lap <= t->laps; lap++) {
        double x = ch_lap_x(b, t, lap);
        ch_line(out, x, b->y, x, b->y + b->h, CH_GRID, 1);
        if (lap % every == 0 || lap == t->laps) {
            snprintf(s, sizeof s, lap == 0 ? "start" : "L%d", lap);
            ch_text(out, x, b->y + b->h + 20, "middle", 12, CH_DIM, s);
        }
    }
}

static void ch_gap_car(FILE *out, const SimTrace *t, const ChBox *b, int c, double top)
{
    const SimTraceCar *car = &t->cars[c];
    char col[16], s[96];
    ch_colour(col, sizeof col, car->colour);
    double last_x = 0.0, last_y = 0.0, last_gap = -1.0;
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"", col);
    for (int k = 0; k < t->markers; k++) {
        double g = ch_gap(t, c, k);
        if (g < 0.0)
            break;
        last_gap = g;
        last_x = ch_lap_x(b, t, (double)(k + 1) / t->per_lap);
        last_y = b->y + b->h * fmin(g, top) / top;
        fprintf(out, "%s%.1f,%.1f", k ? " " : "", last_x, last_y);
    }
    fputs("\"/>\n", out);
    if (last_gap < 0.0)
        return;
    if (last_gap > top)
        snprintf(s, sizeof s, "#%d +%.1f s (off scale)", car->number, last_gap);
    else
        snprintf(s, sizeof s, last_gap == 0.0 ? "#%d leader" : "#%d +%.2f s", car->number, last_gap);
    ch_text(out, last_x + 8, last_y + 4, "start", 11, col, s);
}

void lab_chart_race_svg(const SimTrace *t, const char *title, FILE *out)
{
    const double width = 1280, lap_h = 34.0 * (t->car_count > 1 ? t->car_count - 1 : 1), gap_h = 380;
    ChBox lap = {200, 90, 860, lap_h};
    ChBox gap = {200, lap.y + lap.h + 110, 860, gap_h};
    double height = gap.y + gap.h + 60;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            CH_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" CH_BG "\"/>\n", width, height, width, height);
    ch_text(out, 24, 36, "start", 20, CH_TEXT, title);
    ch_lap_axes(out, t, &lap);
    for (int c = t->car_count - 1; c >= 0; c--) /* the leaders drawn last, on top */
        ch_lap_car(out, t, &lap, c);
    double top = ch_gap_top(t), step = ch_nice_step(top, 6);
    top = ceil(top / step) * step;
    ch_gap_axes(out, t, &gap, top, step);
    for (int c = t->car_count - 1; c >= 0; c--)
        ch_gap_car(out, t, &gap, c, top);
    fputs("</svg>\n", out);
}

int lab_chart_race_write(const SimTrace *t, const char *title, const char *path, char *err, size_t err_len)
{
    FILE *out;
    if (ch_open(path, &out, err, err_len))
        return 1;
    lab_chart_race_svg(t, title, out);
    return ch_close(path, out, err, err_len);
}

/* ---- the A/B chart ------------------------------------------------------------------------------------------ */

static const char *ch_ab_units[LAB_AB_METRIC_COUNT] = {"places", "s", "per race", "per race", "s per race",
                                                          "points per race"};

static void ch_ab_row(FILE *out, const LabAbResult *r, double y, double row_h)
{
    const double x0 = 330, w = 560, mid = x0 + w / 2;
    char s[160], p[32];
    double half_range = fmax(fabs(r->t.lo), fabs(r->t.hi));
    half_range = half_range > 0.0 ? 1.3 * half_range : 1.0;
    bool higher_better = lab_ab_metric_higher_better(r->metric);
    /* shade the side of zero where B is better (green) and where it is worse (red) */
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" opacity=\"0.18\"/>\n",
            higher_better ? mid : x0, y, w / 2, row_h - 10, "#2ecc71");
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" opacity=\"0.18\"/>\n",
            higher_better ? x0 : mid, y, w / 2, row_h - 10, "#e74c3c");
    ch_line(out, mid, y, mid, y + row_h - 10, CH_DIM, 1.5);
    double cy = y + (row_h - 10) / 2, scale = (w / 2) / half_range;
    const char *colour = r->t.p < 0.05 ? "#ffd400" : CH_TEXT;
    ch_line(out, mid + r->t.lo * scale, cy, mid + r->t.hi * scale, cy, colour, 3);
    ch_line(out, mid + r->t.lo * scale, cy - 8, mid + r->t.lo * scale, cy + 8, colour, 3);
    ch_line(out, mid + r->t.hi * scale, cy - 8, mid + r->t.hi * scale, cy + 8, colour, 3);
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\"/>\n", mid + r->t.mean * scale, cy, colour);
    /* the labels sit on their own side of zero */
    ch_text(out, higher_better ? x0 + w - 6 : x0 + 6, y + 14, higher_better ? "end" : "start", 10, "#2ecc71",
            "B better");
    ch_text(out, higher_better ? x0 + 6 : x0 + w - 6, y + 14, higher_better ? "start" : "end", 10, "#e74c3c",
            "B worse");
    snprintf(s, sizeof s, "%+.3g", -half_range);
    ch_text(out, x0, y + row_h - 14, "start", 10, CH_DIM, s);
    snprintf(s, sizeof s, "%+.3g", half_range);
    ch_text(out, x0 + w, y + row_h - 14, "end", 10, CH_DIM, s);
    snprintf(s, sizeof s, "%s (%s)", lab_ab_metric_name(r->metric), ch_ab_units[r->metric]);
    ch_text(out, 24, cy - 4, "start", 15, CH_TEXT, s);
    snprintf(s, sizeof s, "mean A %.2f, B %.2f (%ld pairs)", r->mean_a, r->mean_b, r->n);
    ch_text(out, 24, cy + 16, "start", 12, CH_DIM, s);
    lab_ab_format_p(r->t.p, p, sizeof p);
    snprintf(s, sizeof s, "B - A %+.2f  [%+.2f, %+.2f]  %s", r->t.mean, r->t.lo, r->t.hi, p);
    ch_text(out, x0 + w + 20, cy - 4, "start", 14, colour, s);
    lab_ab_verdict(r, s, sizeof s);
    ch_text(out, x0 + w + 20, cy + 16, "start", 12, colour, s);
}

void lab_chart_ab_svg(const LabAbTally *t, int only, FILE *out)
{
    int rows = only >= 0 ? 1 : LAB_AB_METRIC_COUNT;
    const double row_h = 84, top = 110, width = 1400, height = top + rows * row_h + 50;
    char s[SIM_PATH_LEN * 2 + 64];
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            CH_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" CH_BG "\"/>\n", width, height, width, height);
    snprintf(s, sizeof s, "A/B: %s vs %s, %ld paired races of %s", t->a_name, t->b_name, t->pairs, t->race);
    ch_text(out, 24, 36, "start", 20, CH_TEXT, s);
    ch_text(out, 24, 62, "start", 13, CH_DIM, "mean paired difference B - A with its 95% interval (paired t-test); "
            "green side = B better, yellow = significant at 0.05");
    snprintf(s, sizeof s, "A = %s   B = %s", t->a_driver, t->b_driver);
    ch_text(out, 24, 84, "start", 12, CH_DIM, s);
    int row = 0;
    for (int m = 0; m < LAB_AB_METRIC_COUNT; m++) {
        if (only >= 0 && m != only)
            continue;
        LabAbResult r = lab_ab_result(t, (LabAbMetric)m);
        ch_ab_row(out, &r, top + row * row_h, row_h);
        row++;
    }
    fputs("</svg>\n", out);
}

int lab_chart_ab_write(const LabAbTally *t, int only, const char *path, char *err, size_t err_len)
{
    FILE *out;
    if (ch_open(path, &out, err, err_len))
        return 1;
    lab_chart_ab_svg(t, only, out);
    return ch_close(path, out, err, err_len);
}
