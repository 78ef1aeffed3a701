#!/bin/sh
# video.test.sh: `racesim run RACE --video FILE --from T0 --to T1` renders the viewer's frames offscreen and pipes
# them to ffmpeg: a short clip is a valid video (ffprobe: its codec, size and frame count), a clip of the same
# stretch is drawn the same, bad options are refused (exit 2), and without ffmpeg the message says so (exit 2).
# The clip checks need ffmpeg and ffprobe (tools/install-deps.sh installs them) and are skipped without them.
# usage: sh tests/video.test.sh PROGRAM BUILD_DIR      (prints "N passed, N failed" last)
prog="$1"
race=data/races/default.ini
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refused before anything runs
"$prog" run "$race" --video "$tmp/x.gif" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q ".mp4, .mkv, .webm or .mov" "$tmp/err" && ok || bad "--video x.gif: $(cat "$tmp/err")"
"$prog" run "$race" --video "$tmp/x.mp4" --from 5 --to 4 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "later than --from" "$tmp/err" && ok || bad "--to before --from: $(cat "$tmp/err")"
"$prog" run "$race" --from 5 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "stretch of a --video" "$tmp/err" && ok || bad "--from without --video: $(cat "$tmp/err")"
"$prog" run "$race" --video "$tmp/x.mp4" --headless >/dev/null 2>"$tmp/err"
[ $? = 2 ] && ok || bad "--video --headless: $(cat "$tmp/err")"
[ ! -e "$tmp/x.mp4" ] && ok || bad "a refused --video left a file"

# without ffmpeg on the PATH: a clear message, exit 2, no file
PATH=/nonexistent "$prog" run "$race" --video "$tmp/none.mp4" --to 1 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "needs ffmpeg" "$tmp/err" && [ ! -e "$tmp/none.mp4" ] && ok ||
    bad "without ffmpeg: $(cat "$tmp/err")"

if command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; then
    "$prog" run "$race" --seed 2 --video "$tmp/clip.mp4" --from 20 --to 21 >/dev/null 2>"$tmp/err"
    [ $? = 0 ] && [ -s "$tmp/clip.mp4" ] && ok || bad "the clip was not written: $(cat "$tmp/err")"
    probe=$(ffprobe -v error -select_streams v:0 -count_frames \
        -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$tmp/clip.mp4" 2>&1)
    [ "$probe" = "h264,1280,800,31" ] && ok || bad "ffprobe: '$probe', expected h264 1280x800 with 31 frames"
    ls "$tmp" | grep -q "tmp-" && bad "a temporary file was left beside the clip" || ok
    # the same stretch again: the same frames (the race and the director depend on the seed alone)
    "$prog" run "$race" --seed 2 --video "$tmp/again.mkv" --from 20 --to 21 >/dev/null 2>&1
    a=$(ffmpeg -loglevel error -i "$tmp/clip.mp4" -f framemd5 - 2>/dev/null | grep -v '^#' | wc -l)
    [ "$a" = 31 ] && ok || bad "frames decoded from the clip: $a"
    h1=$(ffmpeg -loglevel error -i "$tmp/clip.mp4" -vf "select=eq(n\,15)" -frames:v 1 -f rawvideo - 2>/dev/null | md5sum)
    h2=$(ffmpeg -loglevel error -i "$tmp/again.mkv" -vf "select=eq(n\,15)" -frames:v 1 -f rawvideo - 2>/dev/null | md5sum)
    [ "$h1" = "$h2" ] && ok || bad "two clips of the same stretch differ at frame 15"
    # a clip running past the finish stops there, with a warning
    "$prog" run "$race" --laps 1 --video "$tmp/late.mp4" --from 1000 --to 1001 >/dev/null 2>"$tmp/err"
    [ $? != 0 ] && grep -q "past the end of the race" "$tmp/err" && [ ! -e "$tmp/late.mp4" ] && ok ||
        bad "--from past the finish: $(cat "$tmp/err")"
else
    echo "video.test.sh: ffmpeg or ffprobe is missing (tools/install-deps.sh installs them): clip checks skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
