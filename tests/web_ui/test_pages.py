"""Pages render the service's views in the table's language."""

from __future__ import annotations

import json
import random
from pathlib import Path

from flask.testing import FlaskClient

from companion.chaud_devant.simulate import random_game
from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from tests.web_ui.conftest import HEADERS, PLAYERS, new_game
from tests.web_ui.seat_phone import claim


def first_card_played(client: FlaskClient) -> None:
    """A four-player game whose menus are revealed and whose first card, Pois 3, is in the pot."""
    new_game(client)
    for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True):
        client.post("/api/events", json={"type": "menu", "player": name, "menu": menu}, headers=HEADERS)
    client.post("/api/drop", json={"code": "pea-3a"}, headers=HEADERS)


def test_pages_without_a_game(client: FlaskClient) -> None:
    assert "Aucune partie en cours" in client.get("/").get_data(as_text=True)
    assert "Nouvelle partie" in client.get("/setup").get_data(as_text=True)
    assert client.get("/seat/Nobody").status_code == 404


def test_table_display_during_play(client: FlaskClient) -> None:
    first_card_played(client)
    page = client.get("/fragment/table").get_data(as_text=True)
    assert 'id="pot-sum"' in page and ">3</p>" in page
    assert "Couleur demandée" in page and "Pois" in page and "●" in page
    assert "pas de soupe" in page  # menus revealed
    assert "Votre menu" not in client.get("/seat/Virginie", headers=HEADERS).get_data(as_text=True)  # PIN: no secrets
    key = claim(client, "Virginie")
    seat = client.get(f"/seat/Virginie?k={key}").get_data(as_text=True)
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


def test_pages_follow_the_table_language(client: FlaskClient) -> None:
    new_game(client)
    assert "Répéter" in client.get("/").get_data(as_text=True)
    client.post("/api/settings", json={"language": "en"}, headers=HEADERS)
    english = client.get("/").get_data(as_text=True)
    assert "Repeat" in english and "Where are we?" in english and 'lang="en"' in english
    client.post("/api/settings", json={"language": "nl"}, headers=HEADERS)
    dutch = client.get("/").get_data(as_text=True)
    assert "Herhalen" in dutch and "Waar zijn we?" in dutch
    assert client.post("/api/where").get_json()["text"].startswith("Ronde 1")


def test_session_survives_a_restart(client: FlaskClient, tmp_path: Path) -> None:
    client.post("/api/unlock", json={"pin": HEADERS["X-Table-Pin"]})
    cookie = client.get_cookie("session")
    assert cookie is not None
    service = TableService.open(tmp_path, GAMES)
    restarted = table_app(service, pin=HEADERS["X-Table-Pin"], data_dir=tmp_path).test_client()
    restarted.set_cookie("session", cookie.value)
    assert 'id="undo"' in restarted.get("/").get_data(as_text=True)


def test_a_page_opened_mid_game_lists_the_latest_announcements(client: FlaskClient) -> None:
    first_card_played(client)
    page = client.get("/").get_data(as_text=True)
    seed = page.split('<script type="application/json" id="log-seed">')[1].split("</script>")[0]
    texts = [message["text"] for message in json.loads(seed)]  # oldest first: the page orders them
    started = next(i for i, text in enumerate(texts) if "Virginie commence." in text)
    assert texts.index("Pois 3. À Bruno, couleur demandée Pois.") > started
