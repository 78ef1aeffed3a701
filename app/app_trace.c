/* app_trace.c: the per-tick trace of `racesim run --trace` (see app_trace.h). The columns are documented in
 * docs/formats.md. */
#include "app_trace.h"

int app_trace_header(FILE *out)
{
    return fputs("tick,time_s,number,name,lap,s_m,d_m,speed_mps,lat_speed_mps,target_d_m,target_speed_mps,"
                 "long_accel_mps2,lat_accel_mps2,alone,braking,drafting,off_track,limit,attack\n",
                 out) < 0;
}

/* A name in CSV: quoted, with quotes doubled. */
static void app_trace_name(FILE *out, const char *name)
{
    fputc('"', out);
    for (const char *c = name; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

int app_trace_tick(FILE *out, SimSession *session)
{
    const SimWorld *w = sim_session_world(session);
    long tick = sim_world_tick(w);
    double t = sim_world_time(w);
    for (int i = 0; i < sim_world_car_count(w); i++) {
        const SimCar *c = sim_world_car(w, i);
        if (c->status != SIM_RUNNING)
            continue;
        const DrvDebug *dbg = NULL;
        const DrvDriver *drv = sim_session_driver(session, i);
        if (drv)
            dbg = drv_debug(drv);
        const DrvControls *k = &c->last_controls;
        fprintf(out, "%ld,%.2f,%d,", tick, t, c->number);
        app_trace_name(out, c->name);
        fprintf(out, ",%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%s,%d\n", c->laps + 1, c->s_m, c->d_m,
                c->speed_mps, c->lat_speed_mps, k->target_d_m, k->target_speed_mps, k->long_accel_mps2,
                k->lat_accel_mps2, dbg ? dbg->alone : 0, dbg ? dbg->braking_for_danger : 0, c->drafting_now,
                c->off_track_now, drv_limit_name(k->limit), dbg ? dbg->attack : 0);
    }
    return ferror(out) != 0;
}
