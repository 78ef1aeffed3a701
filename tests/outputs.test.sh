#!/bin/sh
# outputs.test.sh: no work lost, no input overwritten: outputs that are inputs of the command are refused before
# anything runs, outputs are written whole (through a temporary file) or not at all, and write errors, to files or
# to standard output, exit non-zero with a message.
# usage: tests/outputs.test.sh PROGRAM BUILD_DIR
prog="$1"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r data "$tmp/copy"
race="$tmp/copy/races/default.ini"
"$prog" run "$race" --headless --quiet --laps 1 --json "$race" 2>"$tmp/err"
check "run --json onto its race file is refused (exit 2)" [ $? -eq 2 ]
check "the race file is untouched" cmp -s "$race" data/races/default.ini
check "the refusal names the file" grep -q "it is an input of this command" "$tmp/err"
"$prog" batch "$race" --races 1 --laps 1 --out "$tmp/copy/tracks/gp.ini" >/dev/null 2>&1
check "batch --out onto the track file is refused (exit 2)" [ $? -eq 2 ]
check "the track file is untouched" cmp -s "$tmp/copy/tracks/gp.ini" data/tracks/gp.ini
"$prog" ab "$race" --a "$tmp/copy/drivers/ace.ini" --b "$tmp/copy/drivers/vera.ini" --races 2 --laps 1 \
    --out "$tmp/copy/drivers/vera.ini" >/dev/null 2>&1
check "ab --out onto a driver file is refused (exit 2)" [ $? -eq 2 ]
check "the driver file is untouched" cmp -s "$tmp/copy/drivers/vera.ini" data/drivers/vera.ini
"$prog" run "$race" --headless --quiet --laps 1 --json "$tmp/x" --csv "$tmp/x" 2>"$tmp/err"
check "the same file for two outputs is refused" [ $? -eq 2 ]
start=$(date +%s)
"$prog" run "$race" --headless --quiet --json "$tmp/no/such/dir/x.json" 2>"$tmp/err"
rc=$?
check "an output in a missing directory fails at once (exit 2)" eval '[ $rc -eq 2 ] && [ $(( $(date +%s) - start )) -lt 3 ]'
"$prog" baseline record "$race" --seeds 1-2 --out "$tmp/no/such/dir/b.txt" >/dev/null 2>&1
check "baseline record: a bad --out fails before the races (exit 2)" [ $? -eq 2 ]
echo "old" > "$tmp/runs.jsonl"
"$prog" batch "$race" --races 2 --laps 1 --out "$tmp/runs.jsonl" >/dev/null 2>&1
check "batch --out replaces the file when complete" [ "$(wc -l < "$tmp/runs.jsonl")" -eq 2 ]
check "no temporary file is left beside it" [ -z "$(ls "$tmp" | grep '\.tmp-')" ]
if [ -w /dev/full ]; then
    "$prog" run "$race" --headless --laps 1 > /dev/full 2>"$tmp/err"
    check "a results table that cannot be written exits 1" [ $? -eq 1 ]
    check "and says so" grep -q "write error on standard output" "$tmp/err"
    "$prog" merge "$tmp/runs.jsonl" > /dev/full 2>/dev/null
    check "merge > /dev/full exits 1" [ $? -eq 1 ]
    "$prog" run "$race" --headless --quiet --laps 1 --json /dev/full 2>"$tmp/err"
    check "run --json /dev/full exits 1" [ $? -eq 1 ]
    check "/dev/full is still a device" [ -c /dev/full ]
else
    echo "skipped: no writable /dev/full (write-error tests)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
