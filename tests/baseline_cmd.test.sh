#!/bin/sh
# `racesim baseline` and `racesim check` on small races: a record/compare round trip, a behaviour change, bad and
# stale baseline files (exit 2 with `path:line: what is wrong`), and check's exit codes, JSON, --jobs and the checks
# across seeds (collisions_mean_max, offtrack_s_mean_max).
# usage: sh tests/baseline_cmd.test.sh PROGRAM BUILD_DIR
prog="$1"
tmp="${2:-build}/baseline_cmd_test"
rm -rf "$tmp"
mkdir -p "$tmp"
pass=0
fail=0
check() { # name, condition result (0 ok)
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi
}
# a private copy of the small sim race, so it can be edited
cp tests/data/sim/race.ini tests/data/sim/oval.ini tests/data/sim/driver.ini "$tmp/"
race="$tmp/race.ini"
base="$tmp/base.txt"

# ---- record, compare: no change ----
out=$("$prog" baseline record "$race" --seeds 1-3 --out "$base" 2>&1); rc=$?
check "record exits 0" $rc
printf '%s\n' "$out" | grep -q "^recorded $base: 3 seeds (1-3)"; check "record summary" $?
[ "$(head -n 1 "$base")" = "racesim-baseline 1" ]; check "header line" $?
[ "$(grep -c '^seed ' "$base")" -eq 3 ]; check "three seed lines" $?
out=$("$prog" baseline compare "$base" 2>&1); rc=$?
check "compare unchanged exits 0" $rc
printf '%s\n' "$out" | grep -q "PASS (0 of 3 seeds changed; exact: any change fails)"; check "compare PASS line" $?
out2=$("$prog" baseline compare "$base" --jobs 2 2>&1)
[ "$out" = "$out2" ]; check "compare output independent of --jobs" $?
sed 's/$/\r/' "$base" > "$tmp/crlf.txt"
err=$("$prog" baseline compare "$tmp/crlf.txt" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$err" = "$tmp/crlf.txt:1: CR LF line endings: the file was converted after it was recorded (convert it back to LF, e.g. with dos2unix, or record the baseline again)" ]
check "a CR LF baseline is named as such, with no raw CR in the message" $?

# ---- a behaviour change fails (exit 1) and is reported per seed ----
sed -i 's/^aggression = .*/aggression = 0.1/; s/^skirt = .*/skirt = 2.5/; s/^grip_use = .*/grip_use = 0.9/' "$tmp/driver.ini"
out=$("$prog" baseline compare "$base" 2>&1); rc=$?
[ "$rc" -eq 1 ]; check "changed drivers: exit 1" $?
printf '%s\n' "$out" | grep -q "^note: the race, track or driver files changed"; check "files note" $?
printf '%s\n' "$out" | grep -q "^seed [0-9]*:"; check "per-seed change lines" $?
# each changed seed comes with the command that opens it where the change shows, and that moment is in the race.
# A changed finishing order shows where the rerun's order parted from the recorded one (the baseline keeps only the
# finishing order): here the slower drivers' seeds lose a pass (#4 no longer passes #2), so no pair of cars changed
# places the other way in the rerun, and the moment is the last change of places of a car whose place differs (from
# then on they hold the places they finish in): #3 drawing ahead of #2, the pass confirmed 1 s after it is a car
# length ahead. Not the end of the race, as it was.
n_changed=$(printf '%s\n' "$out" | grep -c "^seed [0-9]*:")
watch=$(printf '%s\n' "$out" | grep -E "^    watch: racesim run $race --seed [0-9]+ --at [0-9]+\.[0-9]{2}$")
[ "$(printf '%s\n' "$watch" | grep -c .)" -eq "$n_changed" ]; check "a watch command per changed seed" $?
# the moment of a seed's order change against the rerun's events: $1 the compare output, $2 "one" (an overtake with
# a car whose place differs), "both" (an overtake between two such cars) or "auto" (both where the rerun passes more
# than the record, one where it passes less), confirmed 1 to 15 s after the moment (a pass is confirmed once the
# passer is a car length ahead for 1 s: after a side-by-side fight that can take 12 s)
order_moments() {
    printf '%s\n' "$1" | awk '/^seed [0-9]+:.*order:/ { s = $0; getline; print s " " $0 }' | while IFS= read -r line; do
        seed=$(printf '%s\n' "$line" | sed 's/^seed \([0-9]*\):.*/\1/')
        at=$(printf '%s\n' "$line" | sed 's/.*--at //')
        moved=$(printf '%s\n' "$line" | sed 's/.*order://; s/    watch:.*//' | grep -o '#[0-9]*' | tr -d '#' | sort -u | tr '\n' ' ')
        need="$2"
        if [ "$need" = auto ]; then
            need=$(printf '%s\n' "$line" | sed -n 's/.*overtakes \([0-9]*\) -> \([0-9]*\);.*/\1 \2/p' |
                awk '{ print ($2 > $1) ? "both" : "one" }')
        fi
        "$prog" run "$race" --seed "$seed" --headless --quiet --json "$tmp/changed.json" >/dev/null 2>&1
        python3 - "$tmp/changed.json" "$at" "$need" $moved <<'PY' || echo "seed $seed: --at $at"
import json, sys
r = json.load(open(sys.argv[1]))
at, need, moved = float(sys.argv[2]), sys.argv[3], {int(x) for x in sys.argv[4:]}
passes = [e["tick"] / r["tick_hz"] for e in r["events"] if e["type"] == "overtake" and
          len({e["passer"], e["passed"]} & moved) >= (2 if need == "both" else 1)]
sys.exit(0 if at < r["sim_time_s"] - 1 and any(at + 1 <= t <= at + 15 for t in passes) else 1)
PY
    done
}
bad_moments=$(order_moments "$out" one | tr "\n" " ")
[ -z "$bad_moments" ] && printf '%s\n' "$out" | grep -q "order:"
check "a lost pass: the watch moment is where the cars whose places differ last changed places ($bad_moments)" $?
# the other way round (the baseline recorded with the slower drivers, compared with the usual ones): in seeds 1 and 2
# #4 passes #2 and #3 in the rerun, so the moment is where two of them changed places for good, before the pass is
# confirmed (the moment an overtake past the recorded count would give); in seed 3 the rerun loses a pass
"$prog" baseline record "$race" --seeds 1-3 --out "$tmp/slow.txt" >/dev/null 2>&1
cp tests/data/sim/driver.ini "$tmp/"
out2=$("$prog" baseline compare "$tmp/slow.txt" 2>&1)
bad_moments=$(order_moments "$out2" auto | tr "\n" " ")
[ -z "$bad_moments" ] && printf '%s\n' "$out2" | grep -q "order:"
check "a new pass: the watch moment is where the two cars changed places for good ($bad_moments)" $?
cp tests/data/sim/driver.ini "$tmp/"

# ---- bad files: exit 2, exact messages ----
sed 's/^laps 2$/laps 3/' "$base" > "$tmp/edited.txt"
err=$("$prog" baseline compare "$tmp/edited.txt" 2>&1); rc=$?
[ "$rc" -eq 2 ]; check "edited: exit 2" $?
n=$(wc -l < "$base" | tr -d ' ')
[ "$err" = "$tmp/edited.txt:$n: checksum mismatch: the file was edited or damaged (record the baseline again)" ]
check "edited: message" $?
head -n 10 "$base" > "$tmp/truncated.txt"
err=$("$prog" baseline compare "$tmp/truncated.txt" 2>&1); rc=$?
[ "$rc" -eq 2 ]; check "truncated: exit 2" $?
[ "$err" = "$tmp/truncated.txt:10: truncated: the last line is not 'checksum HASH' (record the baseline again)" ]
check "truncated: message" $?
sed -i "s|^track = .*|track = $PWD/data/tracks/oval.ini|" "$race"
err=$("$prog" baseline compare "$base" 2>&1); rc=$?
[ "$rc" -eq 2 ]; check "other track: exit 2" $?
printf '%s\n' "$err" | grep -q "^$base:3: stale baseline: recorded on track 'Test Oval' (1953.933 m), the race now uses 'Speed Oval'"
check "other track: message" $?
"$prog" baseline compare "$tmp/missing.txt" >/dev/null 2>&1; [ $? -eq 2 ]; check "missing file: exit 2" $?
"$prog" baseline record "$race" --out "$base" >/dev/null 2>&1; [ $? -eq 2 ]; check "record without --seeds: exit 2" $?
"$prog" baseline frob >/dev/null 2>&1; [ $? -eq 2 ]; check "unknown mode: exit 2" $?

# ---- check: exit codes, JSON, --jobs ----
oval="$PWD/tests/data/sim/oval.ini"
drv="$PWD/tests/data/sim/driver.ini"
printf '[race]\ntrack = %s\nlaps = 1\nduration_s = 4\n[start]\ncar = %s, 100, 0, 30\n[expect]\ncollisions_max = 0\nfinish_all = true\n' "$oval" "$drv" > "$tmp/a_pass.ini"
printf '[race]\ntrack = %s\nlaps = 1\nduration_s = 4\n[start]\ncar = %s, 100, 0, 30, hold\ncar = %s, 120, 0, 10, hold\n[expect]\nno_contact_between = #1, #2\n' "$oval" "$drv" "$drv" > "$tmp/b_fail.ini"
out=$("$prog" check "$tmp/a_pass.ini" --seeds 1-2 2>&1); rc=$?
[ "$rc" -eq 0 ]; check "check pass: exit 0" $?
[ "$(printf '%s\n' "$out" | tail -n 1)" = "1 passed, 0 failed" ]; check "check pass: summary" $?
printf '%s\n' "$out" | grep -q "^PASS $tmp/a_pass.ini (seeds 1-2): collisions_max 0 (<= 0); finish_all 1/1 classified (all)$"
check "check pass: line" $?
out=$("$prog" check "$tmp" 2>&1); rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; check "check dir with a failure: nonzero" $?
printf '%s\n' "$out" | grep -q "^FAIL $tmp/b_fail.ini (seed 1): no_contact_between #1, #2 1 contact (first at "
check "check fail: line" $?
# the failure comes with the command that opens it in the viewer at its moment: the pair's first contact
first=$(printf '%s\n' "$out" | sed -n 's/.*(first at \([0-9.]*\) s).*/\1/p')
printf '%s\n' "$out" | grep -qx "    watch: racesim run $tmp/b_fail.ini --seed 1 --at $first"
check "check fail: the watch command at the first contact" $?
printf '%s\n' "$out" | grep -q "watch: racesim run $tmp/a_pass.ini"; [ $? -ne 0 ]; check "check pass: no watch command" $?
printf '[race]\ntrack = %s\n[start]\ncar = %s, 100, 0, 30\n[expect]\ncolisions_max = 0\n' "$oval" "$drv" > "$tmp/c_bad.ini"
out=$("$prog" check "$tmp/c_bad.ini" 2>&1); rc=$?
[ "$rc" -eq 2 ]; check "check bad file: exit 2" $?
printf '%s\n' "$out" | grep -q "^ERROR $tmp/c_bad.ini:6: \[expect\] unknown key 'colisions_max'"; check "check bad file: message" $?
j1=$("$prog" check "$tmp/a_pass.ini" "$tmp/b_fail.ini" --seeds 1-4 --json --jobs 1 2>&1)
j2=$("$prog" check "$tmp/a_pass.ini" "$tmp/b_fail.ini" --seeds 1-4 --json --jobs 3 2>&1)
[ "$j1" = "$j2" ]; check "check --json independent of --jobs" $?
printf '%s\n' "$j1" | head -n 1 | grep -q '^{"scenario":".*a_pass.ini","pass":true,"seeds":\[{"seed":1,"pass":true,"checks":\[{"name":"collisions_max","line":8,"measured":0,'
check "check --json record" $?
[ "$(printf '%s\n' "$j1" | tail -n 1)" = '{"passed":1,"failed":1}' ]; check "check --json summary" $?
out=$("$prog" check tests/data/sim/race.ini 2>&1); rc=$?
[ "$rc" -eq 2 ]; check "check plain race: exit 2" $?
printf '%s\n' "$out" | grep -q "^ERROR tests/data/sim/race.ini:0: no expectations (the \[expect\] section is missing or empty): nothing to check$"
check "check plain race: message" $?
"$prog" check >/dev/null 2>&1; [ $? -eq 2 ]; check "check without files: exit 2" $?
"$prog" check "$tmp/a_pass.ini" --seeds 3-1 >/dev/null 2>&1; [ $? -eq 2 ]; check "check bad --seeds: exit 2" $?

# ---- check: means across seeds (two held cars: no driver, so the same single contact on every seed) ----
mkdir -p "$tmp/mean"
held_pair() {
    printf '[race]\ntrack = %s\nlaps = 1\nduration_s = 4\n[start]\ncar = %s, 100, 0, 30, hold\ncar = %s, 120, 0, 10, hold\n' \
        "$oval" "$drv" "$drv"
}
{ held_pair; printf '[expect]\nseeds = 1-3\ncollisions_max = 5\ncollisions_mean_max = 1\nofftrack_s_mean_max = 0.5\n'; } > "$tmp/mean/d_pass.ini"
{ held_pair; printf '[expect]\nseeds = 1-2\ncollisions_mean_max = 0.5\n'; } > "$tmp/mean/e_fail.ini"
out=$("$prog" check "$tmp/mean/d_pass.ini" 2>&1); rc=$?
[ "$rc" -eq 0 ]; check "check mean pass: exit 0" $?
printf '%s\n' "$out" | grep -q "^PASS $tmp/mean/d_pass.ini (seeds 1-3): collisions_max 1 (<= 5); collisions_mean_max 1.00 over 3 seeds (<= 1.00); offtrack_s_mean_max 0.00 s over 3 seeds (<= 0.50 s)$"
check "check mean pass: line" $?
out=$("$prog" check "$tmp/mean/e_fail.ini" -v 2>&1); rc=$?
[ "$rc" -eq 1 ]; check "check mean fail: exit 1" $?
printf '%s\n' "$out" | grep -q "^FAIL $tmp/mean/e_fail.ini (seeds 1-2): collisions_mean_max 1.00 over 2 seeds (<= 0.50) FAIL$"
check "check mean fail: line" $?
[ "$(printf '%s\n' "$out" | grep -c '^    seed [12] PASS$')" -eq 2 ]; check "check mean fail: seed lines have no means" $?
[ "$(printf '%s\n' "$out" | tail -n 1)" = "0 passed, 1 failed" ]; check "check mean fail: summary" $?
out=$("$prog" check "$tmp/mean/e_fail.ini" --seeds 4-7 2>&1)
printf '%s\n' "$out" | grep -q "^FAIL $tmp/mean/e_fail.ini (seeds 4-7): collisions_mean_max 1.00 over 4 seeds (<= 0.50) FAIL$"
check "check mean: --seeds overrides" $?
j1=$("$prog" check "$tmp/mean" --json --jobs 1 2>&1)
j2=$("$prog" check "$tmp/mean" --json --jobs 3 2>&1)
[ "$j1" = "$j2" ]; check "check mean --json independent of --jobs" $?
printf '%s\n' "$j1" | grep -q '^{"scenario":".*d_pass.ini","pass":true,"seeds":\[{"seed":1,.*\],"across_seeds":\[{"name":"collisions_mean_max","line":11,"measured":1,"limit":1,"pass":true,"measured_text":"1.00 over 3 seeds","limit_text":"<= 1.00"},{"name":"offtrack_s_mean_max",.*"pass":true,.*}\]}$'
check "check mean --json pass" $?
printf '%s\n' "$j1" | grep -q '^{"scenario":".*e_fail.ini","pass":false,"seeds":\[{"seed":1,"pass":true,"checks":\[\]},{"seed":2,"pass":true,"checks":\[\]}\],"across_seeds":\[{"name":"collisions_mean_max","line":10,"measured":1,"limit":0.5,"pass":false,'
check "check mean --json fail" $?
[ "$(printf '%s\n' "$j1" | tail -n 1)" = '{"passed":1,"failed":1}' ]; check "check mean --json summary" $?
j1=$("$prog" check "$tmp/a_pass.ini" --json 2>&1)
printf '%s\n' "$j1" | head -n 1 | grep -q '\],"across_seeds":\[\]}$'; check "check --json without means: empty across_seeds" $?
# --json carries the text's watch moment and command: each failed check its own (at_s null and no --at for one
# without a moment), each failed seed its earliest, as the text prints under the scenario; passing checks and the
# means across seeds none. The path needs quoting for a shell, and the command runs as given.
q="$tmp/b fail's.ini"
cp "$tmp/b_fail.ini" "$q"
printf 'overtakes_min = 1\ncollisions_max = 5\n' >> "$q"
text=$("$prog" check "$q" --seeds 1-2 2>&1)
"$prog" check "$q" --seeds 1-2 --json > "$tmp/watch.json" 2>&1
python3 - "$tmp/watch.json" "$(printf '%s\n' "$text" | sed -n 's/^    watch: //p')" \
    "$(printf '%s\n' "$text" | sed -n 's/.*(first at \([0-9.]*\) s).*/\1/p')" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
sc, text_watch, first = json.loads(lines[0]), sys.argv[2], float(sys.argv[3])
quoted = "'" + sc["scenario"].replace("'", "'\\''") + "'"
ok = not sc["pass"] and len(sc["seeds"]) == 2 and text_watch == sc["seeds"][0]["watch"]
for run in sc["seeds"]:
    cmd = "racesim run %s --seed %d" % (quoted, run["seed"])
    ok = ok and not run["pass"] and run["at_s"] == first and run["watch"] == cmd + " --at %.2f" % first
    for c in run["checks"]:
        if c["pass"]:
            ok = ok and "at_s" not in c and "watch" not in c
        elif c["name"] == "overtakes_min":  # too few overtakes: no moment
            ok = ok and c["at_s"] is None and c["watch"] == cmd
        else:                                # the pair's first contact
            ok = ok and c["at_s"] == first and c["watch"] == cmd + " --at %.2f" % first
    ok = ok and sorted(c["pass"] for c in run["checks"]) == [False, False, True]
sys.exit(0 if ok else 1)
PY
check "check --json: each failed check and seed with the text's watch moment and command" $?
w=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["seeds"][1]["watch"])' "$tmp/watch.json")
eval "\"\$prog\" ${w#racesim } --screenshot \"\$tmp/watch.png\"" >/dev/null 2>&1 && [ -s "$tmp/watch.png" ]
check "check --json: the watch command runs as given (quoted path; here with --screenshot)" $?
j1=$("$prog" check "$tmp/mean/e_fail.ini" --json | head -n 1)
printf '%s\n' "$j1" | grep -q '"across_seeds":\[{"name":"collisions_mean_max",.*"pass":false' &&
    ! printf '%s\n' "$j1" | grep -q '"at_s"\|"watch"'
check "check --json: a failed mean across seeds has no watch moment" $?
# ---- a changed order names cars by race number (as the tables do), not by grid line ----
cp -r data "$tmp/data"
"$prog" baseline record "$tmp/data/races/default.ini" --seeds 1-1 --out "$tmp/order.txt" >/dev/null 2>&1
sed -i 's/^grip_use = .*/grip_use = 0.85/' "$tmp/data/drivers/ace.ini"
out=$("$prog" baseline compare "$tmp/order.txt" 2>&1)
printf '%s\n' "$out" | grep -q ' P1 #1 Ace Moreau -> #[0-9]* '; check "order changes name race numbers (Ace is #1, grid line 2)" $?
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
