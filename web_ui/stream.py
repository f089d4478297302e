"""Server-sent events: every message as its own chunk, journal seq as id, heartbeat, clean stop."""

from __future__ import annotations

import json
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from companion.table import Message, TableService

HEARTBEAT_SECONDS = 15.0
POLL_SECONDS = 1.0


def rendered(service: TableService, message: Message) -> dict[str, Any]:
    """The message's data object, with the language it is rendered in (for the speech voice) and its
    serial (the table's voice says which announcements it has finished: `POST /api/spoken`)."""
    data = service.render(message)
    data["lang"] = service.language
    data["serial"] = message.serial
    return data


class _WireCache:
    """The SSE text of recent messages by (message serial, language): a hundred displays share one
    rendering of each announcement instead of wording and encoding it a hundred times."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._texts: OrderedDict[tuple[int, str], str] = OrderedDict()

    def get(self, key: tuple[int, str]) -> str | None:
        with self._lock:
            return self._texts.get(key)

    def put(self, key: tuple[int, str], text: str) -> None:
        with self._lock:
            self._texts[key] = text
            while len(self._texts) > self._size:
                self._texts.popitem(last=False)


_WIRES: weakref.WeakKeyDictionary[TableService, _WireCache] = weakref.WeakKeyDictionary()
_WIRES_LOCK = threading.Lock()


def _wire_cache(service: TableService) -> _WireCache:
    """The service's cache (serials count from 1 in every table, so each table has its own)."""
    with _WIRES_LOCK:
        cache = _WIRES.get(service)
        if cache is None:
            cache = _WIRES[service] = _WireCache()
        return cache


def format_message(service: TableService, message: Message) -> str:
    """One message in the SSE wire format; event messages carry their journal seq as `id:`."""
    wire = _wire_cache(service)
    key = (message.serial, service.language)
    cached = wire.get(key)
    if cached is not None:
        return cached
    data = json.dumps(rendered(service, message), ensure_ascii=False, separators=(",", ":"))
    head = f"id: {message.stream_id}\n" if message.stream_id is not None else ""
    text = f"{head}event: message\ndata: {data}\n\n"
    wire.put(key, text)
    return text


def parse_last_id(raw: str | None) -> int | None:
    """The Last-Event-ID as an int; None when absent; ValueError when not a number."""
    if raw is None or raw.strip() == "":
        return None
    value = int(raw.strip())
    if value < 0:
        raise ValueError("negative id")
    return value


def event_stream(service: TableService, last_id: int | None, stop: threading.Event,
                 heartbeat: float = HEARTBEAT_SECONDS, poll: float = POLL_SECONDS) -> Iterator[str]:
    """Everything after `last_id` (events only), then the live messages, until `stop` is set."""
    serial = service.last_serial
    yield "retry: 1000\n: marmite\n\n"
    for message in service.messages_after(last_id):
        if message.serial <= serial and message.is_event:  # a stale repeat or health note is not replayed
            yield format_message(service, message)
    beat = time.monotonic() + heartbeat
    while not stop.is_set():
        fresh = service.wait_after(serial, timeout=min(poll, max(0.0, beat - time.monotonic())))
        for message in fresh:
            serial = message.serial
            yield format_message(service, message)
        if time.monotonic() >= beat:
            yield ": heartbeat\n\n"
            beat = time.monotonic() + heartbeat
