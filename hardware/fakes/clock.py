"""A virtual clock: `sleep` moves time forward at once, so timed code runs instantly and repeatably."""

from __future__ import annotations

import threading


class VirtualClock:
    """Seconds since an arbitrary start; `now()` reads it, `sleep(s)` and `advance(s)` move it."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._now

    __call__ = now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += max(0.0, seconds)

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)
