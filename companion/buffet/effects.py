"""What an accepted Sus au buffet ! event did: values the announcer words and the views count."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RoundOpened:
    """The first plate of a round was laid out."""

    round: int


@dataclass(frozen=True, slots=True)
class PlateLaid:
    """A plate joined the buffet; `slot` is its place from the left (1 = best)."""

    plate: str
    slot: int
    missing: int


@dataclass(frozen=True, slots=True)
class StepBegins:
    """The buffet is complete (or a part or a step starts): `first` reveals first."""

    round: int
    part: int | None
    first: int
    buffet: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MouseMoved:
    """A revealed card moved a mouse; `place` counts mice still in the round strictly ahead, plus one."""

    seat: int
    value: int
    position: int
    place: int
    shared: bool


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """The next card read is this seat's."""

    seat: int


@dataclass(frozen=True, slots=True)
class RearTied:
    """Two or more mice share the rearmost place: nobody leaves, another step."""

    seats: tuple[int, ...]
    position: int


@dataclass(frozen=True, slots=True)
class DuelTied:
    """The two mice of a duel stand on one square: they play again."""

    seats: tuple[int, ...]
    position: int


@dataclass(frozen=True, slots=True)
class Departure:
    """A mouse left the round: with a plate, or with none (the duel's loser); `may_swap` for the first."""

    seat: int
    plate: str | None
    may_swap: bool
    won_duel: bool = False


@dataclass(frozen=True, slots=True)
class PartTwo:
    """Three players: part 1 is over; the mice stay where they are and play for the two best plates."""

    round: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """Every plate of the round is taken; `scores` by seat after it."""

    round: int
    scores: tuple[int, ...]
    plates_left: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """Too few plates for another buffet: the winners after the tie-break (`tie_break` if it decided)."""

    winners: tuple[int, ...]
    tie_break: bool


Effect = (RoundOpened | PlateLaid | StepBegins | MouseMoved | TurnPassed | RearTied | DuelTied | Departure
          | PartTwo | RoundEnded | GameOver)
