"""The history page's players' statistics from memory: `GET /history` with 50 finished games behind it.

A data dir is filled through `marmite import` (simulated whole games, table noise included), then the
table's app is opened in process (Flask's test client, no network): the first view (which reads the
games from before the run into memory, once), then the median of the next views, against the named
baseline measured in the same run: the per-view replay the page did before (the newest 50 finished
games folded from the journal on each view, `journal_tallies` + `fold_tallies`).
Target: a view from memory (the whole page) costs less than the baseline's replay alone; the page
before paid the page plus that replay on every view, and showed no statistics when the replay took
longer than its 1 s wait (`STATS_WAIT_S`).
Usage: python benchmarks/bench_history_stats.py [--games 50] [--requests 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_history import fill
from companion.player_stats import NEWEST_GAMES, fold_tallies, journal_tallies
from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from web_ui.pages import STATS_WAIT_S


def timed(action: Callable[[], None]) -> float:
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=NEWEST_GAMES)
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-history-stats-") as tmp:
        data = Path(tmp) / "data"
        events = fill(data, args.games)
        service = TableService.open(data, GAMES)
        try:
            client = table_app(service, pin="0000", data_dir=data, config={"TESTING": True}).test_client()

            def view() -> None:
                assert client.get("/history").status_code == 200

            def replay() -> None:  # the baseline: what each view did before
                past = service.past_games(limit=NEWEST_GAMES)
                fold_tallies(t for t in journal_tallies(service.journal, service.games, past).values() if t)

            first = timed(view)
            ranking = service.player_stats.ranking()
            views = statistics.median(timed(view) for _ in range(args.requests))
            replays = statistics.median(timed(replay) for _ in range(args.requests))
        finally:
            service.close()
    print(f"{args.games} past games ({events:,} events), {len(ranking or [])} players in the statistics")
    print(f"first /history (reads the journal's games once, waits at most {STATS_WAIT_S:.0f} s): "
          f"{first * 1000:.1f} ms")
    print(f"/history from memory: median {views * 1000:.1f} ms of {args.requests}")
    print(f"baseline, the per-view replay from the journal: median {replays * 1000:.1f} ms of {args.requests}"
          + (f" (over the {STATS_WAIT_S:.0f} s wait: the page before showed no statistics)"
             if replays > STATS_WAIT_S else ""))
    print(f"a view from memory is {views / replays:.2f} of the baseline's replay alone (target < 1): "
          f"{'meets' if views < replays else 'MISSES'} the target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
