# summarize.awk: per-race figures of `racesim batch --out` JSON lines, with 95% confidence intervals.
#   awk -f data/races/experiments/summarize.awk A.jsonl [B.jsonl]
# For each file: races, collisions per race, overtakes per race, mean race time of the finishers (s), off-track
# time per race (s, all cars), DNFs per race; mean +- 1.96 standard errors. With two files run on the same seeds,
# also the paired difference B - A per race with its 95% interval (seed by seed: same grid, same track).
# With -v md=1, one Markdown table row per file instead (the README's tables).
function grab(line, key,    m) {
    if (match(line, "\"" key "\":[-0-9.eE+]+")) { m = substr(line, RSTART, RLENGTH); sub(/^[^:]*:/, "", m); return m + 0 }
    return 0
}
function add(f, k, x) { n[f, k]++; s[f, k] += x; ss[f, k] += x * x; val[f, k, n[f, k]] = x }
function mean(f, k) { return s[f, k] / n[f, k] }
function ci(f, k,    m, v) { m = mean(f, k); v = (ss[f, k] - n[f, k] * m * m) / (n[f, k] - 1); return 1.96 * sqrt(v > 0 ? v / n[f, k] : 0) }
FNR == 1 { nf++; name[nf] = FILENAME }
{
    line = $0
    tot = line; sub(/.*"totals":\{/, "", tot); sub(/\}.*/, "", tot)
    add(nf, "collisions", grab(tot, "collisions"))
    add(nf, "overtakes", grab(tot, "overtakes"))
    rest = line; sub(/.*"cars":\[/, "", rest)
    off = 0; tsum = 0; fin = 0; dnf = 0
    while (match(rest, /\{[^{}]*\}/)) {
        car = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
        off += grab(car, "offtrack_s")
        if (car ~ /"status":"finished"/) { tsum += grab(car, "time_s"); fin++ } else dnf++
    }
    add(nf, "time_s", fin ? tsum / fin : 0)
    add(nf, "offtrack_s", off)
    add(nf, "dnfs", dnf)
}
END {
    split("collisions overtakes time_s offtrack_s dnfs", keys, " ")
    if (md) {
        for (f = 1; f <= nf; f++) {
            label = name[f]; sub(/.*\//, "", label); sub(/\.jsonl$/, "", label)
            printf "| %s | %d", label, n[f, "collisions"]
            for (i = 1; i <= 4; i++) printf " | %.2f ± %.2f", mean(f, keys[i]), ci(f, keys[i])
            printf " | %.3f |\n", mean(f, "dnfs")
        }
        exit
    }
    for (f = 1; f <= nf; f++) {
        printf "%s (%d races)\n", name[f], n[f, "collisions"]
        for (i = 1; i <= 5; i++) printf "  %-11s %9.3f +- %.3f\n", keys[i], mean(f, keys[i]), ci(f, keys[i])
    }
    if (nf == 2 && n[1, "collisions"] == n[2, "collisions"]) {
        printf "paired difference B - A (B = %s)\n", name[2]
        for (i = 1; i <= 5; i++) {
            k = keys[i]; ds = 0; dss = 0; m = n[1, k]
            for (j = 1; j <= m; j++) { d = val[2, k, j] - val[1, k, j]; ds += d; dss += d * d }
            dm = ds / m; dv = (dss - m * dm * dm) / (m - 1)
            printf "  %-11s %+9.3f +- %.3f\n", k, dm, 1.96 * sqrt(dv > 0 ? dv / m : 0)
        }
    }
}
