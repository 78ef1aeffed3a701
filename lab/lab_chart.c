/* lab_chart.c: SVG lap, gap and A/B charts (see lab_chart.h). Dark background, as on a timing screen, so that
 * bright driver colours read well. */
#include "lab.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CH_BG "#15151e"
#define CH_GRID "#33333f"
#define CH_TEXT "#e8e8f0"
#define CH_DIM "#9a9aaa"
#define CH_FONT "font-family=\"DejaVu Sans, Arial, sans-serif\""

/* ---- SVG primitives ----------------------------------------------------------------------------------------- */

/* XML-escaped text. SVG collapses runs of spaces, so each space after the first of a run is a no-break space
 * (&#160;): "seed 1  5 laps" keeps its two spaces. */
static void ch_escaped(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == ' ' && (p == s || p[-1] == ' ')) {
            fputs("&#160;", out);
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)*p >= 0x20)
                fputc(*p, out);
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

/* An overtake marker: an upward triangle in the passer's colour, outlined so that it reads on its own line. */
static void ch_pass(FILE *out, double x, double y, const char *fill)
{
    fprintf(out, "<path class=\"pass\" d=\"M%.1f %.1fl6 10h-12z\" fill=\"%s\" stroke=\"" CH_BG "\" "
            "stroke-width=\"1.2\"/>\n", x, y - 6, fill);
}

/* A contact marker: an orange cross. */
static void ch_contact(FILE *out, double x, double y)
{
    fprintf(out, "<path class=\"contact\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#ff9f1c\" stroke-width=\"2.2\" "
            "fill=\"none\"/>\n", x - 4, y - 4);
}

/* A step of 1, 2 or 5 times a power of ten giving about `ticks` intervals over `range`. */
static double ch_nice_step(double range, int ticks)
{
    double raw = range / ticks, mag = pow(10.0, floor(log10(raw)));
    double r = raw / mag;
    return (r <= 1.0 ? 1.0 : r <= 2.0 ? 2.0 : r <= 5.0 ? 5.0 : 10.0) * mag;
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
    char s[64];
    snprintf(s, sizeof s, "Lap chart: position at %d points a lap", t->per_lap);
    ch_text(out, b->x, b->y - 22, "start", 15, CH_TEXT, s);
    /* the legend of the event markers, right-aligned above the chart */
    double lx = b->x + b->w;
    ch_text(out, lx, b->y - 22, "end", 12, CH_DIM, "contact");
    ch_contact(out, lx - 58, b->y - 26);
    ch_text(out, lx - 72, b->y - 22, "end", 12, CH_DIM, "overtake (passer's colour)");
    ch_pass(out, lx - 240, b->y - 26, CH_TEXT);
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

/* Every marker, not only the lap lines, so that places changed within a lap (the first lap above all) show. */
static void ch_lap_car(FILE *out, const SimTrace *t, const ChBox *b, int c)
{
    const SimTraceCar *car = &t->cars[c];
    char col[16];
    ch_colour(col, sizeof col, car->colour);
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
        ch_text(out, last_x + 8, last_y + 4, "start", 11, col, "DNF");
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
            ch_colour(col, sizeof col, t->cars[e->a].colour);
            ch_pass(out, x, y, col);
        } else {
            ch_contact(out, x, y);
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
        ch_line(out, l->line_x + 1, l->line_y, l->line_x + 7, l->y - 4, l->col, 0.8);
    fprintf(out, "<text class=\"endlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" font-size=\"%d\" "
            "fill=\"%s\">", l->line_x + 8, l->y, CH_LABEL_FONT, l->col);
    ch_escaped(out, l->text);
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
            CH_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" CH_BG "\"/>\n", width, height, width, height);
    ch_text(out, 24, 36, "start", 20, CH_TEXT, title);
    ch_lap_axes(out, t, &lap);
    for (int c = t->car_count - 1; c >= 0; c--) /* the leaders drawn last, on top */
        ch_lap_car(out, t, &lap, c);
    ch_lap_events(out, t, &lap);
    double top = ch_gap_top(t), step = ch_nice_step(top, 6);
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

/* ---- the batch chart ---------------------------------------------------------------------------------------- */

LabBatchChart *lab_batch_chart_create(void)
{
    LabBatchChart *c = calloc(1, sizeof *c);
    if (c)
        memset(c->colour, 0xb0, sizeof c->colour);
    return c;
}

void lab_batch_chart_destroy(LabBatchChart *c)
{
    if (!c)
        return;
    for (int i = 0; i < SIM_MAX_CARS; i++)
        free(c->best_lap_s[i]);
    free(c);
}

int lab_batch_chart_add(LabBatchChart *c, const LabBatchTally *t, const LabRecord *rec, char *err, size_t err_len)
{
    for (int i = 0; i < rec->car_count; i++) {
        const LabCarRecord *car = &rec->cars[i];
        int row = lab_batch_tally_row(t, car);
        if (row < 0) {
            snprintf(err, err_len, "\"%.100s\" #%d is not in the tally", car->name, car->number);
            return 1;
        }
        bool placed = car->status != SIM_DNF && car->position >= 1 && car->position <= SIM_MAX_CARS;
        c->finish[row][placed ? car->position - 1 : SIM_MAX_CARS]++;
        if (car->best_lap_s <= 0.0)
            continue;
        if (c->best_n[row] == c->best_cap[row]) {
            long cap = c->best_cap[row] ? 2 * c->best_cap[row] : 64;
            double *grown = realloc(c->best_lap_s[row], (size_t)cap * sizeof *grown);
            if (!grown) {
                snprintf(err, err_len, "out of memory");
                return 1;
            }
            c->best_lap_s[row] = grown;
            c->best_cap[row] = cap;
        }
        c->best_lap_s[row][c->best_n[row]++] = car->best_lap_s;
    }
    return 0;
}

/* The q-quantile of sorted values (linear between neighbours). */
static double ch_quantile(const double *v, long n, double q)
{
    double at = q * (double)(n - 1);
    long i = (long)at;
    return i + 1 < n ? v[i] + (at - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

typedef struct ChBatch {
    const LabBatchTally *t;
    const LabBatchChart *c;
    double row_h, pos_x, pos_w, lap_x, lap_w;
    double lap_lo, lap_hi; /* s, the pace axis */
    long most;             /* the largest count of one place: its dot fills the cell */
} ChBatch;

static double ch_batch_pos_x(const ChBatch *b, int column) /* column car_count = retired */
{
    return b->pos_x + b->pos_w * (column + 0.5) / (b->t->car_count + 1);
}

static double ch_batch_lap_x(const ChBatch *b, double s)
{
    return b->lap_x + b->lap_w * (s - b->lap_lo) / (b->lap_hi - b->lap_lo);
}

/* The pace axis: every best lap in view, padded to whole ticks. */
static double ch_batch_lap_range(ChBatch *b)
{
    double lo = 0.0, hi = 0.0;
    bool any = false;
    for (int r = 0; r < b->t->car_count; r++)
        for (long i = 0; i < b->c->best_n[r]; i++) {
            double x = b->c->best_lap_s[r][i];
            lo = any ? fmin(lo, x) : x;
            hi = any ? fmax(hi, x) : x;
            any = true;
        }
    if (hi - lo < 0.2)
        lo -= 0.1, hi += 0.1;
    double step = ch_nice_step(hi - lo, 5);
    b->lap_lo = floor(lo / step) * step;
    b->lap_hi = ceil(hi / step) * step;
    return step;
}

static void ch_batch_axes(FILE *out, ChBatch *b, double top, double bottom)
{
    char s[32];
    ch_text(out, b->pos_x, top - 34, "start", 15, CH_TEXT, "Finishing place (dot area = races in that place, tick = mean)");
    for (int col = 0; col <= b->t->car_count; col++) {
        double x = ch_batch_pos_x(b, col);
        ch_line(out, x, top - 4, x, bottom, CH_GRID, 1);
        if (col == b->t->car_count)
            snprintf(s, sizeof s, "DNF");
        else if (b->t->car_count <= 12 || col % 2 == 0 || col == b->t->car_count - 1)
            snprintf(s, sizeof s, "%d", col + 1);
        else
            continue;
        ch_text(out, x, top - 10, "middle", 11, CH_DIM, s);
    }
    ch_text(out, b->lap_x, top - 34, "start", 15, CH_TEXT, "Best lap per race, s");
    double step = ch_batch_lap_range(b);
    for (double v = b->lap_lo; v <= b->lap_hi + 1e-9; v += step) {
        double x = ch_batch_lap_x(b, v);
        ch_line(out, x, top - 4, x, bottom, CH_GRID, 1);
        snprintf(s, sizeof s, step < 1.0 ? "%.1f" : "%.0f", v);
        ch_text(out, x, top - 10, "middle", 11, CH_DIM, s);
    }
}

static void ch_batch_places(FILE *out, const ChBatch *b, int row, double cy, const char *col)
{
    const LabDriverTally *d = &b->t->drivers[row];
    double col_w = b->pos_w / (b->t->car_count + 1), r_max = fmin(col_w, b->row_h) / 2 - 1;
    for (int p = 0; p <= b->t->car_count; p++) {
        long k = b->c->finish[row][p == b->t->car_count ? SIM_MAX_CARS : p];
        if (k == 0)
            continue;
        double r = fmax(1.5, r_max * sqrt((double)k / (double)b->most));
        fprintf(out, "<circle class=\"place\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
                ch_batch_pos_x(b, p), cy, r, col);
    }
    if (d->position.n > 0) {
        double x = b->pos_x + b->pos_w * (d->position.mean - 0.5) / (b->t->car_count + 1);
        fprintf(out, "<line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" CH_TEXT "\" "
                "stroke-width=\"2\"/>\n", x, cy - b->row_h * 0.42, x, cy + b->row_h * 0.42);
    }
}

/* A box plot: whiskers from the fastest to the slowest, the box over the middle half, a white median. */
static void ch_batch_pace(FILE *out, const ChBatch *b, int row, double cy, const char *col)
{
    long n = b->c->best_n[row];
    if (n == 0) {
        ch_text(out, b->lap_x, cy + 4, "start", 11, CH_DIM, "no lap completed");
        return;
    }
    double *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return;
    memcpy(v, b->c->best_lap_s[row], (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, ch_cmp_double);
    double x0 = ch_batch_lap_x(b, v[0]), x1 = ch_batch_lap_x(b, v[n - 1]);
    double q1 = ch_batch_lap_x(b, ch_quantile(v, n, 0.25)), q3 = ch_batch_lap_x(b, ch_quantile(v, n, 0.75));
    double med = ch_quantile(v, n, 0.5), h = b->row_h * 0.6;
    ch_line(out, x0, cy, x1, cy, col, 1.5);
    ch_line(out, x0, cy - h / 3, x0, cy + h / 3, col, 1.5);
    ch_line(out, x1, cy - h / 3, x1, cy + h / 3, col, 1.5);
    fprintf(out, "<rect class=\"box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
            "fill-opacity=\"0.45\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", q1, cy - h / 2, fmax(q3 - q1, 1.0), h, col,
            col);
    double mx = ch_batch_lap_x(b, med);
    ch_line(out, mx, cy - h / 2, mx, cy + h / 2, CH_TEXT, 2);
    char s[32];
    snprintf(s, sizeof s, "%.3f", med);
    ch_text(out, b->lap_x + b->lap_w + 12, cy + 4, "start", 11, CH_DIM, s);
    free(v);
}

void lab_chart_batch_svg(const LabBatchTally *t, const LabBatchChart *c, FILE *out)
{
    int rows[SIM_MAX_CARS];
    int n = lab_batch_tally_order(t, rows);
    ChBatch b = {t, c, t->car_count > 24 ? 20.0 : 28.0, 250, 560, 880, 300, 0.0, 1.0, 1};
    for (int r = 0; r < t->car_count; r++)
        for (int p = 0; p <= SIM_MAX_CARS; p++)
            b.most = c->finish[r][p] > b.most ? c->finish[r][p] : b.most;
    const double top = 128, width = 1280, height = top + n * b.row_h + 40;
    char s[SIM_PATH_LEN + 160], col[16];
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            CH_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" CH_BG "\"/>\n", width, height, width, height);
    snprintf(s, sizeof s, "%s  %ld races (seeds %" PRIu64 "..%" PRIu64 ")  %d lap%s  %d cars, grid shuffled by seed",
             t->race, t->races, t->first_seed, t->last_seed, t->laps, t->laps == 1 ? "" : "s", t->car_count);
    ch_text(out, 24, 36, "start", 20, CH_TEXT, s);
    ch_text(out, 24, 60, "start", 12, CH_DIM, "rows by mean finishing place; the box holds the middle half of the "
            "best laps, the white line is the median (its value on the right), the whiskers the fastest and slowest");
    ch_batch_axes(out, &b, top, top + n * b.row_h);
    for (int i = 0; i < n; i++) {
        int row = rows[i];
        const LabDriverTally *d = &t->drivers[row];
        double cy = top + (i + 0.5) * b.row_h;
        ch_colour(col, sizeof col, c->colour[row]);
        if (i % 2 == 0)
            fprintf(out, "<rect x=\"16\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"#ffffff\" "
                    "fill-opacity=\"0.03\"/>\n", cy - b.row_h / 2, width - 32, b.row_h);
        snprintf(s, sizeof s, "#%d %s", d->number, d->name);
        ch_text(out, b.pos_x - 14, cy + 4, "end", 12, col, s);
        ch_batch_places(out, &b, row, cy, col);
        ch_batch_pace(out, &b, row, cy, col);
    }
    fputs("</svg>\n", out);
}
