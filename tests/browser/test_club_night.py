"""A club night as an organiser runs it, in the browser: a table starts the game the console seated by
pressing start on its setup page (both games). Real hub (with its Mosquitto) and real tables."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import audit, shot
from tests.club.helpers import Hub, Table, hub_and_table
from tests.club.test_console import director_page

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Bruno", "Cléo", "Dan"]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Hub, Table]]:
    with hub_and_table(tmp_path, tables=1) as running:
        yield running


def seat(hub: Hub, table: Table, names: list[str], game: str) -> dict[str, Any]:
    """The console seats `names` for `game`; the table's seating once it arrived."""
    director = director_page(hub, "fr")
    director.post("/director/seat", {"csrf_token": director.csrf(director.get("/director")[1]),
                                     "players": "\n".join(names), "game": game})
    for _ in range(100):
        seating = table.club_status()["seating"]
        if seating and seating.get("game") == game:
            return dict(seating)
        time.sleep(0.1)
    raise AssertionError("no seating reached the table")


def unlock_table(page: Any, table: Table, target: str) -> None:
    page.goto(f"http://127.0.0.1:{table.port}/unlock?next={target}")
    page.fill("#pin", table.pin)
    page.click("main button[type=submit]")


def start_seated(page: Any, table: Table, game: str) -> dict[str, Any]:
    """Open the setup page, wait for the seating to fill it, press start; the table's state after."""
    target = "/setup/buffet" if game == "buffet" else "/setup"
    unlock_table(page, table, target)
    page.wait_for_selector("#club-seating")
    form = "#new-buffet-game" if game == "buffet" else "#new-game"
    page.click(f"{form} button[type=submit]")
    page.wait_for_url(f"http://127.0.0.1:{table.port}/")
    return new_game(table)


def new_game(table: Table) -> dict[str, Any]:
    """The table's last accepted new_game event (fails when there is none)."""
    bodies = [json.loads(body) if isinstance(body, str) else body
              for _, _, body, accepted, _, _ in table.journal() if accepted]
    started = [body for body in bodies if body.get("type") == "new_game"]
    assert started, "the table started no game"
    event: dict[str, Any] = started[-1]
    return event


@pytest.mark.parametrize("game", ["chaud_devant", "buffet"])
def test_a_seated_game_starts_at_the_first_press_of_start(page: Any, club: tuple[Hub, Table], game: str) -> None:
    hub, table = club
    seating = seat(hub, table, NAMES, game)
    state = start_seated(page, table, game)
    assert state["players"] == seating["players"]
    if game == "buffet":
        assert state["first"] == seating["dealer"]
    else:
        assert state["dealer"] == seating["dealer"]


def test_a_fresh_tablet_joins_by_code_from_its_setup_page(page: Any, tmp_path: Path) -> None:
    from tests.club.test_join_code import Joining

    hub = Hub(tmp_path / "hub", tables=2).start()
    table = Joining(tmp_path / "table2").start()  # a new tablet: no game yet, no club
    try:
        found = re.search(r"Table 2 : code (2(?:-[0-9A-Z]{4}){4}) — (\S+)", hub.console())
        assert found is not None, hub.console()
        code, address = found.groups()
        page.goto(f"http://127.0.0.1:{table.port}/unlock?next=/setup")
        page.fill("#pin", table.pin)
        page.click("main button[type=submit]")
        page.fill("#club-address", address)
        page.fill("#club-code", code)
        page.click("#club-join button[type=submit]")
        page.wait_for_selector("#club-join [role=status]")
        assert "table 2 du club" in page.locator("#club-join [role=status]").inner_text()
    finally:
        table.stop()
        hub.stop()


def renamed(events: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """A game's events with its players renamed (each table of the night has its own people)."""
    mapping = dict(zip(events[0]["players"], names, strict=False))

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [swap(item) for item in value]
        if isinstance(value, dict):
            return {key: swap(item) for key, item in value.items()}
        return value

    return [swap(event) for event in events]


def in_view(page: Any, selector: str) -> list[bool]:
    """For each element matched: shown and wholly inside the viewport."""
    shown: list[bool] = page.evaluate("""(selector) => Array.from(document.querySelectorAll(selector)).map((e) => {
        const box = e.getBoundingClientRect();
        return !e.hidden && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight; })""", selector)
    return shown


def test_the_wall_board_fits_1024_by_768_and_pages_through_the_standings(page: Any, tmp_path: Path) -> None:
    from tests.club.helpers import game_events
    from tests.club.test_decisions import send

    hub = Hub(tmp_path / "hub", tables=6).start()
    try:
        people = [f"Joueur {n:02d}" for n in range(30)]
        for table in range(1, 7):
            send(hub, table, [renamed(game_events(40 + table, players=5), people[5 * table - 5:5 * table])])
        page.set_viewport_size({"width": 1024, "height": 768})
        page.goto(f"{hub.web}/")
        page.wait_for_function("() => document.querySelectorAll('table.standings tbody tr').length === 30")
        assert all(in_view(page, "table.tables tbody tr")) and len(in_view(page, "table.tables tbody tr")) == 6
        first = in_view(page, "table.standings tbody tr")
        assert all(first[:12]), first  # at least the top 12 without scrolling
        assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight + 1")
        assert "sur 30" in page.locator("#standings-pages").inner_text()
        shown = first.index(False)
        page.wait_for_function(f"() => !document.querySelectorAll('table.standings tbody tr')[{shown}].hidden",
                               timeout=20000)  # the next rows come on their own
        assert not in_view(page, "table.standings tbody tr")[0]
        assert audit(page, "club-wall-board") == []
        shot(page, "club-wall-board")

        director = director_page(hub, "fr")
        director.post("/director/close", {"csrf_token": director.csrf(director.get("/director")[1])})
        page.wait_for_selector(".closed")
        page.wait_for_function("() => !document.querySelector('table.standings tbody tr').hidden", timeout=20000)
        assert in_view(page, ".closed") == [True] and in_view(page, "table.standings tbody tr")[0]
        assert all(in_view(page, "table.standings tbody tr")[:12])  # the final standings, on the first screen
    finally:
        hub.stop()
