/* lab_chart_batch.c: the batch chart (see lab.h): per driver, its finishing places over the batch as dots and its
 * best laps as a box plot. */
#include "lab_svg.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    double step = lab_svg_nice_step(hi - lo, 5);
    b->lap_lo = floor(lo / step) * step;
    b->lap_hi = ceil(hi / step) * step;
    return step;
}

static void ch_batch_axes(FILE *out, ChBatch *b, double top, double bottom)
{
    char s[32];
    lab_svg_text(out, b->pos_x, top - 34, "start", 15, LAB_SVG_TEXT, "Finishing place (dot area = races in that place, tick = mean)");
    for (int col = 0; col <= b->t->car_count; col++) {
        double x = ch_batch_pos_x(b, col);
        lab_svg_line(out, x, top - 4, x, bottom, LAB_SVG_GRID, 1);
        if (col == b->t->car_count)
            snprintf(s, sizeof s, "DNF");
        else if (b->t->car_count <= 12 || col % 2 == 0 || col == b->t->car_count - 1)
            snprintf(s, sizeof s, "%d", col + 1);
        else
            continue;
        lab_svg_text(out, x, top - 10, "middle", 11, LAB_SVG_DIM, s);
    }
    lab_svg_text(out, b->lap_x, top - 34, "start", 15, LAB_SVG_TEXT, "Best lap per race, s");
    double step = ch_batch_lap_range(b);
    for (double v = b->lap_lo; v <= b->lap_hi + 1e-9; v += step) {
        double x = ch_batch_lap_x(b, v);
        lab_svg_line(out, x, top - 4, x, bottom, LAB_SVG_GRID, 1);
        snprintf(s, sizeof s, step < 1.0 ? "%.1f" : "%.0f", v);
        lab_svg_text(out, x, top - 10, "middle", 11, LAB_SVG_DIM, s);
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
        fprintf(out, "<line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" LAB_SVG_TEXT "\" "
                "stroke-width=\"2\"/>\n", x, cy - b->row_h * 0.42, x, cy + b->row_h * 0.42);
    }
}

/* A box plot: whiskers from the fastest to the slowest, the box over the middle half, a white median. */
static void ch_batch_pace(FILE *out, const ChBatch *b, int row, double cy, const char *col)
{
    long n = b->c->best_n[row];
    if (n == 0) {
        lab_svg_text(out, b->lap_x, cy + 4, "start", 11, LAB_SVG_DIM, "no lap completed");
        return;
    }
    double *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return;
    memcpy(v, b->c->best_lap_s[row], (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, lab_svg_cmp_double);
    double x0 = ch_batch_lap_x(b, v[0]), x1 = ch_batch_lap_x(b, v[n - 1]);
    double q1 = ch_batch_lap_x(b, ch_quantile(v, n, 0.25)), q3 = ch_batch_lap_x(b, ch_quantile(v, n, 0.75));
    double med = ch_quantile(v, n, 0.5), h = b->row_h * 0.6;
    lab_svg_line(out, x0, cy, x1, cy, col, 1.5);
    lab_svg_line(out, x0, cy - h / 3, x0, cy + h / 3, col, 1.5);
    lab_svg_line(out, x1, cy - h / 3, x1, cy + h / 3, col, 1.5);
    fprintf(out, "<rect class=\"box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
            "fill-opacity=\"0.45\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", q1, cy - h / 2, fmax(q3 - q1, 1.0), h, col,
            col);
    double mx = ch_batch_lap_x(b, med);
    lab_svg_line(out, mx, cy - h / 2, mx, cy + h / 2, LAB_SVG_TEXT, 2);
    char s[32];
    snprintf(s, sizeof s, "%.3f", med);
    lab_svg_text(out, b->lap_x + b->lap_w + 12, cy + 4, "start", 11, LAB_SVG_DIM, s);
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
            LAB_SVG_FONT ">\n<rect width=\"100%%\" height=\"100%%\" fill=\"" LAB_SVG_BG "\"/>\n", width, height, width, height);
    snprintf(s, sizeof s, "%s  %ld races (seeds %" PRIu64 "..%" PRIu64 ")  %d lap%s  %d cars, grid shuffled by seed",
             t->race, t->races, t->first_seed, t->last_seed, t->laps, t->laps == 1 ? "" : "s", t->car_count);
    lab_svg_text(out, 24, 36, "start", 20, LAB_SVG_TEXT, s);
    lab_svg_text(out, 24, 60, "start", 12, LAB_SVG_DIM, "rows by mean finishing place; the box holds the middle half of the "
            "best laps, the white line is the median (its value on the right), the whiskers the fastest and slowest");
    ch_batch_axes(out, &b, top, top + n * b.row_h);
    for (int i = 0; i < n; i++) {
        int row = rows[i];
        const LabDriverTally *d = &t->drivers[row];
        double cy = top + (i + 0.5) * b.row_h;
        lab_svg_colour(col, sizeof col, c->colour[row]);
        if (i % 2 == 0)
            fprintf(out, "<rect x=\"16\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"#ffffff\" "
                    "fill-opacity=\"0.03\"/>\n", cy - b.row_h / 2, width - 32, b.row_h);
        snprintf(s, sizeof s, "#%d %s", d->number, d->name);
        lab_svg_text(out, b.pos_x - 14, cy + 4, "end", 12, col, s);
        ch_batch_places(out, &b, row, cy, col);
        ch_batch_pace(out, &b, row, cy, col);
    }
    fputs("</svg>\n", out);
}
