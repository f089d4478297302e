"""A club night as an organiser runs it, in the browser: a table starts the game the console seated by
pressing start on its setup page (both games), a fresh tablet joins by code, the wall board fits its screen,
and a whole night from the first seating to the next night's empty board, every export equal to the board.
Real hub (with its Mosquitto) and real tables."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.browser.conftest import audit, shot
from tests.club.helpers import Hub, Table, hub_and_table
from tests.club.test_console import director_page

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Bruno", "Cléo", "Dan"]
NIGHT = ["Ana", "Bruno", "Cléo", "Dan", "Élise", "Farid", "Gaëlle", "Hugo"]


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
        director.post("/director/close", {"csrf_token": director.csrf(director.get("/director")[1]), "sure": "yes"})
        page.wait_for_selector(".closed")
        page.wait_for_function("() => !document.querySelector('table.standings tbody tr').hidden", timeout=20000)
        assert in_view(page, ".closed") == [True] and in_view(page, "table.standings tbody tr")[0]
        assert all(in_view(page, "table.standings tbody tr")[:12])  # the final standings, on the first screen
    finally:
        hub.stop()


def seated_events(events: list[dict[str, Any]], seating: dict[str, Any]) -> list[dict[str, Any]]:
    """A simulated whole game replayed for the seated players: names turned round so the seated dealer deals
    (clockwise order kept), without its new_game (the table started the game from its setup page)."""
    simulated, seated = events[0]["players"], seating["players"]
    turn = seated.index(seating["dealer"]) - simulated.index(events[0].get("dealer") or events[0].get("first"))
    names = [seated[(i + turn) % len(seated)] for i in range(len(simulated))]
    return renamed(events, names)[1:]


def open_console(page: Any, hub: Hub) -> None:
    from tests.club.helpers import DIRECTOR_PIN

    page.goto(f"{hub.web}/director")
    if page.locator("#pin").count():
        page.fill("#pin", DIRECTOR_PIN)
        page.click("button[type=submit]")
    page.wait_for_selector("#players")


def fetch(page: Any, path: str) -> str:
    """A console export as the director's browser downloads it (its session)."""
    text: str = page.evaluate("(path) => fetch(path).then((r) => r.ok ? r.text() : 'HTTP ' + r.status)", path)
    assert not text.startswith("HTTP "), (path, text)
    return text


def assert_exports_equal_the_board(page: Any, suffix: str = "", board: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every console export of the night equals the board's standings and counted games (the board now, or
    the one given: an earlier night's)."""
    import csv
    import io

    if board is None:
        board = json.loads(fetch(page, "/api/board"))
    assert board is not None
    standings = {e["player"]: (e["games"], e["stars"]) for e in board["standings"]}
    totals: dict[str, tuple[int, int]] = {}
    for line in csv.DictReader(io.StringIO(fetch(page, f"/director/night.csv{suffix}"))):
        if line["counted"] == "1":
            games, points = totals.get(line["player"], (0, 0))
            totals[line["player"]] = (games + 1, points + int(line["stars"]))
    assert totals == standings
    counted = {(g["table"], g["game"]): g["points"] for g in board["games"] if g["counted"]}
    night = json.loads(fetch(page, f"/director/night.json{suffix}"))
    assert {(int(t), int(g)): facts["points"] for t, table in night["tables"].items()
            for g, facts in table["games"].items() if facts["counted"]} == counted
    plays = json.loads(fetch(page, f"/director/night.bgstats.json{suffix}"))
    names = {p["id"]: p["name"] for p in plays["players"]}
    assert sorted(sorted((names[s["playerRefId"]], int(s["score"])) for s in play["playerScores"])
                  for play in plays["plays"]) == sorted(sorted(points.items()) for points in counted.values())
    statistics = json.loads(fetch(page, f"/director/night.players.json{suffix}"))
    assert {e["player"]: (e["games"], round(e["average"] * e["games"])) for e in statistics} == standings
    return board


def test_a_whole_night_as_an_organiser_runs_it(page: Any, browser: Any, tmp_path: Path) -> None:
    from tests.browser.conftest import SPEECH_SPY
    from tests.club.helpers import game_events, play, wait_caught_up

    hub = Hub(tmp_path / "hub", tables=2).start()
    tables = [Table(tmp_path / f"table{n}", hub.urls[n], n).start() for n in (1, 2)]
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone_context.add_init_script(SPEECH_SPY)
    try:
        # The console: a confirming night, eight players seated at the two tables.
        open_console(page, hub)
        page.check("#confirm")
        page.click("#settings-title ~ form button[type=submit]")
        page.wait_for_selector("#confirm:checked")
        page.fill("#players", "\n".join(NIGHT))
        page.click("#seat-title ~ form button[type=submit]")
        assert "Partie 1 placée ; tables : 2." in page.locator("main [role=status]").first.inner_text()

        # Each table starts its seated game by pressing start on its setup page, and plays it to the end.
        seatings = []
        for table, seed in zip(tables, (61, 62), strict=True):
            for _ in range(100):
                seating = table.club_status()["seating"]
                if seating and seating.get("confirm"):
                    break
                time.sleep(0.1)
            seatings.append(seating)
            start_seated(page, table, "chaud_devant")
            play(table, seated_events(game_events(seed), seating))
            wait_caught_up(hub, table)

        # A phone at table 1 disputes the scores, a phone at table 2 confirms them.
        for table, seating, button in zip(tables, seatings, ("#club-disputed", "#club-confirmed"), strict=True):
            name = seating["players"][1]
            unlock_table(page, table, "/setup")
            link = page.locator(f"a[href*='/seat/{quote(name)}?k=']").first.get_attribute("href")
            assert link is not None
            phone = phone_context.new_page()
            phone.goto(link if link.startswith("http") else f"http://127.0.0.1:{table.port}{link}")
            phone.click(button)
            phone.wait_for_function("() => document.getElementById('club-confirm-line').textContent"
                                    f".includes('{name}')")
            phone.close()

        # The director: the dispute is on the console; confirms table 1, corrects it, voids table 2's game.
        open_console(page, hub)
        for _ in range(50):
            if page.locator(f"text=contesté par {seatings[0]['players'][1]}").count():
                break
            page.wait_for_timeout(200)
            page.reload()
        for prefix, fields in (("k", {"table": "1", "game": "1", "who": "Claire", "why": "recompté"}),
                               ("c", {"table": "1", "game": "1", "player": seatings[0]["players"][2], "stars": "9",
                                      "who": "Claire", "why": "carte mal lue"}),
                               ("v", {"table": "2", "game": "1", "who": "Claire", "why": "donne faussée"})):
            for name, value in fields.items():
                page.fill(f"#{prefix}-{name}", value)
            if prefix == "v":
                page.check("#v-sure")
            page.click(f"form:has(#{prefix}-table) button[type=submit]")
            page.wait_for_selector("#players")
        rows = page.locator("section[aria-labelledby=console-tables] tbody tr")
        one, two = rows.nth(0).inner_text(), rows.nth(1).inner_text()
        assert "partie 1" in one and "confirmé par l’arbitre" in one  # the director's, not the disputing player's
        assert "annulée" in two and "confirmé par" not in two  # a voided game is confirmed by no one
        assert audit(page, "club-director-decided") == []
        shot(page, "club-director-decided")
        board = assert_exports_equal_the_board(page)
        assert [g["status"] for g in board["games"]] == ["over", "void"]
        assert {e["player"] for e in board["standings"]} == set(seatings[0]["players"])
        assert {e["player"]: e["stars"] for e in board["standings"]}[seatings[0]["players"][2]] == 9

        # A player of table 1 finds their game on their phone, ready for BG Stats.
        phone = phone_context.new_page()
        phone.goto(f"{hub.web}/player?number={NIGHT.index(seatings[0]['players'][0]) + 1}")
        link = phone.locator("#bg-stats-link").get_attribute("href")
        assert link is not None and link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
        assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert audit(phone, "club-player-bg-stats") == []
        shot(phone, "club-player-bg-stats")
        phone.close()

        # The night is closed; the next one opens empty; the first stays exportable.
        closed = board
        page.click("form[action$='/director/close'] button")  # one press: the browser asks for the box first
        assert page.locator("form[action$='/director/close'] button").count() == 1
        page.check("#c-sure")
        page.click("form[action$='/director/close'] button")
        page.wait_for_selector("form[action$='/director/next-night'] button")
        assert audit(page, "club-director-closed") == []
        page.goto(f"{hub.web}/")
        page.wait_for_selector(".closed")
        assert page.locator("table.standings tbody tr").first.is_visible()
        assert audit(page, "club-board-closed") == []
        open_console(page, hub)
        page.check("#n-sure")
        page.click("form[action$='/director/next-night'] button")
        page.wait_for_selector("form[action$='/director/close'] button")
        board = assert_exports_equal_the_board(page)
        assert (board["night"], board["standings"], board["games"], board["closed"]) == (2, [], [], False)
        for table in tables:  # the last night's seating is no longer offered at the tables
            for _ in range(100):
                if not table.club_status()["seating"]:
                    break
                time.sleep(0.1)
            assert not table.club_status()["seating"]
        assert_exports_equal_the_board(page, "?night=1", board=closed)  # the closed night, as its board was
        night_one = json.loads(fetch(page, "/director/night.json?night=1"))
        assert sorted(g["status"] for t in night_one["tables"].values() for g in t["games"].values()) == \
            ["over", "void"]
    finally:
        phone_context.close()
        for table in tables:
            table.stop()
        hub.stop()
