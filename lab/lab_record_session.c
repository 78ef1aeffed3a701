/* lab_record_session.c: car records filled from a finished session (kept apart from lab_record.c so the record
 * reader and writer link without the simulation). */
#include "lab.h"

#include <stdio.h>
#include <string.h>

static void rec_copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void lab_car_record_from_session(const SimSession *session, int car_id, LabCarRecord *out)
{
    const SimRace *race = sim_session_race(session);
    const SimCar *car = sim_world_car(sim_session_world((SimSession *)session), car_id);
    int entry = sim_session_entry_of(session, car_id);
    memset(out, 0, sizeof *out);
    out->grid = car_id + 1;
    rec_copy(out->name, sizeof out->name, car->name);
    if (entry >= 0 && entry < race->entry_count)
        rec_copy(out->driver, sizeof out->driver, race->entries[entry].driver_path);
    out->number = car->number;
    out->position = car->position;
    out->status = car->status;
    out->laps = car->laps;
    out->time_s = car->status == SIM_FINISHED ? car->finish_time_s : 0.0;
    out->best_lap_s = car->laps > 0 ? car->best_lap_s : 0.0;
    out->overtakes = car->overtakes;
    out->positions_lost = car->positions_lost;
    out->lappings = car->lappings;
    out->collisions = car->collisions;
    out->offtracks = car->offtracks;
    out->offtrack_s = car->offtrack_s;
}
