/* drv_lanes.h: speed limits of constant-offset lanes (private to drivers/).
 *
 * The driver's speed plan is the racing line's. A car that is not on the line (alongside another car, pushed wide,
 * defending) follows a different path: in a corner the outside lane is longer but no wider in radius than the line,
 * and the inside lane is tighter. Lanes holds, for a few lanes of constant lateral offset across the track, the
 * fastest speed at every metre from which the car can still brake for every corner ahead on that lane, using a
 * little less grip than the line's plan in corners so an off-line car keeps some grip to steer back (and all of its
 * grip use where the lane runs straight, as the plan brakes). Built once per driver;
 * a look-up is a bilinear interpolation (no allocation, no search).
 */
#ifndef DRV_LANES_H
#define DRV_LANES_H

#include "drv.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The layout is here only so the look-up below can be inlined into per-slot loops (drv_beh_commit.c calls it for
 * every slot of every tick, at one s): build and free through the functions below, never by hand. */
typedef struct DrvLanes {
    int n;            /* samples per lane */
    int count;        /* lanes */
    double step_m;    /* track length / n */
    double d0_m;      /* offset of lane 0 (the rightmost) */
    double spacing_m;
    float *v_mps;     /* count * n */
} DrvLanes;

/* Share of the driver's grip use the lanes' speeds assume: the rest is left for steering back toward the line. */
#define DRV_LANES_GRIP_SHARE 0.92

/* grip_scale: fraction of the grip the lanes' speeds may use (the driver's grip use times a margin); brake_scale:
 * the fraction their braking may use where a lane runs straight (the driver's grip use: no steering back is needed
 * there). NULL on allocation failure. */
DrvLanes *drv_lanes_create(const TrkTrack *track, const TrkCarParams *car, double grip_scale, double brake_scale);
void drv_lanes_destroy(DrvLanes *lanes);

/* The part of the lanes that depends on the track alone (the lanes' layout, each lane's path scale along it), built
 * once for the lanes of every car and grip on that track: drv_lanes_create_on(lt, ...) gives bit for bit what
 * drv_lanes_create(track, ...) does. NULL on allocation failure. */
typedef struct DrvLanesTrack DrvLanesTrack;
DrvLanesTrack *drv_lanes_track_create(const TrkTrack *track);
void drv_lanes_track_destroy(DrvLanesTrack *lt);
DrvLanes *drv_lanes_create_on(const DrvLanesTrack *lt, const TrkCarParams *car, double grip_scale,
                              double brake_scale);

/* Where a finite offset falls among `count` lanes d0_m + k spacing_m: the lane at or below it (j, clamped so j + 1 is
 * a lane) and the fraction t toward the next. fl is never NaN here, so the compares give fmin/fmax's value (a -0.0
 * that fmax might turn into +0.0 only ever multiplies a finite speed and is added to one, which cannot tell them
 * apart). */
static inline void drv_lanes_place(double d0_m, double spacing_m, int count, double d_m, int *j, double *t)
{
    double fl = (d_m - d0_m) / spacing_m, top = count - 1.0;
    fl = fl < top ? fl : top;
    fl = fl > 0.0 ? fl : 0.0;
    int k = (int)fl;
    if (k >= count - 1)
        k = count - 2;
    *j = k;
    *t = fl - k;
}

/* drv_lanes_speed as first written, with fmod, fmin and fmax: the reference its inline form is tested against. */
double drv_lanes_speed_slow(const DrvLanes *lanes, double s_m, double d_m);

/* The arc-length half of drv_lanes_speed: the samples i and i1 around s and the fraction ts toward i1; false for a
 * non-finite s. fmod(fs, n) is fs itself on [0, n) (-0.0 included, which the original's "< 0.0" test also keeps); a
 * number there is finite, so only the other path needs the test. */
static inline bool drv_lanes_at_s(const DrvLanes *lanes, double s_m, int *i, int *i1, double *ts)
{
    double fs = s_m / lanes->step_m;
    const int n = lanes->n;
    if (!(fs >= 0.0 && fs < n)) {
        if (!isfinite(fs))
            return false;
        /* fmod is exact, and on [n, 2n) (an s on the next lap, as a way ahead reads) it is fs - n, which is exact
         * too (Sterbenz): the same value without the call */
        fs = fs >= n && fs < 2.0 * n ? fs - n : fmod(fs, n);
        if (fs < 0.0)
            fs += n;
    }
    int k = (int)fs;
    if (k >= n)
        k = n - 1;
    *i = k;
    *i1 = k + 1 == n ? 0 : k + 1;
    *ts = fs - k;
    return true;
}

/* One offset's place among the lanes: the offset half of drv_lanes_speed, done once for many arc lengths at that
 * offset (a held lane read along the braking distance) with drv_lanes_row_speed. */
typedef struct DrvLanesRow {
    bool valid; /* false: d was not finite (every speed is 0, as drv_lanes_speed gives) */
    int j;      /* the lane at or below d (drv_lanes_place) */
    double t;   /* the fraction toward lane j + 1 */
} DrvLanesRow;

static inline DrvLanesRow drv_lanes_row(const DrvLanes *lanes, double d_m)
{
    DrvLanesRow row = {isfinite(d_m), 0, 0.0};
    if (row.valid)
        drv_lanes_place(lanes->d0_m, lanes->spacing_m, lanes->count, d_m, &row.j, &row.t);
    return row;
}

/* The arc-length half: the row's cap at s. */
static inline double drv_lanes_row_speed(const DrvLanes *lanes, const DrvLanesRow *row, double s_m)
{
    int i, i1;
    double ts;
    if (!drv_lanes_at_s(lanes, s_m, &i, &i1, &ts) || !row->valid)
        return 0.0;
    double tl = row->t;
    const float *a = lanes->v_mps + (size_t)row->j * (size_t)lanes->n, *b = a + lanes->n;
    double va = (1.0 - ts) * a[i] + ts * a[i1], vb = (1.0 - ts) * b[i] + ts * b[i1];
    return (1.0 - tl) * va + tl * vb;
}

/* The fastest speed at arc length s for a car holding lateral offset d through what lies ahead, m/s (0 for a
 * non-finite s or d). Inline, with the arc length wrapped by compare when already on the lap and the clamps by
 * compare: bit for bit what fmod/fmin/fmax give for these operands (drv_lanes_speed_slow), at a tenth of the cost. */
static inline double drv_lanes_speed(const DrvLanes *lanes, double s_m, double d_m)
{
    DrvLanesRow row = drv_lanes_row(lanes, d_m);
    return drv_lanes_row_speed(lanes, &row, s_m);
}

/* Every lane's cap at one arc length, for many offsets at that s (a map's slots): the interpolation along s is done
 * once per lane instead of once per offset. drv_lanes_column_speed then gives bit for bit drv_lanes_speed(s, d). */
#define DRV_LANES_COLUMN_MAX 64
typedef struct DrvLanesColumn {
    bool valid;                       /* false: s was not finite (every speed is 0, as drv_lanes_speed gives) */
    int count;
    double d0_m, spacing_m;
    double v_mps[DRV_LANES_COLUMN_MAX];
} DrvLanesColumn;

/* A column for lanes j_lo..j_hi only (0 <= j_lo <= j_hi < count <= DRV_LANES_COLUMN_MAX; the other lanes are
 * left unset), for offsets that fall among those lanes alone (a map's slots: drv_beh_commit.c). Returns the lowest of
 * their caps (the first of equal ones; NaN never counts), INFINITY when none is lower or s is not finite (then
 * col->valid is false). Each cap is interpolated along s as drv_lanes_speed does it, bit for bit. */
static inline double drv_lanes_column_part(const DrvLanes *lanes, double s_m, int j_lo, int j_hi, DrvLanesColumn *col)
{
    col->count = lanes->count;
    col->d0_m = lanes->d0_m;
    col->spacing_m = lanes->spacing_m;
    int i, i1;
    double ts, m = INFINITY;
    col->valid = drv_lanes_at_s(lanes, s_m, &i, &i1, &ts);
    if (!col->valid)
        return m;
    for (int j = j_lo; j <= j_hi; j++) {
        const float *a = lanes->v_mps + (size_t)j * (size_t)lanes->n;
        double v = (1.0 - ts) * a[i] + ts * a[i1];
        col->v_mps[j] = v;
        m = v < m ? v : m;
    }
    return m;
}

/* The whole column; false when the lanes are too many for one (then use drv_lanes_speed). */
static inline bool drv_lanes_column(const DrvLanes *lanes, double s_m, DrvLanesColumn *col)
{
    if (lanes->count > DRV_LANES_COLUMN_MAX)
        return false;
    drv_lanes_column_part(lanes, s_m, 0, lanes->count - 1, col);
    return true;
}

/* drv_lanes_speed(s, d) for the column's s: the offset half of it, unchanged. */
static inline double drv_lanes_column_speed(const DrvLanesColumn *col, double d_m)
{
    if (!col->valid || !isfinite(d_m))
        return 0.0;
    int j;
    double tl;
    drv_lanes_place(col->d0_m, col->spacing_m, col->count, d_m, &j, &tl);
    return (1.0 - tl) * col->v_mps[j] + tl * col->v_mps[j + 1];
}

/* Where the slots of a map fall among the lanes: drv_lanes_place of each slot's offset d_left - i step
 * (drv_map_slot_d), kept by a driver from one decision to the next, since a map mostly spans the same offsets as the
 * last one (the same track edges). Keyed by the bits of everything the places are computed from, so kept places are
 * the ones a fresh computation gives. */
typedef struct DrvLanesSlots {
    bool valid;
    int slots, count;
    uint64_t key[4];         /* the bits of d_left, step, the lanes' d0 and spacing */
    int j[DRV_MAX_SLOTS];    /* the lane at or below the slot's offset; -1 where the offset is not finite */
    double t[DRV_MAX_SLOTS]; /* the fraction toward lane j + 1 */
} DrvLanesSlots;

/* The places of the slots of a map (slots, d_left_m, step_m) among the lanes, from *ls when it holds them, else
 * worked out into it. */
static inline const DrvLanesSlots *drv_lanes_slots(DrvLanesSlots *ls, const DrvLanes *lanes, int slots,
                                                   double d_left_m, double step_m)
{
    uint64_t key[4];
    memcpy(&key[0], &d_left_m, sizeof key[0]);
    memcpy(&key[1], &step_m, sizeof key[1]);
    memcpy(&key[2], &lanes->d0_m, sizeof key[2]);
    memcpy(&key[3], &lanes->spacing_m, sizeof key[3]);
    if (ls->valid && ls->slots == slots && ls->count == lanes->count && memcmp(ls->key, key, sizeof key) == 0)
        return ls;
    ls->valid = slots >= 0 && slots <= DRV_MAX_SLOTS;
    ls->slots = slots;
    ls->count = lanes->count;
    memcpy(ls->key, key, sizeof key);
    for (int i = 0; ls->valid && i < slots; i++) {
        double d = d_left_m - i * step_m; /* drv_map_slot_d */
        ls->j[i] = -1;
        if (isfinite(d))
            drv_lanes_place(lanes->d0_m, lanes->spacing_m, lanes->count, d, &ls->j[i], &ls->t[i]);
    }
    return ls->valid ? ls : NULL;
}

/* drv_lanes_column_speed at slot i's offset, its place from drv_lanes_slots (the lanes the column was read from). */
static inline double drv_lanes_column_slot_speed(const DrvLanesColumn *col, const DrvLanesSlots *ls, int i)
{
    int j = ls->j[i];
    if (!col->valid || j < 0)
        return 0.0;
    double tl = ls->t[i];
    return (1.0 - tl) * col->v_mps[j] + tl * col->v_mps[j + 1];
}

#endif
