"""Durable append latency of the journal (p50/p99), against two baselines measured in the same run.

Run: `.venv/bin/python benchmarks/bench_journal.py [--events N] [--dir DIR]`. DIR (default: a
temporary folder in the current directory) should be on the disk the table will use: the figures
are mostly the disk's fsync latency. Measured, one `append` at a time as the table service does:

* `journal`: `companion.journal.Journal.append` as shipped (SQLite WAL, synchronous=FULL, one
  transaction per event, then the high-water mark moved and fsync'd): durable when it returns.
  Target p99 <= 5 ms.
* `journal, no mark`: the same without the high-water mark file, i.e. the append before the
  mark existed: the difference is what the mark costs.
* `baseline fsync`: the least a durable append can cost: write one JSON line to a plain file
  opened for appending, then `os.fsync`.
* `baseline no-sync`: the same `Journal` with `PRAGMA synchronous=OFF` and no mark: the SQLite
  work alone, *not* durable on power loss (survives only a process crash).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.chaud_devant.simulate import TABLE_NOISE, random_game
from companion.journal import Journal, encode_event
from companion.referee import Referee
from marmite.games import GAMES

TARGET_P99_MS = 5.0


def table_events(count: int) -> list[tuple[dict[str, Any], bool, str | None]]:
    """`count` realistic events (whole simulated games) with the referee's outcomes."""
    rng = random.Random(1)
    referee = Referee(GAMES)
    events: list[tuple[dict[str, Any], bool, str | None]] = []
    while len(events) < count:
        for event in random_game(rng, players=4, noise=TABLE_NOISE):
            outcome = referee.apply(event)
            events.append((event, outcome.accepted, None if outcome.reason is None else str(outcome.reason)))
    return events[:count]


def latencies(append: Callable[[dict[str, Any], bool, str | None], object],
              events: list[tuple[dict[str, Any], bool, str | None]]) -> list[float]:
    """Milliseconds taken by each call."""
    taken = []
    for event, accepted, reason in events:
        start = time.perf_counter_ns()
        append(event, accepted, reason)
        taken.append((time.perf_counter_ns() - start) / 1e6)
    return taken


def bench_journal(folder: Path, events: list[tuple[dict[str, Any], bool, str | None]], sync: bool,
                  mark: bool = True) -> list[float]:
    with Journal.open(folder) as journal:
        if not sync:
            journal._db.execute("PRAGMA synchronous=OFF")  # the baseline only; never in the table
        if not mark:
            journal._mark.write = lambda seq, digest: None  # type: ignore[method-assign]  # baseline only
        return latencies(lambda e, a, r: journal.append(e, a, r, "bench"), events)


def bench_fsync(folder: Path, events: list[tuple[dict[str, Any], bool, str | None]]) -> list[float]:
    fd = os.open(folder / "events.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(event: dict[str, Any], accepted: bool, reason: str | None) -> None:
        os.write(fd, (encode_event(event) + "\n").encode())
        os.fsync(fd)

    try:
        return latencies(append, events)
    finally:
        os.close(fd)


def filesystem(path: Path) -> str:
    """The type and device of the mount holding `path`, from /proc/mounts (Linux)."""
    best = ("?", "?", "")
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                device, point, kind = line.split()[:3]
                if str(path.resolve()).startswith(point) and len(point) >= len(best[2]):
                    best = (kind, device, point)
    except OSError:
        pass
    return f"{best[0]} on {best[1]} (mounted at {best[2]})"


def summary(name: str, taken: list[float]) -> str:
    cuts = statistics.quantiles(taken, n=100)
    return (f"{name:18} p50 {cuts[49]:6.3f} ms  p99 {cuts[98]:6.3f} ms  max {max(taken):7.3f} ms  "
            f"mean {statistics.fmean(taken):6.3f} ms  ({len(taken) / (sum(taken) / 1000):,.0f} appends/s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a temp dir here)")
    args = parser.parse_args()
    events = table_events(args.events)
    with tempfile.TemporaryDirectory(prefix="bench-journal-", dir=args.dir or Path.cwd()) as tmp:
        root = Path(tmp)
        print(f"python {sys.version.split()[0]}, {len(events)} appends each, in {root}: {filesystem(root)}")
        runs = {
            "journal": bench_journal(root / "journal", events, sync=True),
            "journal, no mark": bench_journal(root / "nomark", events, sync=True, mark=False),
            "baseline fsync": bench_fsync(root, events),
            "baseline no-sync": bench_journal(root / "nosync", events, sync=False, mark=False),
        }
    for name, taken in runs.items():
        print(summary(name, taken))
    p99 = statistics.quantiles(runs["journal"], n=100)[98]
    print(f"journal p99 {p99:.3f} ms: {'meets' if p99 <= TARGET_P99_MS else 'MISSES'} target {TARGET_P99_MS} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
