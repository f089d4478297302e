"""A scanned deal in Chromium: five players dealt card by card through the virtual pot, then the referee's
refusals on the tablet, and each phone's own hand on its seat link only."""

from __future__ import annotations

from typing import Any

import pytest

from companion.chaud_devant.cards import ALL_CODES
from marmite.games import GAMES
from tests.browser.conftest import Server, audit, shot, unlock, wait_stream

pytestmark = pytest.mark.browser
CODES = GAMES.kinds[GAMES.default].tag_codes  # a Chaud Devant box: the 52 soup cards, then the menu cards
FIVE = ["Ana", "Ben", "Cléo", "Dan", "Eva"]  # Eva deals: Ana gets the first card


def uid(index: int) -> str:
    return f"04{index:012x}"


def dealt(edition: str) -> dict[str, list[str]]:
    """Who holds what after the dealer passed ALL_CODES in order, one card at a time clockwise from Ana:
    52 cards in 2005 (11, 11, 10, 10, 10), 50 in 2023 (10 each)."""
    total = 52 if edition == "2005" else 50
    return {name: [ALL_CODES[i] for i in range(seat, total, len(FIVE))] for seat, name in enumerate(FIVE)}


def said_includes(page: Any, text: str) -> None:
    page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=text, timeout=15000)


@pytest.mark.parametrize(("edition", "suit"), [("2005", "Pois"), ("2023", "Insectes")])
def test_a_scanned_deal_then_refusals_on_the_tablet_and_hands_on_the_phones(
        page: Any, browser: Any, server: Server, edition: str, suit: str) -> None:
    server.post("/api/deck/import", {"csv": "uid,card\n" + "".join(f"{uid(i)},{c}\n" for i, c in enumerate(CODES))})
    server.post("/api/events", {"type": "new_game", "players": FIVE, "dealer": "Eva", "rules": {"edition": edition}})
    unlock(page, server, "/deck")
    wait_stream(page)
    page.click("[data-deal=start]")
    said_includes(page, "Distribuez : chaque carte au-dessus du lecteur, en commençant par Ana.")
    hands = dealt(edition)
    total = sum(len(hand) for hand in hands.values())
    for index in range(total):  # the dealer passes each card over the pot on its way to its player
        server.post("/api/drop", {"uid": uid(index)})
    said_includes(page, "Distribution terminée.")
    page.wait_for_function("() => document.body.dataset.deckActivity === 'none'", timeout=15000)  # deal over
    for name, menu in zip(FIVE, ("pea", "onion", "mushroom", "pepper", "none"), strict=True):
        server.post("/api/events", {"type": "menu", "player": name, "menu": menu})

    page.goto(server.url + "/")  # the tablet's table page: Ana leads
    wait_stream(page)
    ben_card = hands["Ben"][0]
    out_of_turn = server.post("/api/drop", {"uid": uid(ALL_CODES.index(ben_card))})
    assert out_of_turn["accepted"] is False and out_of_turn["reason"] == "out_of_turn"
    page.wait_for_selector("#refusal:not([hidden])")
    banner = page.inner_text("#refusal")
    assert banner.startswith("Refusé : ") and "main de Ben, c'est à Ana de jouer" in banner
    lead = next(code for code in hands["Ana"] if code.startswith("pea-") and code != "pea-x")
    assert server.post("/api/drop", {"uid": uid(ALL_CODES.index(lead))})["accepted"] is True
    page.wait_for_selector("#refusal", state="hidden")
    assert any(code.startswith("pea-") for code in hands["Ben"])  # Ben can follow the led suit...
    off_suit = next(code for code in hands["Ben"] if not code.startswith("pea-"))  # ...and plays another
    refused = server.post("/api/drop", {"uid": uid(ALL_CODES.index(off_suit))})
    assert refused["accepted"] is False and refused["reason"] == "must_follow_suit"
    page.wait_for_selector("#refusal:not([hidden])")
    assert page.inner_text("#refusal") == f"Refusé : Il faut fournir {suit} — règle 1."
    shot(page, f"deal-by-tag-refusal-{edition}")

    page.goto(server.url + "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ben')", "href")
    assert link is not None and "?k=" in link
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    try:
        ben = phone.new_page()
        ben.goto(link)
        wait_stream(ben)
        listed = ben.locator("#my-hand li").evaluate_all("items => items.map(i => i.dataset.card)")
        assert sorted(listed) == sorted(code for code in hands["Ben"])  # nothing played from it yet
        assert ben.inner_text("#my-hand-title") == f"Ma main ({len(hands['Ben'])})"
        assert ben.locator("#read-hand").count() == 1
        if edition == "2005":
            assert audit(ben, "seat-hand") == []
        shot(ben, f"deal-by-tag-seat-{edition}")
        key = link.split("?k=")[1]
        ben.goto(f"{server.url}/seat/Ana?k={key}")  # Ben's key does not open Ana's hand
        wait_stream(ben)
        assert ben.locator("#my-hand").count() == 0
        ben.goto(f"{server.url}/seat/Ana")
        wait_stream(ben)
        assert ben.locator("#my-hand").count() == 0
        content = ben.content()  # what Ana holds and has not played is nowhere on it
        assert not any(f"\"{code}\"" in content for code in hands["Ana"] if code != lead)
    finally:
        phone.close()


def test_a_read_during_enrollment_is_shown_on_the_tablet(page: Any, server: Server) -> None:
    unlock(page, server, "/deck")
    wait_stream(page)
    page.click("#enroll-start")
    page.wait_for_function("() => document.body.dataset.deckActivity === 'enroll'", timeout=15000)
    server.post("/api/drop", {"uid": uid(0)})  # the pot's reader sees the card: not a button on the page
    page.wait_for_function("() => document.getElementById('enroll-said').textContent.startsWith('Noté.')",
                           timeout=15000)
    server.post("/api/drop", {"uid": uid(0)})
    page.wait_for_function("() => document.getElementById('enroll-said').textContent.startsWith('Refusée')",
                           timeout=15000)
    assert "Pois, zéro, bouillon — premier exemplaire" in page.inner_text("#enroll-said")
