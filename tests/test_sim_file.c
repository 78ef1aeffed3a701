/* test_sim_file.c: race files and car files: what loads, and the exact message for each kind of bad input. The race
 * texts are parsed as if they were tests/data/sim/t.ini, so their relative paths name the files beside it. */
#include "../sim/sim.h"
#include "tst.h"

#include <stdlib.h>

#define T_PATH "tests/data/sim/t.ini"
#define T_HEAD "[race]\ntrack = oval.ini\n"
#define T_GRID "[grid]\ndriver = driver.ini\n"

static SimRace *t_race;

static int parse(const char *text, char *err, size_t len)
{
    return sim_race_parse_string(text, T_PATH, t_race, err, len);
}

typedef struct BadCase {
    const char *text;
    const char *message;
} BadCase;

static const BadCase bad_cases[] = {
    {"[rase]\nx = 1\n", T_PATH ":1: unknown section [rase] (expected [race], [car], [grid], [start] or [expect])"},
    {"laps = 3\n[race]\n", T_PATH ":1: key 'laps' outside a section "
                                 "(expected [race], [car], [grid], [start] or [expect])"},
    {"[race]\nfoo\n", T_PATH ":2: syntax error (expected [section], key = value or a ; comment)"},
    {T_HEAD "lapz = 3\n" T_GRID, T_PATH ":3: [race] unknown key 'lapz'"},
    {T_HEAD "laps = x\n" T_GRID, T_PATH ":3: [race] laps: expected an integer 0..1000, got 'x'"},
    {T_HEAD "laps = 1001\n" T_GRID, T_PATH ":3: [race] laps: expected an integer 0..1000, got '1001'"},
    {T_HEAD "laps = 2.5\n" T_GRID, T_PATH ":3: [race] laps: expected an integer 0..1000, got '2.5'"},
    {T_HEAD "laps = 0\n" T_GRID, T_PATH ":0: [race] laps = 0 needs a duration_s"},
    {T_HEAD "laps = 2\nlaps = 3\n" T_GRID, T_PATH ":4: [race] laps given twice"},
    {T_HEAD "shuffle_grid = yes\n" T_GRID, T_PATH ":3: [race] shuffle_grid: expected true or false, got 'yes'"},
    {T_HEAD "seed = -1\n" T_GRID,
     T_PATH ":3: [race] seed: expected an integer 0..18446744073709551615, got '-1'"},
    {T_HEAD "tick_hz = 5\n" T_GRID, T_PATH ":3: [race] tick_hz: expected a number 10..1000, got '5'"},
    {T_HEAD "tick_hz = nan\n" T_GRID, T_PATH ":3: [race] tick_hz: expected a number 10..1000, got 'nan'"},
    {T_HEAD "duration_s = -3\n" T_GRID, T_PATH ":3: [race] duration_s: expected a number 0..1000000, got '-3'"},
    {"[race]\nlaps = 3\n" T_GRID, T_PATH ":0: [race] track is required"},
    {"[race]\ntrack = nope.ini\n" T_GRID, T_PATH ":2: [race] track: cannot open 'tests/data/sim/nope.ini'"},
    {"[race]\ntrack =\n" T_GRID, T_PATH ":2: [race] track: expected a file path, got ''"},
    {T_HEAD, T_PATH ":0: [grid] needs at least one 'driver = path' line"},
    {T_HEAD "[grid]\ncar = driver.ini\n", T_PATH ":4: [grid] unknown key 'car' (expected 'driver = path[, name = N][, number = N][, colour = #rrggbb]')"},
    {T_HEAD T_GRID "driver = driver.ini\n",
     T_PATH ":5: [grid] driver: number 1 is already Ace Moreau's (grid slot 1): give this car its own, e.g. 'driver = driver.ini, number = N, name = ...'"},
    {T_HEAD T_GRID "driver = driver.ini, number = 1000\n",
     T_PATH ":5: [grid] driver: number: expected a whole number in 0..999, got '1000'"},
    {T_HEAD T_GRID "driver = driver.ini, colour = 1,2\n",
     T_PATH ":5: [grid] driver: colour: expected #rrggbb or r,g,b (each 0..255), got '1,2'"},
    {T_HEAD "points = 10, x\n" T_GRID, T_PATH ":3: [race] points: value 2: expected an integer 0..10000, got 'x'"},
    {T_HEAD "points = \n" T_GRID, T_PATH ":3: [race] points: value 1: expected an integer 0..10000, got ''"},
    {T_HEAD "points = 10,,5\n" T_GRID, T_PATH ":3: [race] points: value 2: expected an integer 0..10000, got ''"},
    {T_HEAD "points = 10, -1\n" T_GRID,
     T_PATH ":3: [race] points: value 2: expected an integer 0..10000, got '-1'"},
    {T_HEAD "points = 10, 12\n" T_GRID,
     T_PATH ":3: [race] points: value 2 (12) is more than value 1 (10): points must not increase with the position"},
    {T_HEAD "points = 1\npoints = 1\n" T_GRID, T_PATH ":4: [race] points given twice"},
    {T_HEAD "[grid]\ndriver = nope.ini\n", T_PATH ":4: [grid] driver: cannot open 'tests/data/sim/nope.ini'"},
    {T_HEAD T_GRID "[car]\nmass_kg = heavy\n", T_PATH ":6: [car] mass_kg: expected a number 100..100000, got 'heavy'"},
    {T_HEAD T_GRID "[car]\nmass_kg = 50\n", T_PATH ":6: [car] mass_kg: expected a number 100..100000, got '50'"},
    {T_HEAD T_GRID "[car]\nwings = 2\n", T_PATH ":6: [car] unknown key 'wings'"},
    {T_HEAD "car = car.ini\n" T_GRID "[car]\nmu = 1.2\n",
     T_PATH ":7: [car] the car is already given by 'car =' on line 3"},
    {T_HEAD "car = nope.ini\n" T_GRID, T_PATH ":3: [race] car: cannot open 'tests/data/sim/nope.ini'"},
    {T_HEAD T_GRID "[start]\n2 = 10, 0, 5\n", T_PATH ":6: [start] 2: the grid has only 1 drivers"},
    {T_HEAD T_GRID "[start]\nx = 10, 0, 5\n", T_PATH ":6: [start] 'x': expected a grid number 1..128"},
    {T_HEAD T_GRID "[start]\n1 = 10, 0\n",
     T_PATH ":6: [start] 1: expected 's_m, d_m, speed_mps' (|d| <= 100, speed 0..150), got '10, 0'"},
    {T_HEAD T_GRID "[start]\n1 = 10, 0, 5, 6\n",
     T_PATH ":6: [start] 1: expected 's_m, d_m, speed_mps' (|d| <= 100, speed 0..150), got '10, 0, 5, 6'"},
    {T_HEAD T_GRID "[start]\n1 = 10, 0, 5\n1 = 20, 0, 5\n", T_PATH ":7: [start] 1 given twice"},
};

static int test_bad_race_files(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char err[1024] = "";
        int rc = parse(bad_cases[i].text, err, sizeof err);
        if (rc == 0)
            fprintf(stderr, "case %zu loaded\n", i);
        TST_CHECK(rc != 0);
        TST_STR_EQ(err, bad_cases[i].message);
    }
    return 0;
}

/* Errors inside the files a race names carry those files' own path and line. */
static int test_errors_of_named_files(void)
{
    char err[1024];
    TST_CHECK(parse(T_HEAD "[grid]\ndriver = bad_driver.ini\n", err, sizeof err) != 0);
    TST_CHECK(strncmp(err, "tests/data/sim/bad_driver.ini:4: [behaviour] skirt:", 51) == 0);
    TST_CHECK(parse("[race]\ntrack = bad_track.ini\n" T_GRID, err, sizeof err) != 0);
    TST_CHECK(strncmp(err, "tests/data/sim/bad_track.ini:6: ", 32) == 0);
    TST_CHECK(parse(T_HEAD "car = bad_car.ini\n" T_GRID, err, sizeof err) != 0);
    TST_STR_EQ(err, "tests/data/sim/bad_car.ini:3: [car] power_kw: expected a number 1..100000, got '-5' "
                    "(named at tests/data/sim/t.ini:3)");
    TST_CHECK(sim_race_load("tests/data/sim/missing.ini", t_race, err, sizeof err) != 0);
    TST_STR_EQ(err, "tests/data/sim/missing.ini:0: cannot open: No such file or directory");
    /* what is not a regular file is refused before it is read: a directory, a device that never ends */
    TST_CHECK(parse(T_HEAD "[grid]\ndriver = .\n", err, sizeof err) != 0);
    TST_STR_EQ(err, "tests/data/sim/.:0: not a regular file (a directory) (named at tests/data/sim/t.ini:4)");
    TST_CHECK(sim_race_load("tests/data", t_race, err, sizeof err) != 0);
    TST_STR_EQ(err, "tests/data:0: not a regular file (a directory)");
    TST_CHECK(sim_race_load("/dev/zero", t_race, err, sizeof err) != 0);
    TST_STR_EQ(err, "/dev/zero:0: not a regular file (a device)");
    TST_CHECK(parse(T_HEAD "car = /dev/zero\n" T_GRID, err, sizeof err) != 0);
    TST_STR_EQ(err, "/dev/zero:0: not a regular file (a device) (named at tests/data/sim/t.ini:3)");
    TST_CHECK(parse("[race]\ntrack = thin.ini\n" T_GRID, err, sizeof err) != 0);
    TST_STR_EQ(err, "tests/data/sim/t.ini:0: [race] track tests/data/sim/thin.ini is 1e-300 m wide at its narrowest, "
                    "narrower than the car (2 m)");
    /* names shown in a window and written to JSON: UTF-8 without control characters; messages never echo them */
    DrvPersonality pers;
    TST_CHECK(drv_personality_parse_string("[driver]\nname = Zo\xc3\xab\n", "d.ini", &pers, err, sizeof err) == 0);
    TST_CHECK(drv_personality_parse_string("[driver]\nname = Bad\xff\n", "d.ini", &pers, err, sizeof err) != 0);
    TST_CHECK(drv_personality_parse_string("[driver]\nname = \xed\xa0\x80\n", "d.ini", &pers, err, sizeof err) != 0);
    TST_CHECK(drv_personality_parse_string("[driver]\nname = Bell\x07\x1b[31m\n", "d.ini", &pers, err, sizeof err) != 0);
    TST_STR_EQ(err, "d.ini:2: [driver] name: expected a name in UTF-8 without control characters, got 'Bell??[31m'");
    SimCarSpec spec;
    TST_CHECK(sim_car_spec_load("tests/data/sim", &spec, err, sizeof err) != 0);
    TST_STR_EQ(err, "tests/data/sim:0: not a regular file (a directory)");
    return 0;
}

static int test_line_too_long(void)
{
    char text[600], err[1024];
    snprintf(text, sizeof text, T_HEAD "; %0400d\n" T_GRID, 0);
    TST_CHECK(parse(text, err, sizeof err) != 0);
    TST_STR_EQ(err, T_PATH ":3: line too long (at most 198 characters)");
    return 0;
}

/* Track, driver, car and race files share one INI reader: the same problem, worded the same, on the same line. */
static int test_one_reader_for_every_ini_file(void)
{
    char text[400], err[4][TRK_ERR_LEN];
    DrvPersonality pers;
    SimCarSpec spec;
    SimRace *race = malloc(sizeof *race);
    TST_CHECK(race != NULL);
    const char *const header[4] = {"[track]", "[driver]", "[car]", "[race]"};
    const char *const problem[3] = {"; %0197d\n", "bogus line\n", "\xEF\xBB\xBF\n"};
    /* a byte-order mark counts only before the first header: on line 2 it is a syntax error */
    const char *const message[3] = {"f.ini:2: line too long (at most 198 characters)",
                                    "f.ini:2: syntax error (expected [section], key = value or a ; comment)",
                                    "f.ini:2: syntax error (expected [section], key = value or a ; comment)"};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 4; i++) {
            int n = snprintf(text, sizeof text, "%s\n", header[i]);
            snprintf(text + n, sizeof text - (size_t)n, problem[k], 0);
            TrkTrack *t = NULL;
            int rc = i == 0   ? (t = trk_load_ini_string(text, "f.ini", NULL, err[i], sizeof err[i])) == NULL
                     : i == 1 ? drv_personality_parse_string(text, "f.ini", &pers, err[i], sizeof err[i])
                     : i == 2 ? sim_car_spec_parse_string(text, "f.ini", &spec, err[i], sizeof err[i])
                              : sim_race_parse_string(text, "f.ini", race, err[i], sizeof err[i]);
            trk_free(t);
            TST_CHECK(rc != 0);
            TST_STR_EQ(err[i], message[k]);
        }
    }
    free(race);
    return 0;
}

static int test_good_race_file(void)
{
    char err[1024];
    int rc = sim_race_load("tests/data/sim/race.ini", t_race, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    TST_CHECK(rc == 0);
    TST_STR_EQ(t_race->track_path, "tests/data/sim/oval.ini");
    TST_CHECK(t_race->laps == 2 && t_race->seed == 7 && t_race->tick_hz == 100.0);
    TST_CHECK(t_race->entry_count == 4);
    TST_STR_EQ(t_race->entries[3].driver_path, "tests/data/sim/driver.ini");
    TST_STR_EQ(t_race->entries[0].personality.name, "Ace Moreau");
    /* a grid line's own identity: number and name override the driver file's */
    TST_STR_EQ(t_race->entries[1].personality.name, "Car Two");
    TST_CHECK(t_race->entries[1].personality.number == 2 && t_race->entries[3].personality.number == 4);
    TST_CHECK(t_race->entries[1].personality.colour[0] == 0xe1); /* not overridden: the file's */
    TST_CHECK(!t_race->entries[0].placed);
    TST_NEAR(t_race->car.length_m, 4.6, 1e-12); /* the default car */
    TST_CHECK(t_race->points_count == 10 && t_race->points[0] == 25 && t_race->points[9] == 1); /* default table */
    TST_CHECK(!t_race->shuffle_grid && !sim_default_session_def(t_race).shuffle_grid);
    /* a shuffled grid: the default session permutes it with the seed */
    TST_CHECK(parse(T_HEAD "shuffle_grid = true\n" T_GRID, err, sizeof err) == 0 && t_race->shuffle_grid);
    TST_CHECK(sim_default_session_def(t_race).shuffle_grid);
    /* a byte-order mark before the first header (an editor's UTF-8 signature) */
    TST_CHECK(parse("\xEF\xBB\xBF" T_HEAD T_GRID, err, sizeof err) == 0 && t_race->entry_count == 1);
    rc = parse(T_HEAD "points = 10, 6,4 , 0\n" T_GRID, err, sizeof err);
    TST_CHECK(rc == 0 && t_race->points_count == 4 && t_race->points[1] == 6 && t_race->points[2] == 4);
    /* a car file, a start placement, comments and blank lines */
    rc = parse("; comment\n[race]\ntrack = oval.ini\ncar = car.ini\nseed = 18446744073709551615\n\n" T_GRID
               "driver = driver.ini, number = 2\n[start]\n2 = 100, -1.5, 30\n",
               err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    TST_CHECK(rc == 0);
    TST_CHECK(t_race->seed == UINT64_MAX && t_race->laps == 5 && t_race->entry_count == 2);
    TST_NEAR(t_race->car.dyn.mass_kg, 1000.0, 1e-12);
    TST_NEAR(t_race->car.dyn.power_w, 300e3, 1e-6);
    TST_NEAR(t_race->car.length_m, 4.2, 1e-12);
    TST_NEAR(t_race->car.dyn.mu, 1.4, 1e-12); /* unset keys keep the defaults */
    TST_CHECK(!t_race->entries[0].placed && t_race->entries[1].placed);
    TST_NEAR(t_race->entries[1].s_m, 100.0, 1e-12);
    TST_NEAR(t_race->entries[1].d_m, -1.5, 1e-12);
    TST_NEAR(t_race->entries[1].speed_mps, 30.0, 1e-12);
    /* an inline [car] */
    rc = parse(T_HEAD T_GRID "[car]\nmu = 1.1\ndownforce_area_m2 = 0\nwidth_m = 1.8\n", err, sizeof err);
    TST_CHECK(rc == 0);
    TST_NEAR(t_race->car.dyn.mu, 1.1, 1e-12);
    TST_NEAR(t_race->car.dyn.downforce_area_m2, 0.0, 1e-12);
    TST_NEAR(t_race->car.width_m, 1.8, 1e-12);
    return 0;
}

static int test_car_files(void)
{
    SimCarSpec spec;
    char err[512];
    TST_CHECK(sim_car_spec_parse_string("[car]\nmass_kg = 900\n", "c.ini", &spec, err, sizeof err) == 0);
    TST_NEAR(spec.dyn.mass_kg, 900.0, 1e-12);
    TST_NEAR(spec.width_m, 2.0, 1e-12);
    TST_CHECK(sim_car_spec_parse_string("[car]\nmass_kg = 900\n[wheels]\n", "c.ini", &spec, err, sizeof err) != 0);
    TST_STR_EQ(err, "c.ini:3: unknown section [wheels] (expected [car])");
    TST_CHECK(sim_car_spec_parse_string("[car]\nlength_m = 0.5\n", "c.ini", &spec, err, sizeof err) != 0);
    TST_STR_EQ(err, "c.ini:2: [car] length_m: expected a number 1..50, got '0.5'");
    TST_CHECK(sim_car_spec_parse_string("mu = 1\n", "c.ini", &spec, err, sizeof err) != 0);
    TST_STR_EQ(err, "c.ini:1: key 'mu' outside a section (expected [car])");
    TST_CHECK(sim_car_spec_load("tests/data/sim/car.ini", &spec, err, sizeof err) == 0);
    TST_NEAR(spec.dyn.power_w, 300e3, 1e-6);
    return 0;
}

/* Junk must never crash the parser (the fuzzer does much more of this). */
static int test_junk_does_not_crash(void)
{
    char err[256];
    const char *junk[] = {"", "[", "]", "[race", "=", "[race]\n=\n", "[race]\ntrack = \x01\x02\n", "\xef\xbb\xbf[race]\n",
                          "[grid]\ndriver = .\n", "[grid]\ndriver = /\n", "[race]\n  continuation\n"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
        TST_CHECK(parse(junk[i], err, sizeof err) != 0);
    return 0;
}

int main(void)
{
    t_race = malloc(sizeof *t_race);
    TST_RUN(test_bad_race_files);
    TST_RUN(test_errors_of_named_files);
    TST_RUN(test_line_too_long);
    TST_RUN(test_one_reader_for_every_ini_file);
    TST_RUN(test_good_race_file);
    TST_RUN(test_car_files);
    TST_RUN(test_junk_does_not_crash);
    free(t_race);
    return tst_report();
}
