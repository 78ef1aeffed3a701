#!/bin/sh
# Installs what racesim needs from Debian's packages, only when something is missing.
# Works as root or through sudo; does nothing when everything is present. `install-deps.sh fuzz` adds clang.
set -e
need=""
pkg-config --exists sdl2 2>/dev/null || need="$need libsdl2-dev"
pkg-config --exists SDL2_ttf 2>/dev/null || need="$need libsdl2-ttf-dev"
pkg-config --exists inih 2>/dev/null || need="$need libinih-dev"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
command -v xvfb-run >/dev/null 2>&1 || need="$need xvfb xauth"
# `racesim run --video` pipes the viewer's frames to ffmpeg (its tests probe the clip with ffprobe)
command -v ffmpeg >/dev/null 2>&1 || need="$need ffmpeg"
# tests/window.test.sh drives a real window under Xvfb: xdotool presses the keys, ImageMagick's import captures it
command -v xdotool >/dev/null 2>&1 || need="$need xdotool"
command -v import >/dev/null 2>&1 || need="$need imagemagick"
command -v parallel >/dev/null 2>&1 || need="$need parallel"
# tests/experiments.test.sh compares a batch record with a run's JSON through python3's json module
command -v python3 >/dev/null 2>&1 || need="$need python3"
# tests/valgrind.test.sh (part of make test) runs a headless race under memcheck
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
# `install-deps.sh fuzz`: also clang with libFuzzer's runtime
if [ "$1" = fuzz ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need="$need libclang-rt-14-dev"
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "installing:$need" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $need >&2
