"""One CSRF check and one "own seat" guard (web_ui.auth): every seat, robot and club endpoint refuses a
missing or wrong CSRF token, and a seat the phone does not own, alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table import TableService
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import key_of, own_phone
from web_ui.resources import table_resources

PLAYERS = ["Ana", "Marmiton", "Cléo"]
OWN_SEAT = {  # endpoint (for a seat) → a body its own phone may send
    "/api/seat/{}/menu": lambda seat: {"menu": "entree"},
    "/api/seat/{}/play": lambda seat: {"card": "pea-1a"},
    "/api/seat/{}/swap": lambda seat: {"cards": []},
    "/api/seat/{}/hint": lambda seat: {},
    "/api/spoken": lambda seat: {"serial": 1, "seat": seat},
    "/api/club/confirm": lambda seat: {"player": seat, "verdict": "confirmed"},
}


@pytest.fixture
def club_app(app: Flask, service: TableService) -> Flask:
    """The table's app with the club's confirmation mounted (a link that is never reached)."""
    pytest.importorskip("paho.mqtt")
    from club.table import Guards, club_of, mount_club
    from web_ui.auth import authorized, own_seat

    mount_club(service, app, None, Guards(authorized, own_seat), None)
    club_of(app).link = object()  # type: ignore[assignment]
    table_resources(app).attached.robots = None
    robots: dict[str, Any] = {"seats": {"Marmiton": "debutant"}, "practice": "virtual"}
    assert app.test_client().post("/api/events", headers=HEADERS, json={
        "type": "new_game", "players": PLAYERS, "dealer": "Cléo", "robots": robots}).get_json()["accepted"]
    return app


def url(path: str, seat: str) -> str:
    return path.format(seat) if "{}" in path else path


@pytest.mark.parametrize("path", OWN_SEAT)
def test_an_own_seat_endpoint_refuses_a_missing_or_wrong_token_and_a_seat_not_owned(club_app: Flask,
                                                                                   path: str) -> None:
    phone, token = own_phone(club_app, "Ana")
    body = OWN_SEAT[path]

    def refused(seat: str, headers: dict[str, str]) -> bool:
        answer = phone.post(url(path, seat), json=body(seat), headers=headers)
        return answer.status_code == 403 and "own phone" in str((answer.get_json() or {}).get("error"))

    assert refused("Ana", {}), "no CSRF token"
    assert refused("Ana", {"X-CSRF-Token": token + "x"}), "a wrong CSRF token"
    assert refused("Cléo", {"X-CSRF-Token": token}), "another player's seat"
    assert not refused("Ana", {"X-CSRF-Token": token}), "the player's own phone with its token passes the guard"


def test_a_seat_is_claimed_only_with_the_page_s_token(club_app: Flask) -> None:
    phone: FlaskClient = club_app.test_client()
    key = key_of(club_app, "Cléo")
    phone.get(f"/seat/Cléo?k={key}")
    assert phone.post("/api/seat/Cléo/claim", json={"k": key}).status_code == 403
    assert phone.post("/api/seat/Cléo/claim", json={"k": key}, headers={"X-CSRF-Token": "forged"}).status_code == 403


@pytest.mark.parametrize("path", ["/unlock", "/lock", "/readers/scan"])
def test_a_form_refuses_a_missing_or_wrong_token(client: FlaskClient, path: str) -> None:
    client.get("/unlock")  # the session has a token
    assert client.post(path, data={"pin": "2468"}).status_code == 400
    assert client.post(path, data={"pin": "2468", "csrf_token": "forged"}).status_code == 400


def test_the_table_reads_the_csrf_token_in_one_place() -> None:
    """Only web_ui/auth.py reads the session's token; the hub's own app (club/web.py, which may not import
    web_ui.auth) keeps its director's check."""
    root = Path(__file__).resolve().parents[2]
    readers = sorted(str(path.relative_to(root)) for top in ("web_ui", "marmite", "club")
                     for path in (root / top).rglob("*.py")
                     if 'session.get("csrf")' in path.read_text(encoding="utf-8"))
    assert readers == ["club/web.py", "web_ui/auth.py"]
