#!/bin/sh
# The min-curvature racing line against TUMFTM's published minimum-curvature lines (bench/tumftm-gap.sh): the
# default car's quasi-steady lap on the project's min-curvature line within 0.5 % of the lap on TUMFTM's, on the
# three circuits of ../shared/tracks. TUMFTM's lines are not shipped: they are read from $RACETRACK_DB/racelines (a
# checkout of github.com/TUMFTM/racetrack-database), else ../shared/racetrack-database/racelines; the comparison is
# skipped with a note when ../shared or the lines are absent.
# usage: sh tests/tumftm_gap.test.sh PROGRAM BUILD_DIR
prog="$1"
tmp="${2:-build}/tumftm_gap_test"
mkdir -p "$tmp"
pass=0
fail=0
check() { # name, condition result (0 ok)
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi
}
sh bench/tumftm-gap.sh "$prog" data/tracks/tumftm "$tmp/none" "$tmp" >/dev/null 2>&1; [ $? -eq 2 ]
check "missing racelines: exit 2" $?
lines="${RACETRACK_DB:-../shared/racetrack-database}/racelines"
if [ ! -d ../shared/tracks ] || [ ! -f "$lines/Spielberg.csv" ]; then
    echo "note: ../shared/tracks or $lines not found; the comparison with TUMFTM's lines is skipped"
else
    out=$(sh bench/tumftm-gap.sh "$prog" ../shared/tracks "$lines" "$tmp"); rc=$?
    printf '%s\n' "$out"
    check "bench/tumftm-gap.sh runs" $rc
    for t in Spielberg Norisring BrandsHatch; do
        printf '%s\n' "$out" | awk -v t="$t" '$1 == t { found = 1; ok = $4 < 0.5 && $6 < 0.5 } END { exit !(found && ok) }'
        check "$t: the lap on the min-curvature line within 0.5 % of TUMFTM's" $?
    done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
