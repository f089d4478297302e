"""A whole three-player Sus au buffet ! game through the HTTP API: both parts of every round, the state,
the table and seat views, the refusals and undo, and the export replaying to the same state."""

from __future__ import annotations

import random
from typing import Any

from flask.testing import FlaskClient

from companion.buffet.simulate import TABLE_NOISE, random_game
from companion.referee import Referee
from companion.replay import replay
from marmite.games import GAMES
from tests.web_ui.conftest import HEADERS


def test_a_whole_three_player_game_through_the_api(client: FlaskClient) -> None:
    events = random_game(random.Random(17), players=3, noise=TABLE_NOISE)
    referee = Referee(GAMES)
    parts_seen: set[tuple[int, int]] = set()
    refused: list[dict[str, Any]] = []
    for line, event in enumerate(events, start=1):
        answer = client.post("/api/events", json=event, headers=HEADERS).get_json()
        outcome = referee.apply(event)
        assert answer["accepted"] == outcome.accepted and answer.get("reason") == (
            None if outcome.reason is None else str(outcome.reason))
        if not outcome.accepted:
            refused.append({"line": line, "reason": str(outcome.reason)})
        state = client.get("/api/state").get_json()
        if state["part"] is not None and state["phase"] == "step":
            parts_seen.add((state["round"], state["part"]))
    state = client.get("/api/state").get_json()
    assert state["phase"] == "game_over" and state["plates_left"] == 1 and refused
    assert {part for _, part in parts_seen} == {1, 2} and len(parts_seen) == 2 * state["round"]
    expected = replay(enumerate(events, start=1), GAMES)
    assert {key: value for key, value in expected.items() if key != "refused"} == state
    assert expected["refused"] == refused
    table = client.get("/api/table").get_json()
    assert table["game_kind"] == "buffet" and table["standings"][0]["winner"]
    assert [row["player"] for row in table["standings"] if row["winner"]] == state["winners"]
    for name in state["plates"]:
        seat = client.get(f"/api/seat/{name}", headers=HEADERS).get_json()
        assert [plate["code"] for plate in seat["plates"]] == state["plates"][name]
        assert seat["score"] == state["score"][name]


def test_undo_through_the_api_restores_the_buffet(client: FlaskClient) -> None:
    client.post("/api/events", headers=HEADERS,
                json={"type": "new_game", "game": "buffet", "players": ["Ana", "Ben", "Cléo"], "first": "Ben"})
    for code in ("plate-cheese-3", "plate-salad-n1"):
        client.post("/api/events", json={"type": "plate", "plate": code}, headers=HEADERS)
    before = client.get("/api/state").get_json()
    client.post("/api/events", json={"type": "plate", "plate": "plate-pizza-2"}, headers=HEADERS)
    assert client.post("/api/undo", headers=HEADERS).get_json()["accepted"]
    assert client.get("/api/state").get_json() == before


def test_a_malformed_buffet_event_is_a_clear_400_and_changes_nothing(client: FlaskClient) -> None:
    client.post("/api/events", headers=HEADERS,
                json={"type": "new_game", "game": "buffet", "players": ["Ana", "Ben", "Cléo"], "first": "Ana"})
    before = client.get("/api/state").get_json()
    for bad in ({"type": "plate"}, {"type": "plate", "plate": 3}, {"type": "new_game", "game": "buffet",
                                                                     "players": ["Ana", "Ben", "Cléo"]}):
        answer = client.post("/api/events", json=bad, headers=HEADERS)
        assert answer.status_code == 400 and answer.get_json()["error"]
    assert client.get("/api/state").get_json() == before
