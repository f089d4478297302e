"""Side ledgers (robot decisions, confirmations) are handed to the referee by the composition root
(`Games.sides`): the referee and the table know only the protocol, and a ledger's events are notes beside
the game, never its actions."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

from companion import chaud_devant
from companion.chaud_devant import simulate as chaud_sim
from companion.referee import Referee
from companion.seam import Games, State
from companion.side_ledgers import SIDE_LEDGERS, ConfirmSide, RobotSide
from companion.sides import SideLedger
from companion.table import fold
from marmite.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
SIDE_MODULES = ("companion.confirmation", "companion.side_ledgers", "companion.robot")


class Spy(SideLedger):
    """Takes `confirm` events and notes every hook the referee calls."""

    name = "spy"

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def handles(self, event_type: str) -> bool:
        return event_type == "confirm"

    def check(self, event: dict[str, Any], state: State, actions: int) -> str | None:
        self.calls.append(("check", actions))
        return None if event.get("verdict") == "confirmed" else "bad_verdict"

    def record(self, event: dict[str, Any], state: State, actions: int) -> list[Any]:
        self.calls.append(("record", actions))
        return ["noted"]

    def start(self, new_game: dict[str, Any]) -> None:
        self.calls.append(("start",))

    def engaged(self) -> bool:
        return True

    def acting(self, index: int, event: dict[str, Any], state: State) -> None:
        self.calls.append(("acting", index, event["type"]))

    def undone(self, actions: int) -> None:
        self.calls.append(("undone", actions))


def a_game() -> list[dict[str, Any]]:
    return chaud_sim.random_game(random.Random(5), players=4, edition="2023")


def test_the_root_hands_the_table_s_side_ledgers_to_every_referee() -> None:
    assert GAMES.sides == SIDE_LEDGERS == (RobotSide, ConfirmSide)
    assert [type(side) for side in Referee(GAMES).sides] == [RobotSide, ConfirmSide]
    first, second = Referee(GAMES), Referee(GAMES)
    assert first.sides[0] is not second.sides[0], "each referee keeps its own ledgers"
    assert Referee(Games.of(chaud_devant.KIND)).sides == ()


def test_a_side_ledger_checks_and_records_its_own_events_never_as_actions() -> None:
    referee = Referee(Games.of(chaud_devant.KIND, sides=(Spy,)))
    spy = referee.sides[0]
    assert isinstance(spy, Spy)
    start, action = a_game()[:2]
    seqs: list[int] = []
    outcome, seqs = fold(referee, seqs, 1, start)
    assert outcome.accepted and spy.calls == [("start",)]
    outcome, seqs = fold(referee, seqs, 2, action)
    assert outcome.accepted and spy.calls[-1] == ("acting", 0, action["type"]) and seqs == [2]
    outcome, seqs = fold(referee, seqs, 3, {"type": "confirm", "player": "x", "verdict": "confirmed"})
    assert outcome.accepted and outcome.effects == ["noted"] and spy.calls[-2:] == [("check", 1), ("record", 1)]
    assert seqs == [2] and len(referee.actions) == 1, "a note is not an action"
    assert referee.apply({"type": "confirm", "player": "x", "verdict": "disputed"}).reason == "bad_verdict"
    assert referee.apply({"type": "undo"}).accepted and spy.calls[-1] == ("undone", 0)


class Idle(Spy):
    """A ledger this game does not need on each action (a table without robot seats)."""

    def engaged(self) -> bool:
        return False


def test_a_ledger_not_engaged_by_the_game_is_not_asked_on_each_action() -> None:
    referee = Referee(Games.of(chaud_devant.KIND, sides=(Idle,)))
    idle = referee.sides[0]
    assert isinstance(idle, Idle)
    for event in a_game()[:6]:
        assert referee.apply(event).accepted
    assert idle.calls == [("start",)], "the replay's hot path asks no ledger the game does not engage"
    table = Referee(GAMES)
    assert table.apply(a_game()[0]).accepted and not any(side.engaged() for side in table.sides), \
        "a game without robot seats engages neither the robots' nor the confirmations' ledger"


def test_the_referee_and_the_table_import_no_side_ledger() -> None:
    """Only under TYPE_CHECKING (the type of `robots`), never when they run."""
    for path in ("companion/referee.py", "companion/table.py"):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                       and getattr(block.test, "id", "") == "TYPE_CHECKING" for node in ast.walk(block)}
        imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and id(node) not in typing_only and node.module]
        assert not [module for module in imported if module.startswith(SIDE_MODULES)], path
