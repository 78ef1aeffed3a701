/* sim_expect.h: what a scenario expects of its race ([expect] section of a race file) and the verdict on a run.
 *
 *   [expect]
 *   seeds = 1-5                 seeds to run (default: the race's seed); `racesim check --seeds` overrides
 *   collisions_max = N          collisions of the whole race (every pair's contacts, counted as the sim counts them)
 *   collisions_mean_max = X     the mean over the seeds run of collisions_max's count is at most X (X >= 0, real)
 *   overtakes_min = N           overtakes of the whole race (lappings are not overtakes)
 *   overtakes_max = N
 *   offtrack_s_max = S          seconds off the track, summed over every car
 *   offtrack_s_mean_max = S     the mean over the seeds run of offtrack_s_max's figure is at most S
 *   finish_all = true|false     true: every car is classified (none retired)
 *   position = CAR, P           CAR is classified P-th (1-based); one line per car
 *   ahead_of = A, B             car A is classified ahead of car B; any number of lines
 *   no_contact_between = A, B   no collision between A and B; any number of lines
 *   clearance_min = A, B, M     A and B never came closer than M metres (box to box; see SimExpectFacts)
 *   drafted_s_min = CAR, S      CAR spent at least S seconds in another car's wake (the sim's drafting_now)
 *
 * CAR is a driver's name (the `name` of its personality file) when exactly one car has it, or `#N`: the N-th car of
 * the race file, counting its [grid] `driver =` and [start] `car =` lines in the order they appear. References are
 * checked when the race loads (an unknown or ambiguous name is an error on its line).
 *
 * Evaluation works on plain facts (per car and per pair, indexed by race entry) so tests can hand-make them; the
 * facts of a finished session come from sim_expect_facts_from_session. No printing: each check gives its measured
 * figure and its limit as text and a PASS/FAIL.
 *
 * The two *_mean_max keys are checked across seeds, not per seed: the largest collision count of a chaotic multi-car
 * race over a few seeds is mostly luck, its mean over enough seeds much less so. sim_expect_eval leaves them out;
 * sim_expect_eval_across evaluates them on the per-seed reports of one scenario.
 */
#ifndef SIM_EXPECT_H
#define SIM_EXPECT_H

#include "sim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_EXPECT_MAX_REFS 32   /* position, ahead_of and no_contact_between lines together */
#define SIM_EXPECT_REF_LEN 48    /* DRV_NAME_LEN: a car reference as written */
#define SIM_EXPECT_MAX_CHECKS (6 + SIM_EXPECT_MAX_REFS)
#define SIM_EXPECT_MAX_ENTRIES 128 /* SIM_MAX_CARS */
#define SIM_EXPECT_SCALAR_KEYS 8   /* seeds and the keys with one number or flag, each given at most once */

typedef enum SimExpectRefKind {
    SIM_EXPECT_POSITION = 0,
    SIM_EXPECT_AHEAD_OF,
    SIM_EXPECT_NO_CONTACT,
    SIM_EXPECT_CLEARANCE,
    SIM_EXPECT_DRAFTED
} SimExpectRefKind;

/* One per-car expectation line. Entries are 0-based race entries, filled by sim_expect_resolve. */
typedef struct SimExpectRef {
    SimExpectRefKind kind;
    int line;                         /* line in the race file, for messages */
    char a[SIM_EXPECT_REF_LEN], b[SIM_EXPECT_REF_LEN]; /* as written (b unused for position) */
    int entry_a, entry_b;
    int position;                     /* SIM_EXPECT_POSITION: 1-based */
    double value;                     /* clearance_min: m; drafted_s_min: s */
} SimExpectRef;

typedef struct SimExpect {
    bool present;                     /* the file has an [expect] section */
    int line;                         /* its header line */
    bool have_seeds;
    uint64_t seed_first, seed_last;   /* inclusive */
    bool have_collisions_max, have_overtakes_min, have_overtakes_max, have_offtrack_s_max, have_finish_all;
    int collisions_max, overtakes_min, overtakes_max;
    double offtrack_s_max;            /* s */
    bool finish_all;
    bool have_collisions_mean_max, have_offtrack_s_mean_max; /* checked across seeds (sim_expect_eval_across) */
    double collisions_mean_max;       /* collisions per run */
    double offtrack_s_mean_max;       /* s per run */
    int ref_count;
    SimExpectRef refs[SIM_EXPECT_MAX_REFS];
    int key_line[SIM_EXPECT_SCALAR_KEYS]; /* lines of the scalar keys, in SimExpectKey order (0 = not given) */
} SimExpect;

/* What happened in one run, per race entry (0-based, the file's car order). */
typedef struct SimExpectCar {
    char name[DRV_NAME_LEN];
    int position;                     /* classification, 1-based */
    SimStatus status;
    double offtrack_s;
    double drafted_s;                 /* time in another car's wake (per-tick observation) */
} SimExpectCar;

typedef struct SimExpectFacts {
    uint64_t seed;
    int car_count;
    SimExpectCar cars[SIM_EXPECT_MAX_ENTRIES];
    int collisions, overtakes, offtracks;
    double offtrack_s;                /* summed over cars */
    double duration_s;                /* sim time at the end */
    /* contacts between entries (symmetric) and the sim time of the first, s */
    uint16_t contacts[SIM_EXPECT_MAX_ENTRIES][SIM_EXPECT_MAX_ENTRIES];
    float first_contact_s[SIM_EXPECT_MAX_ENTRIES][SIM_EXPECT_MAX_ENTRIES];
    /* Closest approach of each pair while both ran, m, observed every tick (sim_expect_observe): the larger of
     * the bumper-to-bumper gap along the track and the side-to-side gap across it, so 0 or less is contact and
     * a car passing 0.3 m beside another scores 0.3. SIM_EXPECT_FAR when never observed. */
    float min_clearance_m[SIM_EXPECT_MAX_ENTRIES][SIM_EXPECT_MAX_ENTRIES];
    bool observed;                    /* sim_expect_observe ran: clearance and drafting are measured */
} SimExpectFacts;

#define SIM_EXPECT_FAR 1e9f

/* How a check's measured value compares with its limit; also says which seed is the worst for it. */
typedef enum SimExpectOp { SIM_EXPECT_LE = 0, SIM_EXPECT_GE, SIM_EXPECT_TRUE } SimExpectOp;

typedef struct SimExpectCheck {
    char name[96];                    /* "collisions_max", "ahead_of Ace Moreau, #2" */
    int line;                         /* of the key in the race file */
    SimExpectOp op;
    double measured, limit;           /* SIM_EXPECT_TRUE: measured 1 = holds */
    char measured_text[64];           /* "0", "3.20 s", "P1 vs P3", "1 contact (first at 4.21 s)" */
    char limit_text[64];              /* "<= 0", ">= 1", "= P1" */
    bool pass;
} SimExpectCheck;

typedef struct SimExpectReport {
    int count;
    SimExpectCheck checks[SIM_EXPECT_MAX_CHECKS];
    bool pass;                        /* every check passed */
    /* the run's figures that the checks across seeds average (kept whether or not a check uses them) */
    int collisions;
    double offtrack_s;                /* s, summed over cars */
} SimExpectReport;

/* ---- parsing (called by the race parser) ------------------------------------------------------------------- */

struct SimRace;

/* One `key = value` of the [expect] section. Returns 0, or nonzero with msg holding what is wrong (without the
 * path and line, e.g. "[expect] collisions_max: expected an integer 0..1000000, got 'x'"). */
int sim_expect_parse_kv(SimExpect *ex, const char *name, const char *value, int line, char *msg, size_t msg_len);
/* "A-B" (A <= B, at most 100000 seeds) or "A"; blanks allowed around the numbers. Returns 0 on success. */
int sim_expect_parse_seeds(const char *text, uint64_t *first, uint64_t *last);
/* Resolves the car references once every car of the race is known. Returns 0, or nonzero with *line and msg set. */
int sim_expect_resolve(SimExpect *ex, const struct SimRace *race, int *line, char *msg, size_t msg_len);

/* ---- evaluation -------------------------------------------------------------------------------------------- */

struct SimSession;

/* Clears the facts before a run. */
void sim_expect_facts_begin(SimExpectFacts *facts);
/* Observes the state after one step (clearances, drafting); call after every sim_world_step. */
void sim_expect_observe(SimExpectFacts *facts, const struct SimSession *session);
/* Fills the rest of the facts from the finished session (keeps what sim_expect_observe measured). */
void sim_expect_facts_from_session(const struct SimSession *session, SimExpectFacts *out);
/* Runs a session to the end with observation: begin, step + observe until done, facts. */
void sim_expect_run_session(struct SimSession *session, SimExpectFacts *out);
/* Evaluates every per-seed expectation of `ex` on the facts, in a fixed order: scalar limits, then the reference
 * lines. The checks across seeds are left out (see sim_expect_eval_across). */
void sim_expect_eval(const SimExpect *ex, const SimExpectFacts *facts, SimExpectReport *out);
/* Evaluates the checks across seeds (collisions_mean_max, then offtrack_s_mean_max) on the reports of one
 * scenario's runs, summed in array order so the result does not depend on the order the runs finished in.
 * out->count is 0 (and out->pass true) when `ex` has none. */
void sim_expect_eval_across(const SimExpect *ex, const SimExpectReport *runs, int run_count, SimExpectReport *out);
/* The index of the check that is worst across several runs of one scenario: for each check, the run whose
 * measured value is furthest on the failing side (first failing run for true/false checks). */
int sim_expect_worst_run(const SimExpectReport *reports, int run_count, int check);

#endif
