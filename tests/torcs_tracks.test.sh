#!/bin/sh
# TORCS track XML: the tracks in tests/data/torcs load and race; when the Debian torcs data is installed
# (/usr/share/games/torcs/tracks), every road and oval track must load, and a lone car (tests/data/sim/driver.ini)
# must race two laps of each without ever leaving the track, as it must on the three real circuits shipped in
# data/tracks/tumftm (run whether or not TORCS is installed). Prints, for each track, its length, the loading time,
# the quasi-steady lap on the racing line (`racesim track`) and the lone car's status, best (flying) lap and seconds
# off the track; a track a lone car leaves fails the test by name.
# usage: sh tests/torcs_tracks.test.sh PROGRAM BUILD_DIR [TRACKS_DIR]
prog="$1"
tmp="${2:-build}/torcs_tracks_test"
dir="${3:-/usr/share/games/torcs/tracks}"
mkdir -p "$tmp"
pass=0
fail=0
check() { # name, condition result (0 ok)
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi
}
# race FILE [LAPS]: a lone car's race (one lap unless told); prints "status offtrack_s best_lap_s" from the results
# CSV (off-track seconds to 0.01 s, the lap to 1 ms)
race() {
    printf '[race]\ntrack = %s\nlaps = %s\n[grid]\ndriver = %s/tests/data/sim/driver.ini\n' "$1" "${2:-1}" "$PWD" \
        > "$tmp/race.ini"
    "$prog" run "$tmp/race.ini" --headless --csv "$tmp/race.csv" >/dev/null 2>"$tmp/race.err" || return 1
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "status") a = i; if ($i == "offtrack_s") b = i
                                                   if ($i == "best_lap_s") c = i } }
             NR == 2 { printf "%s %.2f %.3f\n", $a, $b, $c }' "$tmp/race.csv"
}
# lone FILE: loads FILE (`racesim track`) and races a lone car two laps on it; prints the track's line of the report
# and checks the lone car never left the track
lone() {
    start=$(date +%s%N)
    if ! "$prog" track "$1" >"$tmp/track.out" 2>&1; then
        echo "FAIL $(cat "$tmp/track.out")"
        fail=$((fail + 1))
        return 1
    fi
    ms=$((($(date +%s%N) - start) / 1000000))
    len=$(sed -n 's/^  length: *//p' "$tmp/track.out")
    limit=$(sed -n 's/.*lap, racing line: \([0-9]*\):\([0-9.]*\).*/\1 \2/p' "$tmp/track.out" |
        awk '{ printf "%.3f", $1 * 60 + $2 }')
    r=$(race "$1" 2)
    set -- "$(basename "$1" | sed 's/\.[a-z]*$//')" $r
    echo "  $1: $len, loaded and summarised in $ms ms, quasi-steady lap $limit s;" \
        "lone car, 2 laps: ${2:-race failed}, best lap ${4:-?} s, ${3:-?} s off the track"
    [ "$2" = finished ] && [ "$3" = 0.00 ]
    check "$1: a lone car races two laps without leaving the track" $?
}
out=$("$prog" track tests/data/torcs/oval.xml 2>&1); rc=$?
check "the test oval loads" $rc
printf '%s\n' "$out" | grep -q "name: *Test Oval & Co"; check "its name from the Header" $?
[ "$(race "$PWD/tests/data/torcs/esses.xml" | cut -d' ' -f1,2)" = "finished 0.00" ]
check "a lap of the S, on the track" $?
printf '<params>\n<section name="Main Track">\n<section name="Track Segments">\n<section name="a">\n' > "$tmp/bad.xml"
printf '<attstr name="type" val="up"/>\n</section>\n</section>\n</section>\n</params>\n' >> "$tmp/bad.xml"
err=$("$prog" track "$tmp/bad.xml" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && [ "$err" = "$tmp/bad.xml:5: segment 'a': unknown type 'up' (expected str, lft or rgt)" ]
check "a bad segment: exit 2 and its line" $?
echo "the circuits in data/tracks/tumftm:"
for f in data/tracks/tumftm/*.csv; do
    lone "$PWD/$f"
done
if [ ! -d "$dir" ]; then
    echo "note: $dir not found (the Debian torcs-data package); the TORCS tracks are skipped"
else
    echo "the TORCS tracks in $dir:"
    total=0 loaded=0
    for f in "$dir"/road/*/*.xml "$dir"/oval/*/*.xml; do
        [ -f "$f" ] || continue
        total=$((total + 1))
        lone "$f" || continue
        loaded=$((loaded + 1))
    done
    echo "TORCS tracks: $loaded of $total load"
    [ "$total" -gt 0 ] && [ "$loaded" -eq "$total" ]; check "every road and oval track loads" $?
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
