"""The announcement log stands on every page a player can open (not only the table and seat pages),
once, with the game's announcements: a braille user reaches it with J wherever they are."""

from __future__ import annotations

import json
import re

import pytest
from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS, PLAYERS, new_game

PAGES = ["/", "/setup", "/history", "/deck", "/readers", "/setup/robots", "/setup/buffet", "/unlock"]


@pytest.mark.parametrize("url", PAGES)
def test_every_page_has_one_log_seeded_with_the_games_announcements(client: FlaskClient, url: str) -> None:
    new_game(client)
    secret = {"type": "menu", "player": PLAYERS[0], "menu": "pea"}
    assert client.post("/api/events", headers=HEADERS, json=secret).status_code == 200
    page = client.get(url).get_data(as_text=True)
    assert page.count('id="log"') == 1 and page.count('id="log-title"') == 1
    seed = re.search(r'<script type="application/json" id="log-seed">(.*?)</script>', page, re.S)
    assert seed is not None
    texts = [entry["text"] for entry in json.loads(seed.group(1))]
    assert texts, "the log starts from the game's announcements"
    assert "pea" not in " ".join(texts).lower() and "pois" not in " ".join(texts).lower()  # a secret menu stays secret


@pytest.mark.parametrize("url", PAGES)
def test_every_page_heads_a_buffet_step_as_a_step_never_a_trick(client: FlaskClient, url: str) -> None:
    start = {"type": "new_game", "game": "buffet", "players": ["Ana", "Bip", "Bop"], "first": "Ana"}
    assert client.post("/api/events", headers=HEADERS, json=start).get_json()["accepted"]
    word = re.search(r'data-trick-word="([^"]*)"', client.get(url).get_data(as_text=True))
    assert word is not None and word.group(1) == "étape %(n)s"
