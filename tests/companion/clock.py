"""A hand-driven monotonic clock for the table's tests (double reads are timed with it)."""

from __future__ import annotations


class Clock:
    """A hand-driven monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
