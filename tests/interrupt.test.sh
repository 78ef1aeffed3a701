#!/bin/sh
# interrupt.test.sh: an interrupted batch keeps what it finished and --resume completes it to the very bytes of an
# uninterrupted run; --resume refuses a file of another batch; bad input found by hand that once got through.
# usage: tests/interrupt.test.sh PROGRAM BUILD_DIR
prog="$1"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
race=data/races/default.ini
"$prog" batch "$race" --races 12 --laps 1 --jobs 2 --out "$tmp/full.jsonl" > "$tmp/full.txt"
# SIGTERM while running: exit 128+15, the finished races kept in seed order, valid for merge
"$prog" batch "$race" --races 400 --laps 1 --jobs 2 --out "$tmp/part.jsonl" > /dev/null 2> "$tmp/err" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
check "a stopped batch exits 143 (SIGTERM)" [ $rc -eq 143 ]
check "it says how to continue" grep -q "the same command with --resume runs the other" "$tmp/err"
kept=$(wc -l < "$tmp/part.jsonl")
check "it kept the races it finished ($kept)" eval '[ "$kept" -ge 1 ] && [ "$kept" -lt 400 ]'
check "the kept file merges" "$prog" merge "$tmp/part.jsonl" > /dev/null
# resume a 12-race batch from its first 5 lines plus a cut sixth: the same bytes as the uninterrupted run
head -n 5 "$tmp/full.jsonl" > "$tmp/res.jsonl"
sed -n 6p "$tmp/full.jsonl" | head -c 100 >> "$tmp/res.jsonl"
"$prog" batch "$race" --races 12 --laps 1 --jobs 2 --out "$tmp/res.jsonl" --resume > "$tmp/res.txt" 2> "$tmp/err"
check "resume exits 0" [ $? -eq 0 ]
check "resume drops the cut line and says so" grep -q ":6: a cut line" "$tmp/err"
check "resumed file = uninterrupted file" cmp -s "$tmp/res.jsonl" "$tmp/full.jsonl"
check "resumed table = uninterrupted table" cmp -s "$tmp/res.txt" "$tmp/full.txt"
"$prog" batch "$race" --races 12 --laps 1 --jobs 1 --out "$tmp/res.jsonl" --resume > /dev/null 2>&1
check "resuming a complete file runs nothing and keeps it" cmp -s "$tmp/res.jsonl" "$tmp/full.jsonl"
cp "$tmp/full.jsonl" "$tmp/other.jsonl"
"$prog" batch "$race" --races 12 --laps 2 --out "$tmp/other.jsonl" --resume > /dev/null 2> "$tmp/err"
rc=$?
check "resume refuses another batch's file (other laps)" eval '[ $rc -ne 0 ] && grep -q "another batch" "$tmp/err"'
check "and leaves it as it was" cmp -s "$tmp/other.jsonl" "$tmp/full.jsonl"
"$prog" batch "$race" --races 12 --laps 1 --seed 2 --out "$tmp/other.jsonl" --resume > /dev/null 2> "$tmp/err"
rc=$?
check "resume refuses seeds out of order" eval "[ \$rc -ne 0 ] && grep -q \"seed out of this batch's order\" \"\$tmp/err\""
"$prog" batch "$race" --races 3 --laps 1 --out "$tmp/other.jsonl" --resume > /dev/null 2> "$tmp/err"
rc=$?
check "resume refuses a file with more races than the batch" eval '[ $rc -ne 0 ] && grep -q "more records" "$tmp/err"'
"$prog" batch "$race" --races 3 --resume > /dev/null 2> "$tmp/err"
rc=$?
check "--resume without --out is a usage error" eval '[ $rc -eq 2 ] && grep -q "needs --out" "$tmp/err"'
# options: --opt=value works, an unknown option is named as unknown (not "needs a value")
"$prog" batch "$race" --races=2 --laps=1 --out="$tmp/eq.jsonl" > /dev/null
check "--opt=value is accepted" [ "$(wc -l < "$tmp/eq.jsonl")" -eq 2 ]
"$prog" batch "$race" --bogus > /dev/null 2> "$tmp/err"
check "an unknown option is reported as unknown" grep -q "unknown option '--bogus'" "$tmp/err"
# seeds never wrap past 2^64-1
"$prog" batch "$race" --seed 18446744073709551615 --races 3 --out "$tmp/wrap.jsonl" > /dev/null 2> "$tmp/err"
rc=$?
check "seeds past 2^64-1 are refused before anything runs" eval '[ $rc -eq 2 ] && [ ! -e "$tmp/wrap.jsonl" ]'
# a timed race runs to its duration, not to the default time limit
printf '[race]\ntrack = %s/data/tracks/oval.ini\nlaps = 0\nduration_s = 900\n[grid]\ndriver = %s/data/drivers/ace.ini\n' \
    "$PWD" "$PWD" > "$tmp/timed.ini"
"$prog" run "$tmp/timed.ini" --headless --json "$tmp/timed.json" > /dev/null
check "duration_s = 900 runs 900 s" grep -q '"sim_time_s": 900' "$tmp/timed.json"
check "and the car is classified finished" grep -q '"status": "finished"' "$tmp/timed.json"
# the shipped twenty-car race (each personality twice, each car its own number) runs in a batch
"$prog" batch data/races/twenty.ini --races 1 --laps 1 > /dev/null 2> "$tmp/err"
check "batch accepts twenty.ini" [ $? -eq 0 ]
# a fifo, a directory and /dev/zero as inputs are refused at once, not read
mkfifo "$tmp/fifo"
timeout 5 "$prog" run "$tmp/fifo" --headless > /dev/null 2> "$tmp/err"
rc=$?
check "a fifo as a race file is refused at once" eval '[ $rc -eq 2 ] && grep -q "not a regular file (a pipe)" "$tmp/err"'
timeout 5 "$prog" run /dev/zero --headless > /dev/null 2> "$tmp/err"
rc=$?
check "/dev/zero as a race file is refused at once" eval '[ $rc -eq 2 ] && grep -q "not a regular file (a device)" "$tmp/err"'
timeout 5 "$prog" track "$tmp" > /dev/null 2> "$tmp/err"
rc=$?
check "a directory as a track is refused" eval '[ $rc -ne 0 ] && grep -q "not a regular file (a directory)" "$tmp/err"'
# ab: a stopped test keeps its pairs, --resume completes it to the bytes of an uninterrupted run, also sequentially
ab="$race --a data/drivers/ace.ini --b data/drivers/vera.ini --laps 1"
"$prog" ab $ab --races 10 --jobs 2 --out "$tmp/abfull.jsonl" > "$tmp/abfull.txt"
"$prog" ab $ab --races 400 --jobs 2 --out "$tmp/abpart.jsonl" > /dev/null 2> "$tmp/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
check "a stopped ab exits 130 (SIGINT) and says how to continue" eval '[ $rc -eq 130 ] && grep -q "with --resume runs the rest" "$tmp/err"'
head -n 4 "$tmp/abfull.jsonl" > "$tmp/abres.jsonl"
"$prog" ab $ab --races 10 --jobs 2 --out "$tmp/abres.jsonl" --resume > "$tmp/abres.txt" 2> /dev/null
check "ab resumed file and report = uninterrupted ones" eval 'cmp -s "$tmp/abres.jsonl" "$tmp/abfull.jsonl" && cmp -s "$tmp/abres.txt" "$tmp/abfull.txt"'
"$prog" ab $ab --races 10 --seat 2 --out "$tmp/abres.jsonl" --resume > /dev/null 2> "$tmp/err"
rc=$?
check "ab resume refuses pairs of another seat" eval '[ $rc -ne 0 ] && grep -q "another tested grid line" "$tmp/err"'
sprt="tests/data/exp_race.ini --laps 1 --a tests/data/ab_base.ini --b tests/data/ab_grip95.ini --sprt --h0 0 --h1 1 --metric time"
"$prog" ab $sprt --out "$tmp/sfull.jsonl" > "$tmp/sfull.txt"
head -n 3 "$tmp/sfull.jsonl" > "$tmp/sres.jsonl"
"$prog" ab $sprt --out "$tmp/sres.jsonl" --resume > "$tmp/sres.txt" 2> /dev/null
check "a resumed sequential test stops where the uninterrupted one did" eval 'cmp -s "$tmp/sres.jsonl" "$tmp/sfull.jsonl" && cmp -s "$tmp/sres.txt" "$tmp/sfull.txt"'
"$prog" merge "$tmp" > /dev/null 2> "$tmp/err"
rc=$?
check "merge refuses a directory by name" eval '[ $rc -eq 2 ] && grep -q "not a regular file (a directory)" "$tmp/err"'
"$prog" check --jobs=1 tests/scenarios/stopped_car.ini > /dev/null 2>&1
check "check takes --opt=value" [ $? -eq 0 ]
"$prog" baseline compare --bogus > /dev/null 2> "$tmp/err"
rc=$?
check "baseline names an unknown option" eval '[ $rc -eq 2 ] && grep -q "unknown option .--bogus." "$tmp/err"'
long=$(printf 'x%.0s' $(seq 1100))
"$prog" run "$long.ini" --headless > /dev/null 2> "$tmp/err"
rc=$?
check "a race path over 1023 bytes is refused, not cut" eval '[ $rc -eq 2 ] && grep -q "path too long" "$tmp/err"'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
