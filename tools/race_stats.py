#!/usr/bin/env python3
"""race_stats.py: per-seed overtakes, collisions, off-track events and seconds, worst car off-track and DNFs of a race
over seeds 1-20 (two runs at a time), with averages.
usage: tools/race_stats.py RACESIM OUTDIR [--shuffle-grid] [RACE.ini] [SEEDS e.g. 1,2,3]"""
import json, subprocess, sys, os
from concurrent.futures import ThreadPoolExecutor
binp, outdir = sys.argv[1], sys.argv[2]
shuffle = '--shuffle-grid' in sys.argv
rest = [a for a in sys.argv[3:] if a != '--shuffle-grid']
race = rest[0] if rest else 'data/races/default.ini'
seeds = range(1, 21) if len(rest) < 2 else [int(x) for x in rest[1].split(',')]
os.makedirs(outdir, exist_ok=True)
def run(s):
    f = f'{outdir}/seed{s}{"_sh" if shuffle else ""}.json'
    cmd = [binp, 'run', race, '--headless', '--quiet', '--seed', str(s), '--json', f] + (['--shuffle-grid'] if shuffle else [])
    subprocess.run(cmd, cwd=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'), check=True)
    return s, json.load(open(f))
with ThreadPoolExecutor(2) as ex:
    res = list(ex.map(run, seeds))
print(f"{'seed':>4} {'ovt':>4} {'coll':>4} {'offev':>5} {'off_s':>6} {'worst':>6} {'>3s':>3} {'dnf':>3}")
tot = [0]*6
for s, d in res:
    t = d['totals']; cars = d['cars']
    off_s = sum(c['offtrack_s'] for c in cars); worst = max(c['offtrack_s'] for c in cars)
    over3 = sum(1 for c in cars if c['offtrack_s'] > 3.0)
    dnf = sum(1 for c in cars if c['status'] != 'finished')
    print(f"{s:>4} {t['overtakes']:>4} {t['collisions']:>4} {t['offtracks']:>5} {off_s:>6.1f} {worst:>6.1f} {over3:>3} {dnf:>3}")
    for i, v in enumerate([t['overtakes'], t['collisions'], t['offtracks'], off_s, worst, dnf]): tot[i] += v
n = len(res)
print(f"{'avg':>4} {tot[0]/n:>4.1f} {tot[1]/n:>4.2f} {tot[2]/n:>5.1f} {tot[3]/n:>6.1f} {tot[4]/n:>6.1f} {'':>3} {tot[5]:>3}")
print(f"max worst-car off-track: {max(max(c['offtrack_s'] for c in d['cars']) for s,d in res):.1f} s")
