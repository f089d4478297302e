"""A player chooses their secret menu on their own phone: the seat key and the page's token, never the PIN."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS, PLAYERS, new_game
from tests.web_ui.seat_phone import claim


def _phone(app: Flask, name: str) -> tuple[FlaskClient, str]:
    """A phone that opened `name`'s seat link: its client and its CSRF token."""
    phone = app.test_client()
    key = claim(phone, name)
    page = phone.get(f"/seat/{name}?k={key}").get_data(as_text=True)
    token = page.split('data-csrf="')[1].split('"')[0]
    return phone, token


def test_the_players_phone_chooses_their_menu(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    phone, token = _phone(app, "Bruno")
    assert 'class="big seat-menu-btn' in phone.get("/fragment/seat/Bruno").get_data(as_text=True)
    answer = phone.post("/api/seat/Bruno/menu", json={"menu": "onion"}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 200 and answer.get_json()["accepted"] is True
    assert phone.get("/api/seat/Bruno").get_json()["my_menu"] == "onion"
    assert client.get("/api/table").get_json()["players"][1]["has_chosen"] is True
    assert "seat-menu-btn" not in phone.get("/fragment/seat/Bruno").get_data(as_text=True)


def test_nobody_else_chooses_a_players_menu(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    phone, token = _phone(app, "Bruno")
    attempts = [
        (app.test_client(), {"X-CSRF-Token": token}),   # another device, no seat key
        (app.test_client(), dict(HEADERS)),             # the PIN holder: still not their phone
        (phone, {}),                                    # the phone, without its page token
    ]
    for other, headers in attempts:
        answer = other.post("/api/seat/Bruno/menu", json={"menu": "pea"}, headers=headers)
        assert answer.status_code == 403
    wrong_seat = phone.post("/api/seat/Virginie/menu", json={"menu": "pea"}, headers={"X-CSRF-Token": token})
    assert wrong_seat.status_code == 403
    assert phone.post("/api/seat/Bruno/menu", json={"menu": 3}, headers={"X-CSRF-Token": token}).status_code == 400
    assert phone.post("/api/seat/Nobody/menu", json={"menu": "pea"}).status_code == 404
    assert not any(p["has_chosen"] for p in client.get("/api/table").get_json()["players"])
    assert "seat-menu-btn" not in client.get(f"/fragment/seat/{PLAYERS[1]}").get_data(as_text=True)


def test_phones_do_not_show_the_hosts_links(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    phone, _ = _phone(app, "Bruno")
    page = phone.get("/seat/Bruno").get_data(as_text=True)
    assert "/setup" not in page and "/unlock" not in page
    assert "/setup" in client.get("/").get_data(as_text=True)
