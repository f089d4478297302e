"""The referee: folds a stream of events into the current match of whichever game it names.

Game-agnostic: a `new_game` picks the game (its `game` key, Chaud Devant by default), the game's
State decides and applies everything else, and undo replays the accepted actions on a fresh
state (or, for a State that `Snapshots`, on a copy of the mark the previous undo left), so it is an
exact inverse for every game. Refusals change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from companion.events import EventShapes
from companion.seam import (
    BAD_SETUP,
    NO_GAME,
    NOTHING_TO_UNDO,
    Game,
    GameKind,
    Games,
    GameStarted,
    Snapshots,
    State,
    Undone,
)
from companion.sides import SideLedger

if TYPE_CHECKING:
    from companion.robot_seats import RobotLedger


@dataclass(frozen=True, slots=True)
class Outcome:
    """The referee's answer to one event."""

    accepted: bool
    reason: str | None = None
    effects: list[Any] = field(default_factory=list)


class Referee:
    """Holds the current match; a valid `new_game` starts over."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.shapes = EventShapes(games)
        self.kind: GameKind | None = None
        self.game: Game | None = None
        self.state: State | None = None
        self.actions: list[dict[str, Any]] = []
        self.marks: list[tuple[int, State]] = []  # (actions, an untouched copy of the state after them)
        self._marking = False
        self.sides: tuple[SideLedger, ...] = tuple(make() for make in games.sides)
        """The side ledgers the composition root handed in (through `games`), in their order."""
        self._side_of: dict[str, SideLedger | None] = {}
        self._engaged: tuple[SideLedger, ...] = ()
        """The ledgers this game needs on each action (the replay's hot path asks no other)."""

    def side_for(self, event_type: str) -> SideLedger | None:
        """The side ledger whose events are of `event_type`, or None (a game's own event)."""
        if event_type not in self._side_of:
            self._side_of[event_type] = next((side for side in self.sides if side.handles(event_type)), None)
        return self._side_of[event_type]

    @property
    def robots(self) -> RobotLedger:
        """The robot seats' ledger (the side named "robots"; LookupError when the table keeps none)."""
        for side in self.sides:
            if side.name == "robots":
                return cast("RobotLedger", getattr(side, "ledger"))  # noqa: B009 (SideLedger has no ledger)
        raise LookupError("this referee keeps no robot seats")

    def kind_of(self, event: dict[str, Any]) -> GameKind | None:
        """The game a `new_game` names (its `game` key, else the default); None for an unknown one."""
        name = event.get("game", self.games.default)
        return self.games.kinds.get(name) if isinstance(name, str) else None

    def stamp(self, event: dict[str, Any]) -> dict[str, Any]:
        """A live event as the table journals it: a `new_game` marked by each side ledger (others as they are)."""
        if event.get("type") != "new_game":
            return event
        for side in self.sides:
            event = side.stamp(event)
        return event

    def decide(self, event: dict[str, Any]) -> str | None:
        """Why this event would be refused now, or None. Changes nothing."""
        kind = self.shapes.event_type(event)
        if kind == "new_game":
            game_kind = self.kind_of(event)
            bad = game_kind is None or game_kind.new_game(event) is None or not all(
                side.setup_ok(event, game_kind) for side in self.sides)
            return BAD_SETUP if bad else None
        if self.state is None:
            return NO_GAME
        if kind == "undo":
            return None if self.actions else NOTHING_TO_UNDO
        side = self.side_for(kind)
        if side is not None:
            return side.check(event, self.state, len(self.actions))
        reason = self.state.decide(event)
        for side in self._engaged:  # e.g. a card a robot seat must have chosen first
            reason = side.gate(event, self.state, len(self.actions), reason)
        return reason

    def apply(self, event: dict[str, Any]) -> Outcome:
        """Decide the event and, if legal, apply it."""
        reason = self.decide(event)
        if reason is not None:
            return Outcome(False, reason)
        if event["type"] == "new_game":
            self.kind = self.kind_of(event)
            self.game = self.kind.new_game(event) if self.kind is not None else None
            if self.game is None:  # decide() has just accepted it; kept for the type checker
                return Outcome(False, BAD_SETUP)
            self.state = self.game.new_initial_state()
            self.actions = []
            self.marks = []
            self._marking = isinstance(self.state, Snapshots)
            for side in self.sides:
                side.start(event)
            self._engaged = tuple(side for side in self.sides if side.engaged())
            return Outcome(True, None, [GameStarted()])
        if self.state is None or self.game is None:
            return Outcome(False, NO_GAME)
        if event["type"] == "undo":
            return Outcome(True, None, [self._undo()])
        noted = self.side_for(event["type"])
        if noted is not None:  # a note beside the game: not an action undo takes back
            return Outcome(True, None, noted.record(event, self.state, len(self.actions)))
        self.actions.append(event)
        for side in self._engaged:
            side.acting(len(self.actions) - 1, event, self.state)
        effects = self.state.apply(event)
        return Outcome(True, None, effects)

    def _undo(self) -> Undone:
        """Take back the last accepted action: replay the others on a copy of the latest mark still
        before it (or on a fresh state), so the result is exactly the state they made; then leave a
        mark where this undo landed. Marks cost nothing until a game's first undo, and at a noisy
        table the next undo then replays only the actions since this one."""
        assert self.game is not None and self.state is not None
        undone = self.actions.pop()
        before = self.state
        target = len(self.actions)
        while self.marks and self.marks[-1][0] > target:
            self.marks.pop()  # a mark of a taken-back action is stale
        start, state = self.marks.pop() if self.marks else (0, self.game.new_initial_state())
        for action in self.actions[start:]:  # the mark itself becomes the live state
            state.apply(action)
        if self._marking:
            self.marks.append((target, state.snapshot()))  # type: ignore[attr-defined]
        self.state = state
        for side in self.sides:
            side.undone(target)
        return Undone(undone, before)

    @property
    def public_state(self) -> dict[str, Any]:
        """The contract's state object (without `refused`), the default game's empty one before any game."""
        if self.state is None:
            return self.games.kinds[self.games.default].empty_public_state()
        return self.state.public_state()
