#!/bin/sh
# sim_run.test.sh: `racesim run` headless: option validation (exact messages, exit 2), bad race files, and
# byte-identical JSON across two runs. usage: sh tests/sim_run.test.sh PROGRAM BUILD_DIR
prog="$1"
tmp="${2:-build}/sim_run_test.$$"
mkdir -p "$tmp"
pass=0
fail=0
check() { # name expected-exit expected-stderr-line command...
    name="$1"; want_rc="$2"; want_err="$3"; shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got_err=$(head -n 1 "$tmp/err")
    if [ "$rc" -eq "$want_rc" ] && { [ -z "$want_err" ] || [ "$got_err" = "$want_err" ]; }; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $rc (want $want_rc), stderr '$got_err' (want '$want_err')"
    fi
}
race=tests/data/sim/race.ini
check laps-bad 2 "racesim run: --laps: expected an integer 1..1000, got 'x'" "$prog" run "$race" --headless --laps x
check laps-zero 2 "racesim run: --laps: expected an integer 1..1000, got '0'" "$prog" run "$race" --headless --laps 0
check seed-bad 2 "racesim run: --seed: expected an integer 0..18446744073709551615, got '-3'" \
    "$prog" run "$race" --headless --seed -3
check at-bad 2 "racesim run: --at: expected a number of seconds 0..1000000, got 'soon'" \
    "$prog" run "$race" --headless --at soon
check missing-value 2 "racesim run: --json needs a value" "$prog" run "$race" --headless --json
check unknown 2 "racesim run: unknown option '--fast'" "$prog" run "$race" --fast
check headless-at 2 "racesim run: --at is the moment the viewer opens at (or a --screenshot's): it cannot be --headless" \
    "$prog" run "$race" --headless --at 3
check headless-shot 2 "racesim run: --screenshot renders the viewer's frame: it cannot be --headless" \
    "$prog" run "$race" --headless --screenshot x.png
check two-races 2 "racesim run: more than one race file ('$race' and 'x.ini')" "$prog" run "$race" x.ini
check no-file 2 "tests/data/sim/nope.ini:0: cannot open: No such file or directory" \
    "$prog" run tests/data/sim/nope.ini --headless
check help 0 "" "$prog" run --help
check run-json 0 "" "$prog" run "$race" --headless --laps 1 --quiet --json "$tmp/a.json" --csv "$tmp/a.csv"
check run-json-again 0 "" "$prog" run "$race" --headless --laps 1 --json "$tmp/b.json"
if cmp -s "$tmp/a.json" "$tmp/b.json"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL json differs"; fi
for key in '"seed": 7' '"track": "Test Oval"' '"laps": 1' '"tick_hz": 100' '"ticks": ' '"sim_time_s": ' \
    '"totals": {' '"overtakes": ' '"lappings": ' '"collisions": ' '"offtracks": ' '"cars": [' '"driver_file": ' \
    '"number": ' '"grid": ' '"position": ' '"status": "finished"' '"time_s": ' '"best_lap_s": ' \
    '"positions_lost": ' '"offtrack_s": ' '"events": [' '"type": "lap"' '"type": "finish"'; do
    if grep -qF "$key" "$tmp/a.json"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL json lacks $key"; fi
done
if [ "$(wc -l <"$tmp/a.csv")" -eq 5 ] && head -n 1 "$tmp/a.csv" | grep -q '^seed,position,number,name,'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL csv"
fi
if grep -q '^1  ' "$tmp/out" && grep -q 'Status' "$tmp/out"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL table"; fi
# a long name (47 characters, the most a personality allows) appears whole in the table, its columns still aligned
long="Maximilian Wolfeschlegelsteinhausen-Bergdorffer"
printf '[driver]\nname = %s\nnumber = 9\n' "$long" >"$tmp/long.ini"
printf '[race]\ntrack = %s/tests/data/sim/oval.ini\nlaps = 1\nseed = 3\n[grid]\ndriver = long.ini\ndriver = %s/tests/data/sim/driver.ini\n' \
    "$PWD" "$PWD" >"$tmp/long_race.ini"
check long-name 0 "" "$prog" run "$tmp/long_race.ini" --headless
w1=$(sed -n 2p "$tmp/out" | awk '{print index($0, "finished")}')
w2=$(sed -n 3p "$tmp/out" | awk '{print index($0, "finished")}')
if grep -qF "$long " "$tmp/out" && [ "$w1" -gt 0 ] && [ "$w1" -eq "$w2" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL long name cut or columns misaligned"; cat "$tmp/out"
fi

# --trace: a header and one row of 19 columns per running car per tick, ticks from 0 up to the race's last
check trace 0 "" "$prog" run "$race" --headless --quiet --trace "$tmp/trace.csv" --json "$tmp/trace.json"
if python3 - "$tmp/trace.csv" "$tmp/trace.json" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
race = json.load(open(sys.argv[2]))
head = rows[0]
ok = head[:4] == ["tick", "time_s", "number", "name"] and head[-2:] == ["limit", "attack"] and len(head) == 19
ok = ok and len(rows) > 100 and all(len(r) == 19 for r in rows[1:]) and rows[1][0] == "0"
ok = ok and int(rows[-1][0]) == race["ticks"] - 1
names = {c["name"] for c in race["cars"]}
ok = ok and {r[3] for r in rows[1:]} == names
sys.exit(0 if ok else 1)
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL trace rows"; fi
# the trace's limit and attack columns: a car alone on gp is only ever slowed by its plan or its way back to the line
# and never attacks; Ace placed 40 m behind Vera (2.9 s a lap slower alone) follows her for a while, finds an attack
# on her and is gone (he races once clear of the start, so the pass comes on lap 1)
here=$(pwd)
printf '[race]\ntrack = %s/data/tracks/gp.ini\nlaps = 2\nseed = 1\n[start]\ncar = %s/data/drivers/ace.ini, 1000, 0, 40\n' \
    "$here" "$here" >"$tmp/alone.ini"
printf '[race]\ntrack = %s/data/tracks/gp.ini\nlaps = 4\nseed = 1\n[start]\ncar = %s/data/drivers/vera.ini, 1040, 0, 40
car = %s/data/drivers/ace.ini, 1000, 0, 40\n' "$here" "$here" "$here" >"$tmp/pair.ini"
"$prog" run "$tmp/alone.ini" --headless --quiet --trace "$tmp/alone.csv" >/dev/null 2>&1
"$prog" run "$tmp/pair.ini" --headless --quiet --trace "$tmp/pair.csv" >/dev/null 2>&1
if python3 - "$tmp/alone.csv" "$tmp/pair.csv" <<'PY'
import csv, sys
alone = list(csv.DictReader(open(sys.argv[1])))
pair = [r for r in csv.DictReader(open(sys.argv[2])) if r["name"] == "Ace Moreau"]
limits = {"none", "plan", "tow", "danger", "follow", "clear", "single_file", "held", "rejoin", "lane"}
ok = len(alone) > 1000 and {r["limit"] for r in alone} <= {"none", "plan", "tow", "rejoin"}
ok = ok and {r["limit"] for r in alone} >= {"plan", "tow"} and all(r["attack"] == "0" for r in alone)
follow = sum(r["limit"] == "follow" for r in pair)
ok = ok and {r["limit"] for r in pair} <= limits and {r["attack"] for r in pair} == {"0", "1"}
ok = ok and 0.01 * len(pair) < follow < 0.5 * len(pair)
sys.exit(0 if ok else 1)
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL trace limit and attack"; fi
# classified totals: every overtake and collision has one kind; the kinds add up
"$prog" run data/races/default.ini --headless --quiet --seed 3 --shuffle-grid --json "$tmp/kinds.json" >/dev/null 2>&1
if python3 - "$tmp/kinds.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["totals"]
ov = sum(t["overtakes_" + k] for k in ("mistake", "braking", "drafting", "corner", "pace"))
co = t["collisions_rear_end"] + t["collisions_side"]
kinds = [e["kind"] for e in d["events"] if e["type"] in ("overtake", "collision")]
after = sum(1 for e in d["events"] if e["type"] == "overtake" and e["race_lap"] > 1)
ok = ov == t["overtakes"] and co == t["collisions"] and all(kinds) and after == t["overtakes_after_lap1"]
sys.exit(0 if ok and t["overtakes"] > 0 else 1)
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL classified totals"; fi
# passes on merit: every overtake's pace gap (the passed car's lap alone minus the passer's) is known in the default
# race, opposite for the two passes of a pair that swap places, and the totals count the gaps > 0, which the table's
# line repeats for the passes after lap 1; Ace passes Sam Coach (about 8 s a lap slower alone) on merit; a pass of a
# scripted car (no speed plan) has no gap
"$prog" run data/races/default.ini --headless --seed 4 --shuffle-grid --json "$tmp/merit.json" >"$tmp/merit.txt" 2>&1
"$prog" run tests/scenarios/braking_zone_pass.ini --headless --seed 1 --json "$tmp/coach.json" >/dev/null 2>&1
"$prog" run tests/scenarios/slow_car_ahead.ini --headless --seed 1 --json "$tmp/held.json" >/dev/null 2>&1
if python3 - "$tmp/merit.json" "$tmp/merit.txt" "$tmp/coach.json" "$tmp/held.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t, keys = d["totals"], list(d["totals"])
ev = [e for e in d["events"] if e["type"] == "overtake"]
gap = {}
for e in ev:
    gap.setdefault((e["passer"], e["passed"]), e["pace_gap_s"])
ok = keys[keys.index("overtakes_after_lap1") + 1:][:2] == ["overtakes_on_merit", "overtakes_after_lap1_on_merit"]
ok = ok and all(isinstance(e["pace_gap_s"], float) for e in ev)
ok = ok and all(abs(g + gap[(b, a)]) < 0.0015 for (a, b), g in gap.items() if (b, a) in gap)
ok = ok and any((b, a) in gap for (a, b) in gap)
merit = [e for e in ev if e["pace_gap_s"] > 0]
later = [e for e in merit if e["race_lap"] > 1]
ok = ok and t["overtakes_on_merit"] == len(merit) and t["overtakes_after_lap1_on_merit"] == len(later)
ok = ok and 0 < t["overtakes_on_merit"] < t["overtakes"]
ok = ok and t["overtakes_after_lap1_on_merit"] <= t["overtakes_after_lap1"]
line = "overtakes: %d after lap 1 (%d on merit: by the driver faster alone); " % (t["overtakes_after_lap1"], len(later))
ok = ok and t["overtakes_after_lap1"] > 0 and any(l.startswith(line) for l in open(sys.argv[2]))
c = json.load(open(sys.argv[3]))
ace = [e for e in c["events"] if e["type"] == "overtake" and e["passer"] == 1]
ok = ok and len(ace) >= 1 and all(5.0 < e["pace_gap_s"] < 11.0 for e in ace) and c["totals"]["overtakes_on_merit"] >= 1
ok = ok and c["totals"]["overtakes_on_merit"] <= c["totals"]["overtakes"]
h = json.load(open(sys.argv[4]))
held = [e for e in h["events"] if e["type"] == "overtake"]
ok = ok and len(held) == 1 and held[0]["pace_gap_s"] is None and h["totals"]["overtakes_on_merit"] == 0
ok = ok and "nan" not in open(sys.argv[4]).read()
sys.exit(0 if ok else 1)
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL passes on merit"; fi
rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
