"""Relay on a club night: the hub seats it at its own table sizes, folds a finished game into the standings
and names it on the board, from the facts Relay gives (`KIND.club`) and nothing else."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club.hub import ClubHub
from club.rules import rules_from_form
from club.store import Row, Store
from club.topics import ClubURL
from club.web import create_club_app
from companion.referee import Referee
from companion.seam import PlaysInClubs
from tests.conformance.registry import GAMES
from tests.toy_game.rules import HOPS, KIND, RelayState

URL = ClubURL.parse("mqtt://hub:secret@127.0.0.1:1/relayclub")
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path)
    yield opened
    opened.close()


def hub_of(store: Store) -> ClubHub:
    return ClubHub(store, URL, GAMES, tables=2, console=lambda line: None)


def relay_rows(table: int, players: list[str], seed: int) -> list[Row]:
    """A whole Relay game at `table`, journal rows as the table's referee judged them."""
    rng, state = random.Random(seed), RelayState(tuple(players))
    events: list[dict[str, Any]] = [{"type": "new_game", "game": "relay", "players": players}]
    while not state.is_terminal():
        event = {"type": "card", "card": rng.choice(sorted(HOPS))}
        state.apply(event)
        events.append(event)
    referee = Referee(GAMES)
    return [Row(table, seq, 1, f"2026-11-27T20:00:{seq:02d}+00:00", event, referee.apply(event).accepted, None, "api")
            for seq, event in enumerate(events, start=1)]


def test_relay_plays_a_club_night_seated_folded_and_named(store: Store) -> None:
    assert isinstance(KIND, PlaysInClubs)
    hub = hub_of(store)
    seated = hub.seat_next_round(NAMES, "relay", seed=3)
    hub.cards.close()
    assert seated["game"] == "relay" and sorted(len(table) for table in seated["tables"]) == [4, 4]
    assert rules_from_form("relay", {"rule-edition": "2023"}, GAMES) == {}  # another game's rule, left aside

    store.add(relay_rows(1, seated["tables"][0], seed=5))
    hub = hub_of(store)
    board = hub.board()
    game = board["games"][0]
    assert game["kind"] == "relay" and game["status"] == "over" and game["counted"]
    squares = game["points"]
    assert sorted(squares) == sorted(seated["tables"][0]) and max(squares.values()) >= 10
    assert {e["player"]: e["stars"] for e in board["standings"]} == squares
    assert board["standings"][0]["player"] == game["winners"][0]

    client = create_club_app(hub, pin="2468").test_client()
    page = client.get("/").get_data(as_text=True)
    assert "Relais" in page and "Relais : cases" in page  # its title and its points' name, in French
    hub.cards.close()


def test_a_club_demo_table_plays_each_registry_games_demo_in_turn_relay_too(tmp_path: Path) -> None:
    """`marmite club demo`'s tables play the demos handed to them, in the registry's order, not a fixed pair."""
    from club.demo import SimulatedTable
    from tests.conformance.registry import DEMOS

    table = SimulatedTable(1, ClubURL.parse("mqtt://table-1:pw@127.0.0.1:1/relayclub"), tmp_path, GAMES, DEMOS,
                           pace=0, seed=2, players=4)
    try:
        kinds = [str(table._game(index)[0].get("game", GAMES.default)) for index in range(6)]
    finally:
        table.service.close()
    assert kinds == list(GAMES.kinds) * 2 and "relay" in kinds
