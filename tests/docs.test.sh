#!/bin/sh
# docs.test.sh: the documentation stays in step with the program: docs/commands.md and the man page docs/racesim.1
# are what tools/docs-commands.sh makes from the --help texts, the man page renders without warnings, and the
# README's personality example is docs/personality-example.ini.
# usage: tests/docs.test.sh PROGRAM
prog="$1"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh tools/docs-commands.sh "$prog" "$tmp"
check "docs/commands.md is current (sh tools/docs-commands.sh)" cmp -s "$tmp/commands.md" docs/commands.md
check "docs/racesim.1 is current (sh tools/docs-commands.sh)" cmp -s "$tmp/racesim.1" docs/racesim.1
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww docs/racesim.1 >"$tmp/man.txt" 2>"$tmp/groff.err"
    check "the man page renders without warnings" [ ! -s "$tmp/groff.err" ]
    check "the man page documents run --trace" grep -q -- "--trace FILE.csv" "$tmp/man.txt"
else
    echo "skipped: groff not installed (man page rendering)"
fi
python3 - README.md docs/personality-example.ini <<'PY'
import sys
readme = open(sys.argv[1]).read()
example = open(sys.argv[2]).read()
body = example[example.index("[driver]"):].rstrip("\n")
sys.exit(0 if ("```ini\n" + body + "\n```") in readme else 1)
PY
check "README shows docs/personality-example.ini" [ $? -eq 0 ]
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
