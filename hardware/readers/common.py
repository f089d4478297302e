"""What the USB and serial readers share: one way to report health, and the thread that runs them.

Every reader reports the same three states to the table (which says them through its catalogs):
ok, missing (nothing plugged in, or no service to reach it) and errors (it is there but misbehaves).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.reads import ReaderHealth, ReaderQueue

OK = "ok"
MISSING = "missing"
ERRORS = "errors"


class HealthLatch:
    """Puts a `ReaderHealth` on the queue when a reader's state or detail changes, never twice the same."""

    def __init__(self, reader: str) -> None:
        self.reader = reader
        self.state = ""
        self.detail = ""
        self._last: tuple[str, str] | None = None
        self._lock = threading.Lock()

    def report(self, out: ReaderQueue | None, state: str, detail: str, info: dict[str, str] | None = None) -> bool:
        """Report `state` (OK, MISSING or ERRORS) with `detail`; False when nothing changed."""
        with self._lock:
            if self._last == (state, detail):
                return False
            self._last = (state, detail)
            self.state, self.detail = state, detail
        if out is not None:
            facts = {"state": state, **(info or {})}
            out.put(ReaderHealth(self.reader, state == OK, detail, tuple(facts.items())))
        return True


class ReaderThread:
    """A daemon thread running `body(stop)` until `close()`; the reader protocol's start/close."""

    def __init__(self, name: str, body: Callable[[threading.Event], None]) -> None:
        self._name = name
        self._body = body
        self.stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Launch the thread once."""
        if self._thread is not None:
            raise RuntimeError(f"the {self._name} reader is already started")
        self._thread = threading.Thread(target=self._body, args=(self.stop,), name=f"reader-{self._name}",
                                        daemon=True)
        self._thread.start()

    def close(self, wake: Callable[[], None] | None = None, timeout: float = 3.0) -> None:
        """Ask the thread to stop (`wake` interrupts a blocking wait), then wait for it; idempotent."""
        self.stop.set()
        if wake is not None:
            wake()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)


class Backoff:
    """Waits that double after each failure up to a ceiling, and start again after a success."""

    def __init__(self, first: float = 0.5, ceiling: float = 5.0) -> None:
        self.first = first
        self.ceiling = ceiling
        self.next = first

    def failed(self) -> float:
        """The wait before the next attempt."""
        wait, self.next = self.next, min(self.ceiling, self.next * 2)
        return wait

    def succeeded(self) -> None:
        self.next = self.first
