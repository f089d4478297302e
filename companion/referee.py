"""The referee: folds a stream of events into the current game, refusing what is illegal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion import effects as fx
from companion.events import event_type
from companion.game import Game
from companion.reasons import Reason
from companion.rules import parse_setup


@dataclass(frozen=True, slots=True)
class Outcome:
    """The referee's answer to one event."""

    accepted: bool
    reason: Reason | None = None
    effects: list[fx.Effect] = field(default_factory=list)


class Referee:
    """Holds the current game; a valid `new_game` starts over. Refusals change nothing."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def decide(self, event: dict[str, Any]) -> Reason | None:
        """Why this event would be refused now, or None. Changes nothing."""
        kind = event_type(event)
        if kind == "new_game":
            setup = parse_setup(event.get("players"), event.get("dealer"), event.get("rules"))
            return Reason.BAD_SETUP if setup is None else None
        if self.game is None:
            return Reason.NO_GAME
        return self.game.decide(event)

    def apply(self, event: dict[str, Any]) -> Outcome:
        """Decide the event and, if legal, apply it."""
        reason = self.decide(event)
        if reason is not None:
            return Outcome(False, reason)
        if event["type"] == "new_game":
            setup = parse_setup(event["players"], event["dealer"], event.get("rules"))
            if setup is None:  # decide() has just accepted it; kept for the type checker
                return Outcome(False, Reason.BAD_SETUP)
            self.game = Game(setup)
            return Outcome(True, None, [fx.GameStarted(setup.players, setup.first_dealer)])
        if self.game is None:
            return Outcome(False, Reason.NO_GAME)
        return Outcome(True, None, self.game.apply(event, decided=True))
