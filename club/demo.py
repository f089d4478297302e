"""Simulated club tables: each a real table service (its own journal) and a real link to the hub, playing
random legal games of each hosted game in turn (the demos the composition root hands over) at a chosen
pace. For `marmite club demo` and the benchmark; a submitted event goes through exactly the path a tablet's would."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from club.link import TableLink
from club.topics import ClubURL
from companion.seam import Demo, Games
from companion.table import TableService

Submitted = Callable[[int, int, float], None]
"""Told (table, seq, monotonic time) after each event is journaled at a table."""


class SimulatedTable:
    """One table: its service, its link, and a thread playing games until stopped."""

    def __init__(self, number: int, url: ClubURL, data_dir: Path, games: Games, demos: Mapping[str, Demo], *,
                 pace: float, seed: int, players: int = 5, on_submitted: Submitted | None = None) -> None:
        self.number = number
        self.demos = [demos[name] for name in games.kinds if name in demos]  # the registry's order
        self.service = TableService.open(data_dir, games)
        self.link = TableLink(self.service.journal, url, number)
        self.service.add_listener(self.link.journal_changed)
        self.pace = pace
        self.players = players
        self.rng = random.Random(seed)
        self.on_submitted = on_submitted
        self.events = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, name=f"demo-table-{number}", daemon=True)

    def start(self) -> SimulatedTable:
        self.link.start()
        self._thread.start()
        return self

    def _game(self, index: int) -> list[dict[str, object]]:
        """Game `index` of the table: each game's demo in turn, at as many players as it seats."""
        return self.demos[index % len(self.demos)].random_game(self.rng, self.players)

    def _play(self) -> None:
        index = self.number  # tables start on different games
        while not self._stop.is_set():
            for event in self._game(index):
                if self._stop.wait(self.pace):
                    return
                submission = self.service.submit(event, source="demo")
                self.events += 1
                if self.on_submitted is not None:
                    self.on_submitted(self.number, submission.seq, time.monotonic())
            index += 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.link.close()
        self.service.close()


def start_tables(urls: dict[int, ClubURL], data_root: Path, games: Games, demos: Mapping[str, Demo], *,
                 pace: float, seed: int = 1, players: int = 5,
                 on_submitted: Submitted | None = None) -> list[SimulatedTable]:
    """Start one simulated table per join URL, each on its own data dir under `data_root`."""
    return [SimulatedTable(number, url, data_root / f"table-{number}", games, demos, pace=pace, seed=seed + number,
                           players=players, on_submitted=on_submitted).start()
            for number, url in sorted(urls.items())]
