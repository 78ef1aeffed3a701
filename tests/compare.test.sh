#!/bin/sh
# The model and resolver comparison (issues 8 and 10) through `racesim check`: the scenarios in
# tests/scenarios/compare are the must-pass scenario "car alongside into a corner" and a "better lane beyond the car
# alongside" case, run with every driver model and resolver. Nothing is expected to pass there except what the
# design guarantees: the reachable-slot walk never crosses a car alongside. The others are reported, not judged.
# usage: sh tests/compare.test.sh PROGRAM BUILD_DIR
prog="$1"
pass=0
fail=0
check() { # name, condition result (0 ok)
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi
}
out=$("$prog" check tests/scenarios/compare 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/  /'
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; check "check runs every comparison scenario (exit 0 or 1, not 2)" $?
for v in steering subtract mask-sum threshold-blend min-danger; do
    printf '%s\n' "$out" | grep -Eq "^(PASS|FAIL) tests/scenarios/compare/alongside_inside_$v.ini "
    check "alongside into a corner reported for $v" $?
    printf '%s\n' "$out" | grep -Eq "^(PASS|FAIL) tests/scenarios/compare/line_beyond_car_$v.ini "
    check "line beyond the car reported for $v" $?
done
printf '%s\n' "$out" | grep -q "^PASS tests/scenarios/compare/line_beyond_car_context.ini "
check "the walk does not cross the car alongside" $?
printf '%s\n' "$out" | grep -Eq "^[0-9]+ passed, [0-9]+ failed$"
check "summary line" $?
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
