#!/usr/bin/env python3
"""sprt-calibrate.py [REPS [MAX]]: the sequential A/B test's error rates and sample sizes, measured.

A true null has to perturb the races yet have no effect. A copy of A gives identical races (common random numbers),
so the null pairs A's race time on one seed with A's race time on another (seeds i and i + MAX of a block of
its own): the same driver, independent races. These pairs are written as `ab` records and judged by `racesim merge
--sprt` exactly as a sequential `ab` judges its pairs. The alternative is a real `ab --sprt` of grip use 0.97 (A)
against 0.95 (B). Both on race time, H0 0 s, H1 +0.5 s, alpha = beta = 0.05, at most MAX pairs, REPS repetitions on
separate seed ranges. The fixed-size paired t-test with the same error rates needs N = ((z_0.975 + z_0.95) sd / 0.5)^2
pairs, sd the standard deviation of the paired differences measured on 300 separate pairs. Run from the repository
root after `make`; prints one line per case."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 100
MAX = int(sys.argv[2]) if len(sys.argv) > 2 else 60
PROG, RACE = "./racesim", "tests/data/exp_race.ini"
A, COPY, B = "tests/data/ab_base.ini", "tests/data/ab_copy.ini", "tests/data/ab_grip95.ini"
SPRT = ["--metric", "time", "--sprt", "--h0", "0", "--h1", "0.5"]


def ab(b, seed, races, out=None, extra=()):
    cmd = [PROG, "ab", RACE, "--laps", "1", "--a", A, "--b", b, "--seed", str(seed), *extra]
    cmd += ["--races", str(races)] if races else []
    cmd += ["--out", out] if out else []
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def decision(report):
    m = re.search(r"^(H[01]) accepted after (\d+) pairs", report, re.M)
    return (m.group(1), int(m.group(2))) if m else ("none", MAX)


def wilson(k, n, z=1.96):
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, c - h), min(1.0, c + h)


def line(label, results):
    n = len(results)
    h1 = sum(1 for d, _ in results if d == "H1")
    h0 = sum(1 for d, _ in results if d == "H0")
    lo, hi = wilson(h1, n)
    mean = sum(p for _, p in results) / n
    print(f"{label}: H1 accepted {h1}/{n} ({100 * h1 / n:.0f} %, 95 % Wilson [{100 * lo:.0f}, {100 * hi:.0f}] %), "
          f"H0 {h0}/{n}, none {n - h1 - h0}/{n}; mean pairs {mean:.1f}")


with tempfile.TemporaryDirectory() as tmp:
    pool = os.path.join(tmp, "pool.jsonl")
    ab(COPY, 1_000_001, 2 * MAX * REPS, pool, ("--jobs", str(os.cpu_count() or 1)))
    records = [json.loads(x) for x in open(pool)]
    null = []
    for r in range(REPS):
        block = records[2 * MAX * r:2 * MAX * (r + 1)]
        path = os.path.join(tmp, f"null{r}.jsonl")
        with open(path, "w") as f:
            for first, second in zip(block[:MAX], block[MAX:]):
                rec = dict(first)
                rec["b"] = dict(second["a"])  # A again, in an independent race
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        rep = subprocess.run([PROG, "merge", path, *SPRT[:2], *SPRT[3:]] + ["--sprt"], check=True,
                             capture_output=True, text=True).stdout
        null.append(decision(rep))
    alt = [decision(ab(B, 2_000_001 + r * 10_000, 0, None, (*SPRT, "--max-races", str(MAX)))) for r in range(REPS)]
    fixed = ab(B, 3_000_001, 300, os.path.join(tmp, "fixed.jsonl"))
    diffs = [json.loads(x) for x in open(os.path.join(tmp, "fixed.jsonl"))]
    d = [x["b"]["time_s"] - x["a"]["time_s"] for x in diffs if x["a"]["status"] == x["b"]["status"] == "finished"]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
    n_fixed = math.ceil(((1.959964 + 1.644854) * sd / 0.5) ** 2)
    print(f"race time, H0 0 s, H1 +0.5 s, alpha = beta = 0.05, at most {MAX} pairs, {REPS} repetitions")
    line("null (A against A on independent seeds)", null)
    line("grip use 0.97 (A) against 0.95 (B)", alt)
    print(f"fixed-size paired t-test with the same error rates: sd of the differences {sd:.3f} s "
          f"(mean {mean:+.3f} s, {len(d)} pairs) -> N = {n_fixed} pairs")
