"""Side ledgers: notes beside the game (a robot seat's decisions, a finished game's confirmations) that the
referee checks and records but the game never plays, and undo never takes back as actions.

The referee and the table know only this protocol: the composition root hands the ledgers in
(`Games.sides`, one factory each, so each referee keeps its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.events import EventShapes
from companion.seam import Games, Part, State, Voice


@dataclass(frozen=True, slots=True)
class Said:
    """What a side ledger says of an event (its announcement): kind, words and the voice that says them."""

    kind: str
    parts: tuple[Part, ...]
    voice: Voice


class SideLedger:
    """One ledger beside the game. Its own events are those it `handles`: it `check`s and `record`s them.
    The other hooks follow the game (a new game, each action, an undo) and word what the ledger adds;
    each does nothing by default."""

    name = "side"

    def handles(self, event_type: str) -> bool:
        """True for this ledger's own event types (notes beside the game, never its actions)."""
        return False

    def check(self, event: dict[str, Any], state: State, actions: int) -> str | None:
        """Why this ledger's event would be refused now (`actions`: the standing actions), or None."""
        return None

    def record(self, event: dict[str, Any], state: State, actions: int) -> list[Any]:
        """Keep an accepted event of this ledger; its effects."""
        return []

    def setup_ok(self, new_game: dict[str, Any], kind: object = None) -> bool:
        """Whether this ledger's part of a `new_game` of game `kind` (its GameKind) is well formed."""
        return True

    def stamp(self, new_game: dict[str, Any]) -> dict[str, Any]:
        """A live `new_game` as the table journals it: this ledger may mark its own part (never on replay)."""
        return new_game

    def reword(self, parts: tuple[Part, ...], kind: object = None) -> tuple[Part, ...]:
        """A game action's announcement (of the game `kind`) as this ledger would have it said (unchanged by
        default)."""
        return parts

    def start(self, new_game: dict[str, Any]) -> None:
        """A new game was accepted: start afresh from its `new_game`."""

    def engaged(self) -> bool:
        """Whether this game (since `start`) needs `gate` and `acting` on each action; False spares the replay."""
        return False

    def gate(self, event: dict[str, Any], state: State, actions: int, reason: str | None) -> str | None:
        """The refusal of a game action, given the game's own `reason` (None: the game takes it)."""
        return reason

    def acting(self, index: int, event: dict[str, Any], state: State) -> None:
        """An accepted game action, the `index`th, just before the game applies it to `state`."""

    def undone(self, actions: int) -> None:
        """Undo left `actions` standing actions: forget what depended on later ones."""

    def said(self, event: dict[str, Any], accepted: bool, reason: str | None, effects: list[Any],
             state: State | None, actions: int) -> Said | None:
        """This ledger's announcement of an event (its own, or a refusal it caused); None: not its to say."""
        return None

    def voice(self, state: State) -> Voice | None:
        """The voice this ledger's words are said in (None: the game's)."""
        return None

    def where(self, state: State, actions: int) -> Part | None:
        """What "where are we" adds for this ledger (said in its `voice`), or None."""
        return None


def note_types(games: Games) -> frozenset[str]:
    """The event types the side ledgers of `games` keep beside the game (a robot's note, a confirmation):
    never actions, so `undo` never takes them back. Declared once, by each ledger's `handles`."""
    ledgers = [make() for make in games.sides]
    return frozenset(kind for kind in EventShapes(games).types if any(ledger.handles(kind) for ledger in ledgers))
