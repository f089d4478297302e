"""Sus au buffet !'s box on the tablet's deck page, in Chromium: enroll a few cards, then check the deck."""

from __future__ import annotations

from typing import Any

import pytest

from companion.buffet.plates import PHYSICAL_MOUSE_CARDS, STAND_IN_SET
from tests.browser.conftest import Server, audit, shot, unlock

pytestmark = pytest.mark.browser
DECK = PHYSICAL_MOUSE_CARDS + STAND_IN_SET  # one box: 110 mouse cards and 36 plates


def uid(index: int) -> str:
    return f"05{index:012x}"


def current_is(page: Any, text: str) -> None:
    page.wait_for_function("t => document.getElementById('enroll-current').textContent === t", arg=text,
                           timeout=15000)


def spoken_includes(page: Any, text: str) -> None:
    page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=text, timeout=15000)


def test_buffet_cards_enrolled_then_the_deck_checked_from_the_tablet(page: Any, server: Server) -> None:
    unlock(page, server, "/deck")
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
    page.select_option("#deck-game", "buffet")
    page.click("#enroll-start")
    current_is(page, "Souris moins un, exemplaire 1")
    spoken_includes(page, "Souris moins un, exemplaire 1.")
    assert page.inner_text("#enroll-count") == "0 / 146"
    server.post("/api/drop", {"uid": uid(0)})
    current_is(page, "Souris moins un, exemplaire 2")
    server.post("/api/drop", {"uid": uid(0)})  # the same tag again: refused, naming its card
    spoken_includes(page, "Refusée : cette étiquette est déjà Souris moins un, exemplaire 1.")
    page.click("[data-enroll=skip]")
    current_is(page, "Souris moins un, exemplaire 3")
    page.click("[data-enroll=back]")
    current_is(page, "Souris moins un, exemplaire 2")
    for index in range(1, 4):
        server.post("/api/drop", {"uid": uid(index)})
    current_is(page, "Souris moins un, exemplaire 5")
    page.wait_for_function("() => document.getElementById('enroll-count').textContent === '4 / 146'")
    assert page.locator("#missing-list li").first.text_content() == "Souris moins un, exemplaire 5"
    shot(page, "deck-buffet-enrolling")
    assert audit(page, "deck-buffet-enrolling") == []
    page.click("[data-enroll=stop]")
    spoken_includes(page, "Enregistrement arrêté")

    server.post("/api/deck/import", {"csv": "uid,card\n" + "".join(f"{uid(i)},{c}\n" for i, c in enumerate(DECK))})
    page.reload()
    page.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
    page.select_option("#deck-game", "buffet")
    page.click("[data-check=start]")
    spoken_includes(page, "Passez tout le paquet au-dessus du lecteur.")
    for index in [*range(1, len(DECK)), 114]:
        server.post("/api/drop", {"uid": uid(index)})
    server.post("/api/drop", {"uid": "cafebabe"})
    page.wait_for_function("() => document.getElementById('check-live').textContent === '145 / 146'")
    page.click("[data-check=finish]")
    page.wait_for_selector("#check-report:not([hidden])")
    assert page.locator("#check-missing li").all_inner_texts() == ["Souris moins un, exemplaire 1"]
    assert page.locator("#check-unknown li").all_inner_texts() == ["cafebabe"]
    assert page.locator("#check-doubled li").all_inner_texts() == ["Fromage à 3"]
    spoken_includes(page, "Pas vues : Souris moins un, exemplaire 1.")
    shot(page, "deck-buffet-check-report")
