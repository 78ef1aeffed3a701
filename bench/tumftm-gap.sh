#!/bin/sh
# The min-curvature racing line against TUMFTM's published minimum-curvature lines: the default car's quasi-steady
# lap on the project's min-curvature line (`racesim track --line min-curvature`) and on TUMFTM's line (its points
# loaded as a track of their own, lap on that centre line), and the gap in per cent. A second column re-evaluates the project's line the way TUMFTM's is (its
# exported points, every 5 m like theirs, loaded as a track), so the curvature estimator is the same for both.
# usage: sh bench/tumftm-gap.sh PROGRAM TRACKS_DIR RACELINES_DIR [OUT_DIR]
#   TRACKS_DIR: the circuits' centrelines (data/tracks/tumftm or ../shared/tracks)
#   RACELINES_DIR: racelines/ of a checkout of github.com/TUMFTM/racetrack-database (not shipped here)
# Prints one row per circuit: name, project lap, TUMFTM lap, gap %, project lap re-evaluated, gap %.
prog="$1"
tracks="$2"
lines="$3"
out="${4:-${TMPDIR:-/tmp}/racesim-tumftm-gap}"
mkdir -p "$out" || exit 2
lap_of() { # FILE, which ("centre line" or "racing line") -> seconds
    "$prog" track --line min-curvature "$1" 2>/dev/null | sed -n "s/.*lap, $2: \([0-9]*\):\([0-9.]*\).*/\1 \2/p" |
        awk '{ printf "%.3f\n", $1 * 60 + $2 }'
}
# x, y points as a track 0.5 m wide each side: its centre line is the line itself
as_track() { # IN, OUT, awk filter on NR
    awk -F, "$3"' && !/^#/ { printf "%s,%s,0.5,0.5\n", $1, $2 }' "$1" > "$2"
}
status=0
printf '%-12s %9s %9s %7s %9s %7s\n' track project tumftm gap% reeval gap%
for t in Spielberg Norisring BrandsHatch; do
    [ -f "$tracks/$t.csv" ] && [ -f "$lines/$t.csv" ] || { echo "$t: missing in $tracks or $lines"; status=2; continue; }
    own=$(lap_of "$tracks/$t.csv" "racing line")
    as_track "$lines/$t.csv" "$out/$t-tumftm.csv" 1
    ref=$(lap_of "$out/$t-tumftm.csv" "centre line")
    "$prog" track --line min-curvature "$tracks/$t.csv" --export "$out/$t-line.csv" >/dev/null 2>&1 || status=2
    awk -F, 'NR > 1 && (NR - 2) % 5 == 0 { print $5 "," $6 }' "$out/$t-line.csv" | sed '$d' > "$out/$t-own.xy"
    as_track "$out/$t-own.xy" "$out/$t-own.csv" 1
    re=$(lap_of "$out/$t-own.csv" "centre line")
    if [ -z "$own" ] || [ -z "$ref" ] || [ -z "$re" ]; then echo "$t: no lap time"; status=2; continue; fi
    awk -v t="$t" -v a="$own" -v b="$ref" -v c="$re" \
        'BEGIN { printf "%-12s %9.3f %9.3f %+7.2f %9.3f %+7.2f\n", t, a, b, 100 * (a - b) / b, c, 100 * (c - b) / b }'
done
exit $status
