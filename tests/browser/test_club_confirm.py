"""A confirming night in the browser: the director ticks it on the console; when the table's game ends the
tablet shows that a second player must confirm; a player's phone confirms on its seat page and the board
counts the game. Real hub (with its Mosquitto) and a real table; axe on every new page state."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import SPEECH_SPY, audit, shot
from tests.club.helpers import DIRECTOR_PIN, Hub, Table, game_events, hub_and_table, play, wait_caught_up

pytestmark = pytest.mark.browser


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Hub, Table]]:
    with hub_and_table(tmp_path, tables=1) as running:
        yield running


def test_the_director_asks_for_confirmation_and_a_players_phone_gives_it(page: Any, browser: Any,
                                                                         club: tuple[Hub, Table]) -> None:
    hub, table = club
    events = game_events(5, kind="buffet", players=3)  # the shortest whole game
    names = events[0]["players"]
    page.goto(f"{hub.web}/director")
    page.fill("#pin", DIRECTOR_PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#confirm")
    page.check("#confirm")
    page.click("#settings-title ~ form button[type=submit]")
    page.wait_for_selector("#confirm:checked")
    page.fill("#players", "\n".join(names))
    page.select_option("#game", "chaud_devant")
    page.select_option("#rule-edition", "2023")
    page.select_option("#rule-menu_reveal", "sequential")
    page.click("#seat-title ~ form button[type=submit]")
    page.wait_for_selector("main [role=status]")
    assert audit(page, "club-director-confirm") == []

    tablet = f"http://127.0.0.1:{table.port}"
    for _ in range(100):
        if (table.club_status()["seating"] or {}).get("confirm"):
            break
        page.wait_for_timeout(100)
    page.goto(f"{tablet}/setup")  # the console's rules arrive filled in, with the players
    page.wait_for_selector("#club-seating")
    assert (page.input_value("#edition"), page.input_value("#menu_reveal")) == ("2023", "sequential")
    assert page.input_value("#player-0") in names
    play(table, events)
    wait_caught_up(hub, table)
    page.goto(f"{tablet}/unlock?next=/")
    page.fill("#pin", table.pin)
    page.click("main button[type=submit]")
    page.wait_for_selector("#club-confirm-line:not(:empty)")
    assert page.locator("#club-confirm-line").inner_text().startswith("Partie terminée : un deuxième joueur")
    assert page.locator("#club-confirm button").count() == 0  # the tablet shows it, it cannot confirm
    assert audit(page, "club-table-confirm-wait") == []
    page.goto(f"{tablet}/setup")
    link = page.locator(f"a[href*='/seat/{names[1]}?k=']").first.get_attribute("href")
    assert link is not None and re.search(r"\?k=", link)

    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone_context.add_init_script(SPEECH_SPY)
    phone = phone_context.new_page()
    try:
        phone.goto(link if link.startswith("http") else tablet + link)
        phone.wait_for_selector("#club-confirmed:visible")
        assert phone.locator("#club-confirm-line").inner_text() == "Les scores finaux sont-ils justes ?"
        yes, no = phone.locator("#club-confirmed").bounding_box(), phone.locator("#club-disputed").bounding_box()
        assert yes is not None and no is not None
        apart = max(no["x"] - (yes["x"] + yes["width"]), no["y"] - (yes["y"] + yes["height"]))
        assert apart >= 8, (yes, no)  # the buttons do not touch
        assert audit(phone, "club-seat-confirm") == []
        phone.click("#club-confirmed")
        phone.wait_for_function("() => document.getElementById('club-confirm-line').textContent"
                                f" === 'Scores confirmés par {names[1]}.'")
        assert phone.locator("#club-confirmed").is_hidden()
        assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert audit(phone, "club-seat-confirmed") == []
        shot(phone, "club-seat-confirmed")
    finally:
        phone_context.close()

    page.goto(f"{hub.web}/")
    page.wait_for_selector("table.standings tbody tr", timeout=15000)
    assert audit(page, "club-board-confirmed") == []
