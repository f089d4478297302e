"""The referee: folds a stream of events into the current match of whichever game it names.

Game-agnostic: a `new_game` picks the game (its `game` key, Chaud Devant by default), the game's
State decides and applies everything else, and undo replays the accepted actions on a fresh
state (or, for a State that `Snapshots`, on a copy of the mark the previous undo left), so it is an
exact inverse for every game. Refusals change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.confirmation import CONFIRM, decide_confirm
from companion.events import EventShapes
from companion.robot_seats import RobotLedger, parse_setup, turn_of
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
        self.robots = RobotLedger()

    def kind_of(self, event: dict[str, Any]) -> GameKind | None:
        """The game a `new_game` names (its `game` key, else the default); None for an unknown one."""
        name = event.get("game", self.games.default)
        return self.games.kinds.get(name) if isinstance(name, str) else None

    def decide(self, event: dict[str, Any]) -> str | None:
        """Why this event would be refused now, or None. Changes nothing."""
        kind = self.shapes.event_type(event)
        if kind == "new_game":
            game_kind = self.kind_of(event)
            bad = game_kind is None or game_kind.new_game(event) is None or parse_setup(event) is None
            return BAD_SETUP if bad else None
        if self.state is None:
            return NO_GAME
        if kind == "undo":
            return None if self.actions else NOTHING_TO_UNDO
        if kind == "robot":
            return self.robots.decide(event, self.state, len(self.actions))
        if kind == CONFIRM:
            return decide_confirm(event, self.state)
        reason = self.state.decide(event)
        if kind == "card" and self.robots.setup.any and (reason is None or str(reason) != "unknown_card"):
            return self.robots.gate(event, self.state, len(self.actions)) or reason
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
            self.robots = RobotLedger(parse_setup(event))
            return Outcome(True, None, [GameStarted()])
        if self.state is None or self.game is None:
            return Outcome(False, NO_GAME)
        if event["type"] == "undo":
            return Outcome(True, None, [self._undo()])
        if event["type"] == "robot":  # a note beside the game: not an action undo takes back
            return Outcome(True, None, self.robots.apply(event, self.state, len(self.actions)))
        if event["type"] == CONFIRM:  # a note beside the finished game: it changes nothing
            return Outcome(True, None, [])
        player = turn_of(self.state) if self.robots.setup.any and event["type"] == "card" else None
        self.actions.append(event)
        effects = self.state.apply(event)
        self.robots.played(len(self.actions) - 1, player, event.get("card"))
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
        self.robots.truncate(target)
        return Undone(undone, before)

    @property
    def public_state(self) -> dict[str, Any]:
        """The contract's state object (without `refused`), the default game's empty one before any game."""
        if self.state is None:
            return self.games.kinds[self.games.default].empty_public_state()
        return self.state.public_state()
