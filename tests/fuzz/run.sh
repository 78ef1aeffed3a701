#!/bin/sh
# Runs every fuzz harness in build/fuzz for SECONDS each, seeded with the project's own files (data/, tests/) and
# the saved regression inputs. Exits non-zero when a harness finds a crash (its input is left in build/fuzz/ as
# crash-*, leak-* or timeout-*; copy it into tests/fuzz/regress/<target>/ and fix the parser).
# usage: sh tests/fuzz/run.sh [SECONDS]
secs="${1:-30}"
status=0
corpus_for() {
    case "$1" in
        fuzz_track_ini) echo "data/tracks tests/data/sim" ;;
        fuzz_track_csv) echo "tests/fuzz/seeds/track_csv" ;;
        fuzz_track_xml) echo "tests/data/torcs tests/fuzz/seeds/track_xml" ;;
        fuzz_driver_ini) echo "data/drivers tests/scenarios/drivers" ;;
        fuzz_car_ini) echo "tests/data/sim" ;;
        fuzz_race_ini) echo "data/races tests/scenarios tests/scenarios/compare tests/data tests/data/sim" \
            "tests/fuzz/seeds/race_ini" ;;
        fuzz_baseline) echo "tests/fuzz/seeds/baseline" ;;
        fuzz_record) echo "tests/fuzz/seeds/record" ;;
        fuzz_cli) echo "tests/fuzz/seeds/cli" ;;
    esac
    echo "tests/fuzz/regress/${1#fuzz_}"
}
total=0
for bin in build/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    work="build/fuzz/corpus/$name"
    mkdir -p "$work"
    # seed files are copied into a scratch corpus so the fuzzer never writes into the repository
    for dir in $(corpus_for "$name"); do
        [ -d "$dir" ] && find "$dir" -maxdepth 1 -type f -exec cp {} "$work/" \;
    done
    if ! "$bin" -max_total_time="$secs" -max_len=16384 -timeout=20 -rss_limit_mb=2048 \
        -artifact_prefix="build/fuzz/$name-" -print_final_stats=1 "$work" >"build/fuzz/$name.log" 2>&1; then
        tail -n 40 "build/fuzz/$name.log"
        echo "FAIL $name: a crashing input was saved as build/fuzz/$name-*"
        status=1
    fi
    runs=$(grep -E '^stat::number_of_executed_units' "build/fuzz/$name.log" | awk '{print $2}')
    cov=$(grep -E '^#[0-9]+' "build/fuzz/$name.log" | tail -n 1 | sed -E 's/.*cov: ([0-9]+).*/\1/')
    echo "$name: ${runs:-0} runs in ${secs}s, coverage ${cov:-?} edges, corpus $(ls "$work" | wc -l) inputs"
    total=$((total + 1))
done
if [ "$total" -eq 0 ]; then
    echo "no fuzz harness built (run make fuzz)"
    exit 1
fi
exit $status
