"""Members' cards in the browser: the director registers cards on the console (a malformed UID refused, a
card typed, a tap awaited at a table), and a card read at the table shows the seat it took on the setup page.
Real hub (with its Mosquitto) and a real table; axe on every new page state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import audit, shot
from tests.club.helpers import DIRECTOR_PIN, Hub, Table, hub_and_table

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Bruno", "Cléo", "Élise"]
CARD = "04a1b2c3d4e5f6"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Hub, Table]]:
    with hub_and_table(tmp_path, tables=1) as running:
        yield running


def test_cards_are_registered_on_the_console_and_take_a_seat_on_the_setup_page(page: Any,
                                                                                club: tuple[Hub, Table]) -> None:
    hub, table = club
    page.goto(f"{hub.web}/director")
    page.fill("#pin", DIRECTOR_PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#players")
    assert page.locator("#cards-title ~ p").inner_text().startswith("Ajoutez d'abord les joueurs")
    page.fill("#players", "\n".join(NAMES))
    page.select_option("#game", "buffet")
    page.click("#seat-title ~ form button[type=submit]")
    page.wait_for_selector("#card-uid")
    assert page.locator("table.cards tbody tr").count() == len(NAMES)

    page.select_option("#card-player", "Élise")
    page.fill("#card-uid", "04:A1:B2")
    page.click("#card-uid ~ button")
    page.wait_for_selector("#card-message[role=alert]")
    assert "n'est pas l'UID d'une carte" in page.locator("#card-message").inner_text()
    assert audit(page, "club-cards-refused") == []

    page.select_option("#card-player", "Élise")
    page.fill("#card-uid", "04 A1 B2 C3 D4 E5 F6")
    page.click("#card-uid ~ button")
    page.wait_for_selector("#card-message[role=status]")
    assert page.locator("#card-message").inner_text() == "Carte de membre enregistrée : Élise."
    assert "carte finissant par …e5f6" in page.locator("table.cards").inner_text()
    assert audit(page, "club-cards-bound") == []

    page.select_option("#tap-player", "Bruno")
    page.fill("#tap-table", "1")
    page.click("#tap-table ~ button")
    page.wait_for_selector("ul.waiting")
    assert page.locator("ul.waiting").inner_text() == "Table 1 : carte attendue pour Bruno."
    assert audit(page, "club-cards-waiting") == []
    shot(page, "club-cards")
    page.set_viewport_size({"width": 390, "height": 844})  # the section fits a phone
    assert page.evaluate("() => { const s = document.getElementById('cards');"
                         " return s.scrollWidth <= s.clientWidth + 1 && s.getBoundingClientRect().right <= 391; }")
    page.set_viewport_size({"width": 1024, "height": 768})

    seating: dict[str, Any] | None = None
    for _ in range(100):
        seating = table.club_status()["seating"]
        if seating:
            break
        page.wait_for_timeout(100)
    assert seating is not None and "cards" not in seating and seating["game"] == "buffet"
    seat = seating["players"].index("Élise") + 1
    for _ in range(100):  # the seating comes again with Élise's card once it is bound
        status, _, raw = table.request("POST", "/api/drop", {"uid": CARD}, {"X-Table-Pin": table.pin})
        assert status == 200, raw
        if table.club_status()["confirmed"]:
            break
        page.wait_for_timeout(100)
    assert table.club_status()["confirmed"] == [{"seat": seat, "player": "Élise"}]
    page.goto(f"http://127.0.0.1:{table.port}/setup")  # the other game's form: nothing filled there
    page.wait_for_function("() => document.getElementById('club-link').textContent.length > 0")
    assert page.locator("#club-cards").count() == 0
    page.goto(f"http://127.0.0.1:{table.port}/setup/buffet")
    page.wait_for_selector("#club-cards li")
    assert page.locator("#club-cards").inner_text() == f"Carte : Élise, place {seat}"
    assert page.input_value(f"#buffet-player-{seat - 1}") == "Élise"
    assert audit(page, "club-table-card-seat") == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert table.journal() == []  # the card took a seat: nothing was journaled
