"""Sus au buffet !'s score fact (S): every player's points, best first, on the tablet and on a phone alike (a
phone said only its own "Score 1", without "points": issue 30's walk)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone

PLAYERS = ["Ana", "Bip", "Bop"]


def score_fact(page: str) -> str:
    found = re.search(r'<p data-fact="scores">(.*?)</p>', page, re.S)
    assert found is not None
    return found.group(1).strip()


def test_the_score_key_says_everyones_points_on_the_tablet_and_on_a_phone(app: Flask, client: FlaskClient) -> None:
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Bip"}).get_json()["accepted"]
    phone, _ = own_phone(app, "Ana")
    everyone = "Ana, 0 point ; Bip, 0 point ; Bop, 0 point"
    assert score_fact(client.get("/fragment/table").get_data(as_text=True)) == everyone
    assert score_fact(phone.get("/fragment/seat/Ana").get_data(as_text=True)) == everyone
    client.post("/api/settings", json={"language": "en"}, headers=HEADERS)
    assert score_fact(client.get("/fragment/seat/Bop").get_data(as_text=True)) == (
        "Ana, 0 points; Bip, 0 points; Bop, 0 points")


def pot_fact(page: str) -> str:
    found = re.search(r'<p data-fact="pot">(.*?)</p>', page, re.S)
    assert found is not None
    return found.group(1).strip()


def test_the_buffet_key_says_a_negative_plate_in_words(client: FlaskClient) -> None:
    """P said "pommes de terre à −1" (a sign), where the table's lines say "moins 1" (the walk)."""
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Bip"}).get_json()["accepted"]
    assert client.post("/api/events", headers=HEADERS, json={"type": "plate", "plate": "plate-salad-n1"}).get_json()[
        "accepted"]
    fact = pot_fact(client.get("/fragment/table").get_data(as_text=True))
    assert "moins 1" in fact and "−" not in fact and "-1" not in fact, fact


def test_the_last_step_key_says_a_negative_card_in_words(client: FlaskClient) -> None:
    """D said "Bip, −1" with a sign, where the table's lines say "moins 1" (the second review)."""
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Bip"}).get_json()["accepted"]
    for plate in ("plate-cheese-3", "plate-pizza-2", "plate-potato-1", "plate-chicken-0", "plate-salad-n1"):
        assert client.post("/api/events", headers=HEADERS, json={"type": "plate", "plate": plate}).get_json()[
            "accepted"]
    assert client.post("/api/events", headers=HEADERS, json={"type": "card", "card": "mouse-n1"}).get_json()[
        "accepted"]
    found = re.search(r'<p data-fact="last-trick">(.*?)</p>', client.get("/fragment/table").get_data(as_text=True),
                      re.S)
    assert found is not None and "Bip, moins 1" in found.group(1) and "−" not in found.group(1), found
