#!/bin/sh
# sprt.test.sh: the sequential A/B test (ab --sprt), its options, the SPRT state of merged shards, and the points
# metric with a race's own table, end to end through the program.
# usage: sh tests/sprt.test.sh PROGRAM BUILD   (run from the repository root; prints "N passed, N failed")
prog="$1"
build="${2:-build/opt}"
case "$prog" in */*) ;; *) prog="./$prog" ;; esac
tmp="$build/tests/sprt.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
race=tests/data/exp_race.ini
ab="ab $race --laps 1 --a tests/data/ab_base.ini"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # check NAME COMMAND...: the command must succeed
    name="$1"; shift
    if "$@"; then ok; else bad "$name"; fi
}
# refused NAME MESSAGE ARGS...: racesim ARGS exits 2 and prints MESSAGE (a whole line) on stderr
refused() {
    name="$1"; msg="$2"; shift 2
    "$prog" "$@" >"$tmp/refused.out" 2>"$tmp/refused.err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qxF -- "$msg" "$tmp/refused.err" && [ ! -s "$tmp/refused.out" ]; then
        ok
    else
        bad "$name (exit $rc)"; cat "$tmp/refused.err"
    fi
}

# ---- a clear difference (grip use 0.8 against 0.97) stops early, the same for 1 and 2 jobs ----------------------
# shellcheck disable=SC2086
"$prog" $ab --b tests/data/ab_slow.ini --sprt --h0 0 --h1 1 --metric time --max-races 40 --jobs 1 \
    --out "$tmp/seq1.jsonl" >"$tmp/seq1.txt" 2>"$tmp/seq1.err"
check "sprt --jobs 1 runs" [ $? -eq 0 ]
# shellcheck disable=SC2086
"$prog" $ab --b tests/data/ab_slow.ini --sprt --h0 0 --h1 1 --metric time --max-races 40 --jobs 2 \
    --out "$tmp/seq2.jsonl" >"$tmp/seq2.txt" 2>"$tmp/seq2.err"
check "sprt --jobs 2 runs" [ $? -eq 0 ]
check "sprt: same report for 1 and 2 jobs" cmp -s "$tmp/seq1.txt" "$tmp/seq2.txt"
check "sprt: same records for 1 and 2 jobs" cmp -s "$tmp/seq1.jsonl" "$tmp/seq2.jsonl"
check "sprt: silent stderr when not a terminal" [ ! -s "$tmp/seq2.err" ]
check "sprt: H1 accepted" grep -q '^H1 accepted after [0-9]* pairs: LLR [0-9.]* >= upper bound 2.944$' "$tmp/seq1.txt"
used=$(sed -n 's/^H1 accepted after \([0-9]*\) pairs.*/\1/p' "$tmp/seq1.txt")
check "sprt: stopped well before 40 pairs ($used)" [ "${used:-99}" -ge 6 ] && [ "${used:-99}" -lt 20 ]
check "sprt: one record per pair used" [ "$(wc -l <"$tmp/seq1.jsonl")" -eq "${used:-0}" ]
check "sprt: estimate with its interval" grep -q '^estimate B - A +[0-9.]*, 95% interval \[+' "$tmp/seq1.txt"
check "sprt: bounds in the heading" \
    grep -qxF 'SPRT on time (B - A): H0 mean +0, H1 mean +1, alpha 0.05, beta 0.05; bounds [-2.944, 2.944]' \
    "$tmp/seq1.txt"
# merging the sequential run's records gives back its report
"$prog" merge "$tmp/seq1.jsonl" --metric time --sprt --h0 0 --h1 1 >"$tmp/seqmerged.txt" 2>&1
check "merge of the sprt records == the sprt report" cmp -s "$tmp/seqmerged.txt" "$tmp/seq1.txt"

# ---- no difference at all (a copy of A): no variance, no decision up to --max-races -----------------------------
# shellcheck disable=SC2086
"$prog" $ab --b tests/data/ab_copy.ini --sprt --h0 0 --h1 -0.3 --max-races 8 --jobs 2 >"$tmp/null.txt" 2>&1
check "sprt copy runs" [ $? -eq 0 ]
check "sprt copy: no decision, no variance" grep -qxF \
    'no decision after 8 pairs: LLR undefined (no variance: every difference is the same)' "$tmp/null.txt"

# ---- shards of a fixed run merged with --h0/--h1 == the unsharded fixed run with --h0/--h1 ------------------------
for s in 1 2; do
    # shellcheck disable=SC2086
    "$prog" $ab --b tests/data/ab_slow.ini --races 10 --seed 5 --jobs 1 --shard $s/2 \
        --out "$tmp/shard$s.jsonl" >/dev/null 2>&1
done
# shellcheck disable=SC2086
"$prog" $ab --b tests/data/ab_slow.ini --races 10 --seed 5 --jobs 2 --h0 0 --h1 -1 --metric points \
    >"$tmp/fixed.txt" 2>&1
check "fixed run with --h0/--h1 runs" [ $? -eq 0 ]
"$prog" merge "$tmp/shard2.jsonl" "$tmp/shard1.jsonl" --h0 0 --h1 -1 --metric points >"$tmp/merged.txt" 2>&1
check "merge of shards with --h0/--h1 == the unsharded report" cmp -s "$tmp/merged.txt" "$tmp/fixed.txt"
check "merge: SPRT state reported" grep -q '^SPRT on points (B - A)' "$tmp/merged.txt"

# ---- bad options: exit 2 with a clear message --------------------------------------------------------------------
b="--b tests/data/ab_copy.ini"
# shellcheck disable=SC2086
{
refused "h0 == h1" "racesim ab: --h0 and --h1 must differ (both are 0.5): the test tells two hypotheses apart" \
    $ab $b --sprt --h0 0.5 --h1 0.5
refused "alpha too large" "racesim ab: --alpha and --beta must be in (0, 0.5), got 0.7 and 0.05" \
    $ab $b --sprt --h0 0 --h1 1 --alpha 0.7
refused "beta zero" "racesim ab: --alpha and --beta must be in (0, 0.5), got 0.05 and 0" \
    $ab $b --sprt --h0 0 --h1 1 --beta 0
refused "h0 not a number" "racesim ab: --h0: expected a finite number (the metric's unit), got 'x'" \
    $ab $b --sprt --h0 x --h1 1
refused "sprt without hypotheses" "racesim ab: --sprt needs --h0 and --h1" $ab $b --sprt
refused "h0 alone" "racesim ab: --h0 and --h1 go together" $ab $b --races 6 --h0 1
refused "sprt with --races" "racesim ab: --sprt runs pairs until a decision: give --max-races N, not --races" \
    $ab $b --sprt --h0 0 --h1 1 --races 10
refused "sprt sharded" \
    "racesim ab: --sprt cannot be sharded: run shards with --races and \`racesim merge --h0 X --h1 Y\` their files" \
    $ab $b --sprt --h0 0 --h1 1 --shard 1/2
refused "max-races without sprt" "racesim ab: --max-races needs --sprt (a fixed test takes --races)" \
    $ab $b --races 6 --max-races 10
refused "merge h0 == h1" "racesim merge: --h0 and --h1 must differ (both are 1): the test tells two hypotheses apart" \
    merge "$tmp/shard1.jsonl" --h0 1 --h1 1
refused "merge sprt alone" "racesim merge: --sprt, --alpha and --beta need both --h0 and --h1" \
    merge "$tmp/shard1.jsonl" --sprt
}

# ---- points: a race's own table, carried by the records ----------------------------------------------------------
"$prog" ab tests/data/exp_points.ini --laps 1 --a tests/data/ab_base.ini --b tests/data/ab_slow.ini --races 6 \
    --metric points --jobs 2 --out "$tmp/points.jsonl" >"$tmp/points.txt" 2>&1
check "ab --metric points runs" [ $? -eq 0 ]
check "points: the records carry the table" [ "$(grep -c ',"points":\[10,6,4,3,2\]}$' "$tmp/points.jsonl")" -eq 6 ]
check "points: one row" [ "$(grep -c '^points  *higher  *6 ' "$tmp/points.txt")" -eq 1 ]
check "points: default-table records carry none" [ "$(grep -c '"points"' "$tmp/shard1.jsonl")" -eq 0 ]
"$prog" merge "$tmp/points.jsonl" --metric points >"$tmp/pmerged.txt" 2>&1
check "points: merge == ab" cmp -s "$tmp/pmerged.txt" "$tmp/points.txt"
printf '[race]\ntrack = ../../data/tracks/gp.ini\npoints = 10, 12\n[grid]\ndriver = ../../data/drivers/ace.ini\n' \
    >"tests/data/.bad_points.$$.ini"
"$prog" ab "tests/data/.bad_points.$$.ini" --a tests/data/ab_base.ini --b tests/data/ab_slow.ini --races 6 \
    >/dev/null 2>"$tmp/badpoints.err"
check "points: a bad table exits 2" [ $? -eq 2 ]
check "points: path:line: message" grep -qxF "tests/data/.bad_points.$$.ini:3: [race] points: value 2 (12) is more \
than value 1 (10): points must not increase with the position" "$tmp/badpoints.err"
rm -f "tests/data/.bad_points.$$.ini"

rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
