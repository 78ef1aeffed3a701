/* drv_driver.c: driver lifetime and dispatch by model. */
#include "drv_context.h"
#include "drv_internal.h"
#include "drv_lanes.h"
#include "drv_steering.h"
#include "drv_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRV_LINE_LOOKAHEAD_FRACTION 0.35 /* of the driver's lookahead, for the racing line's target point */
#define DRV_NEAR_M 20.0                  /* another car this close (centre to centre) is near: decide at decide_hz */
#define DRV_NEAR_S 1.0                   /* so is one we close on (or that closes on us) within this time */
#define DRV_NOISE_PERIOD_S 0.5
#define DRV_NOISE_SPEED 0.02             /* at noise 1: up to 2 % slower targets */
#define DRV_NOISE_D_M 0.4                /* at noise 1: up to 0.4 m perception error */
#define DRV_PACK_AHEAD_S 0.5             /* clear of the start's pack: no other car within this many seconds ahead... */
#define DRV_PACK_BEHIND_S 1.0            /* ...nor this many behind, at our speed... */
#define DRV_PACK_CLEAR_MPS 20.0          /* ...once at least this fast (off the grid) */

/* The driver's profile and lanes: borrowed from the cache, or built and owned when there is none. */
static bool drv_driver_tables(DrvDriver *driver, DrvTableCache *tables)
{
    if (tables != NULL) {
        DrvTables t;
        if (!drv_tables_get(tables, driver->track, &driver->car, driver->p.grip_use, &t))
            return false;
        driver->profile = t.profile;
        driver->lanes = t.lanes;
        return true;
    }
    if (!drv_tables_build(driver->track, &driver->car, driver->p.grip_use, &driver->own_profile, &driver->own_lanes))
        return false;
    driver->profile = driver->own_profile;
    driver->lanes = driver->own_lanes;
    return true;
}

DrvDriver *drv_create_ex(const DrvPersonality *p, const TrkTrack *track, const TrkCarParams *car, uint64_t seed,
                         DrvTableCache *tables)
{
    if (track == NULL || !drv_personality_valid(p))
        return NULL;
    DrvDriver *driver = calloc(1, sizeof *driver);
    if (driver == NULL)
        return NULL;
    driver->p = *p;
    driver->track = track;
    driver->car = car ? *car : trk_default_car();
    if (!drv_driver_tables(driver, tables)) {
        free(driver);
        return NULL;
    }
    driver->plan_on_grid = trk_profile_on_grid(driver->track, driver->profile);
    driver->rng = drv_rng_seed(seed);
    driver->hints = (DrvHints){-1, -1, -1, -1, -1, -1};
    driver->decide_periods_valid = false; /* computed on the first tick, for its dt */
    driver->noise = (DrvNoise){0.0, 1.0, 0.0};
    driver->in_start_pack = true;
    for (int k = 2; k <= DRV_HYST_POW_TICKS; k++)
        driver->hyst_pow[k] = pow(p->hysteresis, (double)k);
    driver->debug.resolver = p->resolver;
    /* spread the drivers' decisions over the ticks of a decision period, so no tick carries them all */
    DrvRng phase = drv_rng_seed(~seed); /* not the noise generator's own sequence */
    driver->decide_phase = drv_rng_next(&phase);
    return driver;
}

DrvDriver *drv_create(const DrvPersonality *p, const TrkTrack *track, const TrkCarParams *car, uint64_t seed)
{
    return drv_create_ex(p, track, car, seed, NULL);
}

void drv_destroy(DrvDriver *driver)
{
    if (driver == NULL)
        return;
    trk_speed_profile_free(driver->own_profile); /* borrowed tables belong to their cache */
    drv_lanes_destroy(driver->own_lanes);
    free(driver);
}

/* The driver is one flat struct apart from what it reads (the track and its tables), which a restore keeps. */
size_t drv_state_bytes(void)
{
    return sizeof(DrvDriver);
}

void drv_state_save(const DrvDriver *driver, void *buf)
{
    memcpy(buf, driver, sizeof *driver);
}

void drv_state_restore(DrvDriver *driver, const void *buf)
{
    DrvDriver keep = *driver;
    memcpy(driver, buf, sizeof *driver);
    driver->track = keep.track;
    driver->profile = keep.profile;
    driver->plan_on_grid = keep.plan_on_grid;
    driver->lanes = keep.lanes;
    driver->own_profile = keep.own_profile;
    driver->own_lanes = keep.own_lanes;
}

/* Ticks between decisions at a decision rate and the sim's tick: at least 1. */
static long drv_decide_period(double hz, double dt_s)
{
    double ticks = 1.0 / (hz * dt_s);
    if (!(ticks >= 1.5)) /* also a NaN or a non-positive dt: decide every tick */
        return 1;
    return ticks < 1e6 ? (long)(ticks + 0.5) : 1000000;
}

/* Whether another car is near enough that a decision a few ticks late could matter: within DRV_NEAR_M, or closing
 * (ahead or behind) fast enough to be there within DRV_NEAR_S. At 25 Hz a car closing at 30 m/s moves 1.2 m between
 * two decisions, and the nearest a far car can be is 20 m. */
static bool drv_car_near(const DrvView *view)
{
    /* Per car: ahead (ds > 0), ds < DRV_NEAR_M or ds < (v - v_o) * DRV_NEAR_S; otherwise ds > -DRV_NEAR_M or
     * ds > (v - v_o) * DRV_NEAR_S. That is |ds| < DRV_NEAR_M or |ds| < closing * DRV_NEAR_S (closing v_o - v behind)
     * with both sides negated behind, and negating a difference or a product is exact (rounding to nearest is
     * symmetric): the same answer for every car, a zero ds (near) and a NaN (not) included. One difference a car and
     * no sign flips, in a loop over the view three ticks in four. */
    const double v = view->speed_mps;
    for (const DrvOther *o = view->others, *end = o + view->other_count; o < end; o++) {
        double ds = o->ds_m, closing_ahead = (v - o->speed_mps) * DRV_NEAR_S;
        if (ds > 0.0 ? ds < DRV_NEAR_M || ds < closing_ahead : ds > -DRV_NEAR_M || ds > closing_ahead)
            return true;
    }
    return false;
}

/* The decision periods at the personality's rate and at its far rate for the view's tick length. Both are pure
 * functions of dt (the personality is fixed at creation), so they are kept with the dt's bits they were computed for
 * (bits, not ==: +0.0 and -0.0 compare equal but give different periods) and computed again only when it changes:
 * two divisions a car-tick saved, the same values whatever dt does. */
static void drv_decision_periods(DrvDriver *driver, const DrvView *view, long *period, long *far)
{
    uint64_t bits;
    memcpy(&bits, &view->dt_s, sizeof bits);
    if (!driver->decide_periods_valid || bits != driver->decide_dt_bits) {
        driver->decide_period = drv_decide_period(driver->p.decide_hz, view->dt_s);
        driver->decide_far_period = drv_decide_period(driver->p.decide_far_hz, view->dt_s);
        driver->decide_dt_bits = bits;
        driver->decide_periods_valid = true;
    }
    *period = driver->decide_period;
    *far = driver->decide_far_period;
}

/* Decisions (reading the world into maps and choosing a lane) run at the personality's decision rate, as racing
 * games run their AI below the physics rate; the control (speed plan, following, steering, grip) runs every tick on
 * the current view, toward the held plan. The first tick always decides. The period of a tick is the personality's
 * rate, or its slower far rate while no car is near (the decision's level of detail: a car with company decides as
 * often as it likes; one with nobody near holds its plan a few ticks longer, which costs it nothing and saves most
 * of a race's decisions). */
static bool drv_decision_due(DrvDriver *driver, const DrvView *view)
{
    if (!driver->plan.valid)
        return true;
    long period, far;
    drv_decision_periods(driver, view, &period, &far);
    uint64_t tick = view->tick < 0 ? 0u : (uint64_t)view->tick;
    uint64_t phase = tick + driver->decide_phase;
    bool due = period == 1 || phase % (uint64_t)period == 0;
    if (!(far > period))
        return due;
    /* Whether a car is near only picks which of the two periods applies, and it is a loop over the view: asked only
     * on ticks where the two periods disagree (with the defaults, every tick against every 4th: 3 ticks in 4; at
     * lower rates most ticks are due under neither). */
    bool due_far = phase % (uint64_t)far == 0;
    if (due == due_far)
        return due;
    return drv_car_near(view) ? due : due_far;
}

/* Here, beside its one caller, and inline (an external definition all the same: drv_context.h declares it without), so
 * the compiler works it into drv_think: most ticks it is one compare, and a call cost more than that. */
inline void drv_noise_update(DrvDriver *driver, const DrvView *view)
{
    double t = view->tick * view->dt_s;
    if (driver->p.reaction_noise <= 0.0 || t < driver->noise.next_draw_s)
        return;
    double u1 = drv_rng_uniform(&driver->rng), u2 = drv_rng_uniform(&driver->rng);
    driver->noise.speed_scale = 1.0 - DRV_NOISE_SPEED * driver->p.reaction_noise * u1;
    driver->noise.d_m = DRV_NOISE_D_M * driver->p.reaction_noise * (2.0 * u2 - 1.0);
    driver->noise.next_draw_s = t + DRV_NOISE_PERIOD_S;
}

/* Whether a car that was in the start's pack still is: on the first lap, until it is at speed with no other car
 * within DRV_PACK_AHEAD_S ahead or DRV_PACK_BEHIND_S behind (as far as its view reaches). Once clear it stays clear,
 * also when the field closes up on it again later in the lap: it is racing by then. Half a second is enough ahead:
 * the manners keep a car from pushing into the pack it is in, and a car that has dropped half a second back from the
 * one ahead has left it (with a full second, a car at the back of a string of cars never left it on lap 1). */
static bool drv_still_in_start_pack(bool was, const DrvView *view)
{
    if (!was || view->laps_done > 0)
        return false;
    if (!(view->speed_mps >= DRV_PACK_CLEAR_MPS))
        return true;
    double ahead = DRV_PACK_AHEAD_S * view->speed_mps, behind = DRV_PACK_BEHIND_S * view->speed_mps;
    for (int i = 0; i < view->other_count; i++) {
        double ds = view->others[i].ds_m;
        if (ds >= 0.0 ? ds < ahead : -ds < behind)
            return true;
    }
    return false;
}

/* A tick of either model: the reaction noise, the track at the car and the racing line's target point (which moves
 * with the car, so they are read every tick, also between decisions), the model's decision when one is due, then
 * the shared control toward the plan. */
void drv_think(DrvDriver *driver, const DrvView *view, DrvControls *out)
{
    driver->in_start_pack = drv_still_in_start_pack(driver->in_start_pack, view);
    bool decide = drv_decision_due(driver, view);
    drv_noise_update(driver, view);
    double s_ahead = view->s_m + 2.0 + view->speed_mps * DRV_LINE_LOOKAHEAD_FRACTION * driver->p.lookahead_s;
    DrvHere here;
    drv_drive_here(driver, view, s_ahead, &here);
    double line_d = here.line_ahead_d_m;
    if (decide) {
        if (driver->p.model == DRV_MODEL_STEERING)
            drv_steering_decide(driver, view, &here, line_d);
        else
            drv_context_decide(driver, view, &here, line_d);
        driver->plan.line_d_m = line_d;
        driver->last_decide_tick = view->tick;
    }
    double target_d = driver->plan.on_line ? line_d : driver->plan.target_d_m;
    /* A target on the line means "follow the line", which moves on between decisions (through a chicane by metres
     * in a few ticks): it is held relative to the line. A target off it (a lane beside a car) is held where it is. */
    if (!decide && !driver->plan.on_line && fabs(target_d - driver->plan.line_d_m) < DRV_LINE_FOLLOW_BAND_M)
        target_d += line_d - driver->plan.line_d_m;
    drv_drive_control(driver, view, target_d, line_d, &here, driver->plan.braking, out);
}

void drv_think_fn(void *self, const DrvView *view, DrvControls *out) { drv_think(self, view, out); }

const DrvPersonality *drv_personality(const DrvDriver *driver) { return &driver->p; }

const TrkSpeedProfile *drv_plan(const DrvDriver *driver) { return driver->profile; }

const DrvDebug *drv_debug(const DrvDriver *driver)
{
    return driver->p.model == DRV_MODEL_CONTEXT ? &driver->debug : NULL;
}
