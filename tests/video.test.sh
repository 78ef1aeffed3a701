#!/bin/sh
# video.test.sh: `racesim run RACE --video FILE --from T0 --to T1` renders the viewer's frames offscreen and pipes
# them to ffmpeg: a short clip is a valid video (ffprobe: its codec, size and frame count), --size and --fps give a
# clip of that size and rate (and a screenshot of that size), a clip of the same stretch is drawn the same, bad
# options are refused (exit 2, with what is expected), and without ffmpeg the message says so (exit 2).
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
# --size and --fps: bad values and lines, each with its message
refused() { # what the message says, then the options
    says="$1"; shift
    "$prog" run "$race" "$@" >/dev/null 2>"$tmp/err"
    [ $? = 2 ] && grep -qF -- "$says" "$tmp/err" && ok || bad "$* (exit 2, '$says'): $(cat "$tmp/err")"
}
for size in 1280 1280x x800 0x0 959x540 960x539 3841x2160 3840x2161 -1280x800 1280x+800 "1280x800 " 1280.5x800 12a0x800; do
    refused "--size: expected WIDTHxHEIGHT in pixels, 960x540..3840x2160 (e.g. 1920x1080), got '$size'" \
        --video "$tmp/x.mp4" --size "$size"
done
for fps in 0 121 2.5 ten ""; do
    refused "--fps: expected frames a second, an integer 1..120, got '$fps'" --video "$tmp/x.mp4" --fps "$fps"
done
refused "--size 1281x720: a video's width and height must be even" --video "$tmp/x.mp4" --size 1281x720
refused "--fps sets the frame rate of a --video" --fps 25
refused "--fps sets the frame rate of a --video" --screenshot "$tmp/x.png" --fps 25
refused "--size is the window's, a --screenshot's or a --video's: not with --headless" --headless --size 1920x1080
[ ! -e "$tmp/x.mp4" ] && [ ! -e "$tmp/x.png" ] && ok || bad "a refused --video or --screenshot left a file"
# the help names both, with their ranges
"$prog" run --help >"$tmp/help"
grep -q -- "--size WxH .*960x540..3840x2160" "$tmp/help" && grep -q -- "--fps N .*1..120 (default 30)" "$tmp/help" && ok ||
    bad "run --help does not give --size and --fps with their ranges"
# a screenshot of another size (odd sizes are fine for a picture): the PNG's header says so
"$prog" run "$race" --seed 2 --at 20 --size 1001x601 --screenshot "$tmp/size.png" >/dev/null 2>"$tmp/err"
png=$(od -An -tu1 -j 16 -N 8 "$tmp/size.png" 2>/dev/null | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 "x" $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }')
[ "$png" = "1001x601" ] && ok || bad "--size 1001x601 --screenshot: a ${png} PNG ($(cat "$tmp/err"))"

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
    # --size and --fps: the clip's size, rate and frame count (2 s at 12 fps: 25 frames), in a .webm (VP9) too
    "$prog" run "$race" --seed 2 --video "$tmp/small.mp4" --from 20 --to 22 --size 960x540 --fps 12 >/dev/null \
        2>"$tmp/err"
    [ $? = 0 ] && grep -q "wrote .*small.mp4: 25 frames of 960x540 at 12 fps" "$tmp/err" && ok ||
        bad "--size 960x540 --fps 12: $(cat "$tmp/err")"
    probe=$(ffprobe -v error -select_streams v:0 -count_frames \
        -show_entries stream=codec_name,width,height,r_frame_rate,nb_read_frames -of csv=p=0 "$tmp/small.mp4" 2>&1)
    [ "$probe" = "h264,960,540,12/1,25" ] && ok || bad "ffprobe: '$probe', expected h264 960x540 at 12/1 with 25 frames"
    dur=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$tmp/small.mp4" 2>&1)
    awk -v d="$dur" 'BEGIN { exit !(d > 2.0 && d < 2.2) }' && ok || bad "a 2 s stretch at 12 fps lasts $dur s"
    "$prog" run "$race" --seed 2 --video "$tmp/wide.webm" --from 20 --to 20.5 --size 1920x1080 --fps 60 >/dev/null 2>&1
    probe=$(ffprobe -v error -select_streams v:0 -count_frames \
        -show_entries stream=codec_name,width,height,r_frame_rate,nb_read_frames -of csv=p=0 "$tmp/wide.webm" 2>&1)
    [ "$probe" = "vp9,1920,1080,60/1,31" ] && ok || bad "ffprobe: '$probe', expected vp9 1920x1080 at 60/1 with 31 frames"
    # a clip running past the finish stops there, with a warning
    "$prog" run "$race" --laps 1 --video "$tmp/late.mp4" --from 1000 --to 1001 >/dev/null 2>"$tmp/err"
    [ $? != 0 ] && grep -q "past the end of the race" "$tmp/err" && [ ! -e "$tmp/late.mp4" ] && ok ||
        bad "--from past the finish: $(cat "$tmp/err")"
else
    echo "video.test.sh: ffmpeg or ffprobe is missing (tools/install-deps.sh installs them): clip checks skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
