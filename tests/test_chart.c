/* test_chart.c: the race trace's lap-chart positions and the SVG writers, on hand-made traces and tallies (no
 * simulation needed): positions by crossing time, a retired car dropping out, names escaped for XML, one line per
 * car in each chart, and the A/B chart's rows. */
#include "../lab/lab.h"
#include "tst.h"

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

int main(void)
{
    TST_RUN(test_positions);
    TST_RUN(test_race_svg);
    TST_RUN(test_ab_svg);
    return tst_report();
}
