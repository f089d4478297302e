"""A club night in the browser: the director seats a game on the console, a table's setup page is filled
from the hub's seating, the wall board updates live as the table plays and reads the standings aloud.
Real hub (with its Mosquitto) and real tables; axe on every new page state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import audit, shot
from tests.club.helpers import DIRECTOR_PIN, Hub, Table, game_events, hub_and_table, play, wait_caught_up

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Bruno", "Cléo", "Dan", "Élise", "Farid", "Gaëlle", "Hugo"]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Hub, Table]]:
    with hub_and_table(tmp_path, tables=2) as running:
        yield running


def test_director_seats_the_table_fills_its_setup_and_the_board_follows_live(page: Any,
                                                                             club: tuple[Hub, Table]) -> None:
    hub, table = club
    page.goto(f"{hub.web}/director")
    assert audit(page, "club-unlock") == []
    page.fill("#pin", "000000")
    page.click("button[type=submit]")
    assert page.locator("[role=alert]").inner_text() == "PIN incorrect." or page.locator("[role=alert]").count() == 1
    page.fill("#pin", DIRECTOR_PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#players")
    page.fill("#players", "\n".join(NAMES))
    page.select_option("#game", "chaud_devant")
    page.click("#seat-title ~ form button[type=submit]")
    page.wait_for_selector("[role=status]")
    assert "Partie 1 placée" in page.locator("main [role=status]").first.inner_text()
    assert audit(page, "club-director") == []
    shot(page, "club-director")

    seating = None
    for _ in range(100):
        seating = table.club_status()["seating"]
        if seating:
            break
        page.wait_for_timeout(100)
    assert seating is not None and seating["table"] == 1 and sorted(seating["players"]) == sorted(seating["players"])
    assert len(seating["players"]) == 4 and set(seating["players"]) <= set(NAMES)

    page.goto(f"http://127.0.0.1:{table.port}/setup")
    page.wait_for_selector("#club-seating")
    filled = [page.input_value(f"#player-{i}") for i in range(4)]
    assert filled == seating["players"]
    assert page.input_value("#dealer") == str(seating["players"].index(seating["dealer"]))
    assert "table 1, partie 1" in page.locator("#club-seating").inner_text()
    assert audit(page, "club-table-setup") == []

    # At the table (unlocked): the link's state, and the button that calls the director to the console.
    page.goto(f"http://127.0.0.1:{table.port}/unlock?next=/")
    page.fill("#pin", table.pin)
    page.click("main button[type=submit]")
    page.wait_for_selector("#call-director")
    page.wait_for_function("() => document.getElementById('club-link').textContent.length > 0")
    assert page.locator("#club-link").inner_text() == "Club : résultats envoyés"
    page.click("#call-director")
    page.wait_for_function("() => document.getElementById('club-link').textContent === 'L’arbitre est appelé.'")
    assert audit(page, "club-table-called") == []
    for _ in range(50):  # the console is a plain page: the director reloads it
        page.goto(f"{hub.web}/director")
        if page.locator("text=appelé à").count():
            break
        page.wait_for_timeout(200)
    assert audit(page, "club-director-called") == []
    page.click("button[aria-label='Fait : table 1']")
    page.wait_for_selector("#players")
    assert page.locator("text=appelé à").count() == 0

    page.goto(f"{hub.web}/")
    page.wait_for_selector("#board")
    assert audit(page, "club-board-empty") == []
    events = game_events(21)
    play(table, events)
    wait_caught_up(hub, table)
    page.wait_for_selector("table.standings tbody tr", timeout=15000)
    board = json.loads(page.evaluate("() => fetch('/api/board').then(r => r.text())"))
    stars = table_stars(table)
    assert {e["player"]: e["stars"] for e in board["standings"]} == stars
    page.click("#speak-standings")
    spoken = page.evaluate("() => window.__spoken")
    best = max(stars.values())
    assert spoken and spoken[-1].startswith("1 : ") and str(best) in spoken[-1]
    assert audit(page, "club-board-live") == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "club-board")


def table_stars(table: Table) -> dict[str, int]:
    """The finished game's stars, as the table itself shows them."""
    status, _, raw = table.request("GET", "/api/state")
    assert status == 200
    state = json.loads(raw)
    assert state["phase"] == "game_over"
    return {name: int(value) for name, value in state["stars"].items()}


def test_a_players_phone_follows_their_seat_live_and_reads_it_aloud(page: Any, tmp_path: Path) -> None:
    from tests.club.test_console import director_page

    hub = Hub(tmp_path / "hub", tables=2).start()
    try:
        director = director_page(hub, "fr")
        director.post("/director/seat", {"csrf_token": director.csrf(director.get("/director")[1]),
                                         "players": "\n".join(NAMES[:6]), "game": "chaud_devant"})
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{hub.web}/player")
        page.fill("#number", "1")
        page.click("main form button[type=submit]")
        page.wait_for_selector("#seat-spoken")
        assert "Ana, partie 1 : table" in page.locator("#seat-spoken").inner_text()
        assert audit(page, "club-player") == []
        page.click("#speak-standings")
        assert page.evaluate("() => window.__spoken")[-1].startswith("Ana, partie 1 : table")
        director.post("/director/seat", {"csrf_token": director.csrf(director.get("/director")[1]),
                                         "players": "\n".join(NAMES[:6]), "game": "chaud_devant"})
        page.wait_for_function("() => document.getElementById('seat-spoken').textContent.includes('partie 2')")
        assert page.evaluate("() => window.__spoken")[-1].startswith("Ana, partie 2 : table")  # said as it came
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert audit(page, "club-player-live") == []
    finally:
        hub.stop()


def test_the_wall_board_reconnects_after_its_stream_was_refused(page: Any, tmp_path: Path) -> None:
    import http.client

    from club.web import HEARTBEAT_SECONDS, STREAMS_PER_CLIENT

    hub = Hub(tmp_path / "hub", tables=1).start()
    held: list[http.client.HTTPConnection] = []
    try:
        for _ in range(STREAMS_PER_CLIENT):  # this device's every stream place taken: the board's is refused
            connection = http.client.HTTPConnection("127.0.0.1", hub.web_port, timeout=10)
            connection.request("GET", "/api/board/stream")
            assert connection.getresponse().status == 200
            held.append(connection)
        page.goto(f"{hub.web}/")
        page.wait_for_timeout(1500)
        assert page.evaluate("document.getElementById('board').dataset.version || ''") == ""
        for connection in held:
            connection.close()
        # It tries again on its own, and follows the hub once more (its first message re-renders the board).
        # The hub frees a closed stream's place when it next writes to it: at the latest at its heartbeat; the
        # bound is generous (a loaded CI machine can miss a heartbeat's first retry): a bound, not a figure.
        page.wait_for_selector("#board[data-version]", state="attached",
                               timeout=(3 * HEARTBEAT_SECONDS + 30) * 1000)
    finally:
        for connection in held:
            connection.close()
        hub.stop()
