"""Resuming and closing an earlier game through the API: the PIN, clear refusals that change nothing,
the announcement in the table's language, the past-games list, and the setup page's buttons."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from companion.buffet.simulate import random_game as buffet_game
from companion.table import TableService
from tests.web_ui.conftest import HEADERS, PLAYERS, new_game

CHOSEN = ("pea", "onion", "none", "pepper")
MENUS = [{"type": "menu", "player": name, "menu": menu} for name, menu in zip(PLAYERS, CHOSEN, strict=True)]


def post(client: FlaskClient, path: str, **kwargs: object) -> tuple[int, dict[str, object]]:
    answer = client.post(path, headers=HEADERS, json=kwargs or {})
    return answer.status_code, answer.get_json()


def two_games(client: FlaskClient) -> tuple[int, int]:
    """Game A (Chaud Devant, all menus chosen) replaced by game B (Sus au buffet !, a few plates)."""
    new_game(client)
    for event in MENUS:
        assert post(client, "/api/events", **event)[1]["accepted"] is True
    a = int(client.get("/api/games").get_json()[-1]["game"])
    for event in buffet_game(random.Random(4), players=4)[:4]:
        post(client, "/api/events", **event)
    b = int(client.get("/api/games").get_json()[-1]["game"])
    return a, b


def test_resume_needs_the_pin_and_refuses_clearly(client: FlaskClient, service: TableService) -> None:
    a, b = two_games(client)
    before = (client.get("/api/state").get_json(), client.get("/api/games").get_json())
    assert client.post(f"/api/games/{a}/resume").status_code == 401
    assert client.post(f"/api/games/{a}/close").status_code == 401
    status, answer = post(client, f"/api/games/{a + 1}/resume")
    assert status == 404 and answer == {"error": f"there is no game {a + 1}"}
    status, answer = post(client, f"/api/games/{b}/close")
    assert status == 409 and "current game" in str(answer["error"])
    for huge in (2**63, 10**20):  # beyond SQLite's integers: found in review as a 500
        for action in ("resume", "close"):
            status, answer = post(client, f"/api/games/{huge}/{action}")
            assert status == 404 and answer == {"error": f"there is no game {huge}"}
    assert (client.get("/api/state").get_json(), client.get("/api/games").get_json()) == before


def test_resume_brings_a_game_back_and_says_so(client: FlaskClient, service: TableService) -> None:
    a, b = two_games(client)
    status, answer = post(client, f"/api/games/{a}/resume")
    assert status == 200 and answer["kind"] == "resumed" and answer["game"] == a and answer["lang"] == "fr"
    assert str(answer["text"]).startswith("Partie du ") and "reprise : à Virginie de jouer." in str(answer["text"])
    state = client.get("/api/state").get_json()
    assert state["phase"] == "play" and state["turn"] == "Virginie" and "game" not in state
    listed = {game["game"]: game for game in client.get("/api/games").get_json()}
    assert listed[a]["current"] and not listed[b]["current"] and not listed[b]["abandoned"]
    page = client.get("/setup", headers=HEADERS).get_data(as_text=True)
    assert "manche 1 en cours" in page

    assert post(client, "/api/settings", language="en", voice=True, rate=1.0)[0] == 200
    status, answer = post(client, f"/api/games/{b}/close")
    assert status == 200 and answer["kind"] == "abandoned"
    assert str(answer["text"]).startswith("Game of ") and str(answer["text"]).endswith("abandoned in round 1.")
    listed = {game["game"]: game for game in client.get("/api/games").get_json()}
    assert listed[b]["abandoned"] and listed[b]["round"] == 1


def test_the_setup_page_offers_resume_and_close_only_where_they_apply(client: FlaskClient) -> None:
    a, b = two_games(client)
    token = client.get("/unlock").get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    client.post("/unlock", data={"pin": HEADERS["X-Table-Pin"], "csrf_token": token})
    page = client.get("/setup").get_data(as_text=True)
    assert f'class="resume-game" data-game="{a}"' in page and f'class="close-game" data-game="{a}"' in page
    assert f'data-game="{b}" aria-label' not in page  # the current game has neither
    assert "interrompue à la manche 1" in page


def test_the_table_page_follows_the_game_resumed_whichever_game_it_is(client: FlaskClient) -> None:
    a, b = two_games(client)
    assert "buffet.css" in client.get("/").get_data(as_text=True)
    assert post(client, f"/api/games/{a}/resume")[0] == 200
    assert "buffet.css" not in client.get("/").get_data(as_text=True)
    status, answer = post(client, f"/api/games/{b}/resume")
    assert status == 200 and str(answer["text"]).startswith("Partie du ")
    assert "buffet.css" in client.get("/").get_data(as_text=True)
    assert client.get("/api/table").get_json()["game_kind"] == "buffet"
