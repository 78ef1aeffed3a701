#!/bin/sh
# docs.test.sh: the documentation stays in step with the program: docs/commands.md holds every command's --help text
# as the program prints it, and the README's personality example is docs/personality-example.ini.
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
for c in run batch ab merge check baseline track; do
    "$prog" "$c" --help > "$tmp/$c.txt" 2>&1
    # the help text must appear in docs/commands.md line for line, in one fenced block
    python3 - "$tmp/$c.txt" docs/commands.md <<'PY'
import sys
help_text = open(sys.argv[1]).read().rstrip("\n")
doc = open(sys.argv[2]).read()
sys.exit(0 if ("```\n" + help_text + "\n```") in doc else 1)
PY
    check "docs/commands.md has the current 'racesim $c --help'" [ $? -eq 0 ]
done
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
