#!/bin/sh
# experiments.test.sh: batch, ab, merge, sharding and charts, end to end through the program.
# usage: sh tests/experiments.test.sh PROGRAM BUILD   (run from the repository root; prints "N passed, N failed")
# Uses a five-car race over one lap (tests/data/exp_race.ini --laps 1) to stay quick: about 70 short races.
prog="$1"
build="${2:-build/opt}"
case "$prog" in */*) ;; *) prog="./$prog" ;; esac
tmp="$build/tests/experiments.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
race=tests/data/exp_race.ini
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # check NAME COMMAND...: the command must succeed
    name="$1"; shift
    if "$@"; then ok; else bad "$name"; fi
}

# ---- batch: --jobs 1 and --jobs 2 give the same records and the same table ------------------------------------
"$prog" batch "$race" --laps 1 --races 6 --seed 11 --jobs 1 --out "$tmp/j1.jsonl" >"$tmp/j1.txt" 2>"$tmp/j1.err"
check "batch --jobs 1 runs" [ $? -eq 0 ]
"$prog" batch "$race" --laps 1 --races 6 --seed 11 --jobs 2 --out "$tmp/j2.jsonl" >"$tmp/j2.txt" 2>"$tmp/j2.err"
check "batch --jobs 2 runs" [ $? -eq 0 ]
check "batch: 6 JSON lines" [ "$(wc -l <"$tmp/j1.jsonl")" -eq 6 ]
check "batch: same records for 1 and 2 jobs" cmp -s "$tmp/j1.jsonl" "$tmp/j2.jsonl"
check "batch: same table for 1 and 2 jobs" cmp -s "$tmp/j1.txt" "$tmp/j2.txt"
check "batch: table header" grep -q "^race $race: 6 races (seeds 11..16), 1 lap, 5 cars" "$tmp/j1.txt"
check "batch: one row per driver" [ "$(grep -c ' ±[0-9]' "$tmp/j1.txt")" -eq 5 ]
check "batch: silent stderr when not a terminal" [ ! -s "$tmp/j2.err" ]

# a race of a batch is exactly `racesim run --seed K --shuffle-grid`: its record is the run's JSON without events
"$prog" run "$race" --headless --quiet --laps 1 --seed 13 --shuffle-grid --json "$tmp/run13.json" >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/j1.jsonl" "$tmp/run13.json" <<'EOF'
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1])][2]
run = json.load(open(sys.argv[2]))
run.pop("events", None)
# the run's totals also classify its events (by kind, after lap 1); a record keeps the plain counts
run["totals"] = {k: v for k, v in run["totals"].items() if k in ("overtakes", "lappings", "collisions", "offtracks")}
sys.exit(0 if rec == run and rec["seed"] == 13 else 1)
EOF
    check "batch: race 13 equals run --seed 13 --shuffle-grid" [ $? -eq 0 ]
fi

# ---- sharding through GNU parallel, then merge == the unsharded table ------------------------------------------
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite "$prog" batch "$race" --laps 1 --races 6 --seed 11 --jobs 1 --shard {}/2 \
        --out "$tmp/part{}.jsonl" ::: 1 2 >/dev/null 2>&1
    check "parallel shards run" [ $? -eq 0 ]
    check "shard 1/2 holds seeds 11, 13, 15" [ "$(grep -c '"seed":1[135],' "$tmp/part1.jsonl")" -eq 3 ]
    "$prog" merge "$tmp/part2.jsonl" "$tmp/part1.jsonl" >"$tmp/merged.txt"
    check "merge runs" [ $? -eq 0 ]
    check "merge of shards == unsharded batch" cmp -s "$tmp/merged.txt" "$tmp/j1.txt"
else
    bad "GNU parallel is not installed"
fi

# ---- merge rejects bad input with path:line: messages ------------------------------------------------------------
head -n 2 "$tmp/j1.jsonl" >"$tmp/badline.jsonl"
echo '{"race_file":"x","seed":99,"laps":1,"cars":[}' >>"$tmp/badline.jsonl"
"$prog" merge "$tmp/badline.jsonl" >/dev/null 2>"$tmp/badline.err"
check "merge: bad line exits 2" [ $? -eq 2 ]
check "merge: bad line message" grep -qx "$tmp/badline.jsonl:3: column 45: expected a value, found '}'" \
    "$tmp/badline.err"
"$prog" merge "$tmp/part1.jsonl" "$tmp/j1.jsonl" >/dev/null 2>"$tmp/dup.err"
check "merge: a seed in two files is an error" grep -qx "$tmp/j1.jsonl:1: seed 11 is also in $tmp/part1.jsonl:1" \
    "$tmp/dup.err"

# ---- A/B: a personality against an identical copy: no difference at all -----------------------------------------
"$prog" ab "$race" --laps 1 --races 6 --a tests/data/ab_base.ini --b tests/data/ab_copy.ini --jobs 2 \
    --out "$tmp/same.jsonl" >"$tmp/same.txt" 2>&1
check "ab copy runs" [ $? -eq 0 ]
check "ab copy: no difference in any metric, and no p-value from zero variance" \
    [ "$(grep -c '^[a-z]* *no difference in .*: every pair is equal (no variance, no p-value)$' "$tmp/same.txt")" -eq 6 ]
check "ab copy: 'no var' instead of p-values" [ "$(grep -c ' no var *no var$' "$tmp/same.txt")" -eq 6 ]

# ---- A/B: grip use 0.8 against 0.97 is found worse with p < 0.01 ------------------------------------------------
"$prog" ab "$race" --laps 1 --races 16 --a tests/data/ab_base.ini --b tests/data/ab_slow.ini --jobs 2 \
    --out "$tmp/slow.jsonl" --chart "$tmp/ab.svg" >"$tmp/slow.txt" 2>&1
check "ab slow runs" [ $? -eq 0 ]
# the race-time row: metric better pairs meanA meanB diff [lo, hi] p(t) p(W)
p=$(awk '$1 == "time" && $2 == "lower" { print $9 }' "$tmp/slow.txt")
diff=$(awk '$1 == "time" && $2 == "lower" { print $6 }' "$tmp/slow.txt")
check "ab slow: B slower (difference $diff)" awk -v d="$diff" 'BEGIN { exit !(d + 0 > 0) }'
check "ab slow: p < 0.01 (p=$p)" awk -v p="$p" 'BEGIN { exit !(p == "<0.001" || (p + 0 > 0 && p + 0 < 0.01)) }'
check "ab slow: verdict in words" grep -q '^time *B is [0-9.]* s slower than A (p' "$tmp/slow.txt"
check "ab chart written" grep -q '^<svg' "$tmp/ab.svg"

# ab shards merge to the same report
"$prog" ab "$race" --laps 1 --races 6 --a tests/data/ab_base.ini --b tests/data/ab_copy.ini --jobs 1 \
    --shard 2/2 --out "$tmp/ab2.jsonl" >/dev/null 2>&1
"$prog" ab "$race" --laps 1 --races 6 --a tests/data/ab_base.ini --b tests/data/ab_copy.ini --jobs 1 \
    --shard 1/2 --out "$tmp/ab1.jsonl" >/dev/null 2>&1
"$prog" merge "$tmp/ab1.jsonl" "$tmp/ab2.jsonl" >"$tmp/abmerged.txt" 2>&1
check "merge of ab shards == unsharded ab" cmp -s "$tmp/abmerged.txt" "$tmp/same.txt"
"$prog" merge "$tmp/ab1.jsonl" "$tmp/part2.jsonl" >/dev/null 2>"$tmp/mix.err"
check "merge: batch and ab files cannot be mixed" grep -q "cannot be merged" "$tmp/mix.err"

# ---- run --chart: a lap chart and a gap chart, one line per car in each -----------------------------------------
"$prog" run "$race" --headless --quiet --laps 1 --chart "$tmp/race.svg" >/dev/null 2>&1
check "run --chart runs" [ $? -eq 0 ]
check "run --chart: 10 polylines (5 cars x 2 charts)" [ "$(grep -c '<polyline' "$tmp/race.svg")" -eq 10 ]
# one overtake marker per overtake of the race (and the legend's), the title's double spaces kept
"$prog" run "$race" --headless --quiet --laps 2 --seed 3 --json "$tmp/ev3.json" --chart "$tmp/race3.svg" >/dev/null 2>&1
overtakes=$(python3 -c 'import json,sys; print(sum(e["type"] == "overtake" for e in json.load(open(sys.argv[1]))["events"]))' "$tmp/ev3.json")
check "run --chart: a marker per overtake ($overtakes)" [ "$(grep -c 'class="pass"' "$tmp/race3.svg")" -eq $((overtakes + 1)) ]
check "run --chart: runs of spaces survive in the title" grep -q 'seed 3 &#160;2 laps' "$tmp/race3.svg"

# ---- batch --chart: per driver, a dot per place it finished in, a mean tick and a box of its best laps ------------
"$prog" batch "$race" --laps 1 --races 4 --jobs 2 --chart "$tmp/batch.svg" >/dev/null 2>&1
check "batch --chart runs" [ $? -eq 0 ]
check "batch --chart: a box and a mean tick per driver" \
    [ "$(grep -c 'class="box"' "$tmp/batch.svg")" -eq 5 -a "$(grep -c 'class="mean"' "$tmp/batch.svg")" -eq 5 ]
check "batch --chart: 20 finishes as dots" python3 -c '
import re, sys
svg = open(sys.argv[1]).read()
assert 5 <= svg.count("class=\"place\"") <= 20
' "$tmp/batch.svg"
"$prog" batch "$race" --laps 1 --races 2 --chart "$tmp/batch.png" >/dev/null 2>"$tmp/bpng.err"
check "batch --chart: only .svg" [ $? -eq 2 ]
check "batch --chart: says why" grep -q "only SVG charts" "$tmp/bpng.err"

# ---- batch --csv: the rows `run --csv` writes for each race, in seed order, also when resumed --------------------
"$prog" batch "$race" --laps 1 --races 3 --seed 21 --out "$tmp/c.jsonl" --csv "$tmp/c.csv" >/dev/null
: > "$tmp/runs.csv"
for seed in 21 22 23; do
    "$prog" run "$race" --laps 1 --seed $seed --shuffle-grid --headless --quiet --csv "$tmp/r.csv"
    if [ $seed -eq 21 ]; then cat "$tmp/r.csv"; else tail -n +2 "$tmp/r.csv"; fi >> "$tmp/runs.csv"
done
check "batch --csv = the runs' --csv rows" cmp -s "$tmp/c.csv" "$tmp/runs.csv"
head -n 1 "$tmp/c.jsonl" > "$tmp/cr.jsonl"
"$prog" batch "$race" --laps 1 --races 3 --seed 21 --out "$tmp/cr.jsonl" --csv "$tmp/cr.csv" --resume >/dev/null 2>&1
check "a resumed batch writes the whole --csv" cmp -s "$tmp/cr.csv" "$tmp/runs.csv"
# ---- events name cars by race number, as the cars list does -----------------------------------------------------
"$prog" run "$race" --laps 1 --seed 21 --shuffle-grid --headless --quiet --json "$tmp/ev.json"
check "event car numbers are the cars' race numbers" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
numbers = {c["number"] for c in d["cars"]}
used = [e[k] for e in d["events"] for k in ("passer", "passed", "a", "b", "car") if k in e]
sys.exit(0 if used and set(used) <= numbers else 1)' "$tmp/ev.json"

rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
