"""Issue 21's rough edges that need no browser: the buffet ring, the kept PIN, the log's seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from companion.table import TableService
from marmite.serve import resolve_pin, table_app
from tests.web_ui.conftest import HEADERS, PIN, new_game
from web_ui.games.buffet.pages import ring
from web_ui.pin_store import PIN_FILE, kept_pin
from web_ui.resources import table_resources

MOUSE_RADIUS = 10


@given(st.lists(st.integers(min_value=0, max_value=39), min_size=3, max_size=6))
def test_every_mouse_is_drawn_inside_the_picture(squares: list[int]) -> None:
    players: list[dict[str, Any]] = [{"square": square, "shape": "circle", "seat": seat}
                                     for seat, square in enumerate(squares)]
    drawn = ring(players)
    for mouse in drawn["mice"]:
        assert MOUSE_RADIUS <= mouse["x"] <= drawn["size"] - MOUSE_RADIUS, mouse
        assert MOUSE_RADIUS <= mouse["y"] <= drawn["size"] - MOUSE_RADIUS, mouse


def test_three_mice_on_one_square_stay_in_the_picture() -> None:
    drawn = ring([{"square": 0, "shape": "circle", "seat": seat} for seat in range(3)])
    assert all(mouse["y"] >= MOUSE_RADIUS for mouse in drawn["mice"])


def test_a_restart_keeps_the_table_pin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MARMITE_PIN", raising=False)
    first, drawn = resolve_pin(None, tmp_path)
    again, drawn_again = resolve_pin(None, tmp_path)
    assert drawn and not drawn_again
    assert first == again and len(first) == 6 and first.isdigit()
    assert oct((tmp_path / PIN_FILE).stat().st_mode & 0o777) == "0o600"
    assert resolve_pin("4321", tmp_path) == ("4321", False)  # --pin still wins, and is not kept
    assert kept_pin(tmp_path) == first


def test_the_host_changes_the_pin_and_it_is_kept(client: FlaskClient, app: Flask, tmp_path: Path) -> None:
    answer = client.post("/api/pin", headers=HEADERS, json={"pin": "97531"})
    assert answer.status_code == 200, answer.get_json()
    assert kept_pin(tmp_path) == "97531" and app.config["MARMITE_PIN"] == "97531"
    assert client.post("/api/pin", headers=HEADERS, json={"pin": "1111"}).status_code == 401  # the old PIN is gone
    assert client.post("/api/pin", headers={"X-Table-Pin": "97531"}, json={"pin": "12"}).status_code == 400
    assert client.post("/api/pin", headers={"X-Table-Pin": "97531"}, json={"pin": "12ab"}).status_code == 400
    assert kept_pin(tmp_path) == "97531"
    assert client.post("/api/pin", json={"pin": "5555"}).status_code == 401  # a stranger changes nothing
    assert kept_pin(tmp_path) == "97531"


def test_a_pin_given_by_pin_or_the_environment_is_not_changed_from_the_page(service: TableService,
                                                                        tmp_path: Path) -> None:
    app = table_app(service, pin=PIN, data_dir=tmp_path, config={"TESTING": True, "MARMITE_PIN_FIXED": True})
    answer = app.test_client().post("/api/pin", headers=HEADERS, json={"pin": "97531"})
    assert answer.status_code == 409 and "--pin" in answer.get_json()["error"]  # a restart would bring it back
    assert kept_pin(tmp_path) is None and app.config["MARMITE_PIN"] == PIN


def test_the_setup_page_shows_the_pin_only_to_the_host(client: FlaskClient) -> None:
    assert PIN not in client.get("/setup").get_data(as_text=True)
    with client.session_transaction() as session:
        session["csrf"] = "t"
    page = client.get("/unlock")
    token = page.get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    client.post("/unlock", data={"csrf_token": token, "pin": PIN})
    page = client.get("/setup")
    assert f'<strong id="current-pin">{PIN}</strong>' in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"  # once locked, Back must not show the PIN again


def test_a_new_game_starts_with_an_empty_log(client: FlaskClient) -> None:
    new_game(client)
    client.post("/api/events", headers=HEADERS, json={"type": "menu", "player": "Bruno", "menu": "pea"})
    new_game(client)
    seed = _seed(client.get("/").get_data(as_text=True))
    assert [m["kind"] for m in seed] == ["new_game"]


def _seed(page: str) -> list[dict[str, Any]]:
    text = page.split('<script type="application/json" id="log-seed">')[1].split("</script>")[0]
    seed: list[dict[str, Any]] = json.loads(text)
    return seed


def test_the_deck_check_date_is_a_date_not_an_iso_stamp(client: FlaskClient, app: Flask) -> None:
    table_resources(app).desk.store.mark_checked("2026-11-25T12:34:56+00:00")
    page = client.get("/deck").get_data(as_text=True)
    assert ">2026-11-25T12:34" not in page
    assert '<time class="local-time" datetime="2026-11-25T12:34:56+00:00">2026-11-25 12:34 UTC</time>' in page
