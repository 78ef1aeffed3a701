/* sim_car.c: the car spec, its defaults (a GT-class car) and the [car] INI section, inline in a race file or in a
 * car file of its own. */
#include "sim.h"
#include "sim_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

SimCarSpec sim_default_car_spec(void)
{
    SimCarSpec spec;
    spec.dyn = trk_default_car();
    spec.length_m = 4.6;
    spec.width_m = 2.0;
    return spec;
}

/* One [car] key: name, where it goes, the allowed range, and a scale from the file's unit to the spec's. */
typedef struct SimCarKey {
    const char *name;
    size_t offset;
    double lo, hi;
    double scale;
} SimCarKey;

#define SIM_DYN(field) (offsetof(SimCarSpec, dyn) + offsetof(TrkCarParams, field))

static const SimCarKey sim_car_keys[] = {
    {"mass_kg", SIM_DYN(mass_kg), 100.0, 100000.0, 1.0},
    {"power_kw", SIM_DYN(power_w), 1.0, 100000.0, 1000.0},
    {"drag_area_m2", SIM_DYN(drag_area_m2), 0.0, 100.0, 1.0},
    {"rolling_coeff", SIM_DYN(rolling_coeff), 0.0, 1.0, 1.0},
    {"mu", SIM_DYN(mu), 0.1, 5.0, 1.0},
    {"downforce_area_m2", SIM_DYN(downforce_area_m2), 0.0, 100.0, 1.0},
    {"air_density_kgpm3", SIM_DYN(air_density_kgpm3), 0.0, 100.0, 1.0},
    {"length_m", offsetof(SimCarSpec, length_m), 1.0, 50.0, 1.0},
    {"width_m", offsetof(SimCarSpec, width_m), 0.5, 10.0, 1.0},
};

int sim_car_set_key(SimCarSpec *spec, const char *key, const char *value, char *err, size_t err_len)
{
    for (size_t i = 0; i < sizeof sim_car_keys / sizeof sim_car_keys[0]; i++) {
        const SimCarKey *k = &sim_car_keys[i];
        if (strcmp(key, k->name) != 0)
            continue;
        double v;
        if (sim_parse_double(value, &v) != 0 || v < k->lo || v > k->hi) {
            snprintf(err, err_len, "[car] %s: expected a number %g..%g, got '%s'", key, k->lo, k->hi, value);
            return 2;
        }
        *(double *)((char *)spec + k->offset) = v * k->scale;
        return 0;
    }
    return 1;
}

/*----------------------------------------------------------------------------------------------------------------
 * Car files: a [car] section only
 *--------------------------------------------------------------------------------------------------------------*/

static const char *const sim_car_sections[] = {"car", NULL};

typedef struct SimCarParse {
    TrkIni ini;
    SimCarSpec spec;
} SimCarParse;

static void sim_car_handler(void *user, const char *section, const char *name, const char *value)
{
    SimCarParse *p = user;
    (void)section; /* [car], the only one */
    char msg[256];
    int rc = sim_car_set_key(&p->spec, name, value, msg, sizeof msg);
    if (rc == 1)
        trk_ini_fail(&p->ini, p->ini.line, "[car] unknown key '%s'", name);
    else if (rc == 2)
        trk_ini_fail(&p->ini, p->ini.line, "%s", msg);
}

int sim_car_spec_parse_string(const char *text, const char *path, SimCarSpec *out, char *err, size_t err_len)
{
    SimCarParse p;
    p.spec = sim_default_car_spec();
    trk_ini_init(&p.ini, path, sim_car_sections, err, err_len);
    if (trk_ini_parse(&p.ini, text, sim_car_handler, &p) != 0)
        return 1;
    *out = p.spec;
    return 0;
}

int sim_car_spec_load(const char *path, SimCarSpec *out, char *err, size_t err_len)
{
    char *text = trk_file_read(path, SIM_MAX_INI_BYTES, NULL, err, err_len);
    if (!text)
        return 1;
    int rc = sim_car_spec_parse_string(text, path, out, err, err_len);
    free(text);
    return rc;
}
