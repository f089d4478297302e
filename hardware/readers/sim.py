"""The simulated reader: tags are dropped in by software (virtual pot, demo, tests)."""

from __future__ import annotations

import threading

from companion.reader_words import words
from companion.reads import ReaderHealth, ReaderQueue, TagSeen


class SimReader:
    """A reader with no radio: `drop(uid)` puts a sighting on the queue as a real read would."""

    name = "sim"

    def __init__(self) -> None:
        self._out: ReaderQueue | None = None
        self._lock = threading.Lock()

    def start(self, out: ReaderQueue) -> None:
        with self._lock:
            self._out = out
        said = words("sim_ready")
        out.put(ReaderHealth(self.name, True, str(said), (("state", "ok"),), words=said))

    def drop(self, uid: str) -> None:
        """Simulate a tag passing the antenna; ValueError for text that is no UID (hexadecimal bytes), as a
        real reader never reports one. Its UIDs may be any length: a card code's ASCII in hex is one."""
        if not uid or len(uid) % 2 or any(c not in "0123456789abcdefABCDEF" for c in uid):
            raise ValueError(f"{uid!r} is not a UID: the simulated reader drops hexadecimal bytes")
        with self._lock:
            if self._out is None:
                raise RuntimeError("the simulated reader is not started")
            self._out.put(TagSeen(uid.lower(), self.name))

    def close(self) -> None:
        with self._lock:
            self._out = None
