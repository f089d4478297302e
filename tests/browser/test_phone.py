"""A phone in Chromium: the player's secret menu chosen on it, no host links."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, audit, unlock, wait_stream

pytestmark = pytest.mark.browser


def test_a_player_chooses_their_menu_on_their_phone(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": ["Anne", "Bruno", "Chloé"], "dealer": "Chloé"})
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Bruno')", "href")
    page.context.clear_cookies()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(link)
    wait_stream(page)
    assert page.locator("nav a").all_inner_texts() == ["Table", "Historique"]
    assert "Votre menu : pas encore choisi" in page.inner_text("#state")
    assert audit(page, "seat-menu-choice") == []
    page.click(".seat-menu-btn[data-menu=onion]")
    page.wait_for_function("() => document.getElementById('state').innerText.includes('Votre menu : Oignon')")
    assert page.locator(".seat-menu-btn").count() == 0
    bruno = next(p for p in server.get("/api/table")["players"] if p["name"] == "Bruno")
    assert bruno["has_chosen"] is True and bruno["menu"] is None  # chosen, still secret
