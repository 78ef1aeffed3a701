/* test_drv_map.c: the context map's metre-based write helpers, at several slot counts. */
#include "../drivers/drv_map.h"
#include "../drivers/drv_post.h"
#include "../drivers/drv_beh.h"

#include <string.h>
#include "tst.h"

static const int counts[] = {8, 16, 32, 64};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

static int test_slot_geometry(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], 5.0, -5.0);
        TST_NEAR(drv_map_slot_d(&m, 0), 5.0, 1e-12);
        TST_NEAR(drv_map_slot_d(&m, counts[c] - 1), -5.0, 1e-12);
        for (int i = 0; i < counts[c]; i++)
            TST_CHECK(drv_map_d_to_slot(&m, drv_map_slot_d(&m, i)) == i);
        TST_CHECK(drv_map_d_to_slot(&m, 50.0) == 0);
        TST_CHECK(drv_map_d_to_slot(&m, -50.0) == counts[c] - 1);
        TST_CHECK(m.danger[0] == 0.0f && m.interest[counts[c] - 1] == 0.0f);
    }
    return 0;
}

static int test_point_hits_nearest_slot(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], 5.0, -5.0);
        drv_map_write_point(&m, DRV_MAP_DANGER, 1.3, 0.7);
        int k = drv_map_d_to_slot(&m, 1.3);
        for (int i = 0; i < m.slots; i++)
            TST_NEAR(m.danger[i], i == k ? 0.7 : 0.0, 1e-6);
        /* far outside: nothing */
        drv_map_write_point(&m, DRV_MAP_INTEREST, 40.0, 1.0);
        for (int i = 0; i < m.slots; i++)
            TST_CHECK(m.interest[i] == 0.0f);
    }
    return 0;
}

/* A band is full inside [lo, hi], zero beyond the skirt and in between falls linearly, measured in metres. */
static int test_band_in_metres(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], 6.0, -6.0);
        drv_map_write_band(&m, DRV_MAP_DANGER, -1.0, 1.0, 0.8, 2.0);
        for (int i = 0; i < m.slots; i++) {
            double d = drv_map_slot_d(&m, i);
            double out = fabs(d) - 1.0;
            double want = out <= 0.0 ? 0.8 : (out < 2.0 ? 0.8 * (1.0 - out / 2.0) : 0.0);
            TST_NEAR(m.danger[i], want, 1e-6);
        }
    }
    return 0;
}

/* A band narrower than a slot still lands on its nearest slot at full value. */
static int test_narrow_band_not_lost(void)
{
    DrvContextMap m;
    drv_map_init(&m, 8, 7.0, -7.0); /* 2 m between slots */
    double d = drv_map_slot_d(&m, 3) - 0.9;
    drv_map_write_band(&m, DRV_MAP_DANGER, d - 0.05, d + 0.05, 1.0, 0.0);
    TST_NEAR(m.danger[3], 1.0, 1e-6);
    return 0;
}

/* Peak: exactly value at its centre when on a slot, a parabola value*(1-(x/f)^2) around it, zero beyond. */
static int test_peak_shape(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], 6.0, -6.0);
        double f = 4.0;
        drv_map_write_peak(&m, DRV_MAP_INTEREST, 0.5, 0.9, f);
        for (int i = 0; i < m.slots; i++) {
            double x = drv_map_slot_d(&m, i) - 0.5;
            double want = fabs(x) < f ? 0.9 * (1.0 - x * x / (f * f)) : 0.0;
            TST_NEAR(m.interest[i], want, 1e-6);
        }
    }
    return 0;
}

static int test_merge_is_max(void)
{
    DrvContextMap m;
    drv_map_init(&m, 16, 5.0, -5.0);
    drv_map_write_band(&m, DRV_MAP_DANGER, -5.0, 5.0, 0.4, 0.0);
    drv_map_write_band(&m, DRV_MAP_DANGER, -1.0, 1.0, 0.3, 0.0); /* lower: changes nothing */
    for (int i = 0; i < m.slots; i++)
        TST_NEAR(m.danger[i], 0.4, 1e-6);
    drv_map_write_band(&m, DRV_MAP_DANGER, -1.0, 1.0, 0.6, 0.0);
    drv_map_write_band(&m, DRV_MAP_DANGER, -1.0, 1.0, 0.6, 0.0); /* twice: still 0.6, never 1.2 */
    for (int i = 0; i < m.slots; i++) {
        double d = drv_map_slot_d(&m, i);
        TST_NEAR(m.danger[i], fabs(d) <= 1.0 ? 0.6 : 0.4, 1e-6);
    }
    /* values are clamped to 0..1 */
    drv_map_write_point(&m, DRV_MAP_INTEREST, 0.0, 3.0);
    TST_NEAR(m.interest[drv_map_d_to_slot(&m, 0.0)], 1.0, 1e-6);
    /* the two maps are separate */
    TST_CHECK(m.interest[0] == 0.0f);
    return 0;
}

/* The same obstacle written at 8..64 slots gives the same free side and the same edges, to within a slot. */
static int test_consistent_across_counts(void)
{
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap m;
        drv_map_init(&m, counts[c], 6.0, -6.0);
        drv_map_write_band(&m, DRV_MAP_DANGER, 0.5, 3.5, 1.0, 1.0);
        double left_free = drv_map_sample(&m, DRV_MAP_DANGER, 5.5);
        double right_free = drv_map_sample(&m, DRV_MAP_DANGER, -3.0);
        TST_CHECK(left_free < 0.5 && right_free == 0.0);
        TST_NEAR(drv_map_sample(&m, DRV_MAP_DANGER, 2.0), 1.0, 1e-6);
    }
    return 0;
}

/* A map narrower than the car still works (span widened around the middle). */
static int test_degenerate_span(void)
{
    DrvContextMap m;
    drv_map_init(&m, 32, -0.5, 0.5);
    TST_CHECK(m.d_left_m > m.d_right_m && m.step_m > 0.0);
    drv_map_write_band(&m, DRV_MAP_DANGER, -1.0, 1.0, 1.0, 1.0);
    TST_NEAR(m.danger[0], 1.0, 1e-6);
    drv_map_init(&m, 1000, 1.0, -1.0);
    TST_CHECK(m.slots == DRV_MAX_SLOTS);
    return 0;
}

/* Two bands of a fixed shape on a map's span: a write whose effect depends on the span alone. */
static void write_two_bands(DrvContextMap *map, DrvMapWhich which)
{
    drv_map_write_band(map, which, map->d_left_m - 0.6, map->d_left_m + 20.0, 0.04, 0.25);
    drv_map_write_band(map, which, -1.0, 0.5, 0.3, 0.4);
}

/* A kept stamp merged into a map gives what the write itself gives, bit for bit, whatever was written before or
 * after it; kept for one span, it is worked out again for another, and is then the new span's. */
static int test_stamp_is_the_write(void)
{
    const double spans[][2] = {{5.0, -5.0}, {5.0, -5.0}, {4.2, -6.1}, {5.0, -5.0}};
    DrvMapStamp stamp = {0};
    for (int c = 0; c < NCOUNTS; c++) {
        for (int k = 0; k < 4; k++) {
            DrvContextMap direct, merged;
            drv_map_init(&direct, counts[c], spans[k][0], spans[k][1]);
            drv_map_init(&merged, counts[c], spans[k][0], spans[k][1]);
            drv_map_write_band(&direct, DRV_MAP_DANGER, 2.0, 3.0, 0.02, 1.0); /* below the stamp's values */
            drv_map_write_band(&merged, DRV_MAP_DANGER, 2.0, 3.0, 0.02, 1.0);
            write_two_bands(&direct, DRV_MAP_DANGER);
            const DrvMapStamp *st = drv_map_stamp(&stamp, &merged, DRV_MAP_DANGER, write_two_bands);
            drv_map_stamp_merge(&merged, DRV_MAP_DANGER, st);
            drv_map_write_point(&direct, DRV_MAP_DANGER, -4.0, 0.9);
            drv_map_write_point(&merged, DRV_MAP_DANGER, -4.0, 0.9);
            TST_CHECK(memcmp(direct.danger, merged.danger, (size_t)counts[c] * sizeof direct.danger[0]) == 0);
            TST_CHECK(memcmp(direct.interest, merged.interest, (size_t)counts[c] * sizeof direct.interest[0]) == 0);
        }
    }
    return 0;
}

/* The edge behaviour writes the same map whether the driver hands it the edges' tokens kept for the span or not. */
static int test_edge_tokens_kept_or_not(void)
{
    DrvBehCtx ctx = {0};
    ctx.d_left_ahead_m = 3.0, ctx.d_right_ahead_m = -5.0; /* the track narrower ahead on the left */
    DrvMapStamp stamp = {0};
    DrvPersonality p = drv_default_personality();
    DrvView view = {0};
    for (int c = 0; c < NCOUNTS; c++) {
        DrvContextMap bare, kept;
        drv_map_init(&bare, counts[c], 4.0, -5.0);
        drv_map_init(&kept, counts[c], 4.0, -5.0);
        drv_beh_edge(&view, &p, &ctx, &bare);
        DrvBehCtx with = ctx;
        with.edge_tokens = drv_map_stamp(&stamp, &kept, DRV_MAP_DANGER, drv_beh_edge_tokens);
        drv_beh_edge(&view, &p, &with, &kept);
        TST_CHECK(memcmp(bare.danger, kept.danger, (size_t)counts[c] * sizeof bare.danger[0]) == 0);
        TST_CHECK(bare.danger[0] > 0.0f); /* the tokens and the narrowing were written */
    }
    return 0;
}

int main(void)
{
    TST_RUN(test_slot_geometry);
    TST_RUN(test_point_hits_nearest_slot);
    TST_RUN(test_band_in_metres);
    TST_RUN(test_narrow_band_not_lost);
    TST_RUN(test_peak_shape);
    TST_RUN(test_merge_is_max);
    TST_RUN(test_consistent_across_counts);
    TST_RUN(test_degenerate_span);
    TST_RUN(test_stamp_is_the_write);
    TST_RUN(test_edge_tokens_kept_or_not);
    return tst_report();
}
