# racesim build. `make` builds ./racesim; `make test` runs every test; `make run` runs the default race.
# Configurations build into separate directories: build/opt (default; profile-guided with GCC), build/plain
# (make PGO=0 ...: the same without the profile) and build/san (make SAN=1 ...). BUILD=dir overrides the directory
# (handy when several builds run at once).

ifeq ($(SAN),1)
CONFIG := san
# AddressSanitizer + UndefinedBehaviorSanitizer; no recovery, so the first finding fails the run.
OPTFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDSAN := -fsanitize=address,undefined
else
CONFIG := opt
# GCC's -O2 vectorises only loops that need no run-time checks; the map passes (a few dozen slots, two arrays) need
# them. Element-wise vectorisation never changes a result (no reassociation without -ffast-math), so the optimised
# and sanitizer builds stay bit-identical. Only when the compiler knows the flag.
VECFLAGS := $(shell $(CC) -fvect-cost-model=dynamic -E -x c /dev/null >/dev/null 2>&1 && echo -fvect-cost-model=dynamic)
OPTFLAGS := -O2 -g $(VECFLAGS)
LDSAN :=
# Profile-guided optimisation (GCC 10 or later; PGO=0 turns it off): the program is first built instrumented into
# $(BUILD)/gen, runs bench/pgo-train.sh (a few races, about 5 s), and the optimised objects are then compiled with
# the counts, so the compiler lays out and inlines the hot paths it saw. Results do not change: the counts steer
# code layout, inlining, unrolling and branch-versus-select choices, never the floating-point operations.
PGO ?= $(shell $(CC) -Werror -fprofile-partial-training -E -x c /dev/null >/dev/null 2>&1 && echo 1 || echo 0)
# a build without the profile goes to a directory of its own, so the two never mix objects
ifeq ($(PGO),0)
CONFIG := plain
endif
endif
BUILD ?= build/$(CONFIG)
ifeq ($(PGO),gen)
# the instrumented build ($(BUILD)/gen, made by the rule for $(PROFILE) below); one thread trains, so no atomics
OPTFLAGS += -fprofile-generate -fprofile-update=single
LDSAN += -fprofile-generate
# each object's counts under the name of the optimised build's object ($(PGO_BASE)/x.gcda, beside x.o), where
# -fprofile-use looks; GCC also names a file's static functions in the counts by that name, so they must agree.
# -dumpbase would move the dependency file too: -MF keeps it beside the instrumented object.
PGO_AUX = -dumpbase $(PGO_BASE)/$*.c -dumpbase-ext .c -MF $(@:.o=.d)
else ifeq ($(PGO),1)
# without the training counts (the tests' own files, the renderer) a function is optimised as without PGO
OPTFLAGS += -fprofile-use -fprofile-partial-training -Wno-missing-profile
PROFILE := $(BUILD)/gen/profile.stamp
endif

CC ?= cc
PKG_CONFIG ?= pkg-config
# -ffp-contract=off: no fused multiply-add, so results are bit-identical across optimisation levels and sanitizers.
# -fno-math-errno: nothing reads errno after a math function, so sqrt is the bare instruction, without the test and
# library call that set errno for a negative operand (the result is the same NaN); no value changes.
WARN := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Werror
BASEFLAGS := $(WARN) -ffp-contract=off -fno-math-errno $(OPTFLAGS) -MMD -MP -D_POSIX_C_SOURCE=200809L

INIH_CFLAGS := $(shell $(PKG_CONFIG) --cflags inih 2>/dev/null)
INIH_LIBS := $(shell $(PKG_CONFIG) --libs inih 2>/dev/null)
SDL_CFLAGS := $(shell $(PKG_CONFIG) --cflags sdl2 SDL2_ttf 2>/dev/null)
SDL_LIBS := $(shell $(PKG_CONFIG) --libs sdl2 SDL2_ttf 2>/dev/null)

# The simulation and the experiments (track, drivers, sim, lab) are compiled WITHOUT SDL's include paths, so a
# stray SDL include fails the build.
CORE_CFLAGS := $(BASEFLAGS) $(INIH_CFLAGS)
GUI_CFLAGS := $(BASEFLAGS) $(INIH_CFLAGS) $(SDL_CFLAGS)
LIBS := $(SDL_LIBS) $(INIH_LIBS) -lm -lpthread

TRK_SRC := $(wildcard track/*.c)
DRV_SRC := $(wildcard drivers/*.c)
SIM_SRC := $(wildcard sim/*.c)
LAB_SRC := $(wildcard lab/*.c)
RND_SRC := $(wildcard render/*.c)
APP_SRC := $(wildcard app/*.c)
# the command lines (app/cli.h) and what they read, without SDL: the tests and the fuzzers link them too
CLI_SRC := $(wildcard app/cli*.c) app/app_tune.c app/app_data.c
TEST_SRC := $(wildcard tests/test_*.c)
BENCH_SRC := $(wildcard bench/bench_*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
TRK_LIB := $(BUILD)/libtrk.a
DRV_LIB := $(BUILD)/libdrv.a
SIM_LIB := $(BUILD)/libsim.a
LAB_LIB := $(BUILD)/liblab.a
RND_LIB := $(BUILD)/librnd.a
CLI_LIB := $(BUILD)/libcli.a
ALL_LIBS := $(RND_LIB) $(LAB_LIB) $(SIM_LIB) $(DRV_LIB) $(TRK_LIB)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

# Every configuration links $(BUILD)/racesim; the optimised builds (build/opt, build/plain) also copy it to ./racesim.
PROGRAM := $(BUILD)/racesim
ifneq ($(filter build/opt build/plain,$(BUILD)),)
ROOT_PROGRAM := racesim
endif

.PHONY: all deps run test test-unit test-san bench soak fuzz clean install FORCE
# Keep intermediate objects (the test .o files), so make never prints clean-up lines after the test summary.
.SECONDARY: $(TEST_BINS:=.o) $(BENCH_BINS:=.o)
all: $(PROGRAM) $(ROOT_PROGRAM)

# copied whenever it differs, so ./racesim follows `make` and `make PGO=0` in turn
racesim: $(PROGRAM) FORCE
	@cmp -s $(PROGRAM) racesim || cp $(PROGRAM) racesim
FORCE:

deps:
	@sh tools/install-deps.sh

$(BUILD)/track/%.o $(BUILD)/drivers/%.o $(BUILD)/sim/%.o $(BUILD)/lab/%.o: CF = $(CORE_CFLAGS)
$(BUILD)/render/%.o $(BUILD)/app/%.o $(BUILD)/tests/%.o: CF = $(GUI_CFLAGS)
# The racing line's sweep (most of a race's start-up) keeps the neighbours' values it has read or written in
# registers for the next point instead of reading them again: -fpredictive-commoning, an -O3 pass. It reuses values
# and changes no operation (floating-point chains are combined only with -fassociative-math), so no result changes.
# Its loop is unrolled further, and left scalar: packing a point's x and y into one register cost more shuffles than
# it saved (neither changes an operation).
$(BUILD)/track/trk_line_classic.o: CF = $(CORE_CFLAGS) -fpredictive-commoning -funroll-loops -fno-tree-slp-vectorize
# -O3 for the files whose per-tick code its further passes (unswitching, peeling, inlining) make shorter: the
# control, safe following, the maps' blur and hysteresis, the decision, the collisions, and the track's sample table.
# Like -O2 it never reorders floating-point operations (that takes -fassociative-math), so results stay bit for bit
# the same; elsewhere it made the code longer, so it is chosen per file.
# (Not in the sanitizer build, which keeps its -O1.)
ifneq ($(SAN),1)
CORE_O3 := drivers/drv_drive drivers/drv_follow drivers/drv_post drivers/drv_context sim/sim_collide track/trk_build
$(patsubst %,$(BUILD)/%.o,$(CORE_O3)): CF = $(CORE_CFLAGS) -O3
# Loops unrolled where that made the code shorter per car-tick (the escapes of safe following, the integration, the
# corner commitment's slots, the attack's ways, the walk); it copies loop bodies and changes no operation.
CORE_UNROLL := drivers/drv_follow sim/sim_physics drivers/drv_beh_commit drivers/drv_beh_attack drivers/drv_resolve
$(patsubst %,$(BUILD)/%.o,$(CORE_UNROLL)): CF += -funroll-loops
endif
# the benchmarks say how they were built, since their figures depend on it
BENCH_DESC := built in $(BUILD)$(if $(filter 1,$(PGO)), (profile-guided))
$(BUILD)/bench/%.o: CF = $(GUI_CFLAGS) -DBENCH_BUILD='"$(BENCH_DESC)"'

$(BUILD)/%.o: %.c $(PROFILE)
	@mkdir -p $(dir $@)
	$(CC) $(CF) $(PGO_AUX) -c $< -o $@

$(TRK_LIB): $(call obj,$(TRK_SRC))
$(DRV_LIB): $(call obj,$(DRV_SRC))
$(SIM_LIB): $(call obj,$(SIM_SRC))
$(LAB_LIB): $(call obj,$(LAB_SRC))
$(RND_LIB): $(call obj,$(RND_SRC))
$(CLI_LIB): $(call obj,$(CLI_SRC))
$(ALL_LIBS) $(CLI_LIB):
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(PROGRAM): $(call obj,$(APP_SRC)) $(ALL_LIBS)
	$(CC) $(LDSAN) -o $@ $(call obj,$(APP_SRC)) $(ALL_LIBS) $(LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(CLI_LIB) $(ALL_LIBS)
	$(CC) $(LDSAN) -o $@ $< $(CLI_LIB) $(ALL_LIBS) $(LIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(ALL_LIBS)
	$(CC) $(LDSAN) -o $@ $< $(ALL_LIBS) $(LIBS)

ifdef PROFILE
# The training counts: rebuilt when any source the program is made of (or the training's data) changes. The
# instrumented program writes them beside the optimised build's objects (PGO_AUX above), the renderer's included
# (counts of zero in a headless run, but counts: an edited file compiled against its old ones fails the build).
PROFILE_SRC := $(TRK_SRC) $(DRV_SRC) $(SIM_SRC) $(LAB_SRC) $(RND_SRC) $(APP_SRC) \
	$(wildcard track/*.h drivers/*.h sim/*.h lab/*.h render/*.h app/*.h) \
	bench/pgo-train.sh $(wildcard data/races/*.ini data/races/experiments/*.ini data/drivers/*.ini $(wildcard data/tracks/*.*))
$(PROFILE): $(PROFILE_SRC)
	@$(MAKE) --no-print-directory PGO=gen PGO_BASE=$(BUILD) BUILD=$(BUILD)/gen $(BUILD)/gen/racesim
	@find $(BUILD) -name '*.gcda' -delete
	sh bench/pgo-train.sh $(BUILD)/gen/racesim
	@touch $@
endif

# Runs every unit test binary, then the scenario suite; the last line reads "total: N passed, N failed".
test: deps
	@$(MAKE) --no-print-directory test-unit

test-unit: $(PROGRAM) $(ROOT_PROGRAM) $(TEST_BINS)
	@sh tests/run_tests.sh $(BUILD) $(PROGRAM)

test-san: deps
	@$(MAKE) --no-print-directory SAN=1 test-unit

run: deps
	@$(MAKE) --no-print-directory $(PROGRAM) $(ROOT_PROGRAM)
	./$(PROGRAM)

# Benchmarks print figures and whether each target is met; they fail only when something is broken.
bench: deps
	@$(MAKE) --no-print-directory $(PROGRAM) $(BENCH_BINS)
	@for b in $(BENCH_BINS); do $$b || exit 1; done

# The full soak (tests/test_soak.c --full): 40 cars, 200 laps of the tightest track, run twice and compared (minutes).
soak: deps
	@$(MAKE) --no-print-directory $(BUILD)/tests/test_soak
	$(BUILD)/tests/test_soak --full

# `make install PREFIX=/usr/local DESTDIR=`: the program, its man page and the data (tracks, drivers, races), which
# the program finds from PREFIX/bin when the current directory has no data/.
PREFIX ?= /usr/local
install:
	@[ -x $(PROGRAM) ] || $(MAKE) --no-print-directory $(PROGRAM)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/racesim
	install -m 755 $(PROGRAM) $(DESTDIR)$(PREFIX)/bin/racesim
	install -m 644 docs/racesim.1 $(DESTDIR)$(PREFIX)/share/man/man1/racesim.1
	cp -R data $(DESTDIR)$(PREFIX)/share/racesim/

clean:
	rm -rf build racesim

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- fuzzing (libFuzzer, clang) -------------------------------------------------------------------------------
# `make fuzz` builds one harness per parser into build/fuzz (targets in tests/fuzz/fuzz_targets.h); `make fuzz-run
# FUZZ_SECONDS=N` runs each for N seconds, seeded with the files in data/ and tests/. A crash is written to
# build/fuzz/<harness>-crash-*; copy it into tests/fuzz/regress/<target>/ so tests/test_fuzz_regress.c replays it.
# The core and the command lines (CLI_SRC) are compiled once with the fuzzer's coverage (fuzzer-no-link) and
# linked into every harness.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30
FUZZ_FLAGS := -std=c11 -g -O1 -ffp-contract=off -fsanitize=address,undefined -fno-sanitize-recover=all \
	-D_POSIX_C_SOURCE=200809L $(INIH_CFLAGS)
FUZZ_CORE := $(TRK_SRC) $(DRV_SRC) $(SIM_SRC) $(LAB_SRC) $(CLI_SRC)
FUZZ_OBJ := $(patsubst %.c,build/fuzz/obj/%.o,$(FUZZ_CORE))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))

.PHONY: fuzz fuzz-run
.SECONDARY: $(FUZZ_OBJ) # keep the fuzz objects (pattern-rule intermediates) between builds
fuzz: deps
	@sh tools/install-deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

build/fuzz/obj/%.o: %.c $(wildcard track/*.h drivers/*.h sim/*.h lab/*.h) app/app.h app/app_tune.h app/cli.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

build/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_targets.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(INIH_LIBS) -lm -lpthread

fuzz-run: fuzz
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)
