/* test_drv_personality.c: personality INI files: defaults, every key, every shipped file, exact error messages. */
#include "../drivers/drv.h"
#include "tst.h"

#include <string.h>

#include <dirent.h>
#include <stdlib.h>

static int test_defaults(void)
{
    DrvPersonality p = drv_default_personality();
    TST_STR_EQ(p.name, "Driver");
    TST_NEAR(p.skirt_m, 1.5, 0);
    TST_NEAR(p.grip_use, 0.95, 0);
    TST_CHECK(p.slots == 32 && p.lod && p.blur == DRV_BLUR_NONE && p.resolver == DRV_RESOLVE_WALK);
    /* an empty file is all defaults */
    DrvPersonality q;
    char err[256];
    TST_CHECK(drv_personality_parse_string("", "e.ini", &q, err, sizeof err) == 0);
    TST_CHECK(memcmp(&p, &q, sizeof p) == 0);
    return 0;
}

static int test_every_key(void)
{
    const char *text = "; a comment\n"
                       "[driver]\nname = Zed Test\ncolour = 10, 20, 30\nnumber = 42\nmodel = context\n"
                       "[behaviour]\nskirt = 2.5\ndraft = 0.7\nline = 0.9\naggression = 0.8\nattack = 0.65\ndefend = 0.4\ngrip_use = 0.85\n"
                       "lookahead = 2\nnoise = 0.25\n"
                       "[map]\nslots = 64\nblur = gauss\nblur_radius = 3\nhysteresis = 0.5\nlod = false\n"
                       "resolver = walk\ndecide_hz = 25\ndecide_far_hz = 12.5\n";
    DrvPersonality p;
    char err[256];
    TST_CHECK(drv_personality_parse_string(text, "z.ini", &p, err, sizeof err) == 0);
    TST_STR_EQ(p.name, "Zed Test");
    TST_CHECK(p.colour[0] == 10 && p.colour[1] == 20 && p.colour[2] == 30);
    TST_CHECK(p.number == 42 && p.model == DRV_MODEL_CONTEXT);
    TST_NEAR(p.skirt_m, 2.5, 0);
    TST_NEAR(p.draft_weight, 0.7, 0);
    TST_NEAR(p.line_weight, 0.9, 0);
    TST_NEAR(p.aggression, 0.8, 0);
    TST_NEAR(p.attack, 0.65, 0);
    TST_NEAR(p.defend, 0.4, 0);
    TST_NEAR(p.grip_use, 0.85, 0);
    TST_NEAR(p.lookahead_s, 2.0, 0);
    TST_NEAR(p.reaction_noise, 0.25, 0);
    TST_CHECK(p.slots == 64 && p.blur == DRV_BLUR_GAUSS && p.blur_radius == 3 && !p.lod);
    TST_NEAR(p.hysteresis, 0.5, 0);
    TST_NEAR(p.decide_hz, 25.0, 0);
    TST_NEAR(p.decide_far_hz, 12.5, 0);
    TST_CHECK(drv_personality_parse_string("[driver]\ncolour = #FF8000\n", "c.ini", &p, err, sizeof err) == 0);
    TST_CHECK(p.colour[0] == 255 && p.colour[1] == 128 && p.colour[2] == 0);
    return 0;
}

/* Each bad input and the exact message it must give. */
/* Every model and resolver word maps to its enum value. */
static int test_model_and_resolver_words(void)
{
    const char *resolvers[] = {"walk", "subtract", "mask-sum", "threshold-blend", "min-danger"};
    DrvPersonality p;
    char err[256], text[128];
    for (int i = 0; i < DRV_RESOLVE_COUNT; i++) {
        snprintf(text, sizeof text, "[map]\nresolver = %s\n", resolvers[i]);
        TST_CHECK(drv_personality_parse_string(text, "r.ini", &p, err, sizeof err) == 0);
        TST_CHECK((int)p.resolver == i);
    }
    TST_CHECK(drv_personality_parse_string("[driver]\nmodel = steering\n", "m.ini", &p, err, sizeof err) == 0);
    TST_CHECK(p.model == DRV_MODEL_STEERING);
    TST_CHECK(drv_personality_parse_string("[driver]\nmodel = context\n", "m.ini", &p, err, sizeof err) == 0);
    TST_CHECK(p.model == DRV_MODEL_CONTEXT);
    return 0;
}

static int test_errors(void)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"[behaviour]\nskirt = wide\n", "bad.ini:2: [behaviour] skirt: expected a number in 0..6 m, got 'wide'"},
        {"[behaviour]\n\nskirt = 7\n", "bad.ini:3: [behaviour] skirt: expected a number in 0..6 m, got '7'"},
        {"[behaviour]\ngrip_use = 0.5\n", "bad.ini:2: [behaviour] grip_use: expected a number in 0.8..1, got '0.5'"},
        {"[behaviour]\nlookahead = nan\n",
         "bad.ini:2: [behaviour] lookahead: expected a number in 0.2..5 s, got 'nan'"},
        {"[behaviour]\ndraft = 1.5\n", "bad.ini:2: [behaviour] draft: expected a number in 0..1, got '1.5'"},
        {"[behaviour]\nline = -0.1\n", "bad.ini:2: [behaviour] line: expected a number in 0..1, got '-0.1'"},
        {"[behaviour]\naggression = 2\n", "bad.ini:2: [behaviour] aggression: expected a number in 0..1, got '2'"},
        {"[behaviour]\nattack = -1\n", "bad.ini:2: [behaviour] attack: expected a number in 0..1, got '-1'"},
        {"[behaviour]\ndefend = 1.5\n", "bad.ini:2: [behaviour] defend: expected a number in 0..1, got '1.5'"},
        {"[behaviour]\nnoise = 0.5x\n", "bad.ini:2: [behaviour] noise: expected a number in 0..1, got '0.5x'"},
        {"[map]\nslots = 4\n", "bad.ini:2: [map] slots: expected a whole number in 8..128, got '4'"},
        {"[map]\nslots = 32.5\n", "bad.ini:2: [map] slots: expected a whole number in 8..128, got '32.5'"},
        {"[map]\nblur = median\n", "bad.ini:2: [map] blur: expected one of none, box, gauss, got 'median'"},
        {"[map]\nblur_radius = 9\n", "bad.ini:2: [map] blur_radius: expected a whole number in 0..8 slots, got '9'"},
        {"[map]\nhysteresis = 0.99\n", "bad.ini:2: [map] hysteresis: expected a number in 0..0.95, got '0.99'"},
        {"[map]\ndecide_hz = 0.5\n", "bad.ini:2: [map] decide_hz: expected a number in 1..1000 Hz, got '0.5'"},
        {"[map]\ndecide_hz = fast\n", "bad.ini:2: [map] decide_hz: expected a number in 1..1000 Hz, got 'fast'"},
        {"[map]\ndecide_far_hz = 0\n", "bad.ini:2: [map] decide_far_hz: expected a number in 1..1000 Hz, got '0'"},
        {"[map]\nlod = yes\n", "bad.ini:2: [map] lod: expected true or false, got 'yes'"},
        {"[map]\nresolver = magic\n",
         "bad.ini:2: [map] resolver: expected one of walk, subtract, mask-sum, threshold-blend, min-danger, got 'magic'"},
        {"[map]\nresolver = Walk\n",
         "bad.ini:2: [map] resolver: expected one of walk, subtract, mask-sum, threshold-blend, min-danger, got 'Walk'"},
        {"[driver]\nmodel = neural\n", "bad.ini:2: [driver] model: expected one of context, steering, got 'neural'"},
        {"[driver]\nnumber = 1000\n", "bad.ini:2: [driver] number: expected a whole number in 0..999, got '1000'"},
        {"[driver]\ncolour = #12345\n", "bad.ini:2: [driver] colour: expected #rrggbb or r,g,b (each 0..255), got '#12345'"},
        {"[driver]\ncolour = 1,2,256\n",
         "bad.ini:2: [driver] colour: expected #rrggbb or r,g,b (each 0..255), got '1,2,256'"},
        {"[driver]\nname =\n", "bad.ini:2: [driver] name: expected a name of 1..47 characters, got ''"},
        {"[driver]\nname = Ace\n; again\nname = Bob\n", "bad.ini:4: [driver] name: duplicate key (first set on line 2)"},
        {"[driver]\nnick = Ace\n", "bad.ini:2: [driver] unknown key 'nick'"},
        {"[driver]\nname = A\n[engine]\npower = 9\n",
         "bad.ini:3: unknown section [engine] (expected [driver], [behaviour] or [map])"},
        {"name = Ace\n", "bad.ini:1: key 'name' outside a section (expected [driver], [behaviour] or [map])"},
        {"[driver]\nname Ace\n", "bad.ini:2: syntax error (expected [section], key = value or a ; comment)"},
        {"[driver\nname = Ace\n", "bad.ini:1: syntax error (expected [section], key = value or a ; comment)"},
        /* the first error wins, whatever its kind */
        {"[map]\nslots = 1\nblur = x\n", "bad.ini:2: [map] slots: expected a whole number in 8..128, got '1'"},
        {"[map]\nbogus\nslots = 1\n", "bad.ini:2: syntax error (expected [section], key = value or a ; comment)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DrvPersonality p = drv_default_personality();
        p.number = 5;
        char err[256] = "";
        int rc = drv_personality_parse_string(cases[i].text, "bad.ini", &p, err, sizeof err);
        if (rc == 0)
            fprintf(stderr, "case %zu accepted\n", i);
        TST_CHECK(rc != 0);
        TST_STR_EQ(err, cases[i].msg);
        TST_CHECK(p.number == 5); /* the output is untouched on error */
    }
    return 0;
}

static int test_long_line_and_junk(void)
{
    char text[1200];
    memset(text, 'x', sizeof text);
    memcpy(text, "[driver]\nname = ", 16);
    text[sizeof text - 2] = '\n';
    text[sizeof text - 1] = '\0';
    DrvPersonality p;
    char err[256];
    TST_CHECK(drv_personality_parse_string(text, "long.ini", &p, err, sizeof err) != 0);
    TST_STR_EQ(err, "long.ini:2: line too long (at most 198 characters)");
    /* a missing file */
    TST_CHECK(drv_personality_load("data/drivers/no-such-driver.ini", &p, err, sizeof err) != 0);
    TST_CHECK(strncmp(err, "data/drivers/no-such-driver.ini:0: cannot open", 46) == 0);
    /* binary junk never crashes */
    char junk[256];
    DrvRng rng = drv_rng_seed(3);
    for (int k = 0; k < 200; k++) {
        for (size_t i = 0; i + 1 < sizeof junk; i++)
            junk[i] = (char)(1 + drv_rng_next(&rng) % 255);
        junk[sizeof junk - 1] = '\0';
        drv_personality_parse_string(junk, "junk.ini", &p, err, sizeof err);
    }
    return 0;
}

/* Every shipped personality loads, and they are distinct (names, numbers, colours, behaviour). */
static int test_shipped_files(void)
{
    DIR *dir = opendir("data/drivers");
    TST_CHECK(dir != NULL);
    DrvPersonality all[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && n < 64) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
            continue;
        char path[512], err[512];
        snprintf(path, sizeof path, "data/drivers/%s", e->d_name);
        if (drv_personality_load(path, &all[n], err, sizeof err) != 0)
            fprintf(stderr, "%s\n", err);
        TST_CHECK(drv_personality_load(path, &all[n], err, sizeof err) == 0);
        n++;
    }
    closedir(dir);
    TST_CHECK(n >= 8);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            TST_CHECK(strcmp(all[i].name, all[j].name) != 0);
            TST_CHECK(all[i].number != all[j].number);
            TST_CHECK(memcmp(all[i].colour, all[j].colour, 3) != 0);
            bool same_behaviour = all[i].skirt_m == all[j].skirt_m && all[i].aggression == all[j].aggression &&
                                  all[i].grip_use == all[j].grip_use && all[i].draft_weight == all[j].draft_weight;
            TST_CHECK(!same_behaviour);
        }
    return 0;
}

/* Personalities built in code (A/B overrides, tests) are checked against the same ranges the parser enforces. */
static int test_valid_in_code(void)
{
    DrvPersonality p = drv_default_personality();
    TST_CHECK(drv_personality_valid(&p));
    TST_CHECK(!drv_personality_valid(NULL));
    DrvPersonality q = p;
    q.grip_use = 0.5;
    TST_CHECK(!drv_personality_valid(&q));
    q = p;
    q.skirt_m = NAN;
    TST_CHECK(!drv_personality_valid(&q));
    q = p;
    q.slots = DRV_MAX_SLOTS + 1;
    TST_CHECK(!drv_personality_valid(&q));
    q = p;
    q.resolver = DRV_RESOLVE_COUNT;
    TST_CHECK(!drv_personality_valid(&q));
    q = p;
    q.name[0] = '\0';
    TST_CHECK(!drv_personality_valid(&q));
    /* drv_create refuses what it cannot drive with instead of crashing */
    TST_CHECK(drv_create(&p, NULL, NULL, 1) == NULL);
    TST_CHECK(drv_create(NULL, NULL, NULL, 1) == NULL);
    return 0;
}

/* The documented example (docs/personality-example.ini, shown in the README) states every key with its default: it
 * loads, and apart from the [driver] identity it is the default personality. */
static int test_documented_example(void)
{
    DrvPersonality p, d = drv_default_personality();
    char err[512];
    TST_CHECK(drv_personality_load("docs/personality-example.ini", &p, err, sizeof err) == 0);
    TST_STR_EQ(p.name, "Ex Ample");
    TST_CHECK(p.number == 42 && p.model == d.model);
    TST_CHECK(p.skirt_m == d.skirt_m && p.draft_weight == d.draft_weight && p.line_weight == d.line_weight);
    TST_CHECK(p.aggression == d.aggression && p.grip_use == d.grip_use && p.lookahead_s == d.lookahead_s);
    TST_CHECK(p.reaction_noise == d.reaction_noise && p.slots == d.slots && p.blur == d.blur);
    TST_CHECK(p.blur_radius == d.blur_radius && p.hysteresis == d.hysteresis && p.lod == d.lod);
    TST_CHECK(p.resolver == d.resolver && p.decide_hz == d.decide_hz && p.decide_far_hz == d.decide_far_hz);
    return 0;
}

static int test_get_number(void)
{
    DrvPersonality p = drv_default_personality();
    char why[160];
    double x = -1.0;
    TST_CHECK(drv_personality_set(&p, "behaviour", "grip_use", "0.93", why, sizeof why) == 0);
    TST_CHECK(drv_personality_get_number(&p, "behaviour", "grip_use", &x, why, sizeof why) == 0);
    TST_CHECK(x == 0.93);
    TST_CHECK(drv_personality_get_number(&p, "map", "hysteresis", &x, why, sizeof why) == 0 && x == p.hysteresis);
    TST_CHECK(drv_personality_get_number(&p, "behaviour", "bogus", &x, why, sizeof why) == 1);
    TST_STR_EQ(why, "[behaviour] unknown key 'bogus'");
    TST_CHECK(drv_personality_get_number(&p, "map", "slots", &x, why, sizeof why) == 2);
    TST_STR_EQ(why, "[map] slots: not a real-number key");
    return 0;
}

int main(void)
{
    TST_RUN(test_get_number);
    TST_RUN(test_valid_in_code);
    TST_RUN(test_defaults);
    TST_RUN(test_every_key);
    TST_RUN(test_model_and_resolver_words);
    TST_RUN(test_errors);
    TST_RUN(test_long_line_and_junk);
    TST_RUN(test_shipped_files);
    TST_RUN(test_documented_example);
    return tst_report();
}
