"""The console's limits seen from several devices: one guesser never locks the director out, and the wall
board keeps its stream places however many phones watch."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from club.hub import ClubHub
from club.store import Store
from club.topics import ClubURL
from club.web import ALL_GUESSES, MAX_STREAMS, STREAMS_PER_CLIENT, create_club_app
from marmite.games import GAMES
from web_ui.limits import RateLimit

PIN = "246810"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    hub = ClubHub(Store.open(tmp_path), ClubURL("127.0.0.1", 1, "hub", "unused", "club"), GAMES, tables=2,
                  console=lambda line: None)  # never started: the pages alone
    yield create_club_app(hub, pin=PIN)
    hub.cards.close()
    hub.store.close()


def device(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def unlock(client: FlaskClient, pin: str) -> int:
    page = client.get("/director").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    status: int = client.post("/director/unlock", data={"pin": pin, "csrf_token": found.group(1)}).status_code
    return status


def test_one_device_guessing_never_keeps_the_director_out(app: Flask) -> None:
    # A minute of guessing at the allowed rate, in a moment: the per-device request rate is not the point here.
    app.extensions["club.unlock_rate"] = RateLimit(burst=1000, every=60.0)
    guesser = device(app, "192.168.1.66")
    answers = [unlock(guesser, f"{n:06d}") for n in range(30)]
    assert 429 in answers  # the guesser is slowed down...
    director = device(app, "192.168.1.10")
    assert unlock(director, PIN) == 302  # ...and the director, on another device, gets in at once


def test_phones_cannot_take_the_wall_boards_stream_places(app: Flask) -> None:
    opened: list[Any] = []
    refused = 0
    for n in range(MAX_STREAMS // STREAMS_PER_CLIENT + 2):  # more phones than there are places
        phone = device(app, f"192.168.1.{n + 20}")
        for _ in range(STREAMS_PER_CLIENT):
            answer = phone.get("/api/board/stream", buffered=False)
            if answer.status_code == 429:
                refused += 1
            else:
                opened.append(answer)
    assert refused > 0
    wall = device(app, "127.0.0.1")  # the wall screen plugged into the hub
    assert wall.get("/api/board/stream", buffered=False).status_code == 200
    director = device(app, "192.168.1.10")
    assert unlock(director, PIN) == 302
    assert director.get("/api/board/stream", buffered=False).status_code == 200


def test_the_unlock_page_warns_when_the_pin_would_cross_the_network_in_clear(app: Flask) -> None:
    warning = "n’est pas chiffrée"
    assert warning in device(app, "192.168.1.10").get("/director").get_data(as_text=True)
    assert warning not in device(app, "127.0.0.1").get("/director").get_data(as_text=True)  # the hub's own screen
    behind_tls = device(app, "192.168.1.10")  # through a TLS proxy (--trusted-proxy): the request is HTTPS
    assert warning not in behind_tls.get("/director", base_url="https://hub.local").get_data(as_text=True)


def test_many_devices_guessing_together_are_bounded_club_wide(app: Flask) -> None:
    """Each address under its own limit, many addresses: the club-wide cap still stops the guessing; the hub's
    own screen is never kept out."""
    app.extensions["club.unlock_rate"] = RateLimit(burst=1000, every=60.0)
    answers = [unlock(device(app, f"192.168.1.{100 + n}"), f"{n * 10 + k:06d}") for n in range(12) for k in range(5)]
    assert answers[:ALL_GUESSES] == [200] * ALL_GUESSES  # every device under its own limit...
    assert set(answers[ALL_GUESSES:]) == {429}  # ...and all of them together stopped
    assert unlock(device(app, "127.0.0.1"), PIN) == 302
