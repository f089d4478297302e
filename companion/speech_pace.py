"""When a practice table's robots may act again: once the table's voice has said everything announced.

A voice is a device allowed to speak for the table (the tablet holding the PIN, the seat phone a practice
player chose, the computer's own espeak-ng); it reports the serial of the last announcement it has finished
saying. While at least one voice reports, a robot waits for every reporting voice to reach the latest
announcement, then a breath, never longer than `CEILING_S` after that announcement or the voice's latest
report (a page reports each line it finishes, so an answer to a question keeps it waited for; a voice that
lets the ceiling pass is no longer waited for, until it reports again), and never longer than `MAX_WAIT_S` after
the announcement however often a voice reports. With no voice reporting (a screen reader, a
silent tablet) the robots keep the host's pause counted from the announcement, as before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

CEILING_S = 20.0
"""The longest a robot waits for a voice after an announcement (a long round summary takes about 12 s)."""
BREATH_S = 0.4
"""The pause after the voice has finished, before the next robot plays (a person hears the line end)."""
MAX_WAIT_S = 60.0
"""However often a voice reports, a robot never waits longer than this after the latest announcement."""
MAX_VOICES = 8
"""Voices kept at once (the tablet, espeak-ng, a few practice phones): a bound, never a growing table."""


@dataclass(slots=True)
class _Voice:
    spoken: int  # the serial of the last announcement this voice has finished saying
    at: float  # when it said so
    waited: bool = True  # False once it let a ceiling pass: not waited for until it reports again


class SpeechPace:
    """The announcements the robots heard and what each voice has said; thread-safe, clock injected."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, ceiling_s: float = CEILING_S,
                 breath_s: float = BREATH_S, max_wait_s: float = MAX_WAIT_S) -> None:
        self._clock = clock
        self.ceiling_s = ceiling_s
        self.breath_s = breath_s
        self.max_wait_s = max_wait_s
        self._lock = threading.Lock()
        self._latest = 0  # serial of the latest announcement the robots wait to have said
        self._latest_at = clock()
        self._voices: dict[str, _Voice] = {}
        self.changed = threading.Event()  # set by every report: a waiting driver looks again

    def heard(self, serial: int) -> None:
        """A new announcement (the serial the stream sends as `serial`)."""
        with self._lock:
            if serial > self._latest:
                self._latest, self._latest_at = serial, self._clock()

    def spoken(self, voice: str, serial: int) -> None:
        """`voice` has finished saying every announcement up to `serial` (its own count never goes back)."""
        with self._lock:
            known = self._voices.get(voice)
            if known is None:
                if len(self._voices) >= MAX_VOICES:
                    oldest = min(self._voices, key=lambda name: self._voices[name].at)
                    del self._voices[oldest]
                self._voices[voice] = _Voice(serial, self._clock())
            else:
                known.spoken, known.at, known.waited = max(known.spoken, serial), self._clock(), True
        self.changed.set()

    def leave(self, voice: str) -> None:
        """`voice` stops speaking (voice turned off, page closed): the robots no longer wait for it."""
        with self._lock:
            self._voices.pop(voice, None)
        self.changed.set()

    def voices(self) -> list[str]:
        """The voices the robots wait for now."""
        with self._lock:
            return sorted(name for name, voice in self._voices.items() if voice.waited)

    def ready(self, pace_ms: int) -> bool:
        """True when a robot may act: every waited-for voice has said the latest announcement and a breath
        has passed, or the ceiling has; with no voice, `pace_ms` after the latest announcement."""
        with self._lock:
            now = self._clock()
            waited = [voice for voice in self._voices.values() if voice.waited]
            if not waited:
                return now >= self._latest_at + pace_ms / 1000
            behind = [voice for voice in waited if voice.spoken < self._latest]
            if not behind:
                finished = max(voice.at for voice in waited)
                return now >= max(finished, self._latest_at) + min(self.breath_s, pace_ms / 1000)
            if now >= self._latest_at + self.max_wait_s:  # a voice reporting without ever catching up
                return True
            expired = [voice for voice in behind if now >= max(self._latest_at, voice.at) + self.ceiling_s]
            if len(expired) == len(behind):  # each report (a line finished, an answer said) restarts its count
                for voice in expired:
                    voice.waited = False
                return True
            return False
