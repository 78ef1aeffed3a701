#!/bin/sh
# pgo-train.sh RACESIM: the training run of the profile-guided build (Makefile, PGO): the instrumented program runs
# what racesim spends its time on (races with the context drivers, a shuffled grid, a crowded grid, an A/B pair,
# another track, each resolver), so the compiler sees the hot paths. The seeds are not those the benchmarks and the
# README's figures use, so those figures are measured on races the training did not see. About 5 s.
set -e
prog="$1"
run() { "$prog" run "$@" --headless --quiet >/dev/null; }
run data/races/default.ini --seed 101
run data/races/default.ini --seed 102 --shuffle-grid
run data/races/twenty.ini --seed 103 --laps 2
for r in steering subtract mask-sum threshold-blend min-danger; do
    run data/races/experiments/tech_$r.ini --seed 104 --laps 1
done
"$prog" ab data/races/default.ini --a data/drivers/veteran.ini --b data/drivers/ace.ini --races 1 --seed 105 \
    --jobs 1 --laps 2 >/dev/null
