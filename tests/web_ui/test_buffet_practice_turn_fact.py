"""At a Sus au buffet ! practice without cards everyone chooses each step face down: T (whose turn) says who
still chooses, on the tablet and on the person's own phone, and names a reveal only once all have chosen
(issue 30, item 3: the tablet said "À Ana de dévoiler" while the players chose)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from companion.table import TableService
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import own_phone

PLAYERS = ["Ana", "Bip", "Bop"]
HAND = ["mouse-1", "mouse-2", "mouse-3", "mouse-4", "mouse-5", "mouse-6", "mouse-7", "mouse-8", "mouse-9"]


def turn_fact(page: str) -> str:
    found = re.search(r'<p data-fact="turn">(.*?)</p>', page, re.S)
    assert found is not None
    return found.group(1).strip()


def test_whose_turn_says_who_chooses_then_who_reveals(app: Flask, client: FlaskClient, service: TableService) -> None:
    robots = {"seats": {"Bip": "debutant", "Bop": "debutant"}, "practice": "virtual"}
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana", "robots": robots}).get_json()[
        "accepted"]
    for name in PLAYERS:  # the hands the table deals without cards, and its plates (no robot driver runs)
        assert service.submit({"type": "robot", "player": name, "hand": HAND}, "robot").accepted
    for plate in ("plate-cheese-3", "plate-pizza-2", "plate-potato-1", "plate-chicken-0", "plate-salad-n1"):
        assert service.submit({"type": "plate", "plate": plate}, "robot").accepted
    assert service.state()["phase"] == "step"
    phone, _ = own_phone(app, "Ana")
    assert turn_fact(client.get("/fragment/table").get_data(as_text=True)) == "Ana, Bip et Bop choisissent"
    assert turn_fact(phone.get("/fragment/seat/Ana").get_data(as_text=True)) == "À vous de choisir"
    for name in ("Bip", "Bop"):
        assert service.submit({"type": "robot", "player": name, "card": "mouse-5"}, "robot").accepted
    table = client.get("/fragment/table").get_data(as_text=True)
    assert turn_fact(table) == "Ana choisit" and "de dévoiler" not in table
    assert turn_fact(phone.get("/fragment/seat/Ana").get_data(as_text=True)) == "À vous de choisir"
    assert turn_fact(client.get("/fragment/seat/Bip").get_data(as_text=True)) == "Ana choisit"
    assert service.submit({"type": "robot", "player": "Ana", "card": "mouse-3"}, "seat").accepted
    assert turn_fact(client.get("/fragment/table").get_data(as_text=True)) == "À Ana de dévoiler"  # all chose
