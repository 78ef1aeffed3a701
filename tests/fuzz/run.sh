#!/bin/sh
# Runs every fuzz harness in build/fuzz for SECONDS each, seeded with the project's own files, then replays the
# saved regression inputs. Exits non-zero when a harness finds a crash (its input is left in build/fuzz/).
secs="${1:-30}"
status=0
corpus_for() {
    case "$1" in
        fuzz_track_ini) echo "data/tracks tests/fuzz/regress/track_ini" ;;
        fuzz_track_csv) echo "tests/data/tracks tests/fuzz/regress/track_csv" ;;
        fuzz_driver_ini) echo "data/drivers tests/fuzz/regress/driver_ini" ;;
        fuzz_race_ini) echo "data/races tests/scenarios tests/fuzz/regress/race_ini" ;;
        *) echo "tests/fuzz/regress/${1#fuzz_}" ;;
    esac
}
for bin in build/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    work="build/fuzz/corpus/$name"
    mkdir -p "$work"
    # seed files are copied into a scratch corpus so the fuzzer never writes into the repository
    for dir in $(corpus_for "$name"); do
        [ -d "$dir" ] && find "$dir" -maxdepth 1 -type f -exec cp {} "$work/" \;
    done
    echo "== $name for ${secs}s"
    if ! "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -artifact_prefix=build/fuzz/ \
        -print_final_stats=0 "$work" >"build/fuzz/$name.log" 2>&1; then
        tail -n 40 "build/fuzz/$name.log"
        echo "FAIL $name: a crashing input was saved in build/fuzz/"
        status=1
    else
        grep -E '^#[0-9]+.*DONE' "build/fuzz/$name.log" | tail -n 1
    fi
done
exit $status
