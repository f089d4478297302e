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


def test_whose_turn_says_who_may_exchange(app: Flask, client: FlaskClient, service: TableService) -> None:
    """Ana leaves first and may exchange: the table turns nothing over until she has, so T names her exchange
    (it said "À Bip de dévoiler" while her own page said "À vous d'échanger des cartes")."""
    robots = {"seats": {"Bip": "debutant", "Bop": "debutant"}, "practice": "virtual"}
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana", "robots": robots}).get_json()[
        "accepted"]
    for name in PLAYERS:  # Ana holds the lowest cards, the robots fives
        hand = ["mouse-n1"] * 9 if name == "Ana" else ["mouse-5"] * 9
        assert service.submit({"type": "robot", "player": name, "hand": hand}, "robot").accepted
    for plate in ("plate-cheese-3", "plate-pizza-2", "plate-potato-1", "plate-chicken-0", "plate-salad-n1"):
        assert service.submit({"type": "plate", "plate": plate}, "robot").accepted
    for name in PLAYERS:
        card = "mouse-n1" if name == "Ana" else "mouse-5"
        assert service.submit({"type": "robot", "player": name, "card": card}, "seat").accepted
    for card in ("mouse-n1", "mouse-5", "mouse-5"):  # the table turns them over
        assert service.submit({"type": "card", "card": card}, "robot").accepted
    assert "Ana" not in service.state()["in_round"] and service.state()["phase"] == "step"
    phone, _ = own_phone(app, "Ana")
    for chosen in ([], ["Bip", "Bop"]):  # while the robots choose, and once they have (nobody left to choose)
        for name in chosen:
            assert service.submit({"type": "robot", "player": name, "card": "mouse-5"}, "robot").accepted
        page = phone.get("/fragment/seat/Ana").get_data(as_text=True)
        assert 'data-move="swap"' in page and turn_fact(page) == "À vous d’échanger"
        assert turn_fact(client.get("/fragment/table").get_data(as_text=True)) == "Ana peut échanger"
        assert turn_fact(client.get("/fragment/seat/Bip").get_data(as_text=True)) == "Ana peut échanger"
