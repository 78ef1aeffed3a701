/* test_drv_draft.c: where drafting's interest goes (drivers/drv_beh_draft.c). Out of gp's last corner the racing line
 * sweeps from the right edge to the left one: the wake of a car ahead on the line lies along the line, so the
 * interest is where the line is at our lookahead point, not where that car is now; a car off its line leaves its wake
 * the same distance off it. */
#include "../drivers/drv.h"
#include "../drivers/drv_beh.h"
#include "drv_tst.h"
#include "tst.h"

#include <math.h>

/* The offset of the map's greatest interest, m. */
static double interest_peak_d(const DrvContextMap *map)
{
    int best = 0;
    for (int i = 1; i < map->slots; i++)
        if (map->interest[i] > map->interest[best])
            best = i;
    return drv_map_slot_d(map, best);
}

/* We on the line at s = 5650, the car ahead 12 m on at our speed and `off` metres left of its line there; our
 * lookahead point at s = 5690. Returns the offset drafting's interest peaks at, and the line's at both points. */
static double draft_peak(const TrkTrack *track, double off, double *line_o, double *line_ahead)
{
    const double s = 5650.0, ds = 12.0;
    *line_o = trk_line_d(track, s + ds, NULL);
    *line_ahead = trk_line_d(track, s + 40.0, NULL);
    DrvOther o = {.id = 1, .ds_m = ds, .d_m = *line_o + off, .speed_mps = 40.0, .length_m = 4.6, .width_m = 2.0};
    DrvView view = {.track = track, .tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = s,
                    .d_m = trk_line_d(track, s, NULL), .speed_mps = 40.0, .length_m = 4.6, .width_m = 2.0,
                    .others = &o, .other_count = 1};
    DrvBehCtx ctx = {.half_width_m = 1.0, .half_length_m = 2.3, .line_d_m = *line_ahead, .on_straight = true,
                     .track = track, .attacked_id = -1};
    DrvContextMap map;
    drv_map_init(&map, 64, 7.5, -7.5);
    DrvPersonality p = drv_default_personality();
    drv_beh_draft(&view, &p, &ctx, &map);
    return interest_peak_d(&map);
}

static int test_the_wake_lies_along_the_racing_line(void)
{
    TrkTrack *track;
    DrvDriver *driver;
    TST_CHECK(drv_tst_open_gp(&track, &driver));
    double line_o, line_ahead;
    double peak = draft_peak(track, 0.0, &line_o, &line_ahead);
    TST_CHECK(line_ahead - line_o > 4.0); /* the line sweeps left between the car ahead and our lookahead point */
    TST_NEAR(peak, line_ahead, 0.3);      /* a slot's width */
    /* a car 1.5 m right of its line: its wake the same 1.5 m right of the line */
    peak = draft_peak(track, -1.5, &line_o, &line_ahead);
    TST_NEAR(peak, line_ahead - 1.5, 0.3);
    drv_tst_close(track, driver);
    return 0;
}

/* Without a track to read the line from, the wake is at the car's offset now. */
static int test_without_a_track_the_wake_is_where_the_car_is(void)
{
    DrvPersonality p = drv_default_personality();
    DrvOther o = {.id = 1, .ds_m = 12.0, .d_m = -2.0, .speed_mps = 40.0, .length_m = 4.6, .width_m = 2.0};
    DrvView view = {.tick = 100, .dt_s = 0.01, .laps_done = 1, .s_m = 100.0, .d_m = 3.0, .speed_mps = 40.0,
                    .length_m = 4.6, .width_m = 2.0, .others = &o, .other_count = 1};
    DrvBehCtx ctx = {.half_width_m = 1.0, .half_length_m = 2.3, .line_d_m = 3.0, .on_straight = true,
                     .attacked_id = -1};
    DrvContextMap map;
    drv_map_init(&map, 64, 7.5, -7.5);
    drv_beh_draft(&view, &p, &ctx, &map);
    TST_NEAR(interest_peak_d(&map), -2.0, 0.3);
    return 0;
}

int main(void)
{
    TST_RUN(test_the_wake_lies_along_the_racing_line);
    TST_RUN(test_without_a_track_the_wake_is_where_the_car_is);
    return tst_report();
}
