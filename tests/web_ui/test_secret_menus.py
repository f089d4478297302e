"""Secret menus appear nowhere (page, API, stream, other seats) before the simultaneous reveal."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web_ui.conftest import HEADERS, PLAYERS, new_game
from tests.web_ui.seat_phone import claim
from web_ui.app import stop_streams

SECRETS = {"Bruno": "none", "Virginie": "pepper"}
# Codes as whole words (not the card code pepper-1a), French names as the display would say them.
LEAKS = [re.compile(r"(?<![\w-])none(?![\w-])"), re.compile(r"(?<![\w-])pepper(?![\w-])"),
         re.compile("pas de soupe", re.I), re.compile("piment", re.I)]


def leaks(text: str) -> list[str]:
    return [pattern.pattern for pattern in LEAKS if pattern.search(text)]


def test_chosen_menus_are_secret_until_the_reveal(app: Flask, client: FlaskClient) -> None:
    new_game(client)
    for name, menu in SECRETS.items():
        answer = client.post("/api/events", json={"type": "menu", "player": name, "menu": menu}, headers=HEADERS)
        assert answer.get_json()["accepted"] is True
    others = [name for name in PLAYERS if name not in SECRETS]
    urls = ["/", "/setup", "/history", "/unlock", "/fragment/table", "/api/state", "/api/table",
            "/api/history", "/api/games", "/api/settings", "/api/auth"]
    urls += [f"/seat/{name}" for name in others] + [f"/fragment/seat/{name}" for name in others]
    urls += [f"/api/seat/{name}" for name in others]
    seen = {url: client.get(url) for url in urls}
    for url, answer in seen.items():
        assert answer.status_code == 200, url
        assert leaks(answer.get_data(as_text=True)) == [], url
    for url in ("/api/repeat", "/api/where"):
        assert leaks(client.post(url).get_data(as_text=True)) == [], url
    stop_streams(app)
    stream = client.get("/api/stream", headers={"Last-Event-ID": "0"}).get_data(as_text=True)
    assert "Bruno a choisi son menu" in stream
    assert leaks(stream) == []
    # Bruno's own page without his seat link shows nothing either; with it, it does (so the check can see).
    assert leaks(client.get("/api/seat/Bruno").get_data(as_text=True)) == []
    assert leaks(client.get("/seat/Bruno").get_data(as_text=True)) == []
    phone = app.test_client()
    key = claim(phone, "Bruno")
    assert leaks(phone.get(f"/api/seat/Bruno?k={key}").get_data(as_text=True)) != []
    assert "pas de soupe" in phone.get("/fragment/seat/Bruno").get_data(as_text=True)  # remembered
    assert leaks(phone.get("/api/seat/Virginie").get_data(as_text=True)) == []  # one link, one seat
    assert app.test_client().get("/api/seat/Bruno?k=0123456789abcdef0123").get_json()["my_menu"] is None
    # Once everyone has chosen, the menus are public.
    for name, menu in (("Valentine", "onion"), ("Nicolas", "mushroom")):
        client.post("/api/events", json={"type": "menu", "player": name, "menu": menu}, headers=HEADERS)
    assert "pas de soupe" in client.get("/fragment/table").get_data(as_text=True)
