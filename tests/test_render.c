/* test_render.c: the viewer draws what it should. Frames are drawn with the software renderer into an in-memory
 * surface (no display needed) and checked pixel by pixel: asphalt on the track, grass away from it, each car's
 * colour where the camera puts the car, text in the standings tower, the inspector's bars when it is on. */
#include "../render/rnd.h"
#include "tst.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 960
#define H 640

static const uint8_t car_a_rgb[3] = {255, 0, 255}; /* colours nothing else on screen uses */
static const uint8_t car_b_rgb[3] = {0, 230, 255};

typedef struct Fixture {
    TrkTrack *track;
    SimWorld *world;
    SDL_Surface *surface;
    SDL_Renderer *renderer;
    RndView *view;
} Fixture;

/* A rounded rectangle, 400 m x 200 m, 14 m wide. */
static TrkTrack *make_track(void)
{
    TrkPointDef pts[24];
    int n = 0;
    for (int i = 0; i < 24; i++) {
        double a = 2.0 * 3.14159265358979 * i / 24;
        double c = cos(a), s = sin(a);
        /* a superellipse: straighter sides than an ellipse */
        double x = 200.0 * copysign(pow(fabs(c), 0.6), c), y = 100.0 * copysign(pow(fabs(s), 0.6), s);
        pts[n++] = (TrkPointDef){x, y, 7.0, 7.0};
    }
    char err[TRK_ERR_LEN];
    TrkTrack *t = trk_create(pts, n, NULL, err, sizeof err);
    if (!t)
        fprintf(stderr, "trk_create: %s\n", err);
    return t;
}

static int add_car(SimWorld *world, const char *name, int number, const uint8_t rgb[3], double s, double d)
{
    SimCarDef def = {0};
    def.name = name;
    def.number = number;
    def.colour[0] = rgb[0];
    def.colour[1] = rgb[1];
    def.colour[2] = rgb[2];
    def.spec = sim_default_car_spec();
    def.s_m = s;
    def.d_m = d;
    def.speed_mps = 30.0;
    def.race_dist_m = s;
    return sim_world_add_car(world, &def);
}

/* A car held at a speed (no driver: it keeps its line and speed) with a race distance of its own. */
static int add_car_moving(SimWorld *world, const char *name, int number, const uint8_t rgb[3], double s, double d,
                          double speed_mps, double race_dist_m)
{
    SimCarDef def = {0};
    def.name = name;
    def.number = number;
    memcpy(def.colour, rgb, 3);
    def.spec = sim_default_car_spec();
    def.s_m = s;
    def.d_m = d;
    def.speed_mps = speed_mps;
    def.race_dist_m = race_dist_m;
    return sim_world_add_car(world, &def);
}

/* The renderer and view on a world already in f->world. */
static int fixture_view(Fixture *f)
{
    f->surface = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    f->renderer = f->surface ? SDL_CreateSoftwareRenderer(f->surface) : NULL;
    if (!f->renderer)
        return -1;
    char err[256];
    f->view = rnd_view_create(f->renderer, NULL, err, sizeof err);
    if (!f->view) {
        fprintf(stderr, "rnd_view_create: %s\n", err);
        return -1;
    }
    rnd_view_reset(f->view, f->world);
    return 0;
}

static int fixture_open(Fixture *f)
{
    *f = (Fixture){0};
    f->track = make_track();
    if (!f->track)
        return -1;
    SimWorldDef wd = sim_default_world_def();
    wd.track = f->track;
    wd.laps = 3;
    f->world = sim_world_create(&wd);
    sim_world_keep_poses(f->world, true); /* drawn */
    if (!f->world || add_car(f->world, "Magenta", 7, car_a_rgb, 150.0, 0.0) != 0 ||
        add_car(f->world, "Cyan", 42, car_b_rgb, 600.0, 2.0) != 1)
        return -1;
    return fixture_view(f);
}

/* A world of the test track with a lap target and stall timeout, no cars yet. */
static int fixture_begin(Fixture *f, int laps, double stall_timeout_s)
{
    *f = (Fixture){0};
    f->track = make_track();
    if (!f->track)
        return -1;
    SimWorldDef wd = sim_default_world_def();
    wd.track = f->track;
    wd.laps = laps;
    if (stall_timeout_s > 0.0)
        wd.stall_timeout_s = stall_timeout_s;
    f->world = sim_world_create(&wd);
    sim_world_keep_poses(f->world, true); /* drawn */
    return f->world ? 0 : -1;
}

static void step_observed(Fixture *f, int ticks)
{
    for (int i = 0; i < ticks; i++) {
        sim_world_step(f->world);
        rnd_view_observe(f->view, f->world);
    }
}

static void fixture_close(Fixture *f)
{
    rnd_view_destroy(f->view);
    if (f->renderer)
        SDL_DestroyRenderer(f->renderer);
    SDL_FreeSurface(f->surface);
    sim_world_destroy(f->world);
    trk_free(f->track);
}

static void draw(Fixture *f, const DrvDebug *dbg)
{
    RndFrame frame = {f->world, NULL, NULL, 1.0, dbg};
    rnd_view_draw(f->view, &frame);
}

static void pixel(const Fixture *f, int x, int y, uint8_t rgb[3])
{
    const Uint32 *row = (const Uint32 *)((const uint8_t *)f->surface->pixels + (size_t)y * f->surface->pitch);
    SDL_GetRGB(row[x], f->surface->format, &rgb[0], &rgb[1], &rgb[2]);
}

static bool pixel_is(const Fixture *f, float x, float y, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t p[3];
    pixel(f, (int)x, (int)y, p);
    return p[0] == r && p[1] == g && p[2] == b;
}

/* Pixels of exactly this colour inside a rectangle. */
static int count_colour(const Fixture *f, int x0, int y0, int x1, int y1, const uint8_t rgb[3])
{
    int n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < H; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < W; x++) {
            uint8_t p[3];
            pixel(f, x, y, p);
            n += p[0] == rgb[0] && p[1] == rgb[1] && p[2] == rgb[2];
        }
    return n;
}

/* ---- tests ----------------------------------------------------------------------------------------------------- */

static int test_camera_round_trip(void)
{
    RndCamera cam = {0};
    cam.view_w = 800;
    cam.view_h = 600;
    rnd_camera_init(&cam, -100.0, -50.0, 100.0, 50.0);
    float sx, sy;
    rnd_camera_to_screen(&cam, 0.0, 0.0, &sx, &sy);
    TST_NEAR(sx, 400.0, 0.01); /* the track's centre is the view's centre */
    TST_NEAR(sy, 300.0, 0.01);
    rnd_camera_to_screen(&cam, 0.0, 10.0, &sx, &sy);
    TST_CHECK(sy < 300.0f); /* world y up is screen y down */
    double x, y;
    rnd_camera_zoom_at(&cam, 2.0, 100.0f, 120.0f);
    TST_CHECK(cam.mode == RND_CAM_FREE);
    rnd_camera_to_world(&cam, 100.0f, 120.0f, &x, &y);
    double x0 = x, y0 = y;
    rnd_camera_zoom_at(&cam, 1.5, 100.0f, 120.0f);
    rnd_camera_to_world(&cam, 100.0f, 120.0f, &x, &y);
    TST_NEAR(x, x0, 1e-6); /* the point under the cursor stays there */
    TST_NEAR(y, y0, 1e-6);
    rnd_camera_pan(&cam, 30.0f, 0.0f);
    rnd_camera_to_screen(&cam, x0, y0, &sx, &sy);
    TST_NEAR(sx, 130.0, 0.01);
    return 0;
}

/* The director's two-shot zooms out just enough to hold both cars, never below a quarter of the follow zoom. */
static int test_camera_frame_pair(void)
{
    RndCamera cam = {0};
    cam.view_w = 1280;
    cam.view_h = 800;
    cam.inset_left_px = 420;
    cam.inset_bottom_px = 200;
    cam.mode = RND_CAM_DIRECTOR;
    rnd_camera_init(&cam, -1000.0, -1000.0, 1000.0, 1000.0);
    double follow = cam.follow_scale_ppm;
    TST_CHECK(rnd_camera_frame_pair(&cam, 0.0, 0.0, 10.0, 0.0));
    TST_NEAR(cam.scale_ppm, follow, 1e-9); /* close: the follow zoom */
    TST_CHECK(rnd_camera_frame_pair(&cam, 0.0, 0.0, 150.0, 40.0)); /* a wide pair, a second apart */
    TST_CHECK(cam.scale_ppm < follow);
    float sx, sy;
    const double pts[2][2] = {{0.0, 0.0}, {150.0, 40.0}};
    for (int i = 0; i < 2; i++) {
        rnd_camera_to_screen(&cam, pts[i][0], pts[i][1], &sx, &sy);
        TST_CHECK(sx > cam.inset_left_px && sx < cam.view_w && sy > 0.0f && sy < cam.view_h - cam.inset_bottom_px);
    }
    rnd_camera_update(&cam, 1280, 800);
    TST_NEAR(cam.scale_ppm, follow, 1e-9); /* the wider frame was for that frame only */
    cam.cx_m = cam.cy_m = 7.0;
    TST_CHECK(!rnd_camera_frame_pair(&cam, 0.0, 0.0, 1500.0, 0.0)); /* too far apart: no two-shot */
    TST_NEAR(cam.cx_m, 7.0, 1e-12);
    return 0;
}

/* The chase camera turns the heading up the screen and keeps the car below the middle; screen and world agree. */
static int test_camera_chase(void)
{
    RndCamera cam = {0};
    cam.view_w = 1280;
    cam.view_h = 800;
    cam.mode = RND_CAM_CHASE;
    rnd_camera_init(&cam, -1000.0, -1000.0, 1000.0, 1000.0);
    const double heading = 2.2, x = 30.0, y = -12.0;
    rnd_camera_chase(&cam, x, y, heading);
    float cx, cy, ax, ay;
    rnd_camera_to_screen(&cam, x, y, &cx, &cy);
    rnd_camera_to_screen(&cam, x + 20.0 * cos(heading), y + 20.0 * sin(heading), &ax, &ay);
    TST_NEAR(ax, cx, 1e-3);              /* straight ahead is straight up */
    TST_NEAR(cy - ay, 20.0 * cam.scale_ppm, 1e-3);
    TST_CHECK(cy > 400.0f);              /* the car below the middle */
    double wx, wy;
    rnd_camera_to_world(&cam, 123.0f, 456.0f, &wx, &wy);
    rnd_camera_to_screen(&cam, wx, wy, &ax, &ay);
    TST_NEAR(ax, 123.0, 1e-3);
    TST_NEAR(ay, 456.0, 1e-3);
    rnd_camera_pan(&cam, 0.0f, 50.0f); /* a drag down moves the world down the screen, turned or not */
    rnd_camera_to_screen(&cam, x, y, &ax, &ay);
    TST_NEAR(ay - cy, 50.0, 1e-3);
    TST_NEAR(ax, cx, 1e-3);
    return 0;
}

static int test_pose_interpolation(void)
{
    RndSnapshot prev = {0};
    prev.count = 1;
    prev.poses[0] = (RndPose){0.0, 0.0, 3.0};
    SimCar car = {0};
    car.id = 0;
    car.x_m = 2.0;
    car.y_m = 4.0;
    car.heading_rad = -3.0; /* across the +-pi seam: the short way is through pi */
    RndPose p = rnd_pose_lerp(&prev, &car, 0.5);
    TST_NEAR(p.x_m, 1.0, 1e-12);
    TST_NEAR(p.y_m, 2.0, 1e-12);
    TST_NEAR(fabs(p.heading_rad), 3.14159265358979, 1e-9);
    p = rnd_pose_lerp(&prev, &car, 7.0); /* clamped */
    TST_NEAR(p.x_m, 2.0, 1e-12);
    p = rnd_pose_lerp(NULL, &car, 0.0);
    TST_NEAR(p.y_m, 4.0, 1e-12);
    return 0;
}

static int test_track_and_grass(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    draw(&f, NULL);
    const RndCamera *cam = rnd_view_camera(f.view);
    /* a point of asphalt: on the centre line unless the racing line runs there, then beside it */
    double s = 300.0, line = trk_line_d(f.track, s, NULL);
    double d = fabs(line) > 1.5 ? 0.0 : (line > 0.0 ? line - 3.0 : line + 3.0);
    double x, y;
    trk_to_world(f.track, s, d, &x, &y, NULL);
    float sx, sy;
    rnd_camera_to_screen(cam, x, y, &sx, &sy);
    TST_CHECK(sx > 0 && sx < W && sy > 0 && sy < H);
    TST_CHECK(pixel_is(&f, sx, sy, RND_ASPHALT_RGB));
    /* grass: the middle of the infield, 80 m from any edge */
    rnd_camera_to_screen(cam, 0.0, 0.0, &sx, &sy);
    TST_CHECK(pixel_is(&f, sx, sy, RND_GRASS_RGB));
    fixture_close(&f);
    return 0;
}

static int test_cars_drawn_in_their_colours(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    rnd_view_ui(f.view)->selected = -1;
    draw(&f, NULL);
    const uint8_t *colours[2] = {car_a_rgb, car_b_rgb};
    for (int id = 0; id < 2; id++) {
        float sx, sy, cx, cy;
        TST_CHECK(rnd_view_car_screen_pos(f.view, id, &sx, &sy));
        const SimCar *car = sim_world_car(f.world, id);
        rnd_camera_to_screen(rnd_view_camera(f.view), car->x_m, car->y_m, &cx, &cy);
        TST_NEAR(sx, cx, 0.01);
        TST_NEAR(sy, cy, 0.01);
        TST_CHECK(count_colour(&f, (int)sx - 4, (int)sy - 4, (int)sx + 5, (int)sy + 5, colours[id]) >= 4);
    }
    /* nowhere else: a car colour at the other car's place would mean a wrong transform */
    float ax, ay;
    TST_CHECK(rnd_view_car_screen_pos(f.view, 0, &ax, &ay));
    TST_CHECK(count_colour(&f, (int)ax - 6, (int)ay - 6, (int)ax + 7, (int)ay + 7, car_b_rgb) == 0);
    fixture_close(&f);
    return 0;
}

static int test_follow_camera_centres_selected(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    rnd_view_ui(f.view)->selected = 1;
    rnd_view_camera(f.view)->mode = RND_CAM_FOLLOW;
    draw(&f, NULL);
    float sx, sy;
    TST_CHECK(rnd_view_car_screen_pos(f.view, 1, &sx, &sy));
    const RndCamera *cam = rnd_view_camera(f.view);
    TST_NEAR(sx, cam->inset_left_px + (W - cam->inset_left_px) * 0.5, 0.5);
    TST_NEAR(sy, (H - cam->inset_bottom_px) * 0.5, 0.5);
    /* zoomed in, the car is much larger than its overview marker */
    TST_CHECK(count_colour(&f, (int)sx - 40, (int)sy - 40, (int)sx + 40, (int)sy + 40, car_b_rgb) > 150);
    fixture_close(&f);
    return 0;
}

/* The track map: in follow mode a panel at the top right holds the track's outline and both cars as dots in their
 * colours (the cars are far apart on the track, so both can only be there as dots); the overview has none. */
static int test_minimap_in_follow_mode(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    const uint8_t outline[3] = {175, 178, 188};
    rnd_view_ui(f.view)->selected = 1;
    draw(&f, NULL);
    TST_CHECK(count_colour(&f, W - 250, 0, W, 190, outline) == 0);
    rnd_view_camera(f.view)->mode = RND_CAM_FOLLOW;
    draw(&f, NULL);
    TST_CHECK(count_colour(&f, W - 250, 0, W, 190, outline) > 300);
    TST_CHECK(count_colour(&f, W - 250, 0, W, 190, car_a_rgb) >= 20);
    TST_CHECK(count_colour(&f, W - 250, 0, W, 190, car_b_rgb) >= 20);
    /* the selected car is ringed in white */
    const uint8_t white[3] = {255, 255, 255};
    TST_CHECK(count_colour(&f, W - 250, 0, W, 190, white) >= 20);
    /* the map stays clear of the standings tower */
    TST_CHECK(count_colour(&f, 0, 0, rnd_view_camera(f.view)->inset_left_px, H, outline) == 0);
    fixture_close(&f);
    return 0;
}

/* Broadcast timing: three cars held at constant speeds; C (faster, in its own lane) passes B. Before any car has
 * reached the leader's starting spot only the grid order is known; afterwards gaps and intervals are times. */
static int test_tower_timing(void)
{
    Fixture f;
    TST_CHECK(fixture_begin(&f, 5, 0.0) == 0);
    TST_CHECK(add_car_moving(f.world, "A", 1, car_a_rgb, 700.0, 0.0, 30.0, 700.0) == 0);
    TST_CHECK(add_car_moving(f.world, "B", 2, car_b_rgb, 580.0, -3.5, 30.0, 580.0) == 1);
    TST_CHECK(add_car_moving(f.world, "C", 3, car_a_rgb, 540.0, 3.5, 34.0, 540.0) == 2);
    TST_CHECK(fixture_view(&f) == 0);
    RndTimingRow rows[SIM_MAX_CARS];
    step_observed(&f, 1);
    TST_CHECK(rnd_view_timing(f.view, f.world, rows) == 3);
    TST_CHECK(rows[0].car == 0 && !rows[0].has_gap);
    TST_CHECK(!rows[1].has_gap && !rows[2].has_gap); /* no "--": simply not known yet */
    TST_CHECK(rows[1].gained == 0 && rows[2].gained == 0);
    step_observed(&f, 1499); /* 15 s: A at 1150, B at 1030, C at 1050 */
    TST_CHECK(rnd_view_timing(f.view, f.world, rows) == 3);
    TST_CHECK(rows[0].car == 0 && rows[1].car == 2 && rows[2].car == 1);
    TST_CHECK(rows[1].has_gap && rows[2].has_gap);
    /* A was where C is about 100 m ago, where B is about 120 m ago (off the centre line the cars cover the
     * corners at other rates than A, so only roughly) */
    TST_NEAR(rows[1].gap_s, 100.0 / 30.0, 0.5);
    TST_NEAR(rows[2].gap_s, 4.0, 0.5);
    TST_NEAR(rows[2].interval_s, rows[2].gap_s - rows[1].gap_s, 1e-9);
    TST_CHECK(rows[2].interval_s < RND_BATTLE_S);
    TST_CHECK(rows[2].battle && !rows[1].battle); /* B is 0.67 s behind C; C is 3.3 s behind A */
    TST_CHECK(rows[1].gained == 1 && rows[2].gained == -1 && rows[0].gained == 0);
    fixture_close(&f);
    return 0;
}

/* Overview tags: eight cars within 20 m are a few pixels apart; their number tags must not pile into a block. Each
 * tag drawn overlaps no other, the leader's and the selected car's are drawn, the rest get what room is left (the
 * cars' own marks are kept clear too, so in so tight a bunch that is little). */
static int test_overview_tags_do_not_overlap(void)
{
    Fixture f;
    TST_CHECK(fixture_begin(&f, 3, 0.0) == 0);
    for (int i = 0; i < 8; i++) {
        double s = 300.0 - 2.5 * i;
        TST_CHECK(add_car_moving(f.world, "Bunch", 10 + i, i % 2 ? car_a_rgb : car_b_rgb, s, i % 2 ? 2.0 : -2.0,
                                 30.0, s) == i);
    }
    TST_CHECK(fixture_view(&f) == 0);
    step_observed(&f, 1);
    rnd_view_ui(f.view)->selected = 5;
    draw(&f, NULL);
    SDL_FRect tags[8];
    bool has[8];
    int drawn = 0;
    for (int i = 0; i < 8; i++) {
        has[i] = rnd_view_car_tag(f.view, i, &tags[i]);
        drawn += has[i];
    }
    TST_CHECK(has[sim_world_order(f.world)[0]] && has[5]);
    TST_CHECK(drawn >= 2);
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            TST_CHECK(!has[i] || !has[j] || !SDL_HasIntersectionF(&tags[i], &tags[j]));
    fixture_close(&f);
    return 0;
}

static int count_events(const SimWorld *world, SimEventType type);

/* ---- the TV director ------------------------------------------------------------------------------------------ */

/* Cars held at constant speeds in lanes of their own. */
static int director_world(Fixture *f, const double s_m[], const double d_m[], const double v_mps[], int n)
{
    if (fixture_begin(f, 5, 0.0) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (add_car_moving(f->world, "Car", i + 1, i % 2 ? car_a_rgb : car_b_rgb, s_m[i], d_m[i], v_mps[i], s_m[i]) !=
            i)
            return -1;
    return fixture_view(f);
}

static int test_director_picks_closest_fight(void)
{
    /* A leads alone; C is 0.67 s behind B (the fight); D is far back */
    const double s[4] = {700.0, 560.0, 540.0, 400.0}, d[4] = {0.0, -3.0, 3.0, 0.0}, v[4] = {30.0, 30.0, 30.0, 30.0};
    Fixture f;
    TST_CHECK(director_world(&f, s, d, v, 4) == 0);
    int car, rival;
    TST_CHECK(rnd_view_director_shot(f.view, &car, &rival) && car == 0 && rival == -1); /* the front of the grid */
    step_observed(&f, 1000);
    TST_CHECK(rnd_view_director_shot(f.view, &car, &rival));
    TST_CHECK(car == 2 && rival == 1);
    /* the camera and the caption follow it, and the selection is the director's car */
    rnd_view_camera(f.view)->mode = RND_CAM_DIRECTOR;
    draw(&f, NULL);
    TST_CHECK(rnd_view_ui(f.view)->selected == 2);
    float cx, cy, bx, by;
    TST_CHECK(rnd_view_car_screen_pos(f.view, 2, &cx, &cy) && rnd_view_car_screen_pos(f.view, 1, &bx, &by));
    const RndCamera *cam = rnd_view_camera(f.view);
    TST_NEAR(0.5 * (cx + bx), cam->inset_left_px + (W - cam->inset_left_px) * 0.5, 1.0); /* both in the shot */
    fixture_close(&f);
    return 0;
}

/* The latest pass or contact in the world's events (NULL when none). */
static const SimEvent *last_meeting(const SimWorld *world)
{
    int count = 0;
    const SimEvent *ev = sim_world_events(world, &count), *last = NULL;
    for (int i = 0; i < count; i++)
        if (ev[i].type == SIM_EV_OVERTAKE || ev[i].type == SIM_EV_COLLISION)
            last = &ev[i];
    return last;
}

static int test_director_holds_shots(void)
{
    /* B is 0.33 s behind A from the start, a fight known within half a second; the director still holds its first
     * shot (the leader) for 3 s. D, faster, runs into C and past it from 3.5 s on: the director cuts to that (the
     * car of the latest pass or contact, the other as its rival) only once the fight has been shown 3 s. */
    const double s[4] = {700.0, 690.0, 500.0, 470.0}, d[4] = {0.0, -3.0, -3.0, 3.0}, v[4] = {30.0, 30.0, 30.0, 36.0};
    Fixture f;
    TST_CHECK(director_world(&f, s, d, v, 4) == 0);
    int car, rival;
    step_observed(&f, 290);
    TST_CHECK(rnd_view_director_shot(f.view, &car, &rival) && car == 0 && rival == -1);
    TST_CHECK(last_meeting(f.world) == NULL);
    step_observed(&f, 20);
    TST_CHECK(rnd_view_director_shot(f.view, &car, &rival) && car == 1 && rival == 0);
    step_observed(&f, 250); /* 5.6 s: C and D have met, but the fight's shot is not 3 s old */
    const SimEvent *ev = last_meeting(f.world);
    TST_CHECK(ev != NULL && ev->tick > 310);
    TST_CHECK(rnd_view_director_shot(f.view, &car, &rival) && car == 1 && rival == 0);
    step_observed(&f, 60);
    ev = last_meeting(f.world);
    TST_CHECK(rnd_view_director_shot(f.view, &car, &rival) && car == ev->a && rival == ev->b);
    TST_CHECK((car == 2 && rival == 3) || (car == 3 && rival == 2));
    fixture_close(&f);
    return 0;
}

/* The fastest lap's holder: no purple in the tower before any lap is done, the mark and a purple lap time after. */
static int test_tower_marks_fastest_lap(void)
{
    Fixture f;
    TST_CHECK(fixture_begin(&f, 5, 0.0) == 0);
    TST_CHECK(add_car_moving(f.world, "Slow", 1, car_a_rgb, 200.0, 0.0, 30.0, 200.0) == 0);
    TST_CHECK(add_car_moving(f.world, "Quick", 2, car_b_rgb, 100.0, -3.0, 33.0, 100.0) == 1);
    TST_CHECK(fixture_view(&f) == 0);
    rnd_view_ui(f.view)->selected = -1;
    const uint8_t purple[3] = {190, 90, 255};
    int tower_w = rnd_view_camera(f.view)->inset_left_px;
    draw(&f, NULL);
    TST_CHECK(count_colour(&f, 0, 0, tower_w, H, purple) == 0);
    int guard = 0;
    while ((sim_world_car(f.world, 0)->laps < 2 || sim_world_car(f.world, 1)->laps < 2) && guard++ < 20000)
        step_observed(&f, 1);
    /* (a car's first lap runs from where it was placed, so which car holds the fastest lap is read, not assumed) */
    double best0 = sim_world_car(f.world, 0)->best_lap_s, best1 = sim_world_car(f.world, 1)->best_lap_s;
    TST_CHECK(best0 > 0.0 && best1 > 0.0 && best0 != best1);
    int holder = best0 < best1 ? 0 : 1;
    RndTimingRow rows[SIM_MAX_CARS];
    TST_CHECK(rnd_view_timing(f.view, f.world, rows) == 2);
    for (int k = 0; k < 2; k++)
        TST_CHECK(rows[k].fastest == (rows[k].car == holder));
    draw(&f, NULL);
    TST_CHECK(count_colour(&f, 0, 0, tower_w, H, purple) >= 40);
    fixture_close(&f);
    return 0;
}

static int test_hud_text_in_tower(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    draw(&f, NULL);
    /* the tower's panel is dark and holds light text: count near-white pixels in its top rows */
    int bright = 0;
    for (int y = 12; y < 90; y++)
        for (int x = 12; x < 250; x++) {
            uint8_t p[3];
            pixel(&f, x, y, p);
            bright += p[0] > 200 && p[1] > 200 && p[2] > 200;
        }
    TST_CHECK(bright > 60);
    /* and a pixel of the tower background between rows of text */
    uint8_t bg[3];
    pixel(&f, 11, 70, bg);
    TST_CHECK(bg[0] < 60 && bg[1] < 60 && bg[2] < 60);
    fixture_close(&f);
    return 0;
}

static DrvDebug fake_debug(void)
{
    DrvDebug d = {0};
    d.slots = 16;
    d.d_left_m = 6.0;
    d.d_right_m = -6.0;
    for (int i = 0; i < d.slots; i++) {
        d.interest[i] = (float)(1.0 - abs(i - 10) / 10.0);
        d.danger[i] = i < 5 ? 1.0f : 0.0f;
    }
    d.current_slot = 7;
    d.reach_lo = 4;
    d.reach_hi = 12;
    d.chosen_slot = 10;
    d.chosen_d_m = -2.2;
    d.resolver = DRV_RESOLVE_WALK;
    return d;
}

static int test_inspector_panel(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    DrvDebug dbg = fake_debug();
    const uint8_t danger[3] = {RND_DANGER_RGB}, interest[3] = {RND_INTEREST_RGB};
    rnd_view_ui(f.view)->selected = 0;
    rnd_view_ui(f.view)->inspector = false;
    draw(&f, &dbg);
    TST_CHECK(count_colour(&f, W / 3, H / 2, W, H, danger) == 0);
    TST_CHECK(count_colour(&f, W / 3, H / 2, W, H, interest) == 0);
    rnd_view_ui(f.view)->inspector = true;
    draw(&f, &dbg);
    int nd = count_colour(&f, W / 3, H / 2, W, H, danger);
    int ni = count_colour(&f, W / 3, H / 2, W, H, interest);
    TST_CHECK(nd > 500); /* five full danger bars */
    TST_CHECK(ni > 500);
    fixture_close(&f);
    return 0;
}

static int test_save_bmp(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    draw(&f, NULL);
    char err[256];
    const char *path = "build/test_render_shot.bmp";
    int w = 0, h = 0;
    uint8_t *rgb = rnd_read_rgb(f.renderer, &w, &h, err, sizeof err);
    TST_CHECK(rgb != NULL && w == W && h == H);
    FILE *out = fopen(path, "wb");
    TST_CHECK(out != NULL);
    TST_CHECK(rnd_bmp_write(out, rgb, w, h, 3 * w) == 0);
    TST_CHECK(fclose(out) == 0);
    free(rgb);
    SDL_Surface *s = SDL_LoadBMP(path);
    TST_CHECK(s != NULL);
    TST_CHECK(s->w == W && s->h == H);
    TST_CHECK(s->format->BitsPerPixel == 24);
    uint8_t p[3], q[3];
    pixel(&f, 5, H / 2, p);
    const uint8_t *b = (const uint8_t *)s->pixels + (size_t)(H / 2) * s->pitch + 5 * 3;
    SDL_GetRGB((Uint32)b[0] | (Uint32)b[1] << 8 | (Uint32)b[2] << 16, s->format, &q[0], &q[1], &q[2]);
    SDL_FreeSurface(s);
    remove(path);
    TST_CHECK(p[0] == q[0] && p[1] == q[1] && p[2] == q[2]);
    fixture_close(&f);
    return 0;
}

static int test_observer_does_not_change_the_sim(void)
{
    /* two identical worlds, one watched (snapshots, observe, draw each tick), end in the same state */
    Fixture f, g;
    TST_CHECK(fixture_open(&f) == 0);
    TST_CHECK(fixture_open(&g) == 0);
    RndSnapshot *prev = malloc(sizeof *prev);
    TST_CHECK(prev != NULL);
    for (int i = 0; i < 200; i++) {
        rnd_snapshot_capture(prev, f.world);
        sim_world_step(f.world);
        rnd_view_observe(f.view, f.world);
        if (i % 20 == 0) {
            RndFrame frame = {f.world, NULL, prev, 0.5, NULL};
            rnd_view_draw(f.view, &frame);
        }
        sim_world_step(g.world);
    }
    free(prev);
    TST_CHECK(sim_world_hash(f.world) == sim_world_hash(g.world));
    fixture_close(&f);
    fixture_close(&g);
    return 0;
}

static SDL_Event key_event(SDL_Keycode sym, Uint16 mod)
{
    SDL_Event e;
    SDL_zero(e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = sym;
    e.key.keysym.mod = mod;
    return e;
}

static SDL_Event mouse_event(Uint32 type, int x, int y)
{
    SDL_Event e;
    SDL_zero(e);
    e.type = type;
    if (type == SDL_MOUSEMOTION) {
        e.motion.x = x;
        e.motion.y = y;
    } else {
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = x;
        e.button.y = y;
    }
    return e;
}

static int test_controls(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    draw(&f, NULL);
    RndFrame frame = {f.world, NULL, NULL, 1.0, NULL};
    RndUi *ui = rnd_view_ui(f.view);
    RndActions act = {0};
    SDL_Event e = key_event(SDLK_PERIOD, 0);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(!act.step_once); /* single ticks only while paused */
    e = key_event(SDLK_SPACE, 0);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(ui->paused);
    e = key_event(SDLK_PERIOD, 0);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(act.step_once);
    for (int i = 0; i < 12; i++) {
        e = key_event(SDLK_PLUS, 0);
        rnd_view_handle_event(f.view, &e, &frame, &act);
    }
    TST_NEAR(rnd_speed_factor(ui->speed_index), 64.0, 0.0);
    for (int i = 0; i < 12; i++) {
        e = key_event(SDLK_MINUS, 0);
        rnd_view_handle_event(f.view, &e, &frame, &act);
    }
    TST_NEAR(rnd_speed_factor(ui->speed_index), 0.25, 0.0);
    ui->selected = 0;
    e = key_event(SDLK_TAB, 0);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(ui->selected == sim_world_order(f.world)[1]);
    e = key_event(SDLK_TAB, KMOD_LSHIFT);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(ui->selected == sim_world_order(f.world)[0]);
    bool insp = ui->inspector;
    e = key_event(SDLK_m, 0);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(ui->inspector != insp);
    /* c cycles director -> follow -> chase -> overview -> director */
    const RndCameraMode cycle[4] = {RND_CAM_DIRECTOR, RND_CAM_FOLLOW, RND_CAM_CHASE, RND_CAM_OVERVIEW};
    for (int i = 0; i < 4; i++) {
        e = key_event(SDLK_c, 0);
        rnd_view_handle_event(f.view, &e, &frame, &act);
        TST_CHECK(rnd_view_camera(f.view)->mode == cycle[i]);
    }
    /* choosing a car by hand while the director cuts follows that car */
    rnd_view_camera(f.view)->mode = RND_CAM_DIRECTOR;
    e = key_event(SDLK_TAB, 0);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(rnd_view_camera(f.view)->mode == RND_CAM_FOLLOW);
    rnd_view_camera(f.view)->mode = RND_CAM_OVERVIEW;
    TST_CHECK(!act.screenshot && !act.restart && !act.quit);
    SDL_Keycode keys[3] = {SDLK_s, SDLK_r, SDLK_ESCAPE};
    for (int i = 0; i < 3; i++) {
        e = key_event(keys[i], 0);
        rnd_view_handle_event(f.view, &e, &frame, &act);
    }
    TST_CHECK(act.screenshot && act.restart && act.quit);
    fixture_close(&f);
    return 0;
}

static int test_mouse_pan_and_click_select(void)
{
    Fixture f;
    TST_CHECK(fixture_open(&f) == 0);
    rnd_view_ui(f.view)->selected = 0;
    draw(&f, NULL);
    RndFrame frame = {f.world, NULL, NULL, 1.0, NULL};
    RndActions act = {0};
    /* a click (press and release without moving) on car 1 selects it */
    float sx, sy;
    TST_CHECK(rnd_view_car_screen_pos(f.view, 1, &sx, &sy));
    SDL_Event e = mouse_event(SDL_MOUSEBUTTONDOWN, (int)sx + 2, (int)sy);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    e = mouse_event(SDL_MOUSEBUTTONUP, (int)sx + 2, (int)sy);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(rnd_view_ui(f.view)->selected == 1);
    /* a drag moves the view with the mouse and leaves the overview */
    RndCamera *cam = rnd_view_camera(f.view);
    double wx, wy;
    rnd_camera_to_world(cam, 500.0f, 300.0f, &wx, &wy);
    e = mouse_event(SDL_MOUSEBUTTONDOWN, 500, 300);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    e = mouse_event(SDL_MOUSEMOTION, 540, 320);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    e = mouse_event(SDL_MOUSEBUTTONUP, 540, 320);
    rnd_view_handle_event(f.view, &e, &frame, &act);
    TST_CHECK(cam->mode == RND_CAM_FREE);
    TST_CHECK(rnd_view_ui(f.view)->selected == 1); /* a drag is not a click */
    draw(&f, NULL);
    float nx, ny;
    rnd_camera_to_screen(cam, wx, wy, &nx, &ny);
    TST_NEAR(nx, 540.0, 0.01);
    TST_NEAR(ny, 320.0, 0.01);
    fixture_close(&f);
    return 0;
}

/* ---- text stays inside its panel ------------------------------------------------------------------------------ */

#define LONG_A "Alexandra Wolfeschlegelsteinhausen-Bergdorf"
#define LONG_B "Bartholomew Featherstonehaugh-Cholmondeley"

/* Light pixels (text) in a rectangle: the HUD panels are dark, their text light. */
static int count_light(const Fixture *f, int x0, int y0, int x1, int y1, int min_channel)
{
    int n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < H; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < W; x++) {
            uint8_t p[3];
            pixel(f, x, y, p);
            n += p[0] > min_channel || p[1] > min_channel || p[2] > min_channel;
        }
    return n;
}

static bool is_panel_bg(const Fixture *f, int x, int y)
{
    uint8_t p[3];
    pixel(f, x, y, p);
    return p[0] < 45 && p[1] < 50 && p[2] < 50;
}

/* Rows [top, bottom) of the k-th dark panel (0-based) met going down column x. */
static bool find_panel(const Fixture *f, int x, int k, int *top, int *bottom)
{
    int seen = -1;
    for (int y = 0; y < H; y++) {
        if (!is_panel_bg(f, x, y))
            continue;
        int y1 = y;
        while (y1 < H && is_panel_bg(f, x, y1))
            y1++;
        if (++seen == k) {
            *top = y;
            *bottom = y1;
            return true;
        }
        y = y1;
    }
    return false;
}

static int count_events(const SimWorld *world, SimEventType type)
{
    int n = 0, count = 0;
    const SimEvent *ev = sim_world_events(world, &count);
    for (int i = 0; i < count; i++)
        n += ev[i].type == type;
    return n;
}

static int test_ticker_long_names_stay_in_panel(void)
{
    /* a fast car runs into a slow one on the same line: "contact #7 LONG_A / #42 LONG_B, 20 m/s" (and then a
     * pass) are far wider than the ticker */
    Fixture f;
    TST_CHECK(fixture_begin(&f, 3, 0.0) == 0);
    TST_CHECK(add_car_moving(f.world, LONG_A, 7, car_a_rgb, 100.0, 0.0, 40.0, 100.0) == 0);
    TST_CHECK(add_car_moving(f.world, LONG_B, 42, car_b_rgb, 130.0, 0.5, 20.0, 130.0) == 1);
    TST_CHECK(fixture_view(&f) == 0);
    rnd_view_ui(f.view)->selected = -1;
    step_observed(&f, 400);
    TST_CHECK(count_events(f.world, SIM_EV_COLLISION) >= 1);
    draw(&f, NULL);
    /* the ticker is the third panel down the HUD column (clock, tower, ticker); its right edge is where the
     * overview's inset starts */
    int top, bottom;
    TST_CHECK(find_panel(&f, 11, 2, &top, &bottom));
    int right = rnd_view_camera(f.view)->inset_left_px;
    TST_CHECK(is_panel_bg(&f, right - 1, top + 1) && !is_panel_bg(&f, right + 1, top + 1));
    /* the line is fitted with the panel's 6 px padding kept: nothing above the background (~31) in the last 6
     * columns (a line cut by a clip rectangle runs right into them), and it is not dropped: text up to near the
     * padding */
    TST_CHECK(count_light(&f, right - 6, top, right, bottom, 40) == 0);
    TST_CHECK(count_light(&f, right - 40, top, right - 6, bottom, 70) > 0);
    fixture_close(&f);
    return 0;
}

static int test_inspector_header_long_name(void)
{
    Fixture f;
    TST_CHECK(fixture_begin(&f, 3, 0.0) == 0);
    TST_CHECK(add_car_moving(f.world, LONG_A, 7, car_a_rgb, 150.0, 0.0, 30.0, 150.0) == 0);
    TST_CHECK(fixture_view(&f) == 0);
    DrvDebug dbg = fake_debug();
    rnd_view_ui(f.view)->selected = 0;
    rnd_view_ui(f.view)->inspector = true;
    draw(&f, &dbg);
    /* the panel: 600 px wide at the bottom right, 10 px from the edges; its top found up its left column */
    int px = W - 600 - 10, top = H - 12;
    while (top > 0 && is_panel_bg(&f, px + 2, top - 1))
        top--;
    TST_CHECK(top < H - 100);
    /* the header: the name from px + 10, the map's description from 45% of the inner width: the name stops
     * short of it, so the columns just before the description hold no text */
    int info_x = px + 10 + (int)(0.45f * 580.0f);
    TST_CHECK(count_light(&f, px + 10, top + 6, px + 60, top + 24, 150) > 20); /* the name is there */
    TST_CHECK(count_light(&f, info_x - 9, top + 4, info_x - 1, top + 26, 150) == 0);
    TST_CHECK(count_light(&f, info_x, top + 4, info_x + 60, top + 26, 100) > 20); /* and the description */
    fixture_close(&f);
    return 0;
}

/* ---- cars that have left the race ------------------------------------------------------------------------------ */

/* Pixels that look like a car colour after blending: its dominant channels high, the others low. */
static int count_tinted(const Fixture *f, float cx, float cy, int r, const uint8_t rgb[3])
{
    int n = 0;
    for (int y = (int)cy - r; y <= (int)cy + r; y++)
        for (int x = (int)cx - r; x <= (int)cx + r; x++) {
            if (x < 0 || y < 0 || x >= W || y >= H)
                continue;
            uint8_t p[3];
            pixel(f, x, y, p);
            bool like = true;
            for (int c = 0; c < 3; c++)
                like = like && (rgb[c] > 128 ? p[c] > 110 : p[c] < 100);
            n += like;
        }
    return n;
}

static int test_finished_car_leaves_the_track(void)
{
    /* one lap: car 0 is 10 m from the flag, car 1 a lap's worth from it, still racing throughout */
    Fixture f;
    TST_CHECK(fixture_begin(&f, 1, 0.0) == 0);
    double lap = trk_length(f.track);
    TST_CHECK(add_car_moving(f.world, "Magenta", 7, car_a_rgb, lap - 10.0, 0.0, 30.0, lap - 10.0) == 0);
    TST_CHECK(add_car_moving(f.world, "Cyan", 42, car_b_rgb, 100.0, 2.0, 30.0, 100.0) == 1);
    TST_CHECK(fixture_view(&f) == 0);
    rnd_view_ui(f.view)->selected = -1;
    int guard = 0;
    while (sim_world_car(f.world, 0)->status != SIM_FINISHED && guard++ < 200)
        step_observed(&f, 1);
    TST_CHECK(sim_world_car(f.world, 0)->status == SIM_FINISHED);
    /* just after the flag: still drawn where it stopped, but see-through (never its full colour) */
    draw(&f, NULL);
    float sx, sy;
    TST_CHECK(rnd_view_car_screen_pos(f.view, 0, &sx, &sy));
    TST_CHECK(count_colour(&f, (int)sx - 8, (int)sy - 8, (int)sx + 9, (int)sy + 9, car_a_rgb) == 0);
    TST_CHECK(count_tinted(&f, sx, sy, 8, car_a_rgb) >= 4);
    /* after the cool-down: gone from the track (not drawn, not clickable), while the racing car is drawn */
    step_observed(&f, 350);
    TST_CHECK(sim_world_car(f.world, 1)->status == SIM_RUNNING);
    draw(&f, NULL);
    float gx, gy;
    TST_CHECK(!rnd_view_car_screen_pos(f.view, 0, &gx, &gy));
    TST_CHECK(count_tinted(&f, sx, sy, 10, car_a_rgb) == 0);
    TST_CHECK(rnd_view_car_screen_pos(f.view, 1, &gx, &gy));
    TST_CHECK(count_colour(&f, (int)gx - 4, (int)gy - 4, (int)gx + 5, (int)gy + 5, car_b_rgb) >= 4);
    /* selected, it stays as a faint ghost, so the selection and the follow camera have something to show */
    rnd_view_ui(f.view)->selected = 0;
    draw(&f, NULL);
    TST_CHECK(rnd_view_car_screen_pos(f.view, 0, &gx, &gy));
    TST_CHECK(count_colour(&f, (int)gx - 8, (int)gy - 8, (int)gx + 9, (int)gy + 9, car_a_rgb) == 0);
    fixture_close(&f);
    return 0;
}

static int test_retired_car_leaves_the_track(void)
{
    /* car 0 stands still: retired for no progress after 0.5 s */
    Fixture f;
    TST_CHECK(fixture_begin(&f, 3, 0.5) == 0);
    TST_CHECK(add_car_moving(f.world, "Magenta", 7, car_a_rgb, 300.0, 0.0, 0.0, 300.0) == 0);
    TST_CHECK(add_car_moving(f.world, "Cyan", 42, car_b_rgb, 100.0, 2.0, 30.0, 100.0) == 1);
    TST_CHECK(fixture_view(&f) == 0);
    rnd_view_ui(f.view)->selected = -1;
    int guard = 0;
    while (sim_world_car(f.world, 0)->status != SIM_DNF && guard++ < 200)
        step_observed(&f, 1);
    TST_CHECK(sim_world_car(f.world, 0)->status == SIM_DNF);
    draw(&f, NULL);
    float sx, sy;
    TST_CHECK(rnd_view_car_screen_pos(f.view, 0, &sx, &sy)); /* drawn (greyed, fading) as it stops */
    step_observed(&f, 350);
    draw(&f, NULL);
    TST_CHECK(!rnd_view_car_screen_pos(f.view, 0, &sx, &sy));
    TST_CHECK(rnd_view_car_screen_pos(f.view, 1, &sx, &sy));
    fixture_close(&f);
    return 0;
}

int main(void)
{
    TST_RUN(test_camera_round_trip);
    TST_RUN(test_pose_interpolation);
    TST_RUN(test_track_and_grass);
    TST_RUN(test_cars_drawn_in_their_colours);
    TST_RUN(test_follow_camera_centres_selected);
    TST_RUN(test_minimap_in_follow_mode);
    TST_RUN(test_camera_frame_pair);
    TST_RUN(test_camera_chase);
    TST_RUN(test_tower_timing);
    TST_RUN(test_overview_tags_do_not_overlap);
    TST_RUN(test_director_picks_closest_fight);
    TST_RUN(test_director_holds_shots);
    TST_RUN(test_tower_marks_fastest_lap);
    TST_RUN(test_hud_text_in_tower);
    TST_RUN(test_inspector_panel);
    TST_RUN(test_save_bmp);
    TST_RUN(test_observer_does_not_change_the_sim);
    TST_RUN(test_controls);
    TST_RUN(test_mouse_pan_and_click_select);
    TST_RUN(test_ticker_long_names_stay_in_panel);
    TST_RUN(test_inspector_header_long_name);
    TST_RUN(test_finished_car_leaves_the_track);
    TST_RUN(test_retired_car_leaves_the_track);
    return tst_report();
}
