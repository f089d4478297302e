"""Sus au buffet ! at a practice table with cards, in Chromium: Ana's nine cards dealt by tag on the deck
page (said, a plate refused and said, axe on the deal), then the chef's advice on her own phone."""

from __future__ import annotations

from typing import Any

import pytest

from marmite.games import GAMES
from tests.browser.conftest import Server, audit, shot, unlock, wait_stream

pytestmark = pytest.mark.browser
BOX = GAMES.kinds["buffet"].tag_codes  # the 110 mouse cards (ten copies of each value), then the plates
UIDS = {code: f"05{index:012x}" for index, code in enumerate(BOX)}
PLATES = ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-sausage-0", "plate-salad-5")


def said_includes(page: Any, text: str) -> None:
    page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=text, timeout=15000)


def test_a_buffet_practice_deals_the_peoples_cards_by_tag_and_the_chef_then_advises(
        browser: Any, page: Any, server: Server) -> None:
    server.post("/api/deck/import", {"csv": "uid,card\n" + "".join(f"{uid},{code}\n" for code, uid in UIDS.items())})
    robots = {"seats": {"Bip": "chef"}, "practice": "cards", "aids": True, "pace_ms": 100}
    assert server.post("/api/events", {"type": "new_game", "game": "buffet", "players": ["Ana", "Bip", "Cléo"],
                                       "first": "Ana", "robots": robots})["accepted"]
    unlock(page, server, "/deck")
    wait_stream(page)
    page.click("[data-deal=start]")
    said_includes(page, "Distribuez : chaque carte au-dessus du lecteur, en commençant par Ana.")
    server.post("/api/drop", {"uid": UIDS[PLATES[0]]})  # a plate passed during the deal: refused and said
    said_includes(page, "Pas une carte souris ; à Ana.")
    assert audit(page, "buffet-deal-by-tag") == []
    shot(page, "buffet-deal-by-tag")
    ana = [f"mouse-{value}@1" for value in ("0", "1", "2", "3", "4", "5", "6", "7", "8")]
    cleo = [f"mouse-{value}@2" for value in ("0", "1", "2", "3", "4", "5", "6", "7", "8")]
    for card in (card for pair in zip(ana, cleo, strict=True) for card in pair):
        server.post("/api/drop", {"uid": UIDS[card]})
    said_includes(page, "Distribution terminée.")
    for plate in PLATES:
        assert server.post("/api/drop", {"uid": UIDS[plate]})["accepted"] is True

    page.goto(server.url + "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ana')", "href")
    assert link is not None
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    try:
        seat = phone.new_page()
        seat.goto(link)
        wait_stream(seat)
        seat.click("#practice-hint")
        seat.wait_for_function("() => (document.getElementById('practice-status') || {}).textContent",
                               timeout=20000)
        assert seat.inner_text("#practice-status").startswith("Le chef jouerait la souris ")
        assert audit(seat, "buffet-cards-practice-phone") == []
    finally:
        phone.close()
