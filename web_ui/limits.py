"""Per-client and table-wide limits: request rates, open streams, wrong PIN guesses."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class TooMany(Exception):
    """A limit was reached: answered 429 with Retry-After (whole seconds)."""

    def __init__(self, what: str, retry_after: float) -> None:
        super().__init__(what)
        self.what = what
        self.retry_after = max(1, math.ceil(retry_after))


class RateLimit:
    """A token bucket per client address: `burst` requests at once, then one every `every` seconds."""

    def __init__(self, burst: int, every: float, *, clock: Clock = time.monotonic, max_clients: int = 4096) -> None:
        self.burst = burst
        self.every = every
        self._clock = clock
        self._max_clients = max_clients
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str, what: str) -> None:
        """Spend one token of `client`, or raise TooMany saying when the next one comes."""
        now = self._clock()
        with self._lock:
            tokens, since = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) / self.every)
            if tokens < 1.0:
                self._buckets[client] = (tokens, now)
                raise TooMany(what, (1.0 - tokens) * self.every)
            if client not in self._buckets and len(self._buckets) >= self._max_clients:
                self._forget_full(now)
            self._buckets[client] = (tokens - 1.0, now)

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they hold no information); keeps memory bounded."""
        full = [c for c, (tokens, since) in self._buckets.items()
                if tokens + (now - since) / self.every >= self.burst]
        for client in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[client]


class StreamGate:
    """Open live streams: `total` for anyone, `reserved` more that only trusted displays (the PIN
    holder, a claimed seat's phone) may take, and at most `per_client` for one address."""

    def __init__(self, total: int, per_client: int, reserved: int = 0) -> None:
        self.total = total
        self.per_client = per_client
        self.reserved = reserved
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}
        self._general = 0
        self._trusted = 0

    def enter(self, client: str, *, trusted: bool = False) -> bool:
        """Count one more stream for `client`, or raise TooMany; True when it took a reserved place
        (give it back with `leave(client, reserved=True)`)."""
        with self._lock:
            if self._open.get(client, 0) >= self.per_client:
                raise TooMany("too many open streams from this device; close a tab", 5)
            if trusted and self._trusted < self.reserved:
                self._trusted += 1
                reserved = True
            elif self._general < self.total:
                self._general += 1
                reserved = False
            else:
                raise TooMany("too many displays are connected to this table", 5)
            self._open[client] = self._open.get(client, 0) + 1
            return reserved

    def leave(self, client: str, *, reserved: bool = False) -> None:
        """One stream of `client` ended."""
        with self._lock:
            if reserved:
                self._trusted -= 1
            else:
                self._general -= 1
            left = self._open.get(client, 0) - 1
            if left > 0:
                self._open[client] = left
            else:
                self._open.pop(client, None)

    @property
    def open(self) -> int:
        """Streams open now."""
        with self._lock:
            return sum(self._open.values())


class GuessWindow:
    """Wrong PIN guesses for the whole table: at most `limit` in any `window` seconds, from anywhere."""

    def __init__(self, limit: int = 10, window: float = 60.0, *, clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: deque[float] = deque()
        self._warned: float | None = None
        self.evaluated = 0
        """PINs compared so far (right or wrong): what a guesser actually got to try."""

    def _expire(self, now: float) -> None:
        while self._wrong and now - self._wrong[0] >= self.window:
            self._wrong.popleft()

    def check(self) -> None:
        """Raise TooMany while the window is full: no PIN is even compared then."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            if len(self._wrong) >= self.limit:
                raise TooMany("too many wrong PINs at this table: wait", self.window - (now - self._wrong[0]))
            self.evaluated += 1

    def wrong(self) -> bool:
        """Count a wrong guess; True when this one fills the window and the table was not warned within
        the last window (the moment to warn it, at most once a window)."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            self._wrong.append(now)
            if len(self._wrong) < self.limit or (self._warned is not None and now - self._warned < self.window):
                return False
            self._warned = now
            return True


class GuessWindows:
    """A GuessWindow per client address: one device guessing at its allowed rate never keeps another (the
    director, with the right PIN) out. At most `max_clients` addresses are remembered (the quiet ones go)."""

    def __init__(self, limit: int = 10, window: float = 60.0, *, clock: Clock = time.monotonic,
                 max_clients: int = 4096) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._max = max_clients
        self._lock = threading.Lock()
        self._windows: dict[str, GuessWindow] = {}

    def of(self, client: str) -> GuessWindow:
        with self._lock:
            window = self._windows.get(client)
            if window is None:
                if len(self._windows) >= self._max:
                    self._forget_one()
                window = self._windows[client] = GuessWindow(self.limit, self.window, clock=self._clock)
            return window

    def _forget_one(self) -> None:
        now = self._clock()
        for client, window in self._windows.items():
            window._expire(now)
            if not window._wrong:
                del self._windows[client]
                return
        del self._windows[next(iter(self._windows))]
