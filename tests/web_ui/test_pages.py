"""Pages render the service's views in the table's language."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from companion.simulate import random_game
from tests.web_ui.conftest import HEADERS, PLAYERS, new_game


def test_pages_without_a_game(client: FlaskClient) -> None:
    assert "Aucune partie en cours" in client.get("/").get_data(as_text=True)
    assert "Nouvelle partie" in client.get("/setup").get_data(as_text=True)
    assert client.get("/seat/Nobody").status_code == 404


def test_table_display_during_play(client: FlaskClient) -> None:
    new_game(client)
    for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True):
        client.post("/api/events", json={"type": "menu", "player": name, "menu": menu}, headers=HEADERS)
    client.post("/api/drop", json={"code": "pea-3a"}, headers=HEADERS)
    page = client.get("/fragment/table").get_data(as_text=True)
    assert 'id="pot-sum"' in page and ">3</p>" in page
    assert "Couleur demandée" in page and "Pois" in page and "●" in page
    assert "pas de soupe" in page  # menus revealed
    seat = client.get("/seat/Virginie").get_data(as_text=True)
    assert "Votre menu" in seat and "Pois" in seat


def test_final_standings_and_history(client: FlaskClient) -> None:
    for event in random_game(random.Random(3), players=3):
        client.post("/api/events", json=event, headers=HEADERS)
    state = client.get("/api/state").get_json()
    page = client.get("/fragment/table").get_data(as_text=True)
    assert "Classement final" in page and "<svg" in page
    for winner in state["winners"]:
        assert winner in page
    history = client.get("/history").get_data(as_text=True)
    assert "Pli 1" in history and "Manche 5" in history


def test_controls_only_when_unlocked(client: FlaskClient) -> None:
    assert 'id="undo"' not in client.get("/").get_data(as_text=True)
    client.post("/api/unlock", json={"pin": HEADERS["X-Table-Pin"]})
    assert 'id="undo"' in client.get("/").get_data(as_text=True)
