#!/bin/sh
# sprt-calibrate.sh [REPS [MAX [FIXED]]]: how the sequential A/B test behaves, measured. Each repetition uses its own
# seed range (rep * 10000 + 1 ...). For a null (A against a copy of A) and a small real difference (grip use 0.95
# against 0.97), it counts how often the SPRT on race time (H0 0 s, H1 +0.5 s, alpha = beta = 0.05, at most MAX
# pairs) accepts H1, H0 or nothing, and the mean pairs it used; then a fixed-size paired t-test of FIXED pairs on the
# same seeds, and how often it finds p < 0.05. Run from the repository root after `make`.
reps="${1:-10}"
max="${2:-200}"
fixed="${3:-30}"
prog=./racesim
race=tests/data/exp_race.ini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_case() { # run_case LABEL B.ini
    label="$1"; b="$2"
    h1=0; h0=0; none=0; pairs=0; sig=0
    r=1
    while [ "$r" -le "$reps" ]; do
        seed=$((r * 10000 + 1))
        "$prog" ab "$race" --laps 1 --a tests/data/ab_base.ini --b "$b" --seed "$seed" --metric time \
            --sprt --h0 0 --h1 0.5 --max-races "$max" >"$tmp/s.txt" 2>/dev/null || exit 1
        if grep -q '^H1 accepted' "$tmp/s.txt"; then h1=$((h1 + 1));
        elif grep -q '^H0 accepted' "$tmp/s.txt"; then h0=$((h0 + 1));
        else none=$((none + 1)); fi
        n=$(sed -n 's/^A\/B test on .*: \([0-9]*\) paired races.*/\1/p' "$tmp/s.txt")
        pairs=$((pairs + n))
        "$prog" ab "$race" --laps 1 --a tests/data/ab_base.ini --b "$b" --seed "$seed" --metric time \
            --races "$fixed" >"$tmp/f.txt" 2>/dev/null || exit 1
        p=$(awk '$1 == "time" && $2 == "lower" { print $9 }' "$tmp/f.txt")
        awk -v p="$p" 'BEGIN { exit !(p == "<0.001" || (p + 0 > 0 && p + 0 < 0.05)) }' && sig=$((sig + 1))
        r=$((r + 1))
    done
    echo "$label: SPRT H1 $h1/$reps, H0 $h0/$reps, none $none/$reps, mean pairs $(awk -v a="$pairs" -v b="$reps" \
'BEGIN { printf "%.1f", a / b }'); fixed t-test ($fixed pairs) p<0.05 in $sig/$reps"
}
echo "race time, H0 0 s, H1 +0.5 s, alpha = beta = 0.05, at most $max pairs; $reps repetitions"
run_case "null (A vs copy of A)" tests/data/ab_copy.ini
run_case "grip use 0.95 vs 0.97" tests/data/ab_grip95.ini
