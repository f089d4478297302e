"""Replay throughput: events per second folded by the referee over 1,000 random whole games.

Run: `.venv/bin/python benchmarks/bench_replay.py [--games N] [--repeat R]`. Single core (one
process, one thread). Games are generated first (not timed) by `companion.chaud_devant.simulate`; the timed
part is the pure fold (`Referee.apply` on every event), then the whole `marmite replay` path
(JSON parsing, fold, state object) for comparison. Target: >= 50,000 events/s for the fold.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.chaud_devant.simulate import NO_NOISE, TABLE_NOISE, Noise, random_game
from companion.referee import Referee
from companion.replay import parse_log, replay
from marmite.games import GAMES

TARGET = 50_000


def make_games(count: int, noise: Noise, seed: int = 1) -> list[list[dict[str, Any]]]:
    """`count` whole games over every table size, edition, reveal mode and some known hands."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        players = rng.choice((3, 4, 5))
        known = rng.sample(range(players), rng.choice((0, 0, 1, players)))
        games.append(random_game(rng, players=players, edition=rng.choice(("2005", "2023")),
                                 menu_reveal=rng.choice(("simultaneous", "sequential")),
                                 known_hands=known, noise=noise))
    return games


def fold_all(games: list[list[dict[str, Any]]]) -> None:
    for events in games:
        referee = Referee(GAMES)
        for event in events:
            referee.apply(event)


def replay_all(logs: list[list[str]]) -> None:
    for lines in logs:
        replay(parse_log(lines, GAMES), GAMES)


def rate(run: Any, data: Any, events: int, repeat: int) -> tuple[float, float]:
    """Median and best events/s over `repeat` timed runs."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(data)
        rates.append(events / (time.perf_counter() - start))
    return statistics.median(rates), max(rates)


GameMaker = Callable[[int, Any], list[list[dict[str, Any]]]]


def report(what: str, make: GameMaker, noises: tuple[tuple[str, Any], ...]) -> int:
    """Time the fold and the `marmite replay` path over `--games` games from `make`, per noise level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.games} {what}, median (best) of {args.repeat} runs")
    for label, noise in noises:
        games = make(args.games, noise)
        events = sum(len(game) for game in games)
        fold_median, fold_best = rate(fold_all, games, events, args.repeat)
        logs = [[json.dumps(event, ensure_ascii=False) for event in game] for game in games]
        replay_median, replay_best = rate(replay_all, logs, events, args.repeat)
        verdict = "meets" if fold_median >= TARGET else "BELOW"
        print(f"{label:12} {events:>7} events ({events / len(games):.0f}/game): "
              f"fold {fold_median:>9,.0f} ev/s ({fold_best:,.0f}) {verdict} target {TARGET:,}; "
              f"marmite replay path {replay_median:>9,.0f} ev/s ({replay_best:,.0f})")
    return 0


def main() -> int:
    return report("games", make_games, (("clean", NO_NOISE), ("table noise", TABLE_NOISE)))


if __name__ == "__main__":
    sys.exit(main())
