#!/bin/sh
# viewer_window.test.sh: the viewer in a real window under Xvfb, driven as a person would (xdotool presses keys and
# clicks, ImageMagick's `import` captures the window), pixels checked:
#   a click on a row of the standings tower selects that car (its row lit, the camera follows it);
#   `c` cycles director -> follow -> chase -> overview: the chase camera puts the road ahead straight up the screen;
#   the inspector panel covers no car (the chase camera at the start: the grid runs down the screen, under the
#   panel's first spot, so it has to move);
#   the results screen sits right of the tower and the ticker; Enter hides it; after r the next results show;
#   run-off is drawn beside the track close up and not in the overview;
#   cars have a nose (a quarter of the way back from the front, under 0.6 of the widest; measured on the selected
#   car in the chase camera, its soft edges counted where they are mostly its colour);
#   the director holds both cars of a fight in the frame (opened with --at at a moment from a real run, then 5 s back
#   with the left arrow), zooms out as the fight stretches, and following one of the two alone loses the other.
# Skips (0 passed, 0 failed) when Xvfb, xdotool or import is missing.
# usage: sh tests/viewer_window.test.sh PROGRAM BUILD_DIR
prog="$1"
build="${2:-build/plain}"
case "$prog" in */*) ;; *) prog="./$prog" ;; esac
out="$build/tests/viewer_window.tmp"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
for tool in Xvfb xdotool import convert; do
    command -v $tool >/dev/null 2>&1 || { echo "viewer_window.test.sh: no $tool, skipped"; finish; }
done
rm -rf "$out"
mkdir -p "$out"

# the display, the viewer's window ($win of the viewer $app) and the exit trap
. "$(dirname "$0")/lib/xvfb.sh"
xvfb_start 1280x800 "$out" || { check "$xvfb_error" false; finish; }

# open RACE with the rest as options (the software renderer); sets $win (the window id)
open_window() {
    race="$1"; shift
    xvfb_open "$out/app.log" env SDL_RENDER_DRIVER=software "$prog" run "$race" --quiet "$@"
}
key() { xdotool key --window "$win" "$@"; sleep 0.4; }
# never without a window id: import would wait for a click
shot() { [ -n "$win" ] && timeout 20 import -window "$win" "$out/$1.png"; }
# mean brightness (0..1) of a w x h box at x,y of a capture
mean() { convert "$out/$1.png" -crop "$4x$5+$2+$3" +repage -colorspace Gray -format '%[fx:mean]' info:; }
# the count of pixels of one colour (hex rrggbb) in a box
count_rgb() {
    convert "$out/$1.png" -crop "$4x$5+$2+$3" +repage -fill black +opaque "#$6" -fill white -opaque "#$6" \
        -colorspace Gray -format '%[fx:round(mean*w*h)]' info:
}

# ---- a click on a tower row selects its car ----------------------------------------------------------------------
if ! open_window data/races/default.ini --seed 1; then
    check "the window opens ($(cat "$out/app.log"))" false
    finish
fi
key space                      # paused, so the rows stay put
shot before
xdotool mousemove --window "$win" 200 166 click 1   # the fourth row (header 62..100, rows 19 px)
sleep 0.5
shot clicked
lit_before=$(mean before 12 157 390 17)
lit_after=$(mean clicked 12 157 390 17)
other_after=$(mean clicked 12 100 390 17)
check "the clicked row is lit ($lit_before -> $lit_after)" \
    awk -v a="$lit_before" -v b="$lit_after" 'BEGIN { exit !(b > a + 0.03) }'
check "the first row is no longer lit ($other_after)" \
    awk -v a="$other_after" -v b="$lit_after" 'BEGIN { exit !(b > a + 0.03) }'
cp "$out/clicked.png" "$out/clicked-keep.png"

# ---- c cycles the cameras; the chase camera turns the road ahead up the screen --------------------------------
key c                          # follow (the click already left the director: follow -> chase)
shot chase
# the road straight above the car (the view's middle, 40..160 px up) is asphalt: #46484e
asphalt_up=$(count_rgb chase 835 250 20 120 46484e)
check "chase: the road runs up the screen ($asphalt_up of 2400 px)" [ "$asphalt_up" -gt 1200 ]
# the inspector panel covers no car: the box of its interest bars and label (exact colour, x > 600), widened to the
# panel's edges, header and legend, holds none of the cars' colours
convert "$out/chase.png" -depth 8 txt:- >"$out/chase.txt"
panel=$(awk -F'[,: ]+' 'NR > 1 && $1 > 600 && $0 ~ /#46D75F/ {
    if (!n++ || $1 < x0) x0 = $1; if ($1 > x1) x1 = $1; if (!m++ || $2 < y0) y0 = $2; if ($2 > y1) y1 = $2 }
    END { if (n) print x0 - 10, y0 - 45, x1 + 12, y1 + 70 }' "$out/chase.txt")
check "the inspector panel is on screen ($panel)" [ -n "$panel" ]
colours=$(for d in $(sed -n 's/^driver *= *//p' data/races/default.ini); do
    sed -n 's/^colour *= *#\([0-9a-fA-F]\{6\}\).*/\1/p' "data/races/$d" | tr 'a-f' 'A-F'; done | tr '\n' ' ')
set -- $panel
under=$(awk -F'[,: ]+' -v x0="$1" -v y0="$2" -v x1="$3" -v y1="$4" -v cols="$colours" '
    BEGIN { n = split(cols, c, " "); for (i = 1; i <= n; i++) want["#" c[i]] = 1 }
    NR > 1 && $1 > 420 { for (f = 1; f <= NF; f++) if ($f in want) { cars++; if ($1 >= x0 && $1 <= x1 && $2 >= y0 && $2 <= y1) inside++ } }
    END { print cars + 0, inside + 0 }' "$out/chase.txt")
set -- $under
check "cars are on screen ($1 px of their colours)" [ "$1" -gt 300 ]
check "no car under the inspector panel ($2 px)" [ "$2" -eq 0 ]

# a car with a nose: the selected car (chase: pointing up, ringed at the view's middle) is narrower at the front
sel=$(convert "$out/clicked-keep.png" -format '%[hex:p{69,166}]' info:)
# (the car's colour, or within 90 of it summed over r, g, b: its soft edges blend it into the dark outline)
shape=$(awk -F'[,: ()]+' -v c="$sel" '
    BEGIN { for (i = 0; i < 256; i++) hex[sprintf("%02X", i)] = i
            R = hex[substr(c, 1, 2)]; G = hex[substr(c, 3, 2)]; B = hex[substr(c, 5, 2)] }
    function d(a, b) { return a > b ? a - b : b - a }
    NR > 1 && $1 > 760 && $1 < 980 && $2 >= 380 && $2 <= 445 && d($3, R) + d($4, G) + d($5, B) < 90 {
        x[NR] = $1; y[NR] = $2 }
    END { for (i in x) if (y[i] >= 402 && y[i] <= 425) { sx += x[i]; k++ }  # the body, clear of the number tag
          cx = k ? sx / k : 0
          for (i in x) if (x[i] >= cx - 8 && x[i] <= cx + 8) { w[y[i]]++; if (!n++ || y[i] < t) t = y[i]; if (y[i] > b) b = y[i] }
          h = b - t; for (r = t + int(h / 2); r <= b; r++) if (w[r] > body) body = w[r]
          print w[int(t + 0.25 * h)] + 0, body + 0, h }' "$out/chase.txt")
set -- $shape
check "the selected car's nose ($1 px) is under 0.6 of its widest ($2 px), $3 px long" \
    [ "$3" -gt 12 -a "$1" -gt 0 -a $(($1 * 10)) -lt $(($2 * 6)) ]

key c
shot overview
key c
shot director
check "overview and chase differ" sh -c "! cmp -s '$out/overview.png' '$out/chase.png'"
# run-off beside the track close up, none in the overview, where it would only thicken the line (scale-aware detail)
runoff_near=$(count_rgb chase 460 0 820 800 707A62)
runoff_far=$(count_rgb overview 460 0 820 800 707A62)
check "run-off beside the track close up ($runoff_near px), none in the overview ($runoff_far px)" \
    [ "$runoff_near" -gt 2000 -a "$runoff_far" -eq 0 ]
xvfb_close

# ---- the director holds both cars of a fight in the frame, and zooms out as the fight stretches ------------------
# The fight: tests/data/director_pair.ini, whose second car has no driver, so no change of racecraft moves it. #2 is
# 9 m behind #1 at 5 s and 78 m at 10 s, on a straight that runs up the screen: the director holds both and zooms out
# for the second; following #2 alone at 10 s leaves #1 above the top of the view, so both cars on screen is the
# director's framing, not luck.
# a capture taken once the window shows something else than capture $2 (a key's effect), up to 10 s on a loaded machine
shot_changed() {
    for i in $(seq 1 25); do
        shot "$1"
        cmp -s "$out/$1.png" "$out/$2.png" || return 0
        sleep 0.4
    done
}
# pixels of a colour in the view: right of the left column, below the caption, clear of the track map (top right)
in_view() { echo $(( $(count_rgb "$1" 460 40 610 150 "$2") + $(count_rgb "$1" 460 190 820 610 "$2") )); }
chaser=4169E1 # #2 (tests/data/ace_twin.ini)
ahead=E10600  # #1 Ace Moreau
if open_window tests/data/director_pair.ini --at 10; then
    # the window shows before the race is stepped to --at: wait for the first frame (the tower's colour chips)
    for i in $(seq 1 100); do
        shot dir_far
        [ "$(count_rgb dir_far 0 0 460 800 $ahead)" -gt 0 ] && break
        sleep 0.3
    done
    key Left                   # 5 s back: 5 s, from the keyframes
    shot_changed dir_near dir_far
    key Right                  # and forward again to 10 s
    shot_changed dir_back dir_near
    key c                      # follow the director's car, #2, at the follow zoom
    shot_changed follow_far dir_back
    xvfb_close
    for s in dir_near dir_far; do
        a=$(in_view $s $ahead)
        c=$(in_view $s $chaser)
        check "director ($s): both cars of the fight in the frame (#1 $a px, #2 $c px)" [ "$a" -gt 40 -a "$c" -gt 40 ]
    done
    a=$(in_view follow_far $ahead)
    c=$(in_view follow_far $chaser)
    check "following #2 alone, #1 is out of the frame ($a px; #2 $c px)" [ "$a" -lt 5 -a "$c" -gt 40 ]
    # the straight runs up the view in both frames: the asphalt in a band across it measures the zoom
    near=$(count_rgb dir_near 460 190 820 380 46484e)
    far=$(count_rgb dir_far 460 190 820 380 46484e)
    check "director: zoomed out as the fight stretches from 9 to 78 m (asphalt $near -> $far px)" \
        [ "$far" -gt 0 -a $((far * 10)) -lt $((near * 9)) ]
else
    check "the window opens at 10 s ($(cat "$out/app.log"))" false
    xvfb_close
fi

# ---- the results screen: styled, right of the tower and the ticker; Enter hides it, r brings a new race's back ----
# the results' accent (title, top rule) in x from $2, $3 wide; from the top down to $4 (default: the whole height)
accent() { count_rgb "$1" "$2" 0 "$3" "${4:-800}" FFCD3C; }
tower_rows() { mean "$1" 12 100 390 190; }
if ! RACESIM_SPEED=64 open_window tests/data/exp_race.ini --laps 1 --seed 2; then
    check "the window opens again ($(cat "$out/app.log"))" false
    finish
fi
for i in $(seq 1 60); do
    shot results
    [ "$(accent results 460 820)" -gt 400 ] && break
    sleep 0.5
done
check "the results screen shows ($(accent results 460 820) accent px right of the tower)" [ "$(accent results 460 820) " -gt 400 ]
# down to y 740: the replay timeline at the foot of the column (from y 760) is yellow up to the moment shown
check "the tower stays clear of it ($(accent results 0 455 740) accent px over the tower)" \
    [ "$(accent results 0 455 740)" -lt 400 ]
lit=$(tower_rows results)
check "the tower's rows are still drawn (brightness $lit)" awk -v a="$lit" 'BEGIN { exit !(a > 0.15) }'
key Return
shot hidden
check "Enter hides the results ($(accent hidden 460 820) px)" [ "$(accent hidden 460 820)" -lt 100 ]
key r
for i in $(seq 1 60); do
    sleep 0.5
    shot again
    [ "$(accent again 460 820)" -gt 400 ] && break
done
check "after r the next race's results show again" [ "$(accent again 460 820)" -gt 400 ]
xvfb_close

finish
