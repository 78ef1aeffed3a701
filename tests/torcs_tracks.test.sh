#!/bin/sh
# TORCS track XML: the tracks in tests/data/torcs load and race; when the Debian torcs data is installed
# (/usr/share/games/torcs/tracks), every road and oval track must load, and a lone car races one lap of each. Prints
# how many load, how many it finishes without leaving the track, and the loading time of each.
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
# race FILE: one lap of one car; prints "status offtrack_s" from the results CSV
race() {
    printf '[race]\ntrack = %s\nlaps = 1\n[grid]\ndriver = %s/tests/data/sim/driver.ini\n' "$1" "$PWD" > "$tmp/race.ini"
    "$prog" run "$tmp/race.ini" --headless --csv "$tmp/race.csv" >/dev/null 2>"$tmp/race.err" || return 1
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "status") a = i; if ($i == "offtrack_s") b = i } }
             NR == 2 { print $a, $b }' "$tmp/race.csv"
}
out=$("$prog" track tests/data/torcs/oval.xml 2>&1); rc=$?
check "the test oval loads" $rc
printf '%s\n' "$out" | grep -q "name: *Test Oval & Co"; check "its name from the Header" $?
[ "$(race "$PWD/tests/data/torcs/esses.xml")" = "finished 0.000000" ]; check "a lap of the S, on the track" $?
printf '<params>\n<section name="Main Track">\n<section name="Track Segments">\n<section name="a">\n' > "$tmp/bad.xml"
printf '<attstr name="type" val="up"/>\n</section>\n</section>\n</section>\n</params>\n' >> "$tmp/bad.xml"
err=$("$prog" track "$tmp/bad.xml" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && [ "$err" = "$tmp/bad.xml:5: segment 'a': unknown type 'up' (expected str, lft or rgt)" ]
check "a bad segment: exit 2 and its line" $?
if [ ! -d "$dir" ]; then
    echo "note: $dir not found (the Debian torcs-data package); the TORCS tracks are skipped"
else
    total=0 loaded=0 clean=0
    for f in "$dir"/road/*/*.xml "$dir"/oval/*/*.xml; do
        [ -f "$f" ] || continue
        total=$((total + 1))
        start=$(date +%s%N)
        if ! "$prog" track "$f" >"$tmp/track.out" 2>&1; then
            echo "FAIL $(cat "$tmp/track.out")"
            continue
        fi
        ms=$((($(date +%s%N) - start) / 1000000))
        loaded=$((loaded + 1))
        r=$(race "$f")
        len=$(sed -n 's/^  length: *//p' "$tmp/track.out")
        echo "  $(basename "$f" .xml): $len, loaded and summarised in $ms ms; one lap: ${r:-race failed}"
        [ "$r" = "finished 0.000000" ] && clean=$((clean + 1))
    done
    echo "TORCS tracks: $loaded of $total load; a lone car laps $clean of them without leaving the track"
    [ "$total" -gt 0 ] && [ "$loaded" -eq "$total" ]; check "every road and oval track loads" $?
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
