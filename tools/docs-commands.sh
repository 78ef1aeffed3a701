#!/bin/sh
# docs-commands.sh [PROGRAM [DIR]]: writes DIR/commands.md and the man page DIR/racesim.1 (DIR: docs) from the
# program's own --help texts (tests/docs.test.sh checks that they are current). Run from the repository root.
prog="${1:-./racesim}"
dir="${2:-docs}"
out="$dir/commands.md"
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
    for c in run batch ab tune merge check baseline track; do
        echo
        echo "## racesim $c"
        echo
        echo '```'
        "$prog" "$c" --help 2>&1
        echo '```'
    done
} > "$tmp" && mv "$tmp" "$out"

# the man page, from the same texts
man="$dir/racesim.1"
tmp="$man.tmp.$$"
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
{
    echo ".TH RACESIM 1 \"$("$prog" --version | sed 's/racesim //')\" \"racesim\" \"User Commands\""
    echo ".SH NAME"
    echo "racesim \\- a racing-AI simulator with context-steering drivers"
    echo ".SH SYNOPSIS"
    echo ".B racesim"
    printf '%s\n' '[\fICMD\fR [\fIOPTIONS\fR...]]'
    echo ".SH DESCRIPTION"
    echo ".nf"
    "$prog" --help | esc
    echo ".fi"
    echo ".SH COMMANDS"
    for c in run batch ab tune merge check baseline track; do
        echo ".SS racesim $c"
        echo ".nf"
        "$prog" "$c" --help 2>&1 | esc
        echo ".fi"
    done
    echo ".SH EXIT STATUS"
    echo "0 ok, 1 a failed check or run, 2 bad usage or a bad file (path:line: what is wrong)."
    echo ".SH FILES"
    echo "data/races/default.ini in the current directory, else PREFIX/share/racesim/data/races/default.ini."
    echo ".SH SEE ALSO"
    echo "The documentation in docs/ of the source tree: formats, commands, experiments, regression, viewer."
} > "$tmp" && mv "$tmp" "$man"
