/* sim_tally.h: the per-driver aggregate of a batch of races.
 *
 * Records are added in seed order (strictly increasing seeds); `racesim batch` and `racesim merge` both feed
 * records read back from their JSON lines through this one tally, so both print the same table byte for byte.
 * A "driver" is a car identified by its personality file, name and number (a race whose grid names the same file
 * twice gives two cars with the same identity, which the tally rejects); rows keep the first record's car order.
 */
#ifndef SIM_TALLY_H
#define SIM_TALLY_H

#include "sim_record.h"
#include "sim_stats.h"

#include <stdio.h>

typedef struct SimDriverTally {
    char name[DRV_NAME_LEN];
    char driver[SIM_PATH_LEN];
    int number;
    long races, wins, podiums, dnfs;
    SimRunning position, overtakes, positions_lost, collisions, offtrack_s;
    SimRunning best_lap_s; /* races in which the car completed a lap */
} SimDriverTally;

typedef struct SimBatchTally {
    char race[SIM_PATH_LEN];
    int laps;
    int car_count;
    long races;
    uint64_t first_seed, last_seed;
    SimDriverTally drivers[SIM_MAX_CARS]; /* in the first record's order */
} SimBatchTally;

void sim_batch_tally_init(SimBatchTally *t);
/* Adds one race record. Fails (err without a path prefix) when the record is of another kind, another race file,
 * lap count or grid, or its seed is not after the previous record's. */
int sim_batch_tally_add(SimBatchTally *t, const SimRecord *rec, char *err, size_t err_len);
/* The table, drivers sorted by mean finishing position. */
void sim_batch_tally_print(const SimBatchTally *t, FILE *out);

#endif
