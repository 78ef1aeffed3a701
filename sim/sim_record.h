/* sim_record.h: per-race records of batches and A/B tests, as JSON lines.
 *
 * A race record is what `racesim batch` writes for each race: exactly the compact `racesim run --json` record
 * without its event list (sim_results_write_json): race_file, seed, laps and per car its driver file, name,
 * number, start slot, finishing position, status, time, best lap and incident counts (other keys are ignored).
 * An A/B record ("kind": "ab") is one pair of `racesim ab`: the seed, the tested grid line and the tested car in
 * run A and run B, each car with the same keys as a car of a race record. `batch` and `ab` build their tables from
 * the lines as written, parsed back, so `racesim merge` of the lines prints exactly what the run printed.
 *
 * Reading is strict (see sim_json.h) and checks every field; errors read "path:line: what is wrong". No globals,
 * no printing beyond the FILE* the caller passes.
 */
#ifndef SIM_RECORD_H
#define SIM_RECORD_H

#include "sim_race.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SIM_RECORD_MAX_LINE (1 << 20) /* bytes; longer lines are rejected */

typedef enum SimRecordKind { SIM_RECORD_RACE = 0, SIM_RECORD_AB = 1 } SimRecordKind;

/* One car's result in one race. */
typedef struct SimCarRecord {
    int grid;                    /* start slot after any shuffle, 1 = pole */
    char name[DRV_NAME_LEN];
    char driver[SIM_PATH_LEN];   /* personality file ("driver_file") */
    int number;
    int position;                /* 1-based finishing position */
    SimStatus status;            /* "finished", "dnf", or "running" when the race's time limit stopped it */
    int laps;                    /* completed laps */
    double time_s;               /* race time when finished, else 0 */
    double best_lap_s;           /* 0 when no lap was completed */
    int overtakes, positions_lost, lappings, collisions, offtracks;
    double offtrack_s;
} SimCarRecord;

typedef struct SimRecord {
    SimRecordKind kind;
    char race[SIM_PATH_LEN];     /* "race_file": the race file as given on the command line */
    uint64_t seed;
    int laps;
    /* race records: every car, in finishing order */
    int car_count;
    SimCarRecord cars[SIM_MAX_CARS];
    /* A/B records */
    int seat;                    /* the tested grid line, 0-based */
    SimCarRecord a, b;           /* the tested car in the run with A and in the run with B */
} SimRecord;

/* One car of a finished session, by car id (the driver file is the race entry's). */
void sim_car_record_from_session(const SimSession *session, int car_id, SimCarRecord *out);

/* Writes the record as one JSON line (with the trailing newline), doubles with "%.17g". Race records get the keys
 * the reader needs (a subset of sim_results_write_json's). Returns nonzero on a write error. */
int sim_record_write(const SimRecord *rec, FILE *out);

/* Parses one line (without its newline). `path` and `line` only go into messages: "path:line: what is wrong". */
int sim_record_parse(const char *text, size_t len, const char *path, long line, SimRecord *out, char *err,
                     size_t err_len);

/* Reads JSON lines one at a time from a file, counting lines; blank lines are skipped. */
typedef struct SimRecordReader {
    FILE *file;
    const char *path;
    long line;
    char *buf;
    size_t cap;
} SimRecordReader;

/* Returns 1 with a record, 0 at the end of the file, -1 with err filled. */
int sim_record_read(SimRecordReader *reader, SimRecord *out, char *err, size_t err_len);
void sim_record_reader_free(SimRecordReader *reader);

const char *sim_record_status_name(SimStatus status); /* "running", "finished", "dnf" */

#endif
