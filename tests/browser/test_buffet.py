"""End to end in Chromium: a six-player Sus au buffet ! round played on the tablet, with a tie at the
rear and a duel replayed, the ring, the spoken reveals, a phone's view and an accessibility audit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, audit, shot, unlock, wait_log, wait_stream

pytestmark = pytest.mark.browser

SIX = ["Ana", "Ben", "Cléo", "Dan", "Éloïse", "Farid"]
PLATES = ["plate-salad-n1", "plate-cheese-3", "plate-pizza-1", "plate-potato-2", "plate-chicken-0"]
STEPS: list[list[int]] = [
    [5, 4, 3, 2, 1, 1],  # Éloïse and Farid tie at the rear: nobody leaves
    [1, 1, 1, 1, 2, 0],  # Farid (1) leaves with the salad −1 and may exchange cards
    [0, 0, 0, 1, 0],  # Ana 6, Ben 5, Cléo 4, Dan 4, Éloïse 3: Éloïse leaves with the chicken 0
    [0, 0, 2, 0],  # Dan 4 leaves with the pizza 1
    [0, 2, 0],  # Ana 6, Ben 7, Cléo 6: a tie at the rear again
    [1, 0, 0],  # Ana 7, Ben 7, Cléo 6: Cléo leaves with the potatoes 2
    [2, 2],  # the duel: 9 and 9, played again
    [3, 1],  # Ana 12, Ben 10: Ana takes the cheese 3, Ben nothing
]


def card(value: int) -> str:
    return ".mouse-btn[data-card='mouse-" + ("n1" if value == -1 else str(value)) + "']"


def test_a_six_player_round_with_a_tie_at_the_rear_and_a_replayed_duel(page: Any, server: Server) -> None:
    unlock(page, server, "/setup/buffet")
    for index, name in enumerate(SIX):
        page.fill(f"#buffet-player-{index}", name)
    page.fill("#buffet-first", "1")
    page.click("#new-buffet-game button[type=submit]")
    page.wait_for_url(server.url + "/")
    wait_stream(page)
    count = 0
    for code in PLATES:
        page.click(f".plate-btn[data-plate='{code}']")
        count += 1
        wait_log(page, count)
    # the log line comes first; the state fragment (the ring, the buffet) is re-fetched just after it
    page.wait_for_function("() => document.querySelectorAll('#buffet li').length === 5")
    assert page.locator(".ring path.mouse").count() == 6
    assert page.locator("#buffet li").all_inner_texts() == [
        "fromage à 3", "pommes de terre à 2", "pizza à 1", "poulet à 0", "salade de tomates à −1"]
    for number, step in enumerate(STEPS):
        for value in step:
            page.click(card(value))
            count += 1
            wait_log(page, count)
        if number == 0:
            page.wait_for_function("() => document.querySelectorAll('#reveals li').length === 0")
            assert all(name in page.inner_text(".mice") for name in SIX)
            shot(page, "buffet-tie-at-the-rear")
            assert audit(page, "buffet-table-step") == []
        if number == 6:  # the log line comes first; the state fragment is re-fetched just after it
            page.wait_for_function("() => document.querySelector('#turn').innerText.includes('Ana')")
            assert "Ana" in page.inner_text("#turn")
    page.wait_for_selector("#round-summary")
    shot(page, "buffet-round-summary")
    state = server.get("/api/state")
    assert state["round"] == 2 and state["phase"] == "buffet"
    assert state["plates"] == {"Ana": ["plate-cheese-3"], "Ben": [], "Cléo": ["plate-potato-2"],
                               "Dan": ["plate-pizza-1"], "Éloïse": ["plate-chicken-0"], "Farid": ["plate-salad-n1"]}
    summary = page.inner_text("#round-summary")
    assert "Ben — rien" in summary and "Ana — fromage à 3" in summary
    spoken = page.evaluate("window.__spoken")
    assert "Ben : quatre — case 4, deuxième. À Cléo." in spoken
    said = " ".join(spoken)  # long announcements are spoken as several short utterances
    assert "Égalité en queue entre Éloïse et Farid : personne ne part." in said
    assert "Farid part avec salade de tomates à moins 1. Farid peut échanger des cartes." in said
    assert "Ana et Ben sont sur la même case : ils rejouent." in said
    assert "Ana gagne le duel et emporte fromage à 3. Ben repart sans rien." in said
    assert audit(page, "buffet-table-summary") == []


def test_a_phone_shows_its_mouse_and_distances(page: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "game": "buffet", "players": SIX[:4], "first": "Ana"})
    for code in PLATES[:3]:
        server.post("/api/events", {"type": "plate", "plate": code})
    for value in (7, 3, 5):
        server.post("/api/events", {"type": "card", "card": f"mouse-{value}"})
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/seat/Ben")
    wait_stream(page)
    text = page.inner_text("#state")
    assert "Case 3" in text and "Souris derrière : à 3 cases" in text and "Souris devant : à 2 cases" in text
    server.post("/api/events", {"type": "card", "card": "mouse-0"})  # Dan 0: Dan leaves, Ben is now the rearmost
    page.wait_for_function("() => document.querySelector('#state').innerText.includes('Personne derrière')")
    shot(page, "buffet-phone")
    assert audit(page, "buffet-seat") == []
