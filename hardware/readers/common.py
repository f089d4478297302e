"""What the USB and serial readers share: one way to report health, and the thread that runs them.

Every reader reports the same three states to the table (which says them through its catalogs):
ok, missing (nothing plugged in, or no service to reach it) and errors (it is there but misbehaves).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.reader_words import Words, words
from companion.reads import ReaderHealth, ReaderQueue

OK = "ok"
MISSING = "missing"
ERRORS = "errors"


class HealthLatch:
    """Puts a `ReaderHealth` on the queue when a reader's state, detail or facts change, never twice the same."""

    def __init__(self, reader: str) -> None:
        self.reader = reader
        self.state = ""
        self.detail = ""
        self._last: tuple[str, str, tuple[tuple[str, str], ...]] | None = None
        self._lock = threading.Lock()

    def report(self, out: ReaderQueue | None, state: str, said: Words, info: dict[str, str] | None = None) -> bool:
        """Report `state` (OK, MISSING or ERRORS) with its words; False when nothing changed."""
        detail = str(said)
        heard = (state, detail, tuple(sorted((info or {}).items())))
        with self._lock:
            if self._last == heard:
                return False
            if out is not None:  # a state nobody heard (reported before start) is said again once heard
                self._last = heard
            self.state, self.detail = state, detail
        if out is not None:
            facts = {"state": state, **(info or {})}
            out.put(ReaderHealth(self.reader, state == OK, detail, tuple(facts.items()), words=said))
        return True


class ReaderThread:
    """A daemon thread running `body(stop)` until `close()`; the reader protocol's start/close.

    A body that raises does not end the reader silently: `crashed(error)` is told (the reader reports
    errors) and the body runs again after a pause, until `close()`."""

    def __init__(self, name: str, body: Callable[[threading.Event], None],
                 crashed: Callable[[BaseException], None] | None = None) -> None:
        self._name = name
        self._body = body
        self._crashed = crashed
        self.stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.crashes = 0

    def start(self) -> None:
        """Launch the thread once."""
        if self._thread is not None:
            raise RuntimeError(f"the {self._name} reader is already started")
        self._thread = threading.Thread(target=self._guarded, name=f"reader-{self._name}", daemon=True)
        self._thread.start()

    def _guarded(self) -> None:
        backoff = Backoff(0.5, 5.0)
        while not self.stop.is_set():
            try:
                self._body(self.stop)
                return
            except Exception as error:  # a bug or a library surprise: said, then the reader starts again
                self.crashes += 1
                if self._crashed is not None:
                    self._crashed(error)
                self.stop.wait(backoff.failed())

    def close(self, wake: Callable[[], None] | None = None, timeout: float = 3.0) -> None:
        """Ask the thread to stop (`wake` interrupts a blocking wait), then wait for it; idempotent."""
        self.stop.set()
        if wake is not None:
            wake()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)


def crash_detail(error: BaseException) -> Words:
    """The health detail for a reader thread that stopped on an exception it did not expect."""
    return words("crashed", error=type(error).__name__, why=str(error))


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
