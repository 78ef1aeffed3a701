/* lab_chart.c: the race chart (lap chart above gap chart) and the A/B chart, as SVG (see lab.h). */
#include "lab_svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    char s[64];
    snprintf(s, sizeof s, "Lap chart: position at %d points a lap", t->per_lap);
    lab_svg_text(out, b->x, b->y - 22, "start", 15, LAB_SVG_TEXT, s);
    /* the legend of the event markers, right-aligned above the chart */
    double lx = b->x + b->w;
    lab_svg_text(out, lx, b->y - 22, "end", 12, LAB_SVG_DIM, "contact");
    lab_svg_contact(out, lx - 58, b->y - 26);
    lab_svg_text(out, lx - 72, b->y - 22, "end", 12, LAB_SVG_DIM, "overtake (passer's colour)");
    lab_svg_pass(out, lx - 240, b->y - 26, LAB_SVG_TEXT);
    int every = t->laps > 30 ? t->laps / 15 : 1;
    for (int lap = 0; lap <= t->laps; lap++) {
        double x = ch_lap_x(b, t, lap);
        lab_svg_line(out, x, b->y - 6, x, b->y + b->h + 6, LAB_SVG_GRID, 1);
        if (lap % every == 0 || lap == t->laps) {
            snprintf(s, sizeof s, lap == 0 ? "grid" : "L%d", lap);
            lab_svg_text(out, x, b->y + b->h + 24, "middle", 12, LAB_SVG_DIM, s);
        }
    }
}

/* A driver's label: "P3  #7 Ace Moreau", right-aligned left of the chart (grid) or after its line (finish). */
static void ch_car_label(FILE *out, const SimTraceCar *c, double x, double y, bool left, int pos, const char *col)
{
    char s[96];
    snprintf(s, sizeof s, "P%d  #%d %s", pos, c->number, c->name);
    lab_svg_text(out, x, y + 4, left ? "end" : "start", 12, col, s);
}

/* Every marker, not only the lap lines, so that places changed within a lap (the first lap above all) show. */
static void ch_lap_car(FILE *out, const SimTrace *t, const ChBox *b, int c)
{
    const SimTraceCar *car = &t->cars[c];
    char col[16];
    lab_svg_colour(col, sizeof col, car->colour);
    double last_x = ch_lap_x(b, t, 0), last_y = ch_pos_y(b, t, car->grid);
    int last_pos = car->grid;
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"3\" stroke-linejoin=\"round\" "
            "points=\"%.1f,%.1f", col, last_x, last_y);
    for (int k = 0; k < t->markers; k++) {
        int pos = sim_trace_position_at(t, c, k);
        if (pos == 0)
            break;
        last_x = ch_lap_x(b, t, (double)(k + 1) / t->per_lap);
        last_y = ch_pos_y(b, t, pos);
        last_pos = pos;
        fprintf(out, " %.1f,%.1f", last_x, last_y);
    }
    fputs("\"/>\n", out);
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", last_x, last_y, col);
    ch_car_label(out, car, b->x - 10, ch_pos_y(b, t, car->grid), true, car->grid, col);
    if (car->status == SIM_DNF)
        lab_svg_text(out, last_x + 8, last_y + 4, "start", 11, col, "DNF");
    else
        ch_car_label(out, car, b->x + b->w + 10, last_y, false, last_pos, col);
}

/* Passes and contacts where they happened: on the passer's line, at its distance and its new place. */
static void ch_lap_events(FILE *out, const SimTrace *t, const ChBox *b)
{
    char col[16];
    for (int i = 0; i < t->event_count; i++) {
        const SimTraceEvent *e = &t->events[i];
        double lap = fmin(fmax(e->lap, 0.0), (double)t->laps);
        double x = ch_lap_x(b, t, lap), y = ch_pos_y(b, t, e->position_a);
        if (e->type == SIM_EV_OVERTAKE) {
            lab_svg_colour(col, sizeof col, t->cars[e->a].colour);
            lab_svg_pass(out, x, y, col);
        } else {
            lab_svg_contact(out, x, y);
        }
    }
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
        qsort(g, (size_t)n, sizeof *g, lab_svg_cmp_double);
        double p90 = g[(long)(0.9 * (double)(n - 1))], max = g[n - 1];
        top = max > 3.0 * p90 && p90 > 0.0 ? 1.25 * p90 : max;
    }
    free(g);
    return top > 0.5 ? top : 0.5;
}

static void ch_gap_axes(FILE *out, const SimTrace *t, const ChBox *b, double top, double step)
{
    char s[32];
    lab_svg_text(out, b->x, b->y - 22, "start", 15, LAB_SVG_TEXT, "Gap chart: seconds behind the leader (10 points per lap)");
    for (double g = 0.0; g <= top + 1e-9; g += step) {
        double y = b->y + b->h * g / top;
        lab_svg_line(out, b->x, y, b->x + b->w, y, LAB_SVG_GRID, 1);
        snprintf(s, sizeof s, step < 1.0 ? "%.1f s" : "%.0f s", g);
        lab_svg_text(out, b->x - 8, y + 4, "end", 12, LAB_SVG_DIM, s);
    }
    int every = t->laps > 30 ? t->laps / 15 : 1;
    for (int lap = 0; lap <= t->laps; lap++) {
        double x = ch_lap_x(b, t, lap);
        lab_svg_line(out, x, b->y, x, b->y + b->h, LAB_SVG_GRID, 1);
        if (lap % every == 0 || lap == t->laps) {
            snprintf(s, sizeof s, lap == 0 ? "start" : "L%d", lap);
            lab_svg_text(out, x, b->y + b->h + 20, "middle", 12, LAB_SVG_DIM, s);
        }
    }
}

/* An end label of the gap chart: the text at its line's end, moved up or down to a free spot. */
typedef struct ChLabel {
    double line_x, line_y; /* where its line ends */
    double y;              /* the text's baseline, once placed */
    double gap;            /* s; while placing: 1 for the right-hand column, -1 for the others */
    char text[48];
    char col[16];
} ChLabel;

#define CH_LABEL_FONT 11
#define CH_LABEL_H 13.0 /* px between two labels' baselines */

/* The width of a label's text, from DejaVu Sans's mean advance (0.62 em) rounded up: a little wide, never narrow. */
static double ch_label_w(const char *text) { return (double)strlen(text) * 0.64 * CH_LABEL_FONT; }

static bool ch_labels_overlap(const ChLabel *a, const ChLabel *b)
{
    double ax = a->line_x + 8, bx = b->line_x + 8;
    return fabs(a->y - b->y) < CH_LABEL_H && ax < bx + ch_label_w(b->text) && bx < ax + ch_label_w(a->text);
}

static int ch_cmp_label(const void *a, const void *b)
{
    const ChLabel *x = a, *y = b;
    bool xc = x->gap > 0.0, yc = y->gap > 0.0; /* see ch_labels_place */
    if (xc != yc)
        return xc ? -1 : 1;
    return (x->line_y > y->line_y) - (x->line_y < y->line_y);
}

static void ch_label_draw(FILE *out, const ChLabel *l)
{
    if (fabs(l->y - (l->line_y + 4)) > 1.0)
        lab_svg_line(out, l->line_x + 1, l->line_y, l->line_x + 7, l->y - 4, l->col, 0.8);
    fprintf(out, "<text class=\"endlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" font-size=\"%d\" "
            "fill=\"%s\">", l->line_x + 8, l->y, CH_LABEL_FONT, l->col);
    lab_svg_escaped(out, l->text);
    fputs("</text>\n", out);
}

/* The labels of the lines that reach the right edge form one column: kept in the lines' order, each as near its
 * line's end as the one above allows, then pushed back up from the bottom edge, so that each moves as little as
 * the others let it. A line that stops early (a retired car) labels its own end, at the nearest free height. A
 * moved label gets a thin leader line back to its line. */
static void ch_labels_place(FILE *out, ChLabel *l, int n, double lo, double hi)
{
    double right = 0.0;
    for (int i = 0; i < n; i++)
        right = fmax(right, l[i].line_x);
    for (int i = 0; i < n; i++)
        l[i].gap = l[i].line_x >= right - 0.5 ? 1.0 : -1.0; /* 1 = in the column */
    qsort(l, (size_t)n, sizeof *l, ch_cmp_label);
    int col = 0;
    while (col < n && l[col].gap > 0.0)
        col++;
    for (int i = 0; i < col; i++)
        l[i].y = fmax(fmax(l[i].line_y + 4, lo), i ? l[i - 1].y + CH_LABEL_H : lo);
    for (int i = col - 1; i >= 0; i--)
        l[i].y = fmin(l[i].y, i + 1 < col ? l[i + 1].y - CH_LABEL_H : hi);
    for (int i = col; i < n; i++) {
        double want = l[i].line_y + 4;
        for (int step = 0; step < 4 * n + 4; step++) {
            l[i].y = want + (step + 1) / 2 * CH_LABEL_H * (step % 2 ? 1 : -1);
            bool free = l[i].y >= lo && l[i].y <= hi;
            for (int j = 0; j < i && free; j++)
                free = !ch_labels_overlap(&l[i], &l[j]);
            if (free)
                break;
        }
    }
    for (int i = 0; i < n; i++)
        ch_label_draw(out, &l[i]);
}

/* Draws car c's line; fills its end label and returns 1, or 0 when the car never reached a marker. */
static int ch_gap_car(FILE *out, const SimTrace *t, const ChBox *b, int c, double top, ChLabel *label)
{
    const SimTraceCar *car = &t->cars[c];
    char col[16];
    lab_svg_colour(col, sizeof col, car->colour);
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
        return 0;
    *label = (ChLabel){last_x, last_y, 0.0, last_gap, "", ""};
    snprintf(label->col, sizeof label->col, "%s", col);
    if (last_gap > top)
        snprintf(label->text, sizeof label->text, "#%d +%.1f s (off scale)", car->number, last_gap);
    else
        snprintf(label->text, sizeof label->text, last_gap == 0.0 ? "#%d leader" : "#%d +%.2f s", car->number,
                 last_gap);
    return 1;
}

void lab_chart_race_svg(const SimTrace *t, const char *title, FILE *out)
{
    const double width = 1280, lap_h = 34.0 * (t->car_count > 1 ? t->car_count - 1 : 1), gap_h = 380;
    ChBox lap = {200, 90, 860, lap_h};
    ChBox gap = {200, lap.y + lap.h + 110, 860, gap_h};
    double height = gap.y + gap.h + 60;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            LAB_SVG_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" LAB_SVG_BG "\"/>\n", width, height, width, height);
    lab_svg_text(out, 24, 36, "start", 20, LAB_SVG_TEXT, title);
    ch_lap_axes(out, t, &lap);
    for (int c = t->car_count - 1; c >= 0; c--) /* the leaders drawn last, on top */
        ch_lap_car(out, t, &lap, c);
    ch_lap_events(out, t, &lap);
    double top = ch_gap_top(t), step = lab_svg_nice_step(top, 6);
    top = ceil(top / step) * step;
    ch_gap_axes(out, t, &gap, top, step);
    ChLabel *labels = malloc((size_t)t->car_count * sizeof *labels);
    int n = 0;
    for (int c = t->car_count - 1; c >= 0; c--)
        if (ch_gap_car(out, t, &gap, c, top, labels ? &labels[n] : &(ChLabel){0}) && labels)
            n++;
    if (labels)
        ch_labels_place(out, labels, n, gap.y - 4, gap.y + gap.h + 8); /* clear of the lap numbers */
    free(labels);
    fputs("</svg>\n", out);
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
    lab_svg_line(out, mid, y, mid, y + row_h - 10, LAB_SVG_DIM, 1.5);
    double cy = y + (row_h - 10) / 2, scale = (w / 2) / half_range;
    const char *colour = r->t.p < 0.05 ? "#ffd400" : LAB_SVG_TEXT;
    lab_svg_line(out, mid + r->t.lo * scale, cy, mid + r->t.hi * scale, cy, colour, 3);
    lab_svg_line(out, mid + r->t.lo * scale, cy - 8, mid + r->t.lo * scale, cy + 8, colour, 3);
    lab_svg_line(out, mid + r->t.hi * scale, cy - 8, mid + r->t.hi * scale, cy + 8, colour, 3);
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\"/>\n", mid + r->t.mean * scale, cy, colour);
    /* the labels sit on their own side of zero */
    lab_svg_text(out, higher_better ? x0 + w - 6 : x0 + 6, y + 14, higher_better ? "end" : "start", 10, "#2ecc71",
            "B better");
    lab_svg_text(out, higher_better ? x0 + 6 : x0 + w - 6, y + 14, higher_better ? "start" : "end", 10, "#e74c3c",
            "B worse");
    snprintf(s, sizeof s, "%+.3g", -half_range);
    lab_svg_text(out, x0, y + row_h - 14, "start", 10, LAB_SVG_DIM, s);
    snprintf(s, sizeof s, "%+.3g", half_range);
    lab_svg_text(out, x0 + w, y + row_h - 14, "end", 10, LAB_SVG_DIM, s);
    snprintf(s, sizeof s, "%s (%s)", lab_ab_metric_name(r->metric), ch_ab_units[r->metric]);
    lab_svg_text(out, 24, cy - 4, "start", 15, LAB_SVG_TEXT, s);
    snprintf(s, sizeof s, "mean A %.2f, B %.2f (%ld pairs)", r->mean_a, r->mean_b, r->n);
    lab_svg_text(out, 24, cy + 16, "start", 12, LAB_SVG_DIM, s);
    lab_ab_format_p(r->t.p, p, sizeof p);
    snprintf(s, sizeof s, "B - A %+.2f  [%+.2f, %+.2f]  %s", r->t.mean, r->t.lo, r->t.hi, p);
    lab_svg_text(out, x0 + w + 20, cy - 4, "start", 14, colour, s);
    lab_ab_verdict(r, s, sizeof s);
    lab_svg_text(out, x0 + w + 20, cy + 16, "start", 12, colour, s);
}

void lab_chart_ab_svg(const LabAbTally *t, int only, FILE *out)
{
    int rows = only >= 0 ? 1 : LAB_AB_METRIC_COUNT;
    const double row_h = 84, top = 110, width = 1400, height = top + rows * row_h + 50;
    char s[SIM_PATH_LEN * 2 + 64];
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            LAB_SVG_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" LAB_SVG_BG "\"/>\n", width, height, width, height);
    snprintf(s, sizeof s, "A/B: %s vs %s, %ld paired races of %s", t->a_name, t->b_name, t->pairs, t->race);
    lab_svg_text(out, 24, 36, "start", 20, LAB_SVG_TEXT, s);
    lab_svg_text(out, 24, 62, "start", 13, LAB_SVG_DIM, "mean paired difference B - A with its 95% interval (paired t-test); "
            "green side = B better, yellow = significant at 0.05");
    snprintf(s, sizeof s, "A = %s   B = %s", t->a_driver, t->b_driver);
    lab_svg_text(out, 24, 84, "start", 12, LAB_SVG_DIM, s);
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

