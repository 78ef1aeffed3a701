/* trk.h: closed spline tracks (public API of the track module).
 *
 * A track is a closed centripetal Catmull-Rom curve through control points, resampled by arc length into a
 * dense table of samples. Every query takes an optional `hint` (a sample index kept by the caller, -1 or NULL when
 * unknown) so incremental look-ups along a lap are O(1); without a hint they are O(log n) on s, and a global search
 * for trk_to_frenet.
 *
 * Conventions: s is arc length along the centre line in metres, in [0, length) after wrapping; d is the signed
 * lateral offset in metres, left of the direction of travel positive. Curvature is signed, left turns positive.
 *
 * TrkTrack and TrkSpeedProfile are opaque. The look-ups that run several times per car and tick (trk_wrap_s,
 * trk_geometry_at, trk_spot_at, trk_line_d_n, trk_speed_at, trk_spot_speed_at, trk_line_speed_n) are plain calls
 * here; a hot file that includes trk_fast.h instead gets them inlined, with the same results.
 *
 * The track module uses libc and libm only (and inih for INI files). Errors are returned with a message buffer,
 * never printed.
 */
#ifndef TRK_H
#define TRK_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define TRK_GRAVITY_MPS2 9.81
#define TRK_ERR_LEN 512 /* a good size for the caller's error buffers */

typedef struct TrkTrack TrkTrack;

/* How the racing line is optimised (trk_line.c). Both minimise a curvature over offsets from the centre line,
 * bounded by the edges less a margin, coarse to fine by projected over-relaxation; they differ in what they call
 * curvature. */
typedef enum TrkLineMethod {
    /* The squared second differences of the line's points at the centre line's spacing, along the centre's normals:
     * the default, the line the drivers are tuned on. */
    TRK_LINE_CLASSIC,
    /* The line's own squared curvature times length (its own normals and spacing): within 0.5 % of TUMFTM's
     * published lines, but the drivers do not yet follow it cleanly everywhere (docs/formats.md). */
    TRK_LINE_MIN_CURVATURE,
} TrkLineMethod;

/* Each method's default distance from each edge, m. A car is off the track when its centre is past an edge. Classic:
 * half a car and room for the drivers' tracking of it. Min-curvature: half the default car's width (2.0 m) and 5 cm,
 * as close to the edges as the quasi-steady lap wants. */
#define TRK_CLASSIC_LINE_MARGIN_M 1.5
#define TRK_MIN_CURVATURE_LINE_MARGIN_M 1.05

/* The method's default margin (TRK_CLASSIC_LINE_MARGIN_M or TRK_MIN_CURVATURE_LINE_MARGIN_M). */
double trk_line_default_margin(TrkLineMethod method);

/* The method named `name` ("classic", "min-curvature"): 1 and *method set, else 0. */
int trk_line_method_parse(const char *name, TrkLineMethod *method);

/* One control point. Widths are distances from the centre line to each edge. */
typedef struct TrkPointDef {
    double x_m, y_m;
    double left_m;  /* > 0 */
    double right_m; /* > 0 */
} TrkPointDef;

/* Options for building a track. */
typedef struct TrkDef {
    const char *name;      /* copied; "unnamed" when NULL */
    double sample_step_m;  /* arc-length resampling step, m (default 1.0) */
    TrkLineMethod line_method; /* how the racing line is optimised (default TRK_LINE_CLASSIC); an INI track's
                                * [track] line replaces it */
    double line_margin_m;  /* racing line keeps this far from each edge, m (default < 0: the method's own,
                            * trk_line_default_margin); an INI track's [track] line_margin replaces it */
    int line_iterations;   /* racing-line optimisation iterations (default: enough to converge) */
    bool skip_line;        /* true: no racing line (it stays on the centre line, d = 0): for checking a file only,
                            * since building the line is most of the cost of a load and can never fail */
    bool strict;           /* true: refuse edges that fold over (the width on the inside of a corner beyond its
                            * radius); false (default): repair a shallow fold by pulling the inside edge in, with a
                            * warning (trk_warning) */
} TrkDef;

TrkDef trk_default_def(void);

/* Position and frame at an arc length. n is the unit normal pointing left (tangent rotated +90 degrees). */
typedef struct TrkPose {
    double x_m, y_m;
    double tx, ty;
    double nx, ny;
} TrkPose;

/* ---- lifetime ---------------------------------------------------------------------------------------------- */

/* Builds a track from control points (n >= 4). Returns NULL and fills err ("what is wrong", no path prefix) when the
 * points are unusable. `def` may be NULL for defaults. */
TrkTrack *trk_create(const TrkPointDef *points, int n, const TrkDef *def, char *err, size_t err_len);

/* Loads a track file: ".csv" (x_m, y_m, w_tr_right_m, w_tr_left_m), ".xml" (a TORCS / Speed Dreams track: the
 * segments of Main Track, integrated into a closed centre line) or anything else as INI ([track] name, width;
 * [points] p = x, y[, left, right]). On error returns NULL and err holds "path:line: what is wrong" (line 0 when the
 * problem is not on one line). `def` may be NULL; its name is ignored (the file gives the name). */
TrkTrack *trk_load(const char *path, const TrkDef *def, char *err, size_t err_len);

/* The same parsers on in-memory text; `path` is only used in messages. */
TrkTrack *trk_load_ini_string(const char *text, const char *path, const TrkDef *def, char *err, size_t err_len);
TrkTrack *trk_load_csv_string(const char *text, const char *path, const TrkDef *def, char *err, size_t err_len);
TrkTrack *trk_load_xml_string(const char *text, const char *path, const TrkDef *def, char *err, size_t err_len);

/* Reads a whole text file into a NUL-terminated buffer the caller frees (its length in *len when not NULL).
 * Refuses, with "path:line: what is wrong" in err, what is not a regular file (directories, pipes, devices), a file
 * over max_bytes and a NUL byte. Every reader of the project's input files goes through it. */
char *trk_file_read(const char *path, size_t max_bytes, size_t *len, char *err, size_t err_len);
/* Replaces control characters (C0 and DEL) with '?' in place: a message quoting a file's bytes must not drive the
 * terminal it is printed on. */
void trk_text_printable(char *s);
/* True when s is valid UTF-8 without control characters: what a name shown in a window and written to JSON needs. */
bool trk_text_is_name(const char *s);

/* ---- INI files (trk_ini.c) --------------------------------------------------------------------------------- */

/* Every INI file of the project (tracks, drivers, cars, races) is parsed by inih through this one reader, so all of
 * them count lines, treat sections and word their errors alike: "path:line: what is wrong", the first error in the
 * file reported (inih's own syntax errors included). A line longer than TRK_INI_MAX_LINE characters is an error;
 * a "[name]" header not in `sections` is an error on its own line, and so is a key before any header. */
#define TRK_INI_MAX_LINE 198     /* characters in a line, its newline not counted (inih's buffer) */
#define TRK_INI_NO_SECTION (-1)  /* TrkIni.section before the first header */
#define TRK_INI_UNKNOWN_SECTION (-2)

/* Called for each key of a known section (and each continuation line of a value, with the same name). `name` and
 * `value` live only during the call. Errors go to trk_ini_fail. */
typedef void TrkIniHandler(void *user, const char *section, const char *name, const char *value);

typedef struct TrkIni {
    const char *path;              /* named in messages */
    const char *const *sections;   /* the known section names, NULL-terminated */
    void (*on_section)(void *user, int section); /* NULL, or called at each known header (index into sections) */
    /* kept by the parse; read them in the callbacks */
    int line;         /* the line being parsed, 1-based */
    int section;      /* index of the current section, or TRK_INI_NO_SECTION / TRK_INI_UNKNOWN_SECTION */
    bool failed;      /* an error is kept in err */
    int err_line;     /* its line (0: not about one line) */
    char *err;
    size_t err_len;
    /* the reader's own */
    const char *text;
    size_t pos;
    bool key_seen;    /* a key since the last header: an indented line continues its value */
    TrkIniHandler *on_key;
    void *user;
} TrkIni;

/* Prepares a parse of `path` (err may be NULL). Set on_section afterwards if needed. */
void trk_ini_init(TrkIni *ini, const char *path, const char *const *sections, char *err, size_t err_len);
/* Parses text (which ends at its first NUL), calling on_key(user, ...) for each key; returns 0, or 1 with the first
 * error in err. */
int trk_ini_parse(TrkIni *ini, const char *text, TrkIniHandler *on_key, void *user);
/* Keeps "path:line: what" as the parse's error unless one is kept already; control characters become '?'. */
void trk_ini_fail(TrkIni *ini, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

void trk_free(TrkTrack *track);

/* The warnings of loading, one a line, each ending in a newline, or "" if none: a bridge ("centre line crosses
 * itself at s=812 m ...") or a repaired fold. From a file each line reads "path:line: warning: what" (the line of the
 * control point concerned, 0 for none); from trk_create, "warning: what". At most 16 lines and one saying how many
 * more there were. */
const char *trk_warning(const TrkTrack *track);

/* ---- queries ----------------------------------------------------------------------------------------------- */

const char *trk_name(const TrkTrack *track);
double trk_length(const TrkTrack *track);
double trk_wrap_s(const TrkTrack *track, double s_m);            /* into [0, length) */
double trk_delta_s(const TrkTrack *track, double from_m, double to_m); /* signed shortest, in [-L/2, L/2) */

TrkPose trk_pose_at(const TrkTrack *track, double s_m, int *hint);
void trk_to_world(const TrkTrack *track, double s_m, double d_m, double *x_m, double *y_m, int *hint);
/* World -> Frenet. With a hint, searches near it first (which keeps crossings unambiguous). Returns 0 on success. */
int trk_to_frenet(const TrkTrack *track, double x_m, double y_m, double *s_m, double *d_m, int *hint);

double trk_curvature(const TrkTrack *track, double s_m, int *hint); /* 1/m, signed, left positive */
double trk_width_left(const TrkTrack *track, double s_m, int *hint);  /* m, > 0 */
double trk_width_right(const TrkTrack *track, double s_m, int *hint); /* m, > 0 */
/* The three above from one sample lookup (the simulation reads them together every car-tick); each value is
 * bit-identical to its own query. */
typedef struct TrkGeometry {
    double kappa;   /* 1/m, as trk_curvature */
    double left_m;  /* as trk_width_left */
    double right_m; /* as trk_width_right */
} TrkGeometry;
TrkGeometry trk_geometry_at(const TrkTrack *track, double s_m, int *hint);

/* Racing line: lateral offset d(s) of the minimum-curvature line, m; its curvature (1/m, signed). */
double trk_line_d(const TrkTrack *track, double s_m, int *hint);
double trk_line_curvature(const TrkTrack *track, double s_m, int *hint);
/* The track and the racing line at one arc length from one sample lookup (a driver reads all of them at its own
 * position every tick); each value is bit-identical to its own query. */
typedef struct TrkSpot {
    double kappa;      /* 1/m, as trk_curvature */
    double left_m;     /* as trk_width_left */
    double right_m;    /* as trk_width_right */
    double line_d_m;   /* m, as trk_line_d */
    double line_kappa; /* 1/m, as trk_line_curvature */
} TrkSpot;
TrkSpot trk_spot_at(const TrkTrack *track, double s_m, int *hint);
/* trk_line_d at n arc lengths (out[i] at s_m[i]), each bit-identical to its own query, for callers that sample the
 * line along a stretch. */
void trk_line_d_n(const TrkTrack *track, const double *s_m, double *out, int n);

/* Summary for `racesim track` and tests. */
typedef struct TrkSummary {
    double length_m;
    double min_width_m, max_width_m; /* total width, left + right */
    double tightest_radius_m;        /* of the centre line */
    int corners;                     /* runs of |curvature| above a threshold, merged when close */
    int control_points;
} TrkSummary;
TrkSummary trk_summary(const TrkTrack *track);
/* trk_summary's max_width_m alone, m: a pass over the widths without the summary's curvature and corner scans. */
double trk_max_width(const TrkTrack *track);

/* ---- numbers ----------------------------------------------------------------------------------------------- */

/* fmin and fmax as compares, for the sim's and the drivers' per-tick code: the library calls are inlined only with
 * -ffinite-math-only. Bit for bit what glibc's x86-64 fmin/fmax give (minsd/maxsd after a NaN test): a NaN operand
 * yields the other one, and of two equal operands (+0.0 and -0.0 included) the second is returned. The NaN test
 * comes first: the same value (both tests are pure), and then "a < b ? a : b" is minsd's own rule, so the compiler
 * emits that one instruction after the test instead of a compare, a branch and a conditional move. */
static inline double trk_fmin(double a, double b) { return b != b || a < b ? a : b; }
static inline double trk_fmax(double a, double b) { return b != b || a > b ? a : b; }

/* The length of a path at constant offset d per metre of centre line, 1 - kappa d (kappa the centre line's signed
 * curvature): a car at speed v on it moves along s at v / scale, faster on the inside of a corner. Kept at least
 * TRK_MIN_PATH_SCALE, so a path past the centre of a tight corner's curvature does not divide by zero. */
#define TRK_MIN_PATH_SCALE 0.2
static inline double trk_path_scale(double kappa, double d_m) { return trk_fmax(1.0 - kappa * d_m, TRK_MIN_PATH_SCALE); }

/* ---- vehicle and speed profile ----------------------------------------------------------------------------- */

/* Physical parameters that decide how fast a car can go. Lives here (the lowest module) because the speed profile
 * needs it; the sim's car spec embeds it. */
typedef struct TrkCarParams {
    double mass_kg;           /* default 1300 */
    double power_w;           /* default 400e3 */
    double drag_area_m2;      /* Cd*A, default 0.75 */
    double rolling_coeff;     /* Crr, default 0.015 */
    double mu;                /* tyre grip coefficient, default 1.4 */
    double downforce_area_m2; /* Cl*A, default 1.0 (0 for none) */
    double air_density_kgpm3; /* default 1.2 */
} TrkCarParams;

TrkCarParams trk_default_car(void);

/* Forces for the sim and the profile, so both use one model. Inline: the sim and every driver read them each
 * car-tick, and a call costs as much as the formula (trk_profile.c holds the external definitions). */
#define TRK_V_FLOOR_MPS 5.0 /* power / (m v) is floored here so the drive force stays finite at a standstill */

/* aero drag * factor + rolling, N */
inline double trk_car_drag_n(const TrkCarParams *car, double speed_mps, double drag_factor)
{
    double v = fabs(speed_mps);
    double aero = 0.5 * car->air_density_kgpm3 * car->drag_area_m2 * v * v * drag_factor;
    double rolling = v > 0.0 ? car->rolling_coeff * car->mass_kg * TRK_GRAVITY_MPS2 : 0.0;
    return aero + rolling;
}

/* mu * (g + downforce/m), m/s^2 */
inline double trk_car_grip_mps2(const TrkCarParams *car, double speed_mps)
{
    double down_n = 0.5 * car->air_density_kgpm3 * car->downforce_area_m2 * speed_mps * speed_mps;
    return car->mu * (TRK_GRAVITY_MPS2 + down_n / car->mass_kg);
}

/* engine force / m, traction-limited, m/s^2 */
inline double trk_car_drive_mps2(const TrkCarParams *car, double speed_mps)
{
    double v = fabs(speed_mps) < TRK_V_FLOOR_MPS ? TRK_V_FLOOR_MPS : fabs(speed_mps);
    double power_a = car->power_w / (car->mass_kg * v);
    double traction_a = car->mu * TRK_GRAVITY_MPS2;
    return power_a < traction_a ? power_a : traction_a;
}

/* The path a profile is for. TRK_PATH_RACING_LINE_DRIVEN is the racing line as the car model drives it (the drivers'
 * plan): the line's own profile, less the longitudinal grip the car model spends keeping a car on the line while it
 * brakes or drives across the track (trk_profile.c). The racing line's quasi-steady lap and the export are
 * TRK_PATH_RACING_LINE's, the line's own, as other tools compute it. */
typedef enum TrkPath { TRK_PATH_CENTRE = 0, TRK_PATH_RACING_LINE = 1, TRK_PATH_RACING_LINE_DRIVEN = 2 } TrkPath;

/* A speed profile: the fastest speed at each sample of a path, for one car. */
typedef struct TrkSpeedProfile TrkSpeedProfile;

/* grip_scale multiplies the grip available (a driver's grip use, 0..1]). */
TrkSpeedProfile *trk_speed_profile_create(const TrkTrack *track, const TrkCarParams *car, TrkPath path,
                                          double grip_scale);
void trk_speed_profile_free(TrkSpeedProfile *profile);
/* The part of a profile that depends on the track and the path alone (the path's smoothed curvature, its length per
 * sample, its slope across the centre line), built once for the profiles of every car and grip on that track:
 * trk_speed_profile_create_on(base, ...) gives bit for bit what trk_speed_profile_create(track, ..., path, ...) does.
 * NULL on allocation failure. */
typedef struct TrkProfileBase TrkProfileBase;
TrkProfileBase *trk_profile_base_create(const TrkTrack *track, TrkPath path);
void trk_profile_base_free(TrkProfileBase *base);
TrkSpeedProfile *trk_speed_profile_create_on(const TrkProfileBase *base, const TrkCarParams *car, double grip_scale);
double trk_speed_at(const TrkSpeedProfile *profile, double s_m, int *hint); /* m/s, interpolated */
/* The fastest the car may be at s and still take every corner ahead, braking in time: the profile without the
 * engine's limit (a car in another's tow accelerates faster than its profile assumes), m/s, interpolated. Equal to
 * trk_speed_at where the profile brakes or corners. */
double trk_speed_limit_at(const TrkSpeedProfile *profile, double s_m, int *hint);
/* A speed at or below trk_speed_at(profile, s) for every s from s_m to s_m + reach_m where that is not NaN (a lap or
 * more, or an s_m off the laps around: -INFINITY), m/s: the slowest the profile can read there, a little lower. */
double trk_speed_floor(const TrkSpeedProfile *profile, double s_m, double reach_m);
/* trk_spot_at and trk_speed_at (into *speed_mps) at one arc length, and trk_line_d and trk_speed_at at n arc lengths,
 * from one sample look-up each for a profile built on `track` (a driver reads the track and its speed plan at its
 * own position every tick, and the line and the plan together along its braking distance); each value is
 * bit-identical to its own query, whatever the profile and s. */
TrkSpot trk_spot_speed_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m, int *hint,
                          double *speed_mps);
/* trk_spot_speed_at, and trk_speed_limit_at into *limit_mps, from the same look-up (bit-identical to each query). */
TrkSpot trk_spot_speed_limit_at(const TrkTrack *track, const TrkSpeedProfile *profile, double s_m, int *hint,
                                double *speed_mps, double *limit_mps);
void trk_line_speed_n(const TrkTrack *track, const TrkSpeedProfile *profile, const double *s_m, double *line_out,
                      double *speed_out, int n);
double trk_profile_lap_time(const TrkSpeedProfile *profile);                /* s, flying lap along the path */

#endif
