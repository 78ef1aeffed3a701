#!/bin/sh
# `racesim track`: summaries of the data tracks, --help, and exit 2 with `path:line: msg` on a bad file.
# usage: sh tests/track_cmd.test.sh PROGRAM BUILD_DIR
prog="$1"
tmp="${2:-build}/track_cmd_test"
mkdir -p "$tmp"
pass=0
fail=0
check() { # name, condition result (0 ok)
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi
}
out=$("$prog" track data/tracks/gp.ini 2>&1); rc=$?
check "gp loads" $rc
printf '%s\n' "$out" | grep -q "name: *Grand Prix"; check "gp name" $?
printf '%s\n' "$out" | grep -q "lap, racing line: "; check "gp racing line lap" $?
"$prog" track --help | grep -q "usage: racesim track"; check "--help" $?
printf '[track]\nname = bad\n[points]\np = 0, 0\np = 1, 2, 3\n' > "$tmp/bad.ini"
err=$("$prog" track "$tmp/bad.ini" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ]; check "bad file exits 2" $?
[ "$err" = "$tmp/bad.ini:5: [points] p: expected 2 or 4 numbers, got 3" ]; check "bad file message" $?
"$prog" track "$tmp/missing.csv" >/dev/null 2>&1; [ $? -eq 2 ]; check "missing file exits 2" $?
"$prog" track >/dev/null 2>&1; [ $? -eq 2 ]; check "no file exits 2" $?
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
