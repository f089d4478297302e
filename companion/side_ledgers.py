"""The two side ledgers a table keeps beside its games (see companion/sides.py): a robot seat's decisions
and hands, and the players' confirmations of a finished game's scores. The composition root hands them to
the referee (`SIDE_LEDGERS`); the referee and the table import neither."""

from __future__ import annotations

from typing import Any

from companion.confirmation import CONFIRM, decide_confirm, describe_confirm
from companion.phrases import TABLE_VOICE
from companion.robot_seats import ROBOT_REASONS, RobotLedger, parse_setup, stamped, turn_of
from companion.robot_talk import describe_robot, describe_robot_refusal, practice_talk, practice_turns, robot_ask
from companion.robot_words import voice_of
from companion.seam import Part, State, Voice
from companion.sides import Said, SideLedger


class RobotSide(SideLedger):
    """Robot seats: their choices and hands (`robot` events), the gate on the cards they play, and their voice."""

    name = "robots"

    def __init__(self) -> None:
        self.ledger = RobotLedger()

    def handles(self, event_type: str) -> bool:
        return event_type == "robot"

    def check(self, event: dict[str, Any], state: State, actions: int) -> str | None:
        return self.ledger.decide(event, state, actions)

    def record(self, event: dict[str, Any], state: State, actions: int) -> list[Any]:
        return self.ledger.apply(event, state, actions)

    def setup_ok(self, new_game: dict[str, Any], kind: object = None) -> bool:
        return parse_setup(new_game, kind) is not None  # robot seats only in a game with TableSeats

    def stamp(self, new_game: dict[str, Any]) -> dict[str, Any]:
        return stamped(new_game)

    def reword(self, parts: tuple[Part, ...], kind: object = None) -> tuple[Part, ...]:
        return practice_turns(parts, self.ledger, practice_talk(kind))

    def start(self, new_game: dict[str, Any]) -> None:
        self.ledger = RobotLedger(parse_setup(new_game))

    def engaged(self) -> bool:
        return self.ledger.setup.any  # a game without robot seats needs no gate and keeps no plays

    def gate(self, event: dict[str, Any], state: State, actions: int, reason: str | None) -> str | None:
        if event["type"] == "card" and self.ledger.setup.any and (reason is None or str(reason) != "unknown_card"):
            return self.ledger.gate(event, state, actions) or reason
        if event["type"] == "menu" and reason is None:
            return self.ledger.gate_menu(event, actions)
        return reason

    def acting(self, index: int, event: dict[str, Any], state: State) -> None:
        if self.ledger.setup.any and event["type"] == "card":  # a table without robots keeps no plays
            self.ledger.played(index, turn_of(state), event.get("card"))

    def undone(self, actions: int) -> None:
        self.ledger.truncate(actions)

    def said(self, event: dict[str, Any], accepted: bool, reason: str | None, effects: list[Any],
             state: State | None, actions: int) -> Said | None:
        """A robot's choice or hand, or a refusal robot seats add, in the robot voice."""
        if state is None or not (event["type"] == "robot" or reason in ROBOT_REASONS):
            return None
        voice = voice_of(state)
        if accepted:
            return Said("robot", tuple(describe_robot(effects, self.ledger.setup, event)), voice)
        return Said("refused", (describe_robot_refusal(event, reason or "", self.ledger, state, actions),), voice)

    def voice(self, state: State) -> Voice | None:
        return voice_of(state)

    def where(self, state: State, actions: int) -> Part | None:
        """"Où en est-on" also says which card a robot is waiting to have played."""
        return robot_ask(state, self.ledger, actions)


class ConfirmSide(SideLedger):
    """A player's confirmation (or dispute) of a finished game's scores: a note that changes nothing."""

    name = "confirmations"

    def handles(self, event_type: str) -> bool:
        return event_type == CONFIRM

    def check(self, event: dict[str, Any], state: State, actions: int) -> str | None:
        return decide_confirm(event, state)

    def said(self, event: dict[str, Any], accepted: bool, reason: str | None, effects: list[Any],
             state: State | None, actions: int) -> Said | None:
        """In the table's own words, whatever the game."""
        if event["type"] != CONFIRM:
            return None
        return Said(CONFIRM if accepted else "refused", (describe_confirm(event, reason),), TABLE_VOICE)


SIDE_LEDGERS = (RobotSide, ConfirmSide)
"""The side ledgers every table keeps, in the order their announcements are asked for."""
