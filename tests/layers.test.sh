#!/bin/sh
# layers.test.sh: what the public headers hide. trk.h keeps the track and the speed profile opaque (their layout is
# in track/trk_fast.h, which only the per-tick code of sim/ and drivers/ includes), and a file that includes trk.h
# alone still compiles every look-up as a plain call.
# usage: sh tests/layers.test.sh PROGRAM BUILD_DIR   (run from the repository root; prints "N passed, N failed")
build="${2:-build/opt}"
cc="${CC:-cc}"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
tmp="$build/tests/layers.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
compiles() { # compiles FILE: the C file compiles with the project's warnings
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "$1" 2>"$tmp/cc.err"
}
refused() { # refused FILE WORD: the file does not compile, and the compiler says why with WORD (not a typo of ours)
    ! "$cc" -std=c11 -fsyntax-only "$1" 2>"$tmp/cc.err" && grep -q "$2" "$tmp/cc.err"
}
root=$(pwd)

printf '#include "%s/track/trk.h"\nsize_t n(void) { return sizeof(TrkTrack); }\n' "$root" >"$tmp/size_track.c"
check "trk.h hides TrkTrack's layout" refused "$tmp/size_track.c" incomplete
printf '#include "%s/track/trk.h"\nsize_t n(void) { return sizeof(TrkSpeedProfile); }\n' "$root" >"$tmp/size_prof.c"
check "trk.h hides TrkSpeedProfile's layout" refused "$tmp/size_prof.c" incomplete
printf '#include "%s/track/trk_fast.h"\nsize_t n(void) { return sizeof(TrkTrack) + sizeof(TrkSpeedProfile); }\n' \
    "$root" >"$tmp/size_fast.c"
check "trk_fast.h has the layout" compiles "$tmp/size_fast.c"
cat >"$tmp/calls.c" <<EOF
#include "$root/track/trk.h"
double f(const TrkTrack *t, const TrkSpeedProfile *p, double s)
{
    double line[2], speed[2], v, at[2] = {s, s + 1.0};
    TrkSpot a = trk_spot_speed_at(t, p, s, NULL, &v);
    trk_line_speed_n(t, p, at, line, speed, 2);
    trk_line_d_n(t, at, line, 2);
    return trk_wrap_s(t, s) + trk_geometry_at(t, s, NULL).kappa + trk_spot_at(t, s, NULL).left_m + a.kappa
           + trk_speed_at(p, s, NULL) + line[0] + speed[1];
}
EOF
check "the look-ups compile from trk.h alone" compiles "$tmp/calls.c"

# only the per-tick code opts into the layout
grep -rlE '#include "(\.\./track/)?trk_fast\.h"' app bench drivers lab render sim track | sort >"$tmp/users"
printf '%s\n' bench/bench_sim.c drivers/drv_beh.h drivers/drv_internal.h sim/sim_internal.h track/trk_internal.h \
    >"$tmp/users.want"
check "trk_fast.h is included by the hot path only" cmp -s "$tmp/users" "$tmp/users.want"

[ "$fail" -eq 0 ] && rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
