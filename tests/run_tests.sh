#!/bin/sh
# Runs every test binary in BUILD/tests, then any shell test suites in tests/*.test.sh (each ends with its own
# "N passed, N failed" line), and prints the sum as the last line. Exits non-zero on any failure.
# usage: tests/run_tests.sh BUILD_DIR PROGRAM
build="$1"
prog="$2"
total_pass=0
total_fail=0
run_one() {
    name="$1"; shift
    out=$("$@" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out"
        echo "$name: no result line (exit $rc)"
        total_fail=$((total_fail + 1))
        return
    fi
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    [ "$f" -ne 0 ] && printf '%s\n' "$out"
    echo "$name: $line"
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
}
for t in "$build"/tests/test_*; do
    case "$t" in *.o|*.d) continue ;; esac
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
for s in tests/*.test.sh; do
    [ -f "$s" ] || continue
    run_one "$(basename "$s")" sh "$s" "$prog" "$build"
done
echo "total: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
