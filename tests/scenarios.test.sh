#!/bin/sh
# The scenario suite: `racesim check tests/scenarios`, each scenario with the seeds of its own [expect] section (a
# scenario whose checks are means over seeds can ask for as many seeds as its statistics need). Prints check's
# report (one line per scenario) and ends with its "N passed, N failed" line, counting scenarios. A failing scenario
# is a driver (or sim) problem to fix, not a line to weaken: see each file's comment for the situation it stands for.
# usage: sh tests/scenarios.test.sh PROGRAM BUILD_DIR
prog="$1"
"$prog" check tests/scenarios --jobs 2
