"""Seat claims in Chromium: the seat page claims its seat (a POST), the host sees it held and releases it;
the released seat's old link claims nothing, its new link does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, audit, shot, unlock

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Cléo"]


def test_a_phone_claims_its_seat_and_the_host_releases_it(page: Any, browser: Any, server: Server) -> None:
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Cléo"})
    server.post("/api/events", {"type": "menu", "player": "Ben", "menu": "pepper"})
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ben')", "href")
    assert link is not None and "?k=" in link
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    try:
        ben = phone.new_page()
        ben.goto(link)
        ben.wait_for_function("() => !document.body.dataset.claim && document.body.dataset.stream === 'open'",
                              timeout=15000)  # claimed by the page's POST, then shown as Ben's own
        assert "Piment" in ben.inner_text("#state")
        page.reload()
        held = page.locator("li.seat-held")
        assert held.inner_text().startswith("Ben : place tenue par un téléphone")
        shot(page, "setup-seat-held")
        assert audit(page, "setup-seat-held") == []
        page.click("button[data-release='Ben']")
        page.wait_for_selector(".seat-links a:text-is('Ben')")  # a new link to hand out
        new_link = page.get_attribute(".seat-links a:text-is('Ben')", "href")
        assert new_link is not None and new_link != link
        ben.reload()  # the old link, on the same phone
        ben.wait_for_function("() => document.body.dataset.stream === 'open'", timeout=15000)
        assert "Piment" not in ben.inner_text("#state")  # it never claims the seat back by itself
        ben.goto(new_link)  # the host hands the new link out again
        ben.wait_for_function("() => !document.body.dataset.claim && document.body.dataset.stream === 'open'",
                              timeout=15000)
        assert "Piment" in ben.inner_text("#state")
    finally:
        phone.close()


def test_a_link_opened_on_two_phones_at_once_tells_the_later_one_why(page: Any, browser: Any,
                                                                      server: Server) -> None:
    """Two phones open Ben's link before either claims it: the one whose claim comes second (refused, 409) says
    that the seat is open on another phone, instead of a stripped page without a word."""
    server.post("/api/events", {"type": "new_game", "players": PLAYERS, "dealer": "Cléo"})
    server.post("/api/events", {"type": "menu", "player": "Ben", "menu": "pepper"})
    unlock(page, server, "/setup")
    link = page.get_attribute(".seat-links a:text-is('Ben')", "href")
    assert link is not None
    first, second = (browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR") for _ in range(2))
    try:
        late = second.new_page()
        held: list[bool] = []

        def claim_elsewhere_first(route: Any) -> None:  # the first phone's claim lands while this one's is on its way
            if not held:
                ben = first.new_page()
                ben.goto(link)
                ben.wait_for_function("() => !document.body.dataset.claim", timeout=15000)
                held.append(True)
            route.continue_()

        late.route("**/api/seat/*/claim", claim_elsewhere_first)
        late.goto(link)
        late.wait_for_selector("#seat-held", timeout=15000)
        assert "déjà ouverte sur un autre téléphone" in late.inner_text("#seat-held")
        assert late.evaluate("document.activeElement.id") == "seat-held"  # read first, not the voice question
        assert late.evaluate("document.getElementById('seat-held').getBoundingClientRect().top") >= 0  # in sight
        assert "Piment" not in late.inner_text("#state")
        assert audit(late, "seat-held-elsewhere") == []
    finally:
        first.close()
        second.close()
