"""Replay throughput of this checkout against a baseline checkout, run alternately in one session.

Run: `.venv/bin/python benchmarks/paired_replay.py BASELINE_DIR [--rounds N] [--games G] [--repeat R]`,
with BASELINE_DIR another checkout of the project (e.g. `git worktree add --detach ../base main`).
Each round runs `bench_replay.py` (Chaud Devant) and `bench_replay_buffet.py` (Sus au buffet !) of
the baseline, then of this checkout, each in its own process with its own checkout first on the
path; on a shared machine, alternating pairs keep both sides under the same load. Not run by
`run_all.py` (it needs a baseline).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = (("chaud_devant", "bench_replay.py"), ("buffet", "bench_replay_buffet.py"))
LINE = re.compile(r"^(clean|table noise)\s.*?fold\s+([\d,]+) ev/s.*?replay path\s+([\d,]+) ev/s", re.M)


def run(checkout: Path, script: str, games: int, repeat: int) -> dict[str, tuple[int, int]]:
    """{noise: (fold ev/s, replay path ev/s)} from one bench run of `checkout`."""
    command = [sys.executable, str(checkout / "benchmarks" / script), "--games", str(games), "--repeat", str(repeat)]
    out = subprocess.run(command, cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)}, capture_output=True,
                         text=True, check=True).stdout
    return {noise: (int(fold.replace(",", "")), int(path.replace(",", ""))) for noise, fold, path in LINE.findall(out)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sides = {"baseline": args.baseline.resolve(), "this": HERE.parent}
    results: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
    for number in range(1, args.rounds + 1):
        for game, script in BENCHES:
            for side, checkout in sides.items():
                for noise, rates in run(checkout, script, args.games, args.repeat).items():
                    results.setdefault((game, noise, side), []).append(rates)
                    print(f"round {number} {game:12} {noise:11} {side:8} fold {rates[0]:>8,} ev/s  "
                          f"replay path {rates[1]:>8,} ev/s", flush=True)
    print(f"\nmedian of {args.rounds} rounds (each the median of {args.repeat} timed runs over {args.games} games)")
    for game, _ in BENCHES:
        for noise in ("clean", "table noise"):
            base = [fold for fold, _ in results[(game, noise, "baseline")]]
            this = [fold for fold, _ in results[(game, noise, "this")]]
            ratios = [t / b for t, b in zip(this, base, strict=True)]
            print(f"{game:12} {noise:11} fold baseline {statistics.median(base):>9,.0f}  this "
                  f"{statistics.median(this):>9,.0f} ev/s  paired ratio median {statistics.median(ratios):.2f} "
                  f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
