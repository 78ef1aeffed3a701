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
# --export: the racing line and its speed plan, a row a metre, whose time adds up to the racing-line lap
"$prog" track data/tracks/gp.ini --export "$tmp/line.csv"; check "export exits 0" $?
head -1 "$tmp/line.csv" | grep -q "^s_m,centre_x_m,centre_y_m,line_d_m,line_x_m,line_y_m,line_kappa_1pm,width_left_m,width_right_m,speed_mps,time_s$"
check "export header" $?
rows=$(($(wc -l < "$tmp/line.csv") - 1))
[ "$rows" -eq 5780 ]; check "export rows (one a metre of 5779.8 m, and the closing row): $rows" $?
lap=$(printf '%s\n' "$out" | sed -n 's/.*lap, racing line: \([0-9]*\):\([0-9.]*\).*/\1 \2/p' | awk '{ print $1 * 60 + $2 }')
awk -F, -v lap="$lap" 'END { d = $11 - lap; if (d < 0) d = -d; exit !(d < 0.005 * lap) }' "$tmp/line.csv"
check "export time adds up to the lap ($lap s)" $?
awk -F, 'NR > 1 && ($4 > $8 || -$4 > $9) { bad = 1 } END { exit bad }' "$tmp/line.csv"
check "the exported line stays between the edges" $?
"$prog" track data/tracks/gp.ini data/tracks/oval.ini --export "$tmp/two.csv" >/dev/null 2>&1; [ $? -eq 2 ]
check "export of two tracks refused" $?
cp data/tracks/oval.ini "$tmp/oval.ini"
"$prog" track "$tmp/oval.ini" --export "$tmp/oval.ini" >/dev/null 2>&1; [ $? -eq 2 ] && cmp -s "$tmp/oval.ini" data/tracks/oval.ini
check "export onto the track file refused, file untouched" $?
"$prog" track data/tracks/gp.ini --grip-use 2 >/dev/null 2>&1; [ $? -eq 2 ]; check "bad --grip-use exits 2" $?
# --line: the min-curvature line laps the Grand Prix faster than the classic default; a track file's [track] line wins
lap_s() { sed -n 's/.*lap, racing line: \([0-9]*\):\([0-9.]*\).*/\1 \2/p' | awk '{ print $1 * 60 + $2 }'; }
classic=$("$prog" track data/tracks/gp.ini | lap_s)
mincurv=$("$prog" track --line min-curvature data/tracks/gp.ini | lap_s)
awk -v a="$classic" -v b="$mincurv" 'BEGIN { exit !(b > 0 && b < a - 1) }'; check "--line min-curvature: a faster lap" $?
[ "$("$prog" track --line classic data/tracks/gp.ini | lap_s)" = "$classic" ]; check "--line classic is the default" $?
sed 's/^\[track\]$/[track]\nline = classic/' data/tracks/gp.ini > "$tmp/gp_classic.ini"
[ "$("$prog" track --line min-curvature "$tmp/gp_classic.ini" | lap_s)" = "$classic" ]
check "the file's [track] line wins over --line" $?
err=$("$prog" track --line fast data/tracks/gp.ini 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && [ "$err" = "racesim track: --line: expected classic or min-curvature, got 'fast'" ]
check "bad --line: exit 2 and its message" $?
# a hairpin 0.3 m too wide inside: repaired with a warning on stderr; --strict refuses it as before
hp=tests/data/hairpin.csv
warn="$hp:48: warning: track edges fold over at s=211 m: left width 7.30 m exceeds the corner radius 6.99 m; repaired: the left edge pulled in by up to 0.81 m over 6 m"
err=$("$prog" track "$hp" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 0 ] && [ "$err" = "$warn" ]; check "a shallow fold loads with one warning on stderr" $?
err=$("$prog" track --strict "$hp" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && [ "$err" = "$hp:48: track edges fold over: left width 7.3 m exceeds the corner radius 7.0 m" ]
check "--strict refuses the fold with its line" $?
# a race on it: the warning once on stderr, the car never off the track
"$prog" run tests/data/hairpin_race.ini --headless --csv "$tmp/hp.csv" >/dev/null 2>"$tmp/hp.err"; rc=$?
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/hp.err")" = "$warn" ]; check "run prints the repair once on stderr" $?
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "offtrack_s") c = i } NR == 2 { exit !(c && $c == 0) }' "$tmp/hp.csv"
check "the car stays on the repaired track" $?
printf '[race]\ntrack = %s/%s\nlaps = 1\nstrict_track = true\n[grid]\ndriver = %s/tests/data/sim/driver.ini\n' \
    "$PWD" "$hp" "$PWD" > "$tmp/strict.ini"
err=$("$prog" run "$tmp/strict.ini" --headless 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && [ "$err" = "$PWD/$hp:48: track edges fold over: left width 7.3 m exceeds the corner radius 7.0 m" ]
check "[race] strict_track = true refuses the fold" $?
sed 's/strict_track = true/strict_track = yes/' "$tmp/strict.ini" > "$tmp/strict_bad.ini"
err=$("$prog" run "$tmp/strict_bad.ini" --headless 2>&1 >/dev/null)
[ "$err" = "$tmp/strict_bad.ini:4: [race] strict_track: expected true or false, got 'yes'" ]; check "bad strict_track" $?
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
