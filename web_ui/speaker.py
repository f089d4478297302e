"""The computer's own voice (`--speak`): every announcement through espeak-ng, off the table service's thread."""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
from collections.abc import Callable

from companion.table import Message, TableService

VOICES = {"fr": "fr", "en": "en-gb", "nl": "nl"}
WORDS_PER_MINUTE = 165
"""espeak-ng's speed at the table's speech rate 1.0."""


class Speaker:
    """A table-service listener that queues each message's text for espeak-ng; it never blocks the game."""

    def __init__(self, service: TableService, *, rate: Callable[[], float] = lambda: 1.0,
                 program: str = "espeak-ng") -> None:
        self.service = service
        self.rate = rate
        self.program = shutil.which(program)
        self._queue: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)

    @property
    def available(self) -> bool:
        """True when espeak-ng is installed."""
        return self.program is not None

    def start(self) -> Speaker:
        """Listen to the table and start speaking."""
        self.service.add_listener(self.hear)
        self._thread.start()
        return self

    def hear(self, message: Message) -> None:
        """Queue one message (called by the table service)."""
        text = self.service.render(message)["text"]
        if text:
            self._queue.put((self.service.language, text))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            language, text = item
            if self.program is None:
                continue
            voice = VOICES.get(language, "fr")
            words_per_minute = str(round(WORDS_PER_MINUTE * self.rate()))
            try:
                subprocess.run([self.program, "-v", voice, "-s", words_per_minute, text],
                               check=False, timeout=60, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired):
                continue

    def close(self) -> None:
        """Stop after the current phrase."""
        self._queue.put(None)
