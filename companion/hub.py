"""The announcement hub: every message the table says, kept for displays that resume, and handed to
listeners (speaker, buzzer). Game-agnostic: a message carries its parts and the voice that words them.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.seam import Part, Voice

MAX_MESSAGES = 20_000
"""Event messages kept in memory for displays that resume (journal events are re-folded at start)."""
MAX_NOTES = 1_000
"""Other messages (repeat, where, reader health, table notices) kept apart, so they never push out events."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Message:
    """One announcement. Event messages carry the journal seq as their stream id; others none."""

    serial: int
    seq: int
    kind: str
    parts: tuple[Part, ...]
    voice: Voice
    is_event: bool
    accepted: bool | None = None
    reason: str | None = None
    detail: tuple[tuple[str, Any], ...] = ()

    @property
    def stream_id(self) -> int | None:
        """The server-sent-event id: the journal seq for event messages, None for the rest."""
        return self.seq if self.is_event else None

    def text(self, language: str) -> str:
        """The whole announcement in `language`."""
        return self.voice.render(self.parts, language)

    def as_json(self, language: str) -> dict[str, Any]:
        """The stream's `data:` object, rendered in `language`."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "seq": self.seq,
            "text": self.text(language),
            "parts": [{"key": part.key, "text": self.voice.render([part], language)} for part in self.parts],
        }
        if self.accepted is not None:
            data["accepted"] = self.accepted
        if self.reason is not None:
            data["reason"] = self.reason
        data.update(dict(self.detail))
        return data


Listener = Callable[[Message], None]


class Hub:
    """The messages said so far (the newest MAX_MESSAGES events and, apart, the newest MAX_NOTES other
    messages), a condition to wait on, and listeners."""

    def __init__(self, lock: threading.RLock, *, max_events: int = MAX_MESSAGES,
                 max_notes: int = MAX_NOTES) -> None:
        self._lock = lock
        self._changed = threading.Condition(lock)
        self._events: deque[Message] = deque(maxlen=max_events)
        self._notes: deque[Message] = deque(maxlen=max_notes)
        self._serial = 0
        self._listeners: list[Listener] = []
        self._closing = False

    def add_listener(self, listener: Listener) -> None:
        """Call `listener` with every new message (buzzer, speaker); it must not block."""
        with self._lock:
            self._listeners.append(listener)

    def publish(self, kind: str, parts: tuple[Part, ...], voice: Voice, *, seq: int, is_event: bool,
                accepted: bool | None = None, reason: str | None = None,
                detail: tuple[tuple[str, Any], ...] = ()) -> Message:
        """Keep a new message and wake the streams; listeners are told by `tell`, outside the lock."""
        with self._lock:
            self._serial += 1
            message = Message(self._serial, seq, kind, parts, voice, is_event, accepted, reason, detail)
            (self._events if is_event else self._notes).append(message)
            self._changed.notify_all()
        return message

    def wake(self) -> None:
        """Wake every waiting stream now and from now on (server shutdown), without a message."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()

    def tell(self, message: Message) -> None:
        """Hand a message to the listeners; one that fails is logged and does not stop the others."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(message)
            except Exception:
                log.exception("announcement listener %r failed", listener)

    def last(self, skip: tuple[str, ...]) -> Message | None:
        """The newest message whose kind is not in `skip` and that says something."""
        with self._lock:
            for message in reversed(self._merged(0)):
                if message.kind not in skip and message.parts:
                    return message
            return None

    def _merged(self, serial: int) -> list[Message]:
        """Events and other messages newer than `serial`, in the order they were said (under the lock)."""
        fresh = _newer(self._events, serial) + _newer(self._notes, serial)
        fresh.sort(key=lambda m: m.serial)
        return fresh

    def after(self, last_id: int | None, serial: int | None = None) -> list[Message]:
        """Messages a stream client has not had: after its Last-Event-ID, or after a live serial."""
        with self._lock:
            if serial is not None:
                return self._merged(serial)
            if last_id is None:
                return []
            for message in self._events:
                if message.seq > last_id:
                    return self._merged(message.serial - 1)
            return []

    def wait_after(self, serial: int, timeout: float) -> list[Message]:
        """Block until a message newer than `serial` exists (or timeout); return the new ones."""
        with self._changed:
            self._changed.wait_for(lambda: self._serial > serial or self._closing, timeout=timeout)
            return self._merged(serial)

    @property
    def serial(self) -> int:
        with self._lock:
            return self._serial


def _newer(messages: deque[Message], serial: int) -> list[Message]:
    """The messages of `messages` (in serial order) newer than `serial`, reading from the newest end."""
    fresh: list[Message] = []
    for message in reversed(messages):
        if message.serial <= serial:
            break
        fresh.append(message)
    fresh.reverse()
    return fresh
