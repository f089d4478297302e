"""What every pot reader produces: tag sightings and health reports, as values on a queue.

A reader thread only turns radio into these values; the table service decides what they mean.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class TagSeen:
    """A tag entered the reader's field: its UID in lower-case hex, when, and which reader saw it."""

    uid: str
    reader: str
    at: float = field(default_factory=time.time)


@dataclass(frozen=True, slots=True)
class ReaderHealth:
    """A reader's state for the table display: ok or not, a short detail, and free-form facts."""

    reader: str
    ok: bool
    detail: str = ""
    info: tuple[tuple[str, str], ...] = ()
    at: float = field(default_factory=time.time)


ReaderMessage = TagSeen | ReaderHealth
ReaderQueue = queue.Queue[ReaderMessage]


class Reader(Protocol):
    """A running pot reader. `start` launches its thread; `close` is idempotent."""

    name: str

    def start(self, out: ReaderQueue) -> None: ...

    def close(self) -> None: ...


ReaderFactory = Callable[[dict[str, str]], Reader]

_REGISTRY: dict[str, ReaderFactory] = {}


def register_reader(name: str, factory: ReaderFactory) -> None:
    """Make a reader available to `--reader NAME`."""
    _REGISTRY[name] = factory


def reader_names() -> list[str]:
    """The names `--reader` accepts."""
    _load_builtin_readers()
    return sorted(_REGISTRY)


def make_reader(name: str, options: dict[str, str] | None = None) -> Reader:
    """Build the reader registered under `name`; a clear ValueError for an unknown name."""
    _load_builtin_readers()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown reader {name!r}; choose one of: {', '.join(sorted(_REGISTRY))}"
        ) from None
    return factory(dict(options or {}))


def parse_reader_option(text: str) -> tuple[str, str]:
    """One `KEY=VALUE` reader setting from the command line; ValueError naming the bad text."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"a reader option is KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def _load_builtin_readers() -> None:
    """Import the modules that register the built-in readers (explicit list, no string tricks)."""
    from hardware import readers  # noqa: F401  (registers sim, rc522, usb)
