#!/bin/sh
# cli.test.sh: Unix conventions of the program: --version, and `make install` into a staging directory, after which
# the installed program finds its data from any directory.
# usage: tests/cli.test.sh PROGRAM BUILD_DIR
prog="$1"
build="${2:-build/opt}"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check "--version" [ "$("$prog" --version)" = "racesim 0.8.0" ]
check "version" [ "$("$prog" version)" = "racesim 0.8.0" ]
"$prog" --bogus >/dev/null 2>"$tmp/err"
check "an unknown command exits 2" [ $? -eq 2 ]
check "an unknown command is named" grep -q "unknown command '--bogus'" "$tmp/err"
root=$(pwd)
# the configuration that built BUILD_DIR, so that make installs that program and builds nothing
case "$build" in
    */san) conf="SAN=1" ;;
    */plain) conf="PGO=0" ;;
    *) conf="" ;;
esac
# shellcheck disable=SC2086
make --no-print-directory -s install $conf BUILD="$build" DESTDIR="$tmp/stage" PREFIX=/opt/racesim >/dev/null 2>"$tmp/install.err"
check "make install" [ -x "$tmp/stage/opt/racesim/bin/racesim" ]
check "the man page is installed" [ -f "$tmp/stage/opt/racesim/share/man/man1/racesim.1" ]
check "the data is installed" [ -f "$tmp/stage/opt/racesim/share/racesim/data/races/default.ini" ]
mkdir -p "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$tmp/stage/opt/racesim/bin/racesim" run --headless --quiet --laps 1 --json out.json)
check "the installed program runs the default race from another directory" [ -s "$tmp/elsewhere/out.json" ]
cd "$root"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
