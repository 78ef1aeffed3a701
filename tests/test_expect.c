/* test_expect.c: scenario files ([start] `car =` lines, [expect]) and the evaluation of expectations. */
#include "../lab/lab.h"
#include "../sim/sim.h"
#include "tst.h"

#include <stdlib.h>

#define PATH "tests/data/sim/scen.ini" /* relative paths inside resolve next to the sim test data */
#define SLOW "../../scenarios/drivers/slow.ini"

static SimRace race;
static LabExpect expect;
static char err[2048];

/* A scenario file is a race file (sim/) whose [expect] lines lab/ reads. */
static int parse(const char *text)
{
    if (sim_race_parse_string(text, PATH, &race, err, sizeof err) != 0)
        return 1;
    return lab_expect_load(&expect, &race, err, sizeof err);
}

/* A scenario: two placed cars (one held) and every kind of expectation. */
static const char *good =
    "[race]\ntrack = oval.ini\nlaps = 1\nduration_s = 5\n"
    "[start]\ncar = driver.ini, 100, 2, 40\ncar = " SLOW ", 150, -2.5, 20, hold\n"
    "[expect]\nseeds = 2-4\ncollisions_max = 1\novertakes_min = 1\novertakes_max = 3\nofftrack_s_max = 0.5\n"
    "finish_all = true\nposition = Ace Moreau, 1\nahead_of = #1, Slow Car\nno_contact_between = Slow Car, #1\n"
    "clearance_min = #1, #2, 0.5\ndrafted_s_min = Ace Moreau, 1.5\n";

static int test_parse_scenario(void)
{
    TST_CHECK(parse(good) == 0);
    TST_CHECK(race.entry_count == 2);
    TST_CHECK(race.entries[0].placed && !race.entries[0].hold);
    TST_NEAR(race.entries[0].s_m, 100.0, 0.0);
    TST_NEAR(race.entries[0].d_m, 2.0, 0.0);
    TST_NEAR(race.entries[0].speed_mps, 40.0, 0.0);
    TST_CHECK(race.entries[1].placed && race.entries[1].hold);
    TST_STR_EQ(race.entries[1].personality.name, "Slow Car");
    const LabExpect *ex = &expect;
    TST_CHECK(ex->present && ex->have_seeds && ex->seed_first == 2 && ex->seed_last == 4);
    TST_CHECK(ex->have_collisions_max && ex->collisions_max == 1);
    TST_CHECK(ex->overtakes_min == 1 && ex->overtakes_max == 3);
    TST_NEAR(ex->offtrack_s_max, 0.5, 0.0);
    TST_CHECK(ex->have_finish_all && ex->finish_all);
    TST_CHECK(ex->ref_count == 5);
    TST_CHECK(ex->refs[0].kind == LAB_EXPECT_POSITION && ex->refs[0].entry_a == 0 && ex->refs[0].position == 1);
    TST_CHECK(ex->refs[1].kind == LAB_EXPECT_AHEAD_OF && ex->refs[1].entry_a == 0 && ex->refs[1].entry_b == 1);
    TST_CHECK(ex->refs[2].kind == LAB_EXPECT_NO_CONTACT && ex->refs[2].entry_a == 1 && ex->refs[2].entry_b == 0);
    TST_CHECK(ex->refs[3].kind == LAB_EXPECT_CLEARANCE && ex->refs[3].entry_b == 1);
    TST_NEAR(ex->refs[3].value, 0.5, 0.0);
    TST_CHECK(ex->refs[4].kind == LAB_EXPECT_DRAFTED && ex->refs[4].entry_a == 0);
    TST_CHECK(ex->refs[4].line == 19);
    /* a plain race has no expectations */
    TST_CHECK(sim_race_load("tests/data/sim/race.ini", &race, err, sizeof err) == 0);
    TST_CHECK(lab_expect_load(&expect, &race, err, sizeof err) == 0);
    TST_CHECK(!race.expect.present && !expect.present && expect.ref_count == 0);
    return 0;
}

/* Parses `head` + "[expect]\n" + one line and checks the exact error. */
static int expect_error(const char *line, const char *want)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[race]\ntrack = oval.ini\nduration_s = 5\n[start]\ncar = driver.ini, 100, 2, 40\ncar = " SLOW
             ", 150, 0, 20, hold\ncar = driver.ini, 50, 0, 30\n[expect]\n%s\n",
             line);
    if (parse(text) == 0) {
        fprintf(stderr, "parsed without error: %s\n", line);
        return 1;
    }
    TST_STR_EQ(err, want);
    return 0;
}

static int test_expect_errors(void)
{
    TST_CHECK(expect_error("collision_max = 0",
                           PATH ":9: [expect] unknown key 'collision_max' (expected seeds, collisions_max, "
                                "collisions_mean_max, overtakes_min, overtakes_max, overtakes_after_lap1_min, "
                                "overtakes_after_lap1_mean_min, overtakes_after_lap1_on_merit_mean_min, "
                                "overtakes_on_merit_mean_min, collisions_after_lap1_max, offtrack_s_max, "
                                "offtrack_s_mean_max, finish_all, position, ahead_of, no_contact_between, "
                                "clearance_min or drafted_s_min)") == 0);
    TST_CHECK(expect_error("collisions_max = few",
                           PATH ":9: [expect] collisions_max: expected an integer 0..1000000, got 'few'") == 0);
    TST_CHECK(expect_error("overtakes_min = -1",
                           PATH ":9: [expect] overtakes_min: expected an integer 0..1000000, got '-1'") == 0);
    TST_CHECK(expect_error("offtrack_s_max = nan",
                           PATH ":9: [expect] offtrack_s_max: expected a number of seconds 0..1000000, got 'nan'") ==
              0);
    TST_CHECK(expect_error("finish_all = maybe", PATH ":9: [expect] finish_all: expected true or false, got 'maybe'") ==
              0);
    TST_CHECK(expect_error("seeds = 5-1",
                           PATH ":9: [expect] seeds: expected 'A-B' with A <= B (at most 100000 seeds), got '5-1'") ==
              0);
    TST_CHECK(expect_error("seeds = 1\nseeds = 2", PATH ":10: [expect] seeds given twice (first on line 9)") == 0);
    TST_CHECK(expect_error("ahead_of = Slow Car", PATH ":9: [expect] ahead_of: expected 'CAR, CAR', got 'Slow Car'") ==
              0);
    TST_CHECK(expect_error("position = Slow Car, 0",
                           PATH ":9: [expect] position: expected a position 1..128 after the car, got '0'") == 0);
    TST_CHECK(expect_error("clearance_min = #1, #2",
                           PATH ":9: [expect] clearance_min: expected 'CAR, CAR, METRES', got '#1, #2'") == 0);
    TST_CHECK(expect_error("drafted_s_min = #1, soon",
                           PATH ":9: [expect] drafted_s_min: expected seconds 0..1000000 after the car, got 'soon'") ==
              0);
    /* references are checked once every car is known, on the line that names them */
    TST_CHECK(expect_error("overtakes_min = 0\nahead_of = Nobody, #1",
                           PATH ":10: [expect] ahead_of: no car is driven by 'Nobody' (use a driver's name or #N)") ==
              0);
    TST_CHECK(expect_error("no_contact_between = Ace Moreau, Slow Car",
                           PATH ":9: [expect] no_contact_between: 2 cars are driven by 'Ace Moreau' (use #N, the "
                                "car's place in the file)") == 0);
    TST_CHECK(expect_error("ahead_of = #4, #1", PATH ":9: [expect] ahead_of: '#4': expected #1..#3 (the race has 3 cars)") ==
              0);
    TST_CHECK(expect_error("ahead_of = #1, #1", PATH ":9: [expect] ahead_of: '#1' and '#1' are the same car") == 0);
    TST_CHECK(expect_error("position = #2, 4", PATH ":9: [expect] position: 4 is beyond the 3 cars of the race") == 0);
    TST_CHECK(expect_error("overtakes_min = 3\novertakes_max = 2",
                           PATH ":10: [expect] overtakes_max: 2 is below overtakes_min = 3") == 0);
    return 0;
}

/* The checks across seeds: a real number 0..1000000 each, given once. */
static int test_mean_keys(void)
{
    const char *head = "[race]\ntrack = oval.ini\n[start]\ncar = driver.ini, 100, 0, 30\n[expect]\n";
    char text[512];
    snprintf(text, sizeof text,
             "%scollisions_mean_max = 0.8\nofftrack_s_mean_max = 2.5\novertakes_after_lap1_mean_min = 0.3\n", head);
    TST_CHECK(parse(text) == 0);
    TST_CHECK(expect.have_collisions_mean_max && expect.have_offtrack_s_mean_max);
    TST_CHECK(expect.have_overtakes_after_lap1_mean_min);
    TST_NEAR(expect.collisions_mean_max, 0.8, 0.0);
    TST_NEAR(expect.offtrack_s_mean_max, 2.5, 0.0);
    TST_NEAR(expect.overtakes_after_lap1_mean_min, 0.3, 0.0);
    snprintf(text, sizeof text, "%scollisions_mean_max = 0\n", head); /* alone, it is an expectation */
    TST_CHECK(parse(text) == 0);
    TST_CHECK(expect.present && expect.have_collisions_mean_max && !expect.have_offtrack_s_mean_max);
    TST_CHECK(!expect.have_overtakes_after_lap1_mean_min);
    TST_NEAR(expect.collisions_mean_max, 0.0, 0.0);
    snprintf(text, sizeof text, "%sovertakes_after_lap1_mean_min = 2\n", head);
    TST_CHECK(parse(text) == 0);
    TST_CHECK(expect.present && expect.have_overtakes_after_lap1_mean_min && !expect.have_collisions_mean_max);
    TST_NEAR(expect.overtakes_after_lap1_mean_min, 2.0, 0.0);
    TST_CHECK(expect_error("overtakes_after_lap1_mean_min = -0.1",
                           PATH ":9: [expect] overtakes_after_lap1_mean_min: expected a number 0..1000000, got "
                                "'-0.1'") == 0);
    TST_CHECK(expect_error("overtakes_after_lap1_mean_min = many",
                           PATH ":9: [expect] overtakes_after_lap1_mean_min: expected a number 0..1000000, got "
                                "'many'") == 0);
    TST_CHECK(expect_error("overtakes_after_lap1_mean_min = 1\novertakes_after_lap1_mean_min = 1",
                           PATH ":10: [expect] overtakes_after_lap1_mean_min given twice (first on line 9)") == 0);
    snprintf(text, sizeof text, "%sovertakes_after_lap1_on_merit_mean_min = 0.25\n", head);
    TST_CHECK(parse(text) == 0);
    TST_CHECK(expect.present && expect.have_overtakes_after_lap1_on_merit_mean_min);
    TST_CHECK(!expect.have_overtakes_after_lap1_mean_min);
    TST_NEAR(expect.overtakes_after_lap1_on_merit_mean_min, 0.25, 0.0);
    TST_CHECK(expect_error("overtakes_after_lap1_on_merit_mean_min = some",
                           PATH ":9: [expect] overtakes_after_lap1_on_merit_mean_min: expected a number 0..1000000, "
                                "got 'some'") == 0);
    TST_CHECK(expect_error("overtakes_after_lap1_on_merit_mean_min = 1\novertakes_after_lap1_on_merit_mean_min = 2",
                           PATH ":10: [expect] overtakes_after_lap1_on_merit_mean_min given twice (first on line 9)") ==
              0);
    snprintf(text, sizeof text, "%sovertakes_on_merit_mean_min = 0.75\n", head);
    TST_CHECK(parse(text) == 0);
    TST_CHECK(expect.present && expect.have_overtakes_on_merit_mean_min);
    TST_CHECK(!expect.have_overtakes_after_lap1_on_merit_mean_min);
    TST_NEAR(expect.overtakes_on_merit_mean_min, 0.75, 0.0);
    TST_CHECK(expect_error("overtakes_on_merit_mean_min = -1",
                           PATH ":9: [expect] overtakes_on_merit_mean_min: expected a number 0..1000000, got '-1'") ==
              0);
    TST_CHECK(expect_error("collisions_mean_max = x",
                           PATH ":9: [expect] collisions_mean_max: expected a number 0..1000000, got 'x'") == 0);
    TST_CHECK(expect_error("collisions_mean_max = -0.5",
                           PATH ":9: [expect] collisions_mean_max: expected a number 0..1000000, got '-0.5'") == 0);
    TST_CHECK(expect_error("collisions_mean_max = inf",
                           PATH ":9: [expect] collisions_mean_max: expected a number 0..1000000, got 'inf'") == 0);
    TST_CHECK(expect_error("collisions_mean_max =",
                           PATH ":9: [expect] collisions_mean_max: expected a number 0..1000000, got ''") == 0);
    TST_CHECK(expect_error("offtrack_s_mean_max = 2 s",
                           PATH ":9: [expect] offtrack_s_mean_max: expected a number of seconds 0..1000000, got "
                                "'2 s'") == 0);
    TST_CHECK(expect_error("offtrack_s_mean_max = 1e7",
                           PATH ":9: [expect] offtrack_s_mean_max: expected a number of seconds 0..1000000, got "
                                "'1e7'") == 0);
    TST_CHECK(expect_error("collisions_mean_max = 1\ncollisions_mean_max = 2",
                           PATH ":10: [expect] collisions_mean_max given twice (first on line 9)") == 0);
    TST_CHECK(expect_error("offtrack_s_mean_max = 1\nofftrack_s_max = 2\nofftrack_s_mean_max = 1",
                           PATH ":11: [expect] offtrack_s_mean_max given twice (first on line 9)") == 0);
    return 0;
}

static int test_start_car_errors(void)
{
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[start]\ncar = driver.ini, 100, 2\n") != 0);
    TST_STR_EQ(err, PATH ":4: [start] car: expected 'driver.ini, s_m, d_m, speed_mps[, hold]' (|d| <= 100, speed "
                    "0..150), got 'driver.ini, 100, 2'");
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[start]\ncar = driver.ini, 100, 2, 30, stay\n") != 0);
    TST_STR_EQ(err, PATH ":4: [start] car: expected 'driver.ini, s_m, d_m, speed_mps[, hold]' (|d| <= 100, speed "
                    "0..150), got 'driver.ini, 100, 2, 30, stay'");
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[start]\ncar = nowhere.ini, 100, 2, 30\n") != 0);
    TST_STR_EQ(err, PATH ":4: [start] car: cannot open 'tests/data/sim/nowhere.ini'");
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[expects]\n") != 0);
    TST_STR_EQ(err, PATH ":3: unknown section [expects] "
                    "(expected [race], [car], [grid], [start] or [expect])");
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * Evaluation on hand-made facts
 *--------------------------------------------------------------------------------------------------------------*/

static LabExpectFacts facts;
static LabExpectReport report;

static void make_facts(void)
{
    lab_expect_facts_begin(&facts);
    facts.car_count = 2;
    facts.observed = true;
    facts.cars[0].position = 1;
    facts.cars[0].status = SIM_FINISHED;
    facts.cars[0].drafted_s = 2.0;
    facts.cars[1].position = 2;
    facts.cars[1].status = SIM_FINISHED;
    facts.overtakes = 1;
    facts.offtrack_s = 0.25;
    facts.min_clearance_m[0][1] = facts.min_clearance_m[1][0] = 0.75f;
}

static const LabExpectCheck *find_check(const char *name)
{
    for (int i = 0; i < report.count; i++)
        if (strcmp(report.checks[i].name, name) == 0)
            return &report.checks[i];
    return NULL;
}

static int test_eval_pass(void)
{
    TST_CHECK(parse(good) == 0);
    make_facts();
    lab_expect_eval(&expect, &facts, &report);
    TST_CHECK(report.count == 10);
    TST_CHECK(report.pass);
    const LabExpectCheck *c = find_check("clearance_min #1, #2");
    TST_CHECK(c && c->pass && c->line == 18);
    TST_STR_EQ(c->measured_text, "0.75 m");
    TST_STR_EQ(c->limit_text, ">= 0.50 m");
    c = find_check("ahead_of #1, Slow Car");
    TST_CHECK(c && c->pass);
    TST_STR_EQ(c->measured_text, "P1 vs P2");
    return 0;
}

static int test_eval_fail(void)
{
    TST_CHECK(parse(good) == 0);
    make_facts();
    facts.collisions = 2;
    facts.contacts[0][1] = facts.contacts[1][0] = 2;
    facts.first_contact_s[0][1] = facts.first_contact_s[1][0] = 3.25f;
    facts.cars[0].position = 2;
    facts.cars[1].position = 1;
    facts.cars[1].status = SIM_DNF;
    facts.cars[0].drafted_s = 1.0;
    facts.overtakes = 4;
    facts.offtrack_s = 0.75;
    lab_expect_eval(&expect, &facts, &report);
    TST_CHECK(!report.pass);
    for (int i = 0; i < report.count; i++) /* every check fails except the clearance and overtakes_min */
        TST_CHECK(report.checks[i].pass ==
                  (strcmp(report.checks[i].name, "clearance_min #1, #2") == 0 ||
                   strcmp(report.checks[i].name, "overtakes_min") == 0));
    TST_STR_EQ(find_check("collisions_max")->measured_text, "2");
    TST_STR_EQ(find_check("collisions_max")->limit_text, "<= 1");
    TST_STR_EQ(find_check("offtrack_s_max")->measured_text, "0.75 s");
    TST_STR_EQ(find_check("finish_all")->measured_text, "1/2 classified");
    TST_STR_EQ(find_check("position Ace Moreau")->measured_text, "P2");
    TST_STR_EQ(find_check("position Ace Moreau")->limit_text, "= P1");
    TST_STR_EQ(find_check("no_contact_between Slow Car, #1")->measured_text, "2 contacts (first at 3.25 s)");
    TST_STR_EQ(find_check("drafted_s_min Ace Moreau")->measured_text, "1.00 s");
    return 0;
}

/* A failed check says when its failure shows: the collision past the limit, the pair's first contact, the first
 * retirement, the finish for places; the report, the earliest of them. A passed check, and a failure without a
 * moment (too little drafting), say none. */
static int test_eval_moments(void)
{
    TST_CHECK(parse(good) == 0);
    make_facts();
    facts.duration_s = 300.0;
    facts.collisions = 3;
    facts.collision_at_s[0] = 12.5f;
    facts.collision_at_s[1] = 40.25f;
    facts.collision_at_s[2] = 90.0f;
    facts.contacts[0][1] = facts.contacts[1][0] = 1;
    facts.first_contact_s[0][1] = facts.first_contact_s[1][0] = 90.0f;
    facts.cars[1].status = SIM_DNF;
    facts.first_retire_s = 200.0f;
    facts.cars[0].position = 2;
    facts.cars[1].position = 1;
    facts.cars[0].drafted_s = 1.0;
    lab_expect_eval(&expect, &facts, &report);
    TST_NEAR(find_check("collisions_max")->at_s, 40.25, 1e-9); /* the limit is 1: the second collision */
    TST_NEAR(find_check("no_contact_between Slow Car, #1")->at_s, 90.0, 1e-9);
    TST_NEAR(find_check("finish_all")->at_s, 200.0, 1e-9);
    TST_NEAR(find_check("position Ace Moreau")->at_s, 300.0, 1e-9);
    TST_CHECK(find_check("drafted_s_min Ace Moreau")->at_s < 0.0);
    TST_CHECK(find_check("clearance_min #1, #2")->pass && find_check("clearance_min #1, #2")->at_s < 0.0);
    TST_NEAR(report.at_s, 40.25, 1e-9);
    make_facts();
    lab_expect_eval(&expect, &facts, &report);
    TST_CHECK(report.pass && report.at_s < 0.0);
    return 0;
}

/* The racecraft counters: overtakes and collisions after the race's first lap, each with its own key. */
static int test_after_lap1_keys(void)
{
    TST_CHECK(parse("[race]\ntrack = oval.ini\nlaps = 3\n[grid]\ndriver = driver.ini\n[expect]\n"
                    "overtakes_after_lap1_min = 2\ncollisions_after_lap1_max = 0\n") == 0);
    make_facts();
    facts.overtakes_after_lap1 = 1;
    facts.collisions_after_lap1 = 1;
    lab_expect_eval(&expect, &facts, &report);
    TST_CHECK(!report.pass && report.count == 2);
    const LabExpectCheck *o = find_check("overtakes_after_lap1_min"), *c = find_check("collisions_after_lap1_max");
    TST_CHECK(o && !o->pass && o->line == 7 && c && !c->pass && c->line == 8);
    TST_STR_EQ(o->limit_text, ">= 2");
    facts.overtakes_after_lap1 = 3;
    facts.collisions_after_lap1 = 0;
    lab_expect_eval(&expect, &facts, &report);
    TST_CHECK(report.pass);
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[grid]\ndriver = driver.ini\n[expect]\novertakes_after_lap1_min = x\n") != 0);
    TST_STR_EQ(err, PATH ":6: [expect] overtakes_after_lap1_min: expected an integer 0..1000000, got 'x'");
    return 0;
}

static int test_worst_run(void)
{
    static LabExpectReport runs[3];
    TST_CHECK(parse(good) == 0);
    int collisions[3] = {0, 3, 1}, overtakes[3] = {2, 0, 1};
    for (int k = 0; k < 3; k++) {
        make_facts();
        facts.collisions = collisions[k];
        facts.overtakes = overtakes[k];
        lab_expect_eval(&expect, &facts, &runs[k]);
    }
    TST_CHECK(strcmp(runs[0].checks[0].name, "collisions_max") == 0);
    TST_CHECK(lab_expect_worst_run(runs, 3, 0) == 1); /* most collisions */
    TST_CHECK(strcmp(runs[0].checks[1].name, "overtakes_min") == 0);
    TST_CHECK(lab_expect_worst_run(runs, 3, 1) == 1); /* fewest overtakes */
    TST_CHECK(strcmp(runs[0].checks[2].name, "overtakes_max") == 0);
    TST_CHECK(lab_expect_worst_run(runs, 3, 2) == 0); /* most overtakes */
    return 0;
}

/* Means across seeds: summed in run order, left out of the per-seed report, FAIL when over. */
static int test_eval_across(void)
{
    static LabExpectReport runs[3], across;
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[start]\ncar = driver.ini, 100, 0, 30\ncar = driver.ini, 50, 0, 30\n"
                    "[expect]\ncollisions_max = 3\ncollisions_mean_max = 1.5\nofftrack_s_mean_max = 0.4\n"
                    "overtakes_after_lap1_mean_min = 1\n") == 0);
    int collisions[3] = {0, 3, 1}, after_lap1[3] = {2, 0, 2};
    double offtrack_s[3] = {0.5, 0.0, 1.0};
    for (int k = 0; k < 3; k++) {
        make_facts();
        facts.collisions = collisions[k];
        facts.offtrack_s = offtrack_s[k];
        facts.overtakes_after_lap1 = after_lap1[k];
        lab_expect_eval(&expect, &facts, &runs[k]);
        TST_CHECK(runs[k].count == 1 && runs[k].pass); /* collisions_max only */
        TST_CHECK(runs[k].collisions == collisions[k]);
        TST_CHECK(runs[k].overtakes_after_lap1 == after_lap1[k]);
        TST_NEAR(runs[k].offtrack_s, offtrack_s[k], 0.0);
    }
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(across.count == 3 && !across.pass);
    const LabExpectCheck *c = &across.checks[0];
    TST_STR_EQ(c->name, "collisions_mean_max");
    TST_CHECK(c->pass && c->line == 8 && c->op == LAB_EXPECT_LE);
    TST_NEAR(c->measured, 4.0 / 3.0, 1e-15);
    TST_STR_EQ(c->measured_text, "1.33 over 3 seeds");
    TST_STR_EQ(c->limit_text, "<= 1.50");
    c = &across.checks[1];
    TST_STR_EQ(c->name, "offtrack_s_mean_max");
    TST_CHECK(!c->pass && c->line == 9);
    TST_NEAR(c->measured, 0.5, 1e-15);
    TST_STR_EQ(c->measured_text, "0.50 s over 3 seeds");
    TST_STR_EQ(c->limit_text, "<= 0.40 s");
    c = &across.checks[2];
    TST_STR_EQ(c->name, "overtakes_after_lap1_mean_min");
    TST_CHECK(c->pass && c->line == 10 && c->op == LAB_EXPECT_GE);
    TST_NEAR(c->measured, 4.0 / 3.0, 1e-15);
    TST_STR_EQ(c->measured_text, "1.33 over 3 seeds");
    TST_STR_EQ(c->limit_text, ">= 1.00");
    /* a minimum fails under it, and a mean just under prints with the decimals that tell them apart */
    expect.overtakes_after_lap1_mean_min = 1.334;
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(!across.checks[2].pass);
    TST_STR_EQ(across.checks[2].measured_text, "1.333 over 3 seeds");
    TST_STR_EQ(across.checks[2].limit_text, ">= 1.334");
    lab_expect_eval_across(&expect, &runs[1], 1, &across); /* the seed without one */
    TST_CHECK(!across.checks[2].pass);
    TST_STR_EQ(across.checks[2].measured_text, "0.00 over 1 seed");
    expect.overtakes_after_lap1_mean_min = 1.0;
    /* one run; a mean just over its limit prints with the decimals that tell them apart */
    lab_expect_eval_across(&expect, &runs[2], 1, &across);
    TST_CHECK(across.checks[0].pass);
    TST_STR_EQ(across.checks[0].measured_text, "1.00 over 1 seed");
    expect.collisions_mean_max = 1.33;
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(!across.checks[0].pass);
    TST_STR_EQ(across.checks[0].measured_text, "1.333 over 3 seeds");
    TST_STR_EQ(across.checks[0].limit_text, "<= 1.330");
    /* no mean keys: nothing to check across seeds */
    TST_CHECK(parse(good) == 0);
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(across.count == 0 && across.pass);
    return 0;
}

/* Passes on merit after lap 1: their own mean across seeds, apart from all the passes after lap 1; FAIL under it. */
static int test_merit_across(void)
{
    static LabExpectReport runs[3], across;
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[start]\ncar = driver.ini, 100, 0, 30\ncar = driver.ini, 50, 0, 30\n"
                    "[expect]\novertakes_after_lap1_mean_min = 2\novertakes_after_lap1_on_merit_mean_min = 1\n") == 0);
    int after_lap1[3] = {3, 2, 4}, merit[3] = {1, 0, 1};
    for (int k = 0; k < 3; k++) {
        make_facts();
        facts.overtakes_after_lap1 = after_lap1[k];
        facts.overtakes_after_lap1_on_merit = merit[k];
        lab_expect_eval(&expect, &facts, &runs[k]);
        TST_CHECK(runs[k].count == 0 && runs[k].overtakes_after_lap1_on_merit == merit[k]);
    }
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(across.count == 2 && !across.pass);
    TST_STR_EQ(across.checks[0].name, "overtakes_after_lap1_mean_min");
    TST_CHECK(across.checks[0].pass);
    const LabExpectCheck *c = &across.checks[1];
    TST_STR_EQ(c->name, "overtakes_after_lap1_on_merit_mean_min");
    TST_CHECK(!c->pass && c->line == 8 && c->op == LAB_EXPECT_GE);
    TST_NEAR(c->measured, 2.0 / 3.0, 1e-15);
    TST_STR_EQ(c->measured_text, "0.67 over 3 seeds");
    TST_STR_EQ(c->limit_text, ">= 1.00");
    expect.overtakes_after_lap1_on_merit_mean_min = 0.6;
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(across.pass && across.checks[1].pass);
    lab_expect_eval_across(&expect, &runs[1], 1, &across); /* the seed whose passes were all by the slower driver */
    TST_CHECK(!across.checks[1].pass && across.checks[0].pass);
    TST_STR_EQ(across.checks[1].measured_text, "0.00 over 1 seed");
    return 0;
}

/* Passes on merit of the whole race: their own mean across seeds, whatever the lap. */
static int test_merit_whole_race_across(void)
{
    static LabExpectReport runs[3], across;
    TST_CHECK(parse("[race]\ntrack = oval.ini\n[start]\ncar = driver.ini, 100, 0, 30\ncar = driver.ini, 50, 0, 30\n"
                    "[expect]\novertakes_on_merit_mean_min = 1\n") == 0);
    int merit[3] = {2, 0, 1};
    for (int k = 0; k < 3; k++) {
        make_facts();
        facts.overtakes_on_merit = merit[k];
        facts.overtakes_after_lap1_on_merit = 0; /* all on lap 1 */
        lab_expect_eval(&expect, &facts, &runs[k]);
        TST_CHECK(runs[k].count == 0 && runs[k].overtakes_on_merit == merit[k]);
    }
    lab_expect_eval_across(&expect, runs, 3, &across);
    TST_CHECK(across.count == 1 && across.pass);
    const LabExpectCheck *c = &across.checks[0];
    TST_STR_EQ(c->name, "overtakes_on_merit_mean_min");
    TST_CHECK(c->line == 7 && c->op == LAB_EXPECT_GE);
    TST_NEAR(c->measured, 1.0, 0.0);
    lab_expect_eval_across(&expect, &runs[1], 2, &across);
    TST_CHECK(!across.pass);
    TST_STR_EQ(across.checks[0].measured_text, "0.50 over 2 seeds");
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * Real runs: passes on merit counted from the drivers' own plans
 *--------------------------------------------------------------------------------------------------------------*/

/* The passes after lap 1 of a finished session whose passer's plan has the quicker lap, from the drivers themselves. */
static int merit_from_plans(const SimSession *s)
{
    int n, count = 0;
    const SimEvent *ev = sim_world_events(sim_session_world((SimSession *)s), &n);
    for (int i = 0; i < n; i++) {
        if (ev[i].type != SIM_EV_OVERTAKE || ev[i].race_lap <= 1)
            continue;
        const DrvDriver *a = sim_session_driver(s, ev[i].a), *b = sim_session_driver(s, ev[i].b);
        count += a && b && trk_profile_lap_time(drv_plan(a)) < trk_profile_lap_time(drv_plan(b));
    }
    return count;
}

/* The default race (seeds 10 and 21 shuffled: passes after lap 1 by the faster and by the slower driver): the facts'
 * count is the drivers' plans' verdict. */
static int test_run_merit_counted(void)
{
    TST_CHECK(sim_race_load("data/races/default.ini", &race, err, sizeof err) == 0);
    const uint64_t seeds[2] = {10, 21};
    int later = 0, merit = 0, want = 0;
    LabExpectFacts *f = malloc(sizeof *f);
    TST_CHECK(f != NULL);
    for (int k = 0; k < 2; k++) {
        SimSessionDef def = sim_default_session_def(&race);
        def.seed = seeds[k];
        def.shuffle_grid = true;
        SimSession *s = sim_session_create(&race, &def, err, sizeof err);
        TST_CHECK(s != NULL);
        sim_world_run(sim_session_world(s));
        lab_expect_facts_begin(f);
        lab_expect_facts_from_session(s, f);
        later += f->overtakes_after_lap1;
        merit += f->overtakes_after_lap1_on_merit;
        want += merit_from_plans(s);
        sim_session_destroy(s);
    }
    free(f);
    TST_CHECK(merit == want);
    TST_CHECK(merit > 0 && merit < later);
    return 0;
}

/* Ace passes a car 8 s a lap slower alone: on merit, as soon as he is clear of the start (on lap 1). */

static int test_run_pass_on_merit(void)
{
    TST_CHECK(sim_race_load("tests/scenarios/braking_zone_pass.ini", &race, err, sizeof err) == 0);
    TST_CHECK(lab_expect_load(&expect, &race, err, sizeof err) == 0);
    SimSessionDef def = sim_default_session_def(&race);
    def.seed = 1;
    SimSession *s = sim_session_create(&race, &def, err, sizeof err);
    TST_CHECK(s != NULL);
    LabExpectFacts *f = malloc(sizeof *f);
    TST_CHECK(f != NULL);
    lab_expect_run_session(s, f);
    lab_expect_eval(&expect, f, &report);
    sim_session_destroy(s);
    int all = f->overtakes, merit = f->overtakes_on_merit, merit_later = f->overtakes_after_lap1_on_merit;
    free(f);
    TST_CHECK(all >= 1 && merit >= 1 && merit <= all && merit_later <= merit);
    TST_CHECK(report.overtakes_on_merit == merit && report.overtakes_after_lap1_on_merit == merit_later);
    return 0;
}

/*----------------------------------------------------------------------------------------------------------------
 * A real run: a held car rear-ended by a faster held car
 *--------------------------------------------------------------------------------------------------------------*/

static int test_run_held_cars(void)
{
    TST_CHECK(parse("[race]\ntrack = oval.ini\nlaps = 1\nduration_s = 6\n[start]\n"
                    "car = driver.ini, 100, 0, 30, hold\ncar = " SLOW ", 130, 0, 20, hold\n"
                    "car = driver.ini, 300, 4, 30\n"
                    "[expect]\ncollisions_max = 0\nno_contact_between = #1, Slow Car\nno_contact_between = #3, #2\n"
                    "clearance_min = #1, #2, 0.5\n") == 0);
    SimSession *s = sim_session_create(&race, NULL, err, sizeof err);
    TST_CHECK(s != NULL);
    TST_CHECK(sim_session_driver(s, 0) == NULL && sim_session_driver(s, 1) == NULL); /* held: no driver */
    TST_CHECK(sim_session_driver(s, 2) != NULL);
    LabExpectFacts *f = malloc(sizeof *f);
    TST_CHECK(f != NULL);
    lab_expect_run_session(s, f);
    lab_expect_eval(&expect, f, &report);
    sim_session_destroy(s);
    /* 30 m apart (bumper gap 25.4 m) closing at 10 m/s: the first contact comes about 2.54 s in */
    bool ok = f->collisions >= 1 && f->contacts[0][1] >= 1 && f->first_contact_s[0][1] > 2.4f &&
              f->first_contact_s[0][1] < 2.7f && f->min_clearance_m[0][1] <= 0.0f && f->contacts[2][1] == 0;
    free(f);
    TST_CHECK(ok);
    TST_CHECK(!report.pass);
    TST_CHECK(!find_check("collisions_max")->pass);
    TST_CHECK(!find_check("no_contact_between #1, Slow Car")->pass);
    TST_CHECK(find_check("no_contact_between #3, #2")->pass);
    TST_CHECK(!find_check("clearance_min #1, #2")->pass);
    return 0;
}

int main(void)
{
    TST_RUN(test_parse_scenario);
    TST_RUN(test_expect_errors);
    TST_RUN(test_mean_keys);
    TST_RUN(test_start_car_errors);
    TST_RUN(test_eval_pass);
    TST_RUN(test_eval_fail);
    TST_RUN(test_after_lap1_keys);
    TST_RUN(test_eval_moments);
    TST_RUN(test_worst_run);
    TST_RUN(test_eval_across);
    TST_RUN(test_merit_across);
    TST_RUN(test_run_pass_on_merit);
    TST_RUN(test_merit_whole_race_across);
    TST_RUN(test_run_merit_counted);
    TST_RUN(test_run_held_cars);
    return tst_report();
}
