"""A real table's robot request is built from its seat's information set only: two tables that differ only in
what the seat cannot see (another hand, the order hands were scanned, a menu changed before the reveal) ask
the robot the same requests with the same seeds."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from companion import robot_table
from companion.chaud_devant.cards import ALL_CODES
from companion.robot_table import RobotDriver
from companion.robots import Decision, RobotAsk, decide
from companion.table import TableService
from marmite.games import GAMES

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}
OTHER_CLEO = sorted(ALL_CODES[3::4][:13])  # cards nobody holds at the first table


def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hidden_twist: bool) -> list[tuple[Any, ...]]:
    """Marmiton's requests and seeds over its menu and its first cards; `hidden_twist` changes only what
    Marmiton cannot see: Cléo's hand, the order the hands are scanned, and Ana's menu chosen then changed."""
    seen: list[tuple[Any, ...]] = []

    def recording(games: Any, ask: RobotAsk, *, level: str, seed: int, think_ms: int) -> Decision:
        seen.append((ask.log, ask.seat, ask.hand, ask.ask, level, seed))
        return decide(games, ask, level=level, seed=seed, think_ms=think_ms, deadline=math.inf)

    monkeypatch.setattr(robot_table, "decide", recording)
    table = TableService.open(tmp_path, GAMES)
    driver = RobotDriver(table, think_ms=30)  # never started: each step is taken here
    try:
        assert table.submit({"type": "new_game", "players": PLAYERS, "dealer": "Cléo",
                             "robots": {"seats": {"Marmiton": "cuisinier"}}}).accepted
        hands = dict(HANDS, Cléo=OTHER_CLEO) if hidden_twist else HANDS
        for name in reversed(PLAYERS) if hidden_twist else PLAYERS:
            assert table.submit({"type": "hand", "player": name, "cards": hands[name]}).accepted
        if hidden_twist:
            assert table.submit({"type": "menu", "player": "Ana", "menu": "pea"}).accepted
        assert table.submit({"type": "menu", "player": "Ana", "menu": "onion"}).accepted
        assert driver.step()  # Marmiton's menu
        assert table.submit({"type": "menu", "player": "Cléo", "menu": "none"}).accepted
        assert table.state()["phase"] == "play"
        for _ in range(2):  # Ana leads, Marmiton follows; its card is named, then scanned
            turn = table.state()["turn"]
            if turn == "Marmiton":
                assert driver.step()
                with table.lock:
                    choice = table.robots.pending("Marmiton", len(table.standing_actions()) - 1)
                assert choice is not None
                card = choice.card
            else:
                state = table.game_state
                assert state is not None
                card = str(state.legal_actions()[0]["card"])
            assert table.submit({"type": "card", "card": card}).accepted
    finally:
        driver.close()
        table.close()
    return seen


def test_tables_differing_only_in_hidden_events_ask_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = asked(tmp_path / "plain", monkeypatch, hidden_twist=False)
    twisted = asked(tmp_path / "twisted", monkeypatch, hidden_twist=True)
    assert len(plain) == 2  # its menu and its first card
    assert [entry[1] for entry in plain] == ["Marmiton", "Marmiton"]
    assert not [event for entry in twisted for event in entry[0] if event.get("menu") == "pea"]  # never shown
    assert twisted == plain
