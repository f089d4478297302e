"""Wiring between packages: the reader → table service pump, and the demo player.

`companion` knows nothing of readers; this module is where a reader's queue meets the table service.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable

from companion.simulate import random_game
from companion.table import TableService
from companion.tags import simulated_uid
from hardware.reader import Reader, ReaderHealth, ReaderMessage, TagSeen

POLL_SECONDS = 0.25


class ReaderPump:
    """A thread that hands every `TagSeen` to `service.tag_seen` and every `ReaderHealth` to the service."""

    def __init__(self, service: TableService, reader: Reader) -> None:
        self.service = service
        self.reader = reader
        self.queue: queue.Queue[ReaderMessage] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"reader-pump-{reader.name}", daemon=True)
        self._started = False

    def start(self) -> ReaderPump:
        """Start the reader and the pump."""
        if not self._started:
            self._started = True
            self.reader.start(self.queue)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self.queue.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            self.handle(item)

    def handle(self, item: ReaderMessage) -> None:
        """Pass one reader value to the table service."""
        if isinstance(item, TagSeen):
            self.service.tag_seen(item.uid, source=f"reader:{item.reader}")
        elif isinstance(item, ReaderHealth):
            self.service.reader_health(item.reader, item.ok, item.detail, dict(item.info))

    def close(self) -> None:
        """Stop the pump and the reader; idempotent."""
        self._stop.set()
        self.reader.close()
        if self._started and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def __enter__(self) -> ReaderPump:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_demo(service: TableService, drop: Callable[[str], None], *, seed: int | None = None,
              pace: float = 1.5, players: int = 4, stop: threading.Event | None = None) -> int:
    """Play a whole random legal game: setup and menus submitted, cards dropped in the simulated reader.

    Returns the number of events sent. Each card waits for its announcement before the next one.
    """
    stop = stop or threading.Event()
    rng = random.Random(seed)
    events = random_game(rng, players=players)
    sent = 0
    for event in events:
        if stop.wait(pace if event["type"] == "card" else pace / 3):
            break
        if event["type"] == "card":
            serial = service.last_serial
            drop(simulated_uid(event["card"]))
            service.wait_after(serial, timeout=10)
        else:
            service.submit(event, source="demo")
        sent += 1
    return sent
