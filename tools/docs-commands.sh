#!/bin/sh
# docs-commands.sh [PROGRAM]: writes docs/commands.md from the program's own --help texts (tests/docs.test.sh checks
# that it is current). Run from the repository root after `make`.
prog="${1:-./racesim}"
out=docs/commands.md
tmp="$out.tmp.$$"
{
    echo "# Commands"
    echo
    echo "Every command documents itself with \`racesim CMD --help\`; this page collects those texts (regenerate it with"
    echo "\`sh tools/docs-commands.sh\`). Exit status: 0 ok, 1 a failed check or run, 2 bad usage or a bad file"
    echo "(\`path:line: what is wrong\`)."
    echo
    echo '```'
    "$prog" --help
    echo '```'
    for c in run batch ab merge check baseline track; do
        echo
        echo "## racesim $c"
        echo
        echo '```'
        "$prog" "$c" --help 2>&1
        echo '```'
    done
} > "$tmp" && mv "$tmp" "$out"
