#!/bin/sh
# valgrind.test.sh: headless runs under valgrind's memcheck must be clean: no invalid read or write, no use of
# uninitialised memory, no leak (definite, indirect or possible). Covers a one-lap race with JSON and CSV output,
# `racesim track`, and the error paths of a bad race file and a bad option. Skipped (with a note) when valgrind is
# not installed or PROGRAM is built with AddressSanitizer (the two cannot run together).
# usage: sh tests/valgrind.test.sh PROGRAM BUILD_DIR
prog="$1"
tmp="${2:-build}/valgrind_test.$$"
pass=0
fail=0
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind not installed: skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
if ldd "$prog" 2>/dev/null | grep -q libasan; then
    echo "$prog uses AddressSanitizer: skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
mkdir -p "$tmp"
# name expected-exit command...: valgrind's own findings exit 99, so they are told apart from the program's status
check() {
    name="$1"; want_rc="$2"; shift 2
    valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want_rc" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $rc (want $want_rc; 99 = valgrind found errors)"
        head -n 40 "$tmp/err"
    fi
}
check race-1-lap 0 "$prog" run tests/data/sim/race.ini --headless --laps 1 --json "$tmp/r.json" --csv "$tmp/r.csv"
check track 0 "$prog" track data/tracks/tech.ini
check bad-driver 2 "$prog" run tests/data/sim/bad_driver.ini --headless
check bad-option 2 "$prog" run tests/data/sim/race.ini --headless --laps nope
rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
