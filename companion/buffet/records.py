"""What a Sus au buffet ! game remembers: each round's plates, steps, reveals and departures."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Reveal:
    """One mouse card turned over: whose, which, and the mouse's position after it."""

    seat: int
    card: str
    value: int
    position: int


@dataclass(frozen=True, slots=True)
class Leave:
    """A mouse leaving the round (in `part`), with the plate it took or None."""

    seat: int
    plate: str | None
    part: int | None
    may_swap: bool


@dataclass(slots=True)
class Step:
    """One step: the cards turned over and what came of it (`tie`, `left` or None while under way)."""

    part: int | None
    reveals: list[Reveal] = field(default_factory=list)
    outcome: str | None = None


@dataclass(slots=True)
class RoundRecord:
    """One round: the plates laid in the order drawn, its steps and departures, scores after it."""

    number: int
    laid: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    departures: list[Leave] = field(default_factory=list)
    scores: tuple[int, ...] | None = None
