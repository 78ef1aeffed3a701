/* test_chart.c: the race trace's lap-chart positions and the SVG writers, on hand-made traces and tallies (no
 * simulation needed): positions by crossing time, a retired car dropping out, names escaped for XML, one line per
 * car in each chart, and the A/B chart's rows. */
#include "../lab/lab.h"
#include "tst.h"

#include <math.h>
#include <stdlib.h>

/* Three cars, two laps, two markers per lap. Car 2 retires after the first marker. */
static SimTrace *make_trace(void)
{
    static SimTraceCar cars[3];
    static double cross[3 * 4];
    static SimTrace t;
    const double times[3][4] = {{10.0, 20.0, 30.5, 40.0}, {10.5, 19.0, 30.0, 41.0}, {11.0, -1.0, -1.0, -1.0}};
    memset(&t, 0, sizeof t);
    t.car_count = 3;
    t.laps = 2;
    t.per_lap = 2;
    t.markers = 4;
    t.lap_m = 1000.0;
    t.cars = cars;
    t.cross_s = cross;
    for (int c = 0; c < 3; c++) {
        memset(&cars[c], 0, sizeof cars[c]);
        snprintf(cars[c].name, sizeof cars[c].name, c == 1 ? "Bo & <Co>" : "Car %d", c);
        cars[c].number = c + 1;
        cars[c].colour[0] = (uint8_t)(80 * c);
        cars[c].grid = c + 1;
        cars[c].status = c == 2 ? SIM_DNF : SIM_FINISHED;
        for (int k = 0; k < 4; k++)
            cross[c * 4 + k] = times[c][k];
    }
    return &t;
}

static int test_positions(void)
{
    const SimTrace *t = make_trace();
    TST_CHECK(sim_trace_position_at(t, 0, 1) == 2); /* lap 1: car 1 crossed first (19.0 < 20.0) */
    TST_CHECK(sim_trace_position_at(t, 1, 1) == 1);
    TST_CHECK(sim_trace_position_at(t, 2, 1) == 0); /* retired: no position */
    TST_CHECK(sim_trace_position_at(t, 0, 3) == 1);
    TST_CHECK(sim_trace_position_at(t, 2, 0) == 3);
    return 0;
}

static char *svg_of_race(const SimTrace *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    lab_chart_race_svg(t, "test & race", f);
    fclose(f);
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static int test_race_svg(void)
{
    char *svg = svg_of_race(make_trace());
    TST_CHECK(svg != NULL);
    TST_CHECK(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    TST_CHECK(strstr(svg, "</svg>\n") != NULL);
    TST_CHECK(count(svg, "<polyline") == 6); /* three cars in two charts */
    TST_CHECK(strstr(svg, "Bo &amp; &lt;Co&gt;") != NULL);
    TST_CHECK(strstr(svg, "Bo & <Co>") == NULL);
    TST_CHECK(strstr(svg, "test &amp; race") != NULL);
    TST_CHECK(strstr(svg, ">DNF<") != NULL);
    TST_CHECK(count(svg, "<text") == count(svg, "</text>"));
    free(svg);
    return 0;
}

static int test_ab_svg(void)
{
    static LabAbTally t;
    static LabRecord r;
    char err[256];
    lab_ab_tally_init(&t);
    memset(&r, 0, sizeof r);
    r.kind = LAB_RECORD_AB;
    snprintf(r.race, sizeof r.race, "r.ini");
    r.laps = 1;
    for (int i = 0; i < 8; i++) {
        r.seed = (uint64_t)i;
        r.a.position = 2 + i % 2;
        r.b.position = 3 + i % 3;
        r.a.status = r.b.status = SIM_FINISHED;
        r.a.time_s = 100.0 + i;
        r.b.time_s = 101.0 + i;
        TST_CHECK(lab_ab_tally_add(&t, &r, err, sizeof err) == 0);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    TST_CHECK(f != NULL);
    lab_chart_ab_svg(&t, -1, f);
    fclose(f);
    TST_CHECK(count(buf, "<circle") == LAB_AB_METRIC_COUNT);
    TST_CHECK(strstr(buf, "B is 1.00 s slower than A in every pair (no variance, no p-value)") != NULL);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    TST_CHECK(f != NULL);
    lab_chart_ab_svg(&t, LAB_AB_POSITION, f);
    fclose(f);
    TST_CHECK(count(buf, "<circle") == 1);
    free(buf);
    lab_ab_tally_free(&t);
    return 0;
}

/* The lap chart: a point at every marker (so a pass inside a lap shows), one marker per overtake and contact. */
static int test_lap_chart_events(void)
{
    SimTrace *t = make_trace();
    SimTraceEvent ev[3] = {{SIM_EV_OVERTAKE, 1, 0, 19.0, 0.95, 1}, {SIM_EV_COLLISION, 0, 1, 19.5, 1.0, 2},
                           {SIM_EV_OVERTAKE, 0, 1, 30.2, 1.5, 1}};
    t->events = ev;
    t->event_count = 3;
    char *svg = svg_of_race(t);
    t->events = NULL;
    t->event_count = 0;
    TST_CHECK(svg != NULL);
    TST_CHECK(count(svg, "class=\"pass\"") == 2 + 1); /* two passes and the legend's */
    TST_CHECK(count(svg, "class=\"contact\"") == 1 + 1);
    /* the lap chart's lines, drawn from the last car: car 2 (out after one marker), car 1, car 0 */
    int points[3] = {0, 0, 0};
    const char *p = svg;
    for (int i = 0; i < 3 && (p = strstr(p, "stroke-width=\"3\"")) != NULL; i++, p++)
        for (const char *q = strstr(p, "points=\"") + 8; *q != '"'; q++)
            points[i] += *q == ',';
    TST_CHECK(points[0] == 2 && points[1] == 5 && points[2] == 5); /* the grid and every marker reached */
    TST_CHECK(count(svg, "stroke-width=\"3\"") == 3);
    free(svg);
    return 0;
}

/* Twenty cars finishing within a tenth of each other: every gap label is drawn and no two overlap, by the same
 * width the writer assumes, which overestimates DejaVu Sans. */
static int test_gap_labels_apart(void)
{
    enum { N = 20, M = 4 };
    static SimTraceCar cars[N];
    static double cross[N * M];
    SimTrace t = {0};
    t.car_count = N, t.laps = 2, t.per_lap = 2, t.markers = M, t.lap_m = 1000.0, t.cars = cars, t.cross_s = cross;
    for (int c = 0; c < N; c++) {
        memset(&cars[c], 0, sizeof cars[c]);
        snprintf(cars[c].name, sizeof cars[c].name, "Car %d", c);
        cars[c].number = c + 1, cars[c].grid = c + 1, cars[c].status = SIM_FINISHED;
        for (int k = 0; k < M; k++)
            cross[c * M + k] = 10.0 * (k + 1) + 0.005 * c;
    }
    char *svg = svg_of_race(&t);
    TST_CHECK(svg != NULL);
    double x[N], y[N], w[N];
    int n = 0;
    for (const char *p = strstr(svg, "class=\"endlabel\""); p && n < N; p = strstr(p + 1, "class=\"endlabel\"")) {
        TST_CHECK(sscanf(p, "class=\"endlabel\" x=\"%lf\" y=\"%lf\"", &x[n], &y[n]) == 2);
        const char *a = strchr(p, '>') + 1, *b = strstr(a, "</text>");
        w[n] = (double)(b - a) * 0.64 * 11;
        n++;
    }
    TST_CHECK(n == N);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            TST_CHECK(fabs(y[i] - y[j]) >= 13.0 || x[i] + w[i] <= x[j] || x[j] + w[j] <= x[i]);
    free(svg);
    return 0;
}

/* SVG collapses runs of spaces: the writer keeps them as no-break spaces. */
static int test_title_spaces(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    TST_CHECK(f != NULL);
    lab_chart_race_svg(make_trace(), "race.ini  seed 1  5 laps", f);
    fclose(f);
    TST_CHECK(strstr(buf, ">race.ini &#160;seed 1 &#160;5 laps</text>") != NULL);
    free(buf);
    return 0;
}

/* The batch chart: a dot per place a driver finished in, a tick per driver, a box per driver with laps. */
static int test_batch_chart(void)
{
    static LabBatchTally t;
    static LabRecord r;
    char err[256];
    LabBatchChart *chart = lab_batch_chart_create();
    TST_CHECK(chart != NULL);
    lab_batch_tally_init(&t);
    memset(&r, 0, sizeof r);
    r.kind = LAB_RECORD_RACE;
    snprintf(r.race, sizeof r.race, "r.ini");
    r.laps = 2;
    r.car_count = 3;
    lab_record_default_points(&r);
    for (int i = 0; i < 6; i++) {
        r.seed = (uint64_t)i + 1;
        for (int c = 0; c < 3; c++) {
            LabCarRecord *car = &r.cars[c];
            memset(car, 0, sizeof *car);
            snprintf(car->name, sizeof car->name, "Car %d", c);
            snprintf(car->driver, sizeof car->driver, "d%d.ini", c);
            car->number = c + 1;
            car->position = c == 2 ? 3 : (c + i) % 2 + 1; /* cars 0 and 1 swap places; car 2 third or out */
            car->status = c == 2 && i == 0 ? SIM_DNF : SIM_FINISHED;
            car->best_lap_s = c == 2 && i == 0 ? 0.0 : 80.0 + c + 0.1 * i;
        }
        TST_CHECK(lab_batch_tally_add(&t, &r, err, sizeof err) == 0);
        TST_CHECK(lab_batch_chart_add(chart, &t, &r, err, sizeof err) == 0);
    }
    TST_CHECK(chart->finish[0][0] == 3 && chart->finish[0][1] == 3);
    TST_CHECK(chart->finish[2][SIM_MAX_CARS] == 1 && chart->finish[2][2] == 5);
    TST_CHECK(chart->best_n[2] == 5);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    TST_CHECK(f != NULL);
    lab_chart_batch_svg(&t, chart, f);
    fclose(f);
    TST_CHECK(count(buf, "class=\"place\"") == 2 + 2 + 2);
    TST_CHECK(count(buf, "class=\"mean\"") == 3);
    TST_CHECK(count(buf, "class=\"box\"") == 3);
    TST_CHECK(strstr(buf, ">DNF<") != NULL);
    TST_CHECK(count(buf, "<text") == count(buf, "</text>"));
    /* rows in the table's order: car 2 (always third) last */
    TST_CHECK(strstr(buf, ">#3 Car 2<") > strstr(buf, ">#1 Car 0<") && strstr(buf, ">#3 Car 2<") > strstr(buf, ">#2 Car 1<"));
    free(buf);
    lab_batch_chart_destroy(chart);
    return 0;
}

int main(void)
{
    TST_RUN(test_positions);
    TST_RUN(test_race_svg);
    TST_RUN(test_lap_chart_events);
    TST_RUN(test_gap_labels_apart);
    TST_RUN(test_title_spaces);
    TST_RUN(test_batch_chart);
    TST_RUN(test_ab_svg);
    return tst_report();
}
