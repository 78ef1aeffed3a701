/* sim_tst.h: helpers shared by the sim tests: tracks built from points (no data files), a scripted driver, and a
 * world with cars placed by hand. */
#ifndef SIM_TST_H
#define SIM_TST_H

#include "../sim/sim.h"

#include <math.h>
#include <string.h>

#define SIM_TST_MAX_POINTS 512
#define SIM_TST_PI 3.14159265358979323846

/* A stadium: two straights of `straight_m` joined by half circles of `radius_m`, counter-clockwise (left turns),
 * s = 0 at the start of the bottom straight, 7.5 m each side of the centre line. */
static TrkTrack *sim_tst_stadium(double straight_m, double radius_m)
{
    static TrkPointDef p[SIM_TST_MAX_POINTS];
    int n = 0;
    int segs = (int)(straight_m / 100.0);
    for (int i = 0; i < segs; i++)
        p[n++] = (TrkPointDef){straight_m * i / segs, 0.0, 7.5, 7.5};
    for (int k = 0; k < 24; k++) {
        double a = -SIM_TST_PI / 2 + SIM_TST_PI * k / 24.0;
        p[n++] = (TrkPointDef){straight_m + radius_m * cos(a), radius_m + radius_m * sin(a), 7.5, 7.5};
    }
    for (int i = 0; i < segs; i++)
        p[n++] = (TrkPointDef){straight_m - straight_m * i / segs, 2.0 * radius_m, 7.5, 7.5};
    for (int k = 0; k < 24; k++) {
        double a = SIM_TST_PI / 2 + SIM_TST_PI * k / 24.0;
        p[n++] = (TrkPointDef){radius_m * cos(a), radius_m + radius_m * sin(a), 7.5, 7.5};
    }
    char err[TRK_ERR_LEN];
    return trk_create(p, n, NULL, err, sizeof err);
}

/* A circle of `radius_m`, counter-clockwise, 7.5 m each side. */
static TrkTrack *sim_tst_circle(double radius_m)
{
    static TrkPointDef p[72];
    for (int k = 0; k < 72; k++) {
        double a = 2.0 * SIM_TST_PI * k / 72.0;
        p[k] = (TrkPointDef){radius_m * cos(a), radius_m * sin(a), 7.5, 7.5};
    }
    char err[TRK_ERR_LEN];
    return trk_create(p, 72, NULL, err, sizeof err);
}

/* A scripted driver: a fixed longitudinal request (or a speed to hold), and a lateral offset to hold (PD) or a
 * fixed lateral request. Fields may be changed between steps by the test. */
typedef struct SimTstDriver {
    double long_mps2;     /* used when hold_speed_mps < 0 */
    double hold_speed_mps; /* >= 0: hold this speed (drag compensated) */
    bool hold_d;
    double d_target_m;
    double lat_mps2;      /* used when !hold_d */
    int calls;
} SimTstDriver;

static SimTstDriver sim_tst_driver(double hold_speed_mps, double d_target_m)
{
    SimTstDriver d;
    memset(&d, 0, sizeof d);
    d.hold_speed_mps = hold_speed_mps;
    d.hold_d = true;
    d.d_target_m = d_target_m;
    return d;
}

static void sim_tst_think(void *self, const DrvView *v, DrvControls *out)
{
    SimTstDriver *t = self;
    t->calls++;
    if (t->hold_speed_mps >= 0.0)
        out->long_accel_mps2 = trk_car_drag_n(v->car, v->speed_mps, 1.0) / v->car->mass_kg +
                               3.0 * (t->hold_speed_mps - v->speed_mps);
    else
        out->long_accel_mps2 = t->long_mps2;
    out->lat_accel_mps2 = t->hold_d ? 6.0 * (t->d_target_m - v->d_m) - 5.0 * v->lat_speed_mps : t->lat_mps2;
}

static SimWorld *sim_tst_world(const TrkTrack *track, int laps)
{
    SimWorldDef def = sim_default_world_def();
    def.track = track;
    def.laps = laps;
    return sim_world_create(&def);
}

static int sim_tst_add(SimWorld *w, const char *name, double s_m, double d_m, double speed_mps, double race_dist_m,
                       SimTstDriver *drv, const SimCarSpec *spec)
{
    SimCarDef c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.spec = spec ? *spec : sim_default_car_spec();
    c.s_m = s_m;
    c.d_m = d_m;
    c.speed_mps = speed_mps;
    c.race_dist_m = race_dist_m;
    c.think = drv ? sim_tst_think : NULL;
    c.driver = drv;
    return sim_world_add_car(w, &c);
}

static int sim_tst_count(const SimWorld *w, SimEventType type)
{
    int n, k = 0;
    const SimEvent *ev = sim_world_events(w, &n);
    for (int i = 0; i < n; i++)
        k += ev[i].type == type;
    return k;
}

static void sim_tst_steps(SimWorld *w, int n)
{
    for (int i = 0; i < n && !sim_world_done(w); i++)
        sim_world_step(w);
}

#endif
