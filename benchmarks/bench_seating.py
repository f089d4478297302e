"""Seating a club night: 100 players × 5 games at tables of 3 to 5 (Chaud Devant) and 3 to 6 (Sus au
buffet !): time, pairs that meet again, most deals by one player; against a random draw (the baseline)
at the same table sizes, over several seeds.

Usage: python benchmarks/bench_seating.py [--players 100] [--games 5] [--seeds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from club.games import ClubGames
from club.seating import History, random_night, seat_night
from marmite.games import GAMES

SIZES = {name: facts.players for name, facts in ClubGames(GAMES).facts.items()}
"""Players per table of each hosted game, as each game states them."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    names = [f"Player {i}" for i in range(args.players)]
    print(f"{args.players} players × {args.games} games, {args.seeds} seeds (mean; worst in brackets)\n")
    print("| game | method | time | pairs met again | most deals by one player |")
    print("|---|---|---|---|---|")
    slowest = 0.0
    for game in sorted(SIZES):
        rows: dict[str, list[tuple[float, int, int]]] = {"Marmite seating": [], "random draw (baseline)": []}
        for seed in range(args.seeds):
            history = History()
            began = time.perf_counter()
            seat_night(names, args.games, sizes=SIZES[game], seed=seed, history=history)
            took = time.perf_counter() - began
            slowest = max(slowest, took)
            rows["Marmite seating"].append((took, history.repeated_pairs(), max(history.dealt.values())))
            began = time.perf_counter()
            baseline = random_night(names, args.games, sizes=SIZES[game], seed=seed)
            rows["random draw (baseline)"].append((time.perf_counter() - began, baseline.repeated_pairs(),
                                                   max(baseline.dealt.values())))
        for method, figures in rows.items():
            times, pairs, deals = zip(*figures, strict=True)
            print(f"| {game} | {method} | {statistics.fmean(times) * 1000:.0f} ms ({max(times) * 1000:.0f}) | "
                  f"{statistics.fmean(pairs):.1f} ({max(pairs)}) | {statistics.fmean(deals):.1f} ({max(deals)}) |")
    print(f"\ntarget (≤ 10 s per night): {'met' if slowest <= 10 else 'NOT met'} (slowest {slowest:.2f} s)")
    return 0 if slowest <= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
