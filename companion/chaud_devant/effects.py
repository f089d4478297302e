"""What an accepted event made happen, as values: the announcer turns them into words.

Seats are indexes into the game's players.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.chaud_devant.cards import Suit
from companion.chaud_devant.records import Revoke


@dataclass(frozen=True, slots=True)
class RoundOpened:
    number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class HandRecorded:
    seat: int
    size: int


@dataclass(frozen=True, slots=True)
class MenuChosen:
    """Simultaneous reveal: this seat has chosen (which menu stays secret)."""

    seat: int


@dataclass(frozen=True, slots=True)
class MenuRevealed:
    """Sequential reveal: this seat revealed its menu."""

    seat: int
    menu: str


@dataclass(frozen=True, slots=True)
class MenusRevealed:
    """Simultaneous reveal: everyone has chosen; all menus shown together."""

    menus: dict[int, str]


@dataclass(frozen=True, slots=True)
class PlayBegins:
    round: int
    first: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: str
    sum: int
    led: Suit | None
    spoiled: bool
    spoils: bool = False
    """True when this card is the first Piment in the pot: it spoils the soup now."""


@dataclass(frozen=True, slots=True)
class LastCard:
    """The seat has just played its last card ("dernière carte")."""

    seat: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    trick: int
    cards: list[str]
    sum: int


@dataclass(frozen=True, slots=True)
class TurnPassed:
    seat: int


@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    unclaimed: list[str]
    points: dict[int, int]
    stars: list[int]


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: list[int]


Effect = (
    RoundOpened | HandRecorded | MenuChosen | MenuRevealed | MenusRevealed
    | PlayBegins | CardPlayed | LastCard | TrickWon | TurnPassed | RoundScored | GameOver
    | Revoke
)
