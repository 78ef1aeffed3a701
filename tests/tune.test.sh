#!/bin/sh
# tune.test.sh: `racesim tune` end to end: the same output for 1 and 2 jobs, the tuned driver file loads and
# differs from the original only in the tuned keys, and bad input is refused with a clear message and exit 2.
# usage: sh tests/tune.test.sh PROGRAM BUILD   (run from the repository root; prints "N passed, N failed")
prog="$1"
build="${2:-build/opt}"
case "$prog" in */*) ;; *) prog="./$prog" ;; esac
tmp="$build/tests/tune.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
race=tests/data/exp_race.ini
base=tests/data/ab_base.ini
tune="tune $race --laps 1 --driver $base --iterations 3 --pairs 2"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # check NAME COMMAND...: the command must succeed
    name="$1"; shift
    if "$@"; then ok; else bad "$name"; fi
}
# refused NAME MESSAGE ARGS...: racesim ARGS exits 2 and prints MESSAGE (a whole line) on stderr, nothing on stdout
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

# ---- the same run on 1 and 2 threads: identical report, progress lines and tuned file -------------------------
for j in 1 2; do
    # shellcheck disable=SC2086
    "$prog" $tune --param behaviour.grip_use=0.85:1 --param behaviour.skirt=0:3 --metric points --seed 5 \
        --jobs $j --out "$tmp/tuned$j.ini" >"$tmp/out$j.txt" 2>"$tmp/err$j.txt"
    check "tune --jobs $j runs" [ $? -eq 0 ]
done
sed "s/tuned2.ini/tuned1.ini/" "$tmp/out2.txt" >"$tmp/out2.named"  # the reports name their own --out
check "same report for --jobs 1 and 2" cmp -s "$tmp/out1.txt" "$tmp/out2.named"
check "same progress for --jobs 1 and 2" cmp -s "$tmp/err1.txt" "$tmp/err2.txt"
check "same tuned file for --jobs 1 and 2" cmp -s "$tmp/tuned1.ini" "$tmp/tuned2.ini"
check "a progress line per iteration" [ "$(grep -c '^iteration [1-3]/3: points ' "$tmp/err1.txt")" -eq 3 ]
check "summary names the keys" grep -q '^\[behaviour\] grip_use ' "$tmp/out1.txt"
check "final check on fresh seeds" grep -qF 'check: the original (A) against the tuned (B) on seeds 11..14' \
    "$tmp/out1.txt"

# ---- the tuned file loads (as a personality of an A/B test) and differs only in the tuned keys ------------------
"$prog" ab $race --laps 1 --a $base --b "$tmp/tuned1.ini" --races 1 >"$tmp/ab.txt" 2>&1
check "tuned file loads" [ $? -eq 0 ]
diff $base "$tmp/tuned1.ini" | grep '^[<>]' | sed 's/ = .*//' | sort -u >"$tmp/changed.txt"
printf '%s\n' '< grip_use' '< skirt' '> grip_use' '> skirt' >"$tmp/changed.want"
check "only the tuned keys change" cmp -s "$tmp/changed.txt" "$tmp/changed.want"

# a file without the keys: each goes into its section, a missing section is added
printf '[driver]\nname = Min\n\n[map]\nslots = 16\n' >"$tmp/min.ini"
"$prog" tune $race --laps 1 --driver "$tmp/min.ini" --iterations 1 --pairs 1 --param behaviour.grip_use=0.8:1 \
    --param map.hysteresis=0:0.95 --out "$tmp/min-tuned.ini" >/dev/null 2>&1
check "tune of a file without the keys runs" [ $? -eq 0 ]
check "the missing key goes into its section" sh -c "sed -n '4,6p' '$tmp/min-tuned.ini' | grep -q '^hysteresis = '"
check "the missing section is added" grep -qx '\[behaviour\]' "$tmp/min-tuned.ini"
"$prog" ab $race --laps 1 --a $base --b "$tmp/min-tuned.ini" --races 1 >/dev/null 2>&1
check "that tuned file loads" [ $? -eq 0 ]

# ---- race time as the metric ------------------------------------------------------------------------------------
# shellcheck disable=SC2086
"$prog" $tune --param behaviour.grip_use=0.85:1 --metric time --jobs 2 >"$tmp/time.txt" 2>"$tmp/time.err"
check "tune --metric time runs" [ $? -eq 0 ]
check "time metric in the check" grep -q '^time ' "$tmp/time.txt"

# ---- bad input ----------------------------------------------------------------------------------------------------
# shellcheck disable=SC2086
refused "range outside the documented one" \
    "racesim tune: --param behaviour.grip_use: LO 0.5 is outside the documented range: expected a number in 0.8..1" \
    $tune --param behaviour.grip_use=0.5:1
# shellcheck disable=SC2086
refused "unknown key" "racesim tune: --param behaviour.bogus: [behaviour] unknown key 'bogus'" \
    $tune --param behaviour.bogus=0:1
# shellcheck disable=SC2086
refused "not a real-number key" \
    "racesim tune: --param map.slots: [map] slots: not a real-number key (only real-number keys can be tuned)" \
    $tune --param map.slots=8:16
# shellcheck disable=SC2086
refused "LO >= HI" "racesim tune: --param behaviour.grip_use=0.95:0.9: LO must be below HI" \
    $tune --param behaviour.grip_use=0.95:0.9
# shellcheck disable=SC2086
refused "malformed --param" "racesim tune: --param: expected SECTION.KEY=LO:HI, got 'grip_use=0.8:1'" \
    $tune --param grip_use=0.8:1
# shellcheck disable=SC2086
refused "value outside LO..HI" "racesim tune: --param behaviour.grip_use: $base has 0.97, outside 0.85..0.9" \
    $tune --param behaviour.grip_use=0.85:0.9
refused "no --driver" "racesim tune: --driver FILE.ini is required" \
    tune $race --param behaviour.grip_use=0.85:1 --iterations 2
refused "no --param" "racesim tune: --param SECTION.KEY=LO:HI is required" tune $race --driver $base --iterations 2
refused "no --iterations" "racesim tune: --iterations N is required" \
    tune $race --driver $base --param behaviour.grip_use=0.85:1
# shellcheck disable=SC2086
refused "metric without a tuning sense" "racesim tune: --metric: expected points, position or time, got 'overtakes'" \
    $tune --param behaviour.grip_use=0.85:1 --metric overtakes
# seeds: iterations 1..N use N*P seeds and the final check 2*P more; none may pass 2^64-1 (as in batch and ab)
refused "seeds past the largest" \
    "racesim tune: seeds 18446744073709551614 + 3 races run past the largest seed (18446744073709551615)" \
    tune $race --laps 1 --driver $base --iterations 1 --pairs 1 --param behaviour.grip_use=0.85:1 \
    --seed 18446744073709551614
"$prog" tune $race --laps 1 --driver $base --iterations 1 --pairs 1 --param behaviour.grip_use=0.85:1 \
    --seed 18446744073709551613 >"$tmp/last.txt" 2>&1
check "the last seeds run" grep -qF 'on seeds 18446744073709551614..18446744073709551615' "$tmp/last.txt"
# shellcheck disable=SC2086
refused "--out over the driver file" \
    "racesim tune: refusing to write '$base': it is an input of this command" \
    $tune --param behaviour.grip_use=0.85:1 --out $base

[ "$fail" -eq 0 ] && rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
