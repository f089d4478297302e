"""The computer's own voice (`--speak`): every announcement through espeak-ng, off the table service's thread;
it tells the robots' pace when it has said everything (the practice robots wait for it)."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from companion.table import Message, TableService

VOICES = {"fr": "fr", "en": "en-gb", "nl": "nl"}
WORDS_PER_MINUTE = 165
"""espeak-ng's speed at the table's speech rate 1.0."""
MAX_PENDING = 8
"""Phrases waiting to be said; beyond that the oldest ones asked for (where, repeat) go first."""
MAX_SPOKEN_CHARS = 1000
"""The longest text handed to espeak-ng (a whole "where are we" is a few hundred characters)."""
ASKED = ("where", "repeat")
"""Kinds of message someone asked for: only the newest of them is worth saying."""
SIGN_WORDS = {"fr": ("moins", "plus"), "en": ("minus", "plus"), "nl": ("min", "plus")}
"""A number's sign as a word in each language: espeak-ng drops "-" before a digit, and says "−" in English."""
_SIGNED = re.compile(r"(?<![\w.,])([-\u2212+])(?=\d)")


@dataclass(frozen=True, slots=True)
class Phrase:
    """One text to say, in a language, and the kind of message it came from."""

    language: str
    text: str
    kind: str
    serial: int = 0


def speakable(text: str) -> str:
    """`text` as plain data for espeak-ng: no NUL or other control characters, bounded length."""
    cleaned = "".join(" " if unicodedata.category(char).startswith("C") else char for char in text)
    return " ".join(cleaned.split())[:MAX_SPOKEN_CHARS]


def signs_said(text: str, language: str) -> str:
    """Signed numbers with their sign as a word ("Ana −1" → "Ana moins 1"); a hyphen between words stays."""
    minus, plus = SIGN_WORDS.get(language, SIGN_WORDS["fr"])
    return _SIGNED.sub(lambda match: (plus if match.group(1) == "+" else minus) + " ", text)


def command(program: str, voice: str, words_per_minute: int, text: str) -> list[str]:
    """espeak-ng's argument list; `--` ends the options, so a text starting with `-` is only words."""
    return [program, "-v", voice, "-s", str(words_per_minute), "--", text]


class SpeechQueue:
    """A bounded queue of phrases that coalesces: a text already waiting is not queued twice, and a
    new where/repeat answer replaces the one still waiting."""

    def __init__(self, limit: int = MAX_PENDING) -> None:
        self.limit = limit
        self._pending: deque[Phrase] = deque()
        self._ready = threading.Condition()
        self._closed = False

    def put(self, phrase: Phrase) -> None:
        """Queue `phrase` (never blocks); drops a duplicate, an older asked-for phrase, or the oldest."""
        with self._ready:
            if any(waiting.text == phrase.text for waiting in self._pending):
                return
            if phrase.kind in ASKED:
                self._pending = deque(waiting for waiting in self._pending if waiting.kind not in ASKED)
            if len(self._pending) >= self.limit:
                asked = [waiting for waiting in self._pending if waiting.kind in ASKED]
                self._pending.remove(asked[0] if asked else self._pending[0])
            self._pending.append(phrase)
            self._ready.notify()

    def get(self) -> Phrase | None:
        """The next phrase, waiting for one; None once closed and said."""
        with self._ready:
            self._ready.wait_for(lambda: self._closed or bool(self._pending))
            return self._pending.popleft() if self._pending else None

    def close(self) -> None:
        """Let the reader finish what is waiting, then get None."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def __len__(self) -> int:
        with self._ready:
            return len(self._pending)


class Speaker:
    """A table-service listener that queues each message's text for espeak-ng; it never blocks the game."""

    def __init__(self, service: TableService, *, rate: Callable[[], float] = lambda: 1.0,
                 program: str = "espeak-ng", on_spoken: Callable[[int], None] | None = None) -> None:
        self.service = service
        self.rate = rate
        self.program = shutil.which(program)
        self.queue = SpeechQueue()
        self.on_spoken = on_spoken  # told the serial of the last announcement said (the robots' pace)
        self._heard = 0
        self._speaking = False
        self._state = threading.Lock()
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
        language = self.service.language
        text = speakable(signs_said(self.service.render(message)["text"], language))
        with self._state:  # heard and queued together: the speaker never reports a line not yet queued as said
            self._heard = max(self._heard, message.serial)
            if text:
                self.queue.put(Phrase(language, text, message.kind, message.serial))
        if not text:
            self._tell()  # nothing to say: said at once, if nothing else is being said

    def _tell(self) -> None:
        """Tell the pace everything heard is said, when nothing waits and nothing is being said."""
        with self._state:
            idle = not self._speaking and len(self.queue) == 0
            heard = self._heard
        if idle and self.on_spoken is not None and self.program is not None:
            self.on_spoken(heard)

    def _run(self) -> None:
        while (phrase := self.queue.get()) is not None:
            if self.program is None:
                continue
            voice = VOICES.get(phrase.language, "fr")
            with self._state:
                self._speaking = True
            try:
                subprocess.run(command(self.program, voice, round(WORDS_PER_MINUTE * self.rate()), phrase.text),
                               check=False, timeout=60, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired):
                pass
            finally:
                with self._state:
                    self._speaking = False
            self._tell()

    def close(self) -> None:
        """Stop once the phrases already waiting are said."""
        self.queue.close()
