#!/bin/sh
# cli_parse.test.sh: command lines the fuzzer (tests/fuzz/fuzz_cli.c) found mishandled, each refused at once with a
# message that names what is wrong: an empty file name, an unknown letter inside a cluster of short options, a value
# given to an option that takes none, a chart path that cannot be written (checked before anything runs), and a
# tolerance given to `baseline compare` as 0.
# usage: tests/cli_parse.test.sh PROGRAM [BUILD_DIR]
prog="$1"
pass=0
fail=0
check() {
    name="$1"; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
race=data/races/default.ini
driver=data/drivers/ace.ini
# refused: exit status 2, nothing on stdout, the expected message on stderr
refused() {
    name="$1"; want="$2"; shift 2
    "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "$name: exit 2" [ "$rc" -eq 2 ]
    check "$name: nothing on stdout" [ ! -s "$tmp/out" ]
    if ! grep -qF -- "$want" "$tmp/err"; then
        echo "  stderr was:"; sed 's/^/    /' "$tmp/err"
        check "$name: says $want" false
    else
        pass=$((pass + 1))
    fi
}
refused "run ''" "racesim run: RACE.ini: expected a file path, got ''" run ''
refused "batch --out=" "racesim batch: --out: expected a file path, got ''" batch "$race" --races 1 --out=
refused "ab --a ''" "racesim ab: --a: expected a file path, got ''" ab "$race" --a '' --b "$driver" --races 1
refused "tune --driver ''" "racesim tune: --driver: expected a file path, got ''" \
    tune "$race" --driver '' --param behaviour.skirt=0:1 --iterations 1
refused "merge ''" "racesim merge: PART.jsonl: expected a file path, got ''" merge ''
refused "check ''" "racesim check: FILE_OR_DIR: expected a file path, got ''" check ''
refused "baseline compare ''" "racesim baseline: FILE: expected a file path, got ''" baseline compare ''
refused "track --export=" "racesim track: --export: expected a file path, got ''" track data/tracks/gp.ini --export=
refused "run -xq" "racesim run: unknown option '-x'" run -xq
refused "tune -ra" "racesim tune: unknown option '-r'" tune -ra
refused "run --headless=3" "racesim run: --headless takes no value" run --headless=3
refused "batch --resume=1" "racesim batch: --resume takes no value" batch "$race" --races 1 --resume=1
# a tolerance belongs to the recorded file: compare refused one given as 0 too (it saw only nonzero values)
refused "baseline compare --tol-orders 0" "racesim baseline: compare takes only --jobs" \
    baseline compare base.txt --tol-orders 0
# an unwritable chart stops ab before the first pair (it used to fail only after the last one, report printed)
refused "ab --chart /nonexistent" "racesim ab: cannot write '/nonexistent/x.svg'" \
    ab "$race" --a "$driver" --b "$driver" --races 50 --chart /nonexistent/x.svg
# and merge before it reads its parts (this part does not exist: the chart is the first complaint)
refused "merge --chart /nonexistent" "racesim merge: cannot write '/nonexistent/x.svg'" \
    merge --chart /nonexistent/x.svg "$tmp/missing.jsonl"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
