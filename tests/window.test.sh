#!/bin/sh
# window.test.sh: the viewer in a real window under Xvfb: xdotool presses the keys, ImageMagick's `import` captures
# the window, and the pixels are checked. `run --at T` opens paused at T; the left arrow shows an earlier moment (the
# picture changes, the timeline bar at the foot of the HUD column shows a part not played); going forward again to
# the newest time draws the same picture as before the rewind (the race replayed from a keyframe is the same race);
# a race watched with rewinds ends with the headless results; --at past the finish warns.
# Needs Xvfb, xdotool, ImageMagick and python3 (tools/install-deps.sh installs them); skipped without them.
# usage: sh tests/window.test.sh PROGRAM BUILD_DIR      (prints "N passed, N failed" last)
prog="$1"
race=data/races/default.ini
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

for tool in Xvfb xdotool import convert python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "window.test.sh: $tool is missing (tools/install-deps.sh installs it): skipped"
        finish
    fi
done
# the display, the viewer's window ($win of the viewer $app) and the exit trap
. "$(dirname "$0")/lib/xvfb.sh"
tmp=$(mktemp -d)
xvfb_scratch="$tmp"
xvfb_start 1400x900 "$tmp" || { bad "$xvfb_error"; finish; }

shot() { import -window "$win" "$tmp/$1.png" 2>/dev/null; }
# A paused window's picture once it has settled: captures $1 until it differs from $2 (when given; the key took
# effect) and two captures in a row are the same (a slow build may take seconds to step there), at most 60 s.
settled() {
    k=0
    shot "$1"
    while [ $k -lt 120 ]; do
        sleep 0.5
        shot "$1.next"
        if cmp -s "$tmp/$1.png" "$tmp/$1.next.png" && [ -s "$tmp/$1.png" ] &&
            { [ -z "$2" ] || ! cmp -s "$tmp/$1.png" "$tmp/$2.png"; }; then
            return 0
        fi
        mv "$tmp/$1.next.png" "$tmp/$1.png"
        k=$((k + 1))
    done
    return 1
}
# pixels of the timeline's colours at the foot of the HUD column: "played span" (yellow up to the moment shown,
# blue-grey for the rest of the race so far), and the mean difference with another capture right of the HUD column
python3_px() {
    python3 - "$@" <<'PY'
import subprocess, sys
def load(path):
    ppm = subprocess.run(["convert", path, "ppm:-"], capture_output=True, check=True).stdout
    parts = ppm.split(b"\n", 3)          # P6, "w h", 255, pixels (ImageMagick writes one field a line)
    w, h = map(int, parts[1].split())
    return w, h, parts[3]
w, h, px = load(sys.argv[2])
def rgb(x, y):
    i = 3 * (y * w + x)
    return tuple(px[i:i + 3])
if sys.argv[1] == "timeline":
    played = span = 0
    for y in range(h - 60, h):
        for x in range(0, 420):
            c = rgb(x, y)
            played += c == (255, 205, 60)
            span += c == (70, 90, 130)
    print(played, span)
else:                                    # "differ A B": share of differing pixels right of the HUD column
    w2, h2, px2 = load(sys.argv[3])
    diff = sum(1 for y in range(0, h, 2) for x in range(430, w, 2)
               if px[3 * (y * w + x):3 * (y * w + x) + 3] != px2[3 * (y * w + x):3 * (y * w + x) + 3])
    print(diff)
PY
}

# ---- opened at 30 s, paused; rewound and forward again ----
"$prog" run "$race" --seed 1 --at 30 >"$tmp/out" 2>"$tmp/err" &
app=$!
if ! xvfb_window "$app"; then
    bad "no window appeared: $(cat "$tmp/err")"
    finish
fi
# the first frame: drawn once the race has stepped to 30 s, then still (paused)
k=0
while [ $k -lt 120 ]; do
    settled a && set -- $(python3_px timeline "$tmp/a.png") && [ "$1" -gt 300 ] && break
    k=$((k + 1))
done
settled a2 && cmp -s "$tmp/a.png" "$tmp/a2.png" && ok || bad "paused at --at 30, yet the picture changes"
set -- $(python3_px timeline "$tmp/a.png")
[ "$1" -gt 300 ] && [ "$2" -lt 20 ] && ok || bad "at the newest moment the timeline should be all played: played $1, rest $2"
xdotool key --window "$win" Left
settled b a
set -- $(python3_px timeline "$tmp/b.png")
played_b=$1
[ "$2" -gt 100 ] && ok || bad "5 s back the timeline shows no part not played: played $1, rest $2"
d=$(python3_px differ "$tmp/a.png" "$tmp/b.png")
[ "$d" -gt 500 ] && ok || bad "5 s back the track looks the same ($d pixels differ)"
xdotool key --window "$win" shift+Left
settled c b
set -- $(python3_px timeline "$tmp/c.png")
[ "$1" -lt "$played_b" ] && ok || bad "30 s further back the timeline is not shorter: played $1, before $played_b"
xdotool key --window "$win" shift+Right
settled d c
d=$(python3_px differ "$tmp/a.png" "$tmp/d.png")
[ "$d" -eq 0 ] && ok || bad "forward again to 30 s the picture is not the one before the rewind ($d pixels differ)"
xdotool key --window "$win" Escape
wait "$app"
rc=$?
app=""
[ "$rc" = 0 ] && ok || bad "the viewer exit status $rc: $(cat "$tmp/err")"

# ---- a race watched with rewinds ends with the headless results ----
"$prog" run "$race" --seed 4 --laps 1 --headless >"$tmp/headless" 2>&1
RACESIM_SPEED=64 RACESIM_BENCH_FRAMES=400 "$prog" run "$race" --seed 4 --laps 1 >"$tmp/watched" 2>"$tmp/err" &
app=$!
if xvfb_window "$app"; then
    sleep 1
    xdotool key --window "$win" shift+Left
    sleep 0.5
    xdotool key --window "$win" Left Left Right
    sleep 0.5
    xdotool key --window "$win" shift+Left
fi
wait "$app"
app=""
[ -s "$tmp/headless" ] && cmp -s "$tmp/headless" "$tmp/watched" && ok ||
    { bad "watched with rewinds, the results differ from the headless ones"; diff "$tmp/headless" "$tmp/watched" | head -n 8; }

# ---- the same past 640 s, where the 128 keyframes are all used and every second one goes: opened at 645 s,
# rewound 60 s, played to the finish ----
"$prog" run "$race" --seed 2 --headless >"$tmp/headless5" 2>&1
RACESIM_SPEED=64 RACESIM_BENCH_FRAMES=240 "$prog" run "$race" --seed 2 --at 645 >"$tmp/watched5" 2>"$tmp/err" &
app=$!
xvfb_window "$app" && xdotool key --window "$win" shift+Left shift+Left space
wait "$app"
app=""
[ -s "$tmp/headless5" ] && cmp -s "$tmp/headless5" "$tmp/watched5" && ok ||
    { bad "rewound past the thinning of the keyframes, the results differ"; diff "$tmp/headless5" "$tmp/watched5" | head -n 8; }

# ---- --at past the finish: a warning, and the window opens at the end ----
RACESIM_BENCH_FRAMES=3 "$prog" run "$race" --laps 1 --at 100000 >/dev/null 2>"$tmp/err"
[ $? = 0 ] && grep -q "past the end of the race" "$tmp/err" && ok || bad "--at past the finish: $(cat "$tmp/err")"

finish
