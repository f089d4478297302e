"""The contract's JSON API through Flask's test client: PIN, 400s, answers, a whole game."""

from __future__ import annotations

import io
import json
import random

from flask.testing import FlaskClient

from companion.chaud_devant.simulate import random_game
from companion.replay import parse_log, replay
from companion.table import TableService
from companion.tags import simulated_uid
from marmite.games import GAMES
from tests.web_ui.conftest import HEADERS, PIN, PLAYERS, new_game


def test_events_need_the_pin(client: FlaskClient) -> None:
    body = {"type": "new_game", "players": PLAYERS, "dealer": "Bruno"}
    assert client.post("/api/events", json=body).status_code == 401
    assert client.post("/api/events", json=body, headers={"X-Table-Pin": "0000"}).status_code == 401
    assert client.get("/api/state").get_json()["stars"] == {}
    assert client.post("/api/events", json=body, headers=HEADERS).get_json() == {"accepted": True, "seq": 1}


def test_malformed_bodies_get_a_clear_400(client: FlaskClient) -> None:
    for raw in ("not json", "[1, 2]", '{"type": "dance"}', '{"type": "card"}', '{"type": "card", "card": 3}'):
        answer = client.post("/api/events", data=raw, headers={**HEADERS, "Content-Type": "application/json"})
        assert answer.status_code == 400, raw
        error = answer.get_json()["error"]
        assert error and "Traceback" not in error
    assert client.post("/api/drop", json={"code": "nope"}, headers=HEADERS).status_code == 400
    assert client.get("/api/stream", headers={"Last-Event-ID": "abc"}).status_code == 400


def test_a_drop_whose_code_is_not_a_string_is_a_400_not_a_crash(client: FlaskClient) -> None:
    for code in (["pea-3a"], {"card": "pea-3a"}, 3, None):
        answer = client.post("/api/drop", json={"code": code}, headers=HEADERS)
        assert answer.status_code == 400, code
        assert "code" in answer.get_json()["error"]
    assert client.get("/api/state").get_json()["stars"] == {}


def test_games_with_a_before_that_is_not_a_number_is_a_400_not_every_game(client: FlaskClient) -> None:
    new_game(client)
    for query in ("before=abc", "before=1.5", "before=", "limit=x"):
        answer = client.get(f"/api/games?{query}")
        assert answer.status_code == 400, query
        assert "whole numbers" in answer.get_json()["error"]
    assert len(client.get("/api/games?before=2").get_json()) == 1


def test_refusal_is_recorded_with_reason(client: FlaskClient) -> None:
    answer = client.post("/api/events", json={"type": "card", "card": "pea-1a"}, headers=HEADERS).get_json()
    assert answer == {"accepted": False, "reason": "no_game", "seq": 1}


def test_a_whole_game_through_the_api_matches_replay(client: FlaskClient) -> None:
    events = random_game(random.Random(7), players=4)
    for event in events:
        client.post("/api/events", json=event, headers=HEADERS)
    state = client.get("/api/state").get_json()
    log = io.BytesIO("\n".join(json.dumps(e) for e in events).encode())
    expected = replay(parse_log(log, GAMES), GAMES)
    expected.pop("refused")
    assert state == expected
    assert state["phase"] == "game_over" and state["winners"]


def test_virtual_pot_and_undo(client: FlaskClient, service: TableService) -> None:
    new_game(client)
    for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True):
        client.post("/api/events", json={"type": "menu", "player": name, "menu": menu}, headers=HEADERS)
    assert client.post("/api/drop", json={"code": "pea-3a"}, headers=HEADERS).get_json()["accepted"] is True
    assert client.post("/api/drop", json={"code": "pea-3a"}, headers=HEADERS).get_json() == {"ignored": True}
    assert client.get("/api/state").get_json()["pot"]["cards"] == ["pea-3a"]
    assert client.post("/api/undo", headers=HEADERS).get_json()["accepted"] is True
    assert client.get("/api/state").get_json()["pot"]["cards"] == []
    assert service.tags.lookup(simulated_uid("pea-3a")) == "pea-3a"


def test_session_needs_pin_then_csrf(client: FlaskClient) -> None:
    assert client.post("/api/unlock", json={"pin": "0000"}).status_code == 401
    token = client.post("/api/unlock", json={"pin": PIN}).get_json()["csrf"]
    body = {"type": "new_game", "players": PLAYERS, "dealer": "Bruno"}
    assert client.post("/api/events", json=body).status_code == 401  # no CSRF token
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": "forged"}).status_code == 401
    assert client.post("/api/events", json=body, headers={"X-CSRF-Token": token}).get_json()["accepted"] is True


def test_unlock_form_needs_csrf(client: FlaskClient) -> None:
    assert client.post("/unlock", data={"pin": PIN}).status_code == 400
    page = client.get("/unlock").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert client.post("/unlock", data={"pin": PIN, "csrf_token": token}).status_code == 302
    assert client.get("/api/auth").get_json()["authorized"] is False  # a session also needs the CSRF header
    assert client.get("/api/auth", headers={"X-CSRF-Token": token}).get_json()["authorized"] is True


def test_settings_switch_the_language(client: FlaskClient, service: TableService) -> None:
    assert client.post("/api/settings", json={"language": "de"}, headers=HEADERS).status_code == 400
    assert client.post("/api/settings", json={"language": "en", "rate": 1.2}, headers=HEADERS).status_code == 200
    assert service.language == "en"
    new_game(client)
    assert client.post("/api/where").get_json()["text"].startswith("Round 1")
    assert "Setup" in client.get("/setup").get_data(as_text=True)
    client.post("/api/settings", json={"language": "nl"}, headers=HEADERS)
    assert 'lang="nl"' in client.get("/").get_data(as_text=True)


def test_repeat_and_where(client: FlaskClient) -> None:
    assert client.post("/api/repeat").get_json()["kind"] == "repeat"
    new_game(client)
    assert client.post("/api/repeat").get_json()["text"].startswith("Nouvelle partie")
    where = client.post("/api/where").get_json()
    assert where["kind"] == "where" and "Manche 1" in where["text"]


def test_wrong_pins_are_throttled(client: FlaskClient) -> None:
    body = {"type": "undo"}
    for _ in range(10):
        assert client.post("/api/events", json=body, headers={"X-Table-Pin": "0000"}).status_code == 401
    answer = client.post("/api/events", json=body, headers=HEADERS)
    assert answer.status_code == 429 and "too many" in answer.get_json()["error"]
    assert int(answer.headers["Retry-After"]) >= 1


def test_unexpected_errors_give_no_stack_trace(client: FlaskClient, service: TableService) -> None:
    def broken() -> dict[str, object]:
        raise RuntimeError("secret internals")

    service.state = broken  # type: ignore[method-assign]
    answer = client.get("/api/state")
    assert answer.status_code == 500
    assert answer.get_json() == {"error": "internal error; the table log is unchanged"}
    assert client.get("/api/nothing-here").get_json()["error"]
