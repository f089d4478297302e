"""Revokes on the table, the phone of the player concerned and the history; the phone's game views."""

from __future__ import annotations

import html
import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.chaud_devant.simulate import Noise, random_game, simulate
from companion.referee import Referee
from marmite.games import GAMES
from tests.web_ui.conftest import HEADERS
from tests.web_ui.seat_phone import claim


def text_of(client: FlaskClient, url: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", client.get(url).get_data(as_text=True)))


def _until_a_revoke() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    for seed in range(100):
        events = simulate(random.Random(seed), players=4, noise=Noise(revoke=0.5)).events
        referee = Referee(GAMES)
        for index, event in enumerate(events):
            referee.apply(event)
            revokes = referee.public_state["revokes"]
            if revokes:
                return events[: index + 1], revokes[0]
    raise AssertionError("no revoke in 100 simulated games")


def test_a_revoke_stays_on_the_table_the_players_phone_and_the_history(app: Flask, client: FlaskClient) -> None:
    events, revoke = _until_a_revoke()
    for event in events:
        client.post("/api/events", json=event, headers=HEADERS)
    cheat = revoke["player"]
    line = f"Renonce {'d' + chr(39) if cheat[0] in 'AEIOUH' else 'de '}{cheat}"
    assert line in text_of(client, "/fragment/table")
    assert line in text_of(client, "/history")
    assert line in text_of(client, f"/fragment/seat/{cheat}")
    others = [name for name in events[0]["players"] if name != cheat]
    assert all("Renonce" not in text_of(client, f"/fragment/seat/{name}") for name in others)


def test_the_phone_shows_menus_the_last_trick_and_the_standings(app: Flask, client: FlaskClient) -> None:
    events = random_game(random.Random(7), players=3)
    players = events[0]["players"]
    referee = Referee(GAMES)
    index = 0
    for index, event in enumerate(events):  # noqa: B007 - the index where the first trick is won
        client.post("/api/events", json=event, headers=HEADERS)
        referee.apply(event)
        view = referee.state.table_view() if referee.state is not None else {}
        if view.get("last_trick") and view["phase"] == "play":
            break
    phone = text_of(client, f"/fragment/seat/{players[0]}")
    for seat in view["players"]:
        assert f"{seat['name']} : " in phone  # everyone's revealed menu
    trick = view["last_trick"]
    assert f"Pli {trick['number']} pour {trick['winner']} :" in phone
    for event in events[index + 1:]:
        client.post("/api/events", json=event, headers=HEADERS)
    state = client.get("/api/state").get_json()
    own = app.test_client()
    key = claim(own, players[0])
    final = text_of(own, f"/seat/{players[0]}?k={key}")
    assert "Classement final" in final and "pas encore choisi" not in final
    for name in state["winners"]:
        assert re.search(rf"{name} — \d+ étoiles?\s+★ vainqueur", final)
