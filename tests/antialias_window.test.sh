#!/bin/sh
# antialias_window.test.sh: the track, kerbs and cars are drawn anti-aliased in a real window under Xvfb (software
# renderer, as the viewer_window test). The viewer opens paused at 20 s in the follow camera, the inspector off
# (`m`), zoomed in three wheel clicks, so the kerbs are a few pixels wide; ImageMagick's `import` captures the
# window and python3 counts, right of the HUD column and outside the track map, the pixels that are a blend of two
# of the track's colours (asphalt, run-off, grass, kerb red and white, edge line, racing line) and neither of them:
# soft edges make thousands of them, hard edges next to none. The same window with RACESIM_AA=0 (hard edges) is the
# control: the check fails without anti-aliasing. The overview is captured too (the track a few pixels wide).
# The captures stay in BUILD/tests/antialias_window.tmp for a person to look at.
# Skips (0 passed, 0 failed) when Xvfb, xdotool, import or python3 is missing.
# usage: sh tests/antialias_window.test.sh PROGRAM BUILD_DIR
prog="$1"
build="${2:-build/plain}"
case "$prog" in */*) ;; *) prog="./$prog" ;; esac
out="$build/tests/antialias_window.tmp"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
for tool in Xvfb xdotool import convert python3; do
    command -v $tool >/dev/null 2>&1 || { echo "antialias_window.test.sh: no $tool, skipped"; finish; }
done
rm -rf "$out"
mkdir -p "$out"

# the display, the viewer's window ($win of the viewer $app) and the exit trap
. "$(dirname "$0")/lib/xvfb.sh"
xvfb_start 1280x800 "$out" || { check "$xvfb_error" false; finish; }

# open the default race at 20 s, paused, with the rest as the environment; sets $win
open_window() {
    xvfb_open "$out/app.log" env SDL_RENDER_DRIVER=software "$@" "$prog" run data/races/default.ini --seed 1 --at 20 \
        --camera follow --quiet
}
# never without a window id: import would wait for a click
shot() { [ -n "$win" ] && timeout 20 import -window "$win" "$out/$1.png"; }
# the paused window once two captures in a row are the same (the keys and clicks have been drawn), at most 30 s
settled() {
    shot "$1"
    for i in $(seq 1 60); do
        sleep 0.5
        shot "$1.next"
        cmp -s "$out/$1.png" "$out/$1.next.png" && { rm -f "$out/$1.next.png"; return 0; }
        mv "$out/$1.next.png" "$out/$1.png"
    done
    return 1
}
# pixels of a capture in the box x0 y0 x1 y1 (the track map's box left out) that are a blend of two of the track's
# colours (t between 0.12 and 0.88 along the line from one to the other, within 3 levels of it) and neither
blends() {
    [ -s "$out/$1.png" ] || { echo 0; return; }
    python3 - "$out/$1.png" "$2" "$3" "$4" "$5" <<'PY'
import subprocess, sys
PALETTE = [(70, 72, 78), (112, 122, 98), (56, 104, 50), (200, 36, 36), (236, 236, 236), (225, 225, 225),
           (124, 116, 86)]
ppm = subprocess.run(["convert", sys.argv[1], "-depth", "8", "ppm:-"], capture_output=True, check=True).stdout
parts = ppm.split(b"\n", 3)                # P6, "w h", 255, pixels (ImageMagick writes one field a line)
w, h = map(int, parts[1].split())
px = parts[3]
x0, y0, x1, y1 = map(int, sys.argv[2:6])
pairs = [(a, b) for i, a in enumerate(PALETTE) for b in PALETTE[i + 1:]
         if sum((p - q) ** 2 for p, q in zip(a, b)) > 40 ** 2]
seen = {}
def blend(c):
    if c not in seen:
        hit = False
        if c not in PALETTE:
            for a, b in pairs:
                d = [q - p for p, q in zip(a, b)]
                t = sum((c[k] - a[k]) * d[k] for k in range(3)) / sum(v * v for v in d)
                if 0.12 < t < 0.88 and sum((c[k] - a[k] - t * d[k]) ** 2 for k in range(3)) < 9:
                    hit = True
                    break
        seen[c] = hit
    return seen[c]
n = 0
for y in range(max(y0, 0), min(y1, h)):
    for x in range(max(x0, 0), min(x1, w)):
        if x >= w - 250 and y < 190:        # the track map (top right)
            continue
        i = 3 * (y * w + x)
        n += blend((px[i], px[i + 1], px[i + 2]))
print(n)
PY
}

# close up: soft edges, then the same with hard ones
capture_close() {
    name="$1"; shift
    if ! open_window "$@"; then
        check "the window opens ($(cat "$out/app.log"))" false
        return 1
    fi
    xdotool key --window "$win" m
    for i in 1 2 3; do
        xdotool mousemove --window "$win" 860 400 click 4
        sleep 0.2
    done
    settled "$name" || echo "(the $name capture did not settle)"
    [ "$name" = close ] && { xdotool key --window "$win" c c; settled overview; }
    xvfb_close
}
capture_close close
capture_close close-hard RACESIM_AA=0
soft=$(blends close 460 0 1280 800)
hard=$(blends close-hard 460 0 1280 800)
check "close up, soft edges blend the track's colours ($soft px; hard edges $hard px)" \
    [ "${soft:-0}" -gt 2000 -a "${soft:-0}" -gt $((8 * ${hard:-0})) ]
# the control counts only if it was captured: a missing capture has no blends either
check "the hard-edged control was captured" [ -s "$out/close-hard.png" ]
check "the hard-edged control has next to no blends ($hard px)" [ -s "$out/close-hard.png" -a "${hard:-99999}" -lt 1000 ]
# the overview: the whole track a few pixels wide, its edges soft too
over=$(blends overview 460 0 1280 800)
check "the overview's track is soft-edged ($over px of blends)" [ "${over:-0}" -gt 500 ]
finish
