#!/bin/sh
# render.test.sh: `racesim run RACE --screenshot FILE --at S` draws a real frame without a display.
# Checks the BMP's header, that the track (asphalt, grass), several cars in their drivers' colours and the HUD's
# text are in it, that the same frame is drawn identically twice, that an unwritable path fails cleanly, and how --at
# is refused or warned about.
# usage: sh tests/render.test.sh PROGRAM BUILD_DIR      (prints "N passed, N failed" last)
prog="$1"
build="$2"
race=data/races/default.ini
out="$build/render-test"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

mkdir -p "$out"
if [ ! -f "$race" ]; then
    echo "render.test.sh: $race is missing, nothing to test"
    finish
fi

# unsigned little-endian integer of $3 bytes at offset $2 of file $1
le() { od -An -tu1 -j "$2" -N "$3" "$1" | awk '{ v = 0; for (i = NF; i >= 1; i--) v = v * 256 + $i; print v }'; }

shot="$out/at20.bmp"
rm -f "$shot"
if "$prog" run "$race" --screenshot "$shot" --at 20 >"$out/stdout" 2>"$out/stderr"; then ok; else bad "screenshot exit status"; cat "$out/stderr"; fi
[ -s "$shot" ] || { bad "no screenshot written"; finish; }

# header: "BM", 1280 x 800 (the default size), 24 bits per pixel
[ "$(head -c 2 "$shot")" = "BM" ] && ok || bad "not a BMP"
w=$(le "$shot" 18 4)
h=$(le "$shot" 22 4)
bpp=$(le "$shot" 28 2)
off=$(le "$shot" 10 4)
[ "$w" = 1280 ] && [ "$h" = 800 ] && ok || bad "size ${w}x${h}, expected 1280x800"
[ "$bpp" = 24 ] && ok || bad "bits per pixel $bpp, expected 24"

# one pass over the pixels (bottom-up rows; 1280*3 bytes per row needs no padding): per colour "rrggbb all right",
# where right counts pixels right of the HUD column, plus the count of light text pixels in the tower's corner
od -An -v -tx1 -w3 -j "$off" "$shot" |
    awk -v w="$w" -v h="$h" '{
        i = NR - 1; x = i % w; y = h - 1 - int(i / w); c = $3 $2 $1
        all[c]++
        if (x >= 400) right[c]++
        if (x < 350 && y < 300 && $3 >= "c8" && $2 >= "c8") text++
    } END { for (c in all) print c, all[c], right[c] + 0; print "text", text + 0, 0 }' >"$out/colours"
count() { awk -v c="$1" -v col="$2" '$1 == c { n = $col } END { print n + 0 }' "$out/colours"; }

grass=$(count 386832 2)      # RND_GRASS_RGB 56,104,50
asphalt=$(count 46484e 2)    # RND_ASPHALT_RGB 70,72,78
[ "$grass" -gt 200000 ] && ok || bad "grass pixels: $grass"
[ "$asphalt" -gt 2000 ] && ok || bad "asphalt pixels: $asphalt"

# cars: each driver's colour, counted right of the HUD column (the tower shows every colour as a chip)
seen=0
total=0
for d in $(sed -n 's/^driver *= *//p' "$race"); do
    f="data/races/$d"
    c=$(sed -n 's/^colour *= *#\([0-9a-fA-F]\{6\}\).*/\1/p' "$f" | tr 'A-F' 'a-f')
    [ -n "$c" ] || continue
    total=$((total + 1))
    n=$(count "$c" 3)
    [ "$n" -ge 6 ] && seen=$((seen + 1))
done
[ "$total" -gt 0 ] && [ "$seen" -ge 5 ] && ok || bad "cars in their colours: $seen of $total"

# HUD: light text on the dark tower at the top left
text=$(count text 2)
[ "$text" -gt 500 ] && ok || bad "HUD text pixels: $text"

# the same frame twice is the same file; another time is another picture
"$prog" run "$race" --screenshot "$out/again.bmp" --at 20 >/dev/null 2>&1
cmp -s "$shot" "$out/again.bmp" && ok || bad "two screenshots of the same moment differ"
"$prog" run "$race" --screenshot "$out/at5.bmp" --at 5 >/dev/null 2>&1
cmp -s "$shot" "$out/at5.bmp" && bad "screenshots at 5 s and 20 s are identical" || ok

# the director camera only reads the race: its frame at a moment is the same every time, and not the overview's
"$prog" run "$race" --screenshot "$out/tv1.bmp" --at 20 --camera director >/dev/null 2>&1
"$prog" run "$race" --screenshot "$out/tv2.bmp" --at 20 --camera director >/dev/null 2>&1
[ -s "$out/tv1.bmp" ] && cmp -s "$out/tv1.bmp" "$out/tv2.bmp" && ok || bad "two director screenshots of the same moment differ"
cmp -s "$shot" "$out/tv1.bmp" && bad "the director's screenshot is the overview's" || ok
"$prog" run "$race" --screenshot "$out/x.bmp" --camera sideways >/dev/null 2>"$out/err"
[ $? = 2 ] && grep -q "overview, follow or director" "$out/err" && ok || bad "--camera sideways: $(cat "$out/err")"

# an unwritable path: refused before anything is drawn (exit 2, bad usage) with a message naming the file
"$prog" run "$race" --screenshot /nonexistent-dir/x.bmp --at 1 >/dev/null 2>"$out/err"
rc=$?
[ "$rc" = 2 ] && grep -q "/nonexistent-dir/x.bmp" "$out/err" && ok || bad "unwritable path: exit $rc, $(cat "$out/err")"

# a .png name gets a PNG (chunks and checksums checked, pixels equal to the BMP of the same moment), and the
# results files asked for with a screenshot are written too (the same race, run again headless)
"$prog" run "$race" --screenshot "$out/at20.png" --at 20 --json "$out/shot.json" >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
    python3 - "$out/at20.png" "$shot" <<'PY' && ok || bad "the PNG screenshot is not the BMP's picture"
import struct, sys, zlib
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(png):
    n, kind = struct.unpack(">I4s", png[pos:pos + 8])
    body = png[pos + 8:pos + 8 + n]
    assert struct.unpack(">I", png[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
    if kind == b"IHDR":
        w, h = struct.unpack(">II", body[:8])
        assert body[8:10] == b"\x08\x02"
    if kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
assert len(raw) == h * (1 + 3 * w)
bmp = open(sys.argv[2], "rb").read()
off = struct.unpack("<I", bmp[10:14])[0]
for y in (0, h // 2, h - 1):
    row = raw[y * (1 + 3 * w) + 1:(y + 1) * (1 + 3 * w)]
    b = bmp[off + (h - 1 - y) * 3 * w:off + (h - y) * 3 * w]
    assert row == bytes(b[i + 2 - 2 * (i % 3)] for i in range(3 * w)), y
PY
fi
[ -s "$out/shot.json" ] && grep -q '"cars"' "$out/shot.json" && ok || bad "--json with --screenshot wrote nothing"

# --at: the moment of a screenshot or of the window; refused headless, refused without a display outside a
# screenshot, and a warning when it is past the finish (the picture then shows the end)
"$prog" run "$race" --headless --at 5 >/dev/null 2>"$out/err"
[ $? = 2 ] && grep -q "cannot be --headless" "$out/err" && ok || bad "--headless --at: $(cat "$out/err")"
DISPLAY= WAYLAND_DISPLAY= "$prog" run "$race" --at 5 >/dev/null 2>"$out/err"
[ $? = 2 ] && grep -q "no display" "$out/err" && ok || bad "--at without a display: $(cat "$out/err")"
"$prog" run "$race" --laps 1 --screenshot "$out/late.png" --at 100000 >/dev/null 2>"$out/err"
[ $? = 0 ] && [ -s "$out/late.png" ] && grep -q "past the end of the race" "$out/err" && ok ||
    bad "--at past the finish: $(cat "$out/err")"

[ -n "$RENDER_TEST_DEBUG" ] && echo "grass $grass asphalt $asphalt cars $seen/$total text $text"
rm -f "$out/colours"
finish
