"""Replay fold throughput of this checkout against a baseline checkout, interleaved run by run.

Run: `.venv/bin/python benchmarks/paired_replay.py BASELINE_DIR [--pairs N] [--games G] [--cpu]`, with
BASELINE_DIR another checkout of the project (e.g. `git worktree add --detach ../base main`).
For each game (Chaud Devant, Sus au buffet !) and noise level (clean, table noise), one worker
process per checkout (its own checkout first on the path) generates the same seeded games with its
own `bench_replay*.make_games`, then both fold them in turn, N times (who goes first alternates).
Each pair runs seconds apart, so on a shared machine both sides meet the same load, and the
median of the paired ratios is the figure to trust. Not run by `run_all.py` (it needs a baseline).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MODULES = {"chaud_devant": "bench_replay", "buffet": "bench_replay_buffet"}


def worker(game: str, noise: str, count: int, cpu: bool = False) -> None:
    """Generate the games, say how many events, then fold them once per line read; print events/s."""
    checkout = Path(os.environ["PYTHONPATH"])
    sys.path[:0] = [str(checkout), str(checkout / "benchmarks")]
    module = __import__(MODULES[game])
    fold_all = __import__("bench_replay").fold_all  # Referee.apply on every event, for any game
    simulate = __import__(f"companion.{game}.simulate", fromlist=["NO_NOISE"])
    games = module.make_games(count, simulate.NO_NOISE if noise == "clean" else simulate.TABLE_NOISE)
    events = sum(len(events) for events in games)
    print(events, work(game, games, fold_all), flush=True)
    clock = time.process_time if cpu else time.perf_counter
    for _ in sys.stdin:
        start = clock()
        fold_all(games)
        print(events / (clock() - start), flush=True)


def work(game: str, games: list[Any], fold_all: Any) -> str:
    """The work of one untimed fold, independent of the machine's load: State.apply and snapshot calls."""
    state = __import__(f"companion.{game}.state", fromlist=["State"]).State
    counts = {"apply": 0, "snapshot": 0}

    def counted(name: str) -> Any:
        original = getattr(state, name)

        def call(self: Any, *args: Any) -> Any:
            counts[name] += 1
            return original(self, *args)

        return original, call

    originals = {name: counted(name) for name in counts if hasattr(state, name)}
    for name, (_, call) in originals.items():
        setattr(state, name, call)
    fold_all(games)
    for name, (original, _) in originals.items():
        setattr(state, name, original)
    return f"{counts['apply']} {counts['snapshot']}"


def start(checkout: Path, game: str, noise: str, count: int,
          cpu: bool) -> tuple[subprocess.Popen[str], int, int, int]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", game, noise, "--games", str(count),
               *(["--cpu"] if cpu else [])]
    process = subprocess.Popen(command, cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)},
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    events, applies, snapshots = (int(word) for word in process.stdout.readline().split())
    return process, events, applies, snapshots


def timed(process: subprocess.Popen[str]) -> float:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("fold\n")
    process.stdin.flush()
    return float(process.stdout.readline())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("baseline", type=Path, nargs="?")
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--worker", nargs=2, metavar=("GAME", "NOISE"))
    parser.add_argument("--cpu", action="store_true",
                        help="time each fold by the worker's CPU time, not the wall clock (load moves it less)")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], args.games, args.cpu)
        return 0
    if args.baseline is None:
        parser.error("give a baseline checkout")
    clock = "CPU time" if args.cpu else "wall time"
    print(f"python {sys.version.split()[0]}, {args.games} games per side, {args.pairs} interleaved pairs, {clock}")
    for game in MODULES:
        for noise in ("clean", "table noise"):
            sides: dict[str, Any] = {name: start(path, game, noise, args.games, args.cpu) for name, path in
                                     (("baseline", args.baseline.resolve()), ("this", HERE.parent))}
            if sides["baseline"][1] != sides["this"][1]:
                raise SystemExit(f"{game} {noise}: the two checkouts made different games")
            rates: dict[str, list[float]] = {"baseline": [], "this": []}
            for number in range(args.pairs):
                order = ("baseline", "this") if number % 2 == 0 else ("this", "baseline")  # no side always first
                for name in order:
                    rates[name].append(timed(sides[name][0]))
            for process, *_counts in sides.values():
                process.communicate("")
            ratios = [this / base for this, base in zip(rates["this"], rates["baseline"], strict=True)]
            print(f"{game:12} {noise:11} {sides['this'][1]:>7} events: fold baseline "
                  f"{statistics.median(rates['baseline']):>9,.0f} (best {max(rates['baseline']):,.0f})  this "
                  f"{statistics.median(rates['this']):>9,.0f} (best {max(rates['this']):,.0f}) ev/s  "
                  f"paired ratio median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, "
                  f"max {max(ratios):.2f})", flush=True)
            for name, (_, events, applies, snapshots) in sides.items():
                print(f"{'':24} {name:8} work: State.apply {applies:,} ({applies / events:.2f} per event), "
                      f"snapshots {snapshots:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
