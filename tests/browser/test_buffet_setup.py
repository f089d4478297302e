"""The Sus au buffet ! setup page in Chromium: a refused game is said in words, and a running game is only
replaced once the host confirms (as the Chaud Devant form does)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, refuse_then_accept, unlock

pytestmark = pytest.mark.browser


def test_a_refused_game_is_said_in_words_and_a_running_one_needs_a_yes(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": ["Ana", "Ben", "Cléo"], "dealer": "Ana"})
    unlock(page, server, "/setup/buffet")
    for index, name in enumerate(["Zoé", "Yann", "Zoé"]):  # a name twice: refused
        page.fill(f"#buffet-player-{index}", name)
    asked = refuse_then_accept(page)
    page.click("#new-buffet-game button[type=submit]")
    assert len(asked) == 1 and "partie est en cours" in asked[0]
    assert server.get("/api/state")["stars"] == {"Ana": 5, "Ben": 5, "Cléo": 5}  # no: nothing was sent
    page.click("#new-buffet-game button[type=submit]")
    page.wait_for_function("() => document.getElementById('setup-status').textContent.length > 0")
    status = page.inner_text("#setup-status")
    assert "bad_setup" not in status and "La partie n’a pas été lancée" in status and "3 à 6" in status
    page.fill("#buffet-player-2", "Xavier")
    page.fill("#buffet-first", "5")  # no fifth player: refused, not quietly the first one
    page.evaluate("() => { document.getElementById('setup-status').textContent = ''; }")
    page.click("#new-buffet-game button[type=submit]")
    page.wait_for_function("() => document.getElementById('setup-status').textContent.length > 0")
    assert page.inner_text("#setup-status") == status
    assert server.get("/api/state")["stars"] == {"Ana": 5, "Ben": 5, "Cléo": 5}
    assert len(asked) == 3  # each try asked first
