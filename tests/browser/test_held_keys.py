"""A key held down on the tablet: its auto-repeat is not a stream of presses (U would undo a whole trick)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import Server, unlock, wait_stream

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cléo", "Dan"]


def test_holding_u_takes_back_one_play_only(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Dan"})
    for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True):
        server.post("/api/events", {"type": "menu", "player": name, "menu": menu})
    for card in ("pea-3a", "pea-4a", "pea-5a"):
        assert server.post("/api/events", {"type": "card", "card": card})["accepted"] is True
    unlock(page, server, "/")
    wait_stream(page)
    page.keyboard.down("u")  # the first press, then what the keyboard repeats while the key stays down
    for _ in range(5):
        page.keyboard.down("u")
    page.keyboard.up("u")
    deadline = time.monotonic() + 10
    while server.get("/api/state")["pot"]["cards"] != ["pea-3a", "pea-4a"] and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # the repeats, had they been sent, would have landed by now
    assert server.get("/api/state")["pot"]["cards"] == ["pea-3a", "pea-4a"]


def test_a_key_that_is_no_letter_breaks_no_fact_key(page: Any, server: Server) -> None:
    """A quote or a backslash (Shift+' on a US keyboard) once threw in the key handler: the keys after it
    still answer and the page reports no error."""
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Dan"})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    unlock(page, server, "/")
    wait_stream(page)
    for pressed in ('"', "\\", "]"):
        page.keyboard.press(pressed)
    assert errors == []
