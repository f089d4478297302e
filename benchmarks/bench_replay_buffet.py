"""Sus au buffet ! replay throughput: events per second folded by the referee over 1,000 random whole games.

Run: `.venv/bin/python benchmarks/bench_replay_buffet.py [--games N] [--repeat R]` (also run by
`benchmarks/run_all.py`, which runs every `bench_*.py`). Single core. Games of 3 to 6 players are
generated first (not timed) by `companion.buffet.simulate`; the timed part is the pure fold
(`Referee.apply` on every event), then the whole `marmite replay` path (JSON parsing, fold, state
object). Same target as Chaud Devant's: >= 50,000 events/s for the fold.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_replay import report  # the same timing and report as Chaud Devant's

from companion.buffet.simulate import NO_NOISE, TABLE_NOISE, Noise, random_game


def make_games(count: int, noise: Noise, seed: int = 1) -> list[list[dict[str, Any]]]:
    """`count` whole games over every table size from 3 to 6 players."""
    rng = random.Random(seed)
    return [random_game(rng, players=rng.choice((3, 4, 5, 6)), noise=noise) for _ in range(count)]


def main() -> int:
    return report("buffet games", make_games, (("clean", NO_NOISE), ("table noise", TABLE_NOISE)))


if __name__ == "__main__":
    sys.exit(main())
