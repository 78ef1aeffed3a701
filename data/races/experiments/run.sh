#!/bin/sh
# Reproduces the tables of the README's "Why context steering" section: for each track (gp, tech) and each variant
# (context = the shipped personalities, steering, and the four alternative resolvers), RACES races of the default
# grid (2 laps, seeds 1..RACES, grid shuffled by seed), then one Markdown row per variant and the paired differences
# against the context model. Run from the repository root after `make`:
#   sh data/races/experiments/run.sh            # RACES=200, JOBS=all cores, output in build/experiments
# About 25 CPU-minutes at RACES=200.
set -e
RACES=${RACES:-200}
PROG=${PROG:-./racesim}
OUT=${OUT:-build/experiments}
JOBS=${JOBS:-}
mkdir -p "$OUT"
jobs_opt=""
[ -n "$JOBS" ] && jobs_opt="--jobs $JOBS"
variants="context steering subtract mask-sum threshold-blend min-danger"
for t in gp tech; do
    for v in $variants; do
        "$PROG" batch "data/races/experiments/${t}_$v.ini" --races "$RACES" $jobs_opt --out "$OUT/${t}_$v.jsonl" >/dev/null
    done
done
for t in gp tech; do
    echo "## $t: $RACES races per row (mean per race +- 95% interval)"
    echo "| variant | races | collisions | overtakes | race time (s) | off-track (s) | DNFs |"
    echo "|---|---|---|---|---|---|---|"
    for v in $variants; do
        awk -v md=1 -f data/races/experiments/summarize.awk "$OUT/${t}_$v.jsonl"
    done
    for v in $variants; do
        [ "$v" = context ] && continue
        echo "### $t: $v - context, paired by seed"
        awk -f data/races/experiments/summarize.awk "$OUT/${t}_context.jsonl" "$OUT/${t}_$v.jsonl" | sed -n '/^paired/,$p'
    done
done
