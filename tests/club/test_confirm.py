"""A confirming night end to end, with a real Mosquitto, a real hub and a real `marmite run` table: the
director sets it on the console, the table says a second player must confirm, the tablet cannot, a seat's
phone disputes (the director is called) and another confirms; the hub counts the game only then."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.club.helpers import Hub, Table, assert_copied_exactly, game_events, marmite, play, wait_caught_up
from tests.club.test_console import Browser
from tests.drill.helpers import PIN, Display

WAIT = 10.0


class Phone(Browser):
    """A cookie-keeping browser that also posts JSON with the page's CSRF token, as the pages' scripts do."""

    csrf_token = ""

    def open(self, path: str) -> str:
        status, page = self.get(path)
        assert status == 200, page
        found = re.search(r'data-csrf="([^"]+)"', page)
        assert found is not None
        self.csrf_token = found.group(1)
        return page

    def post_json(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "X-CSRF-Token": self.csrf_token, **(headers or {})})
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


def until(check: Any, what: str, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError, KeyError):
            if found := check():
                return found
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout:.0f} s: {what}")


def board(hub: Hub) -> dict[str, Any]:
    with urllib.request.urlopen(hub.web + "/api/board", timeout=10) as answer:
        body: dict[str, Any] = json.loads(answer.read())
        return body


def game_status(hub: Hub) -> str | None:
    games = board(hub)["games"]
    return str(games[0]["status"]) if games else None


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    running = Hub(tmp_path / "hub", tables=1).start()
    yield running
    running.stop()


def test_a_game_counts_once_a_second_seat_confirms_it(tmp_path: Path, hub: Hub) -> None:
    events = game_events(11, kind="buffet", players=3)  # the shortest whole game: the end is what counts here
    names = events[0]["players"]
    director = Browser(hub.web)
    page = director.get("/director")[1]
    page = director.post("/director/unlock", {"pin": "246810", "csrf_token": director.csrf(page)})[1]
    director.post("/director/settings", {"csrf_token": director.csrf(page), "rule": "stars", "language": "fr",
                                         "confirm": "yes"})
    page = director.get("/director")[1]
    assert re.search(r'id="confirm" name="confirm" value="yes" checked', page)
    refused = director.post("/director/seat", {"csrf_token": director.csrf(page), "players": "\n".join(names),
                                               "game": "chaud_devant", "rule-edition": "1999"})[1]
    assert "Non placé : le jeu ne prend pas ces règles (edition: &#39;1999&#39; is not one of 2005, 2023)" in refused
    assert board(hub)["tables"][0]["current"] is None and marmite_rounds(hub) == 0  # nothing seated
    director.post("/director/seat", {"csrf_token": director.csrf(page), "players": "\n".join(names),
                                     "game": "chaud_devant", "rule-edition": "2023", "rule-menu_reveal": "sequential"})
    table = Table(tmp_path / "table1", hub.urls[1], 1).start()  # (its host then starts Sus au buffet ! instead)
    display = None
    try:
        seating = until(lambda: table.club_status()["seating"], "the table's seating")
        assert seating["confirm"] is True and sorted(seating["players"]) == sorted(names)
        assert seating["rules"] == {"edition": "2023", "menu_reveal": "sequential"}  # the console's rules
        display = Display(table, "127.0.0.1")
        play(table, events)
        assert display.read_until("un deuxième joueur confirme les scores sur son téléphone".encode(), WAIT), \
            display.seen[-1500:]
        wait_caught_up(hub, table)
        assert until(lambda: game_status(hub) == "awaiting", "the board waits for the confirmation")
        assert board(hub)["standings"] == []
        assert "en attente de confirmation" in director.get("/director")[1]
        # The tablet (the PIN) is the host's, who entered the game: it cannot confirm.
        host = Phone(f"http://127.0.0.1:{table.port}")
        assert host.post_json("/api/club/confirm", {"player": names[1], "verdict": "confirmed"},
                              {"X-Table-Pin": PIN})[0] == 403
        # Nor does a confirm typed through the contract's API count at the hub (it is not a seat's).
        status, answer = table.play({"type": "confirm", "player": names[1], "verdict": "confirmed"})
        assert status == 200 and answer["accepted"]
        wait_caught_up(hub, table)
        assert game_status(hub) == "awaiting"
        phones = {name: seat_phone(table, name) for name in names[1:3]}
        assert phones[names[1]].post_json("/api/club/confirm", {"player": names[2], "verdict": "confirmed"})[0] == 403
        status, answer = phones[names[1]].post_json("/api/club/confirm", {"player": names[1], "verdict": "disputed"})
        assert status == 200 and answer["accepted"], answer
        until(lambda: game_status(hub) == "disputed", "the dispute reaches the hub")
        until(lambda: board(hub)["tables"][0]["called"], "the dispute calls the director")
        status, answer = phones[names[2]].post_json("/api/club/confirm", {"player": names[2], "verdict": "confirmed"})
        assert status == 200 and answer["accepted"], answer
        until(lambda: game_status(hub) == "over", "the confirmation reaches the hub")
        standings = board(hub)["standings"]
        assert sorted(e["player"] for e in standings) == sorted(names)
        view = json.loads(table.request("GET", "/api/club/confirmation")[2])
        assert (view["verdict"], view["by"]) == ("confirmed", names[2])
        wait_caught_up(hub, table)
        assert_copied_exactly(hub, table)  # the confirmations travel as rows; the exports leave them out
        csv_text = marmite("club", "export", "--data", str(hub.data), "--format", "csv").decode()
        csv_rows = list(csv.DictReader(io.StringIO(csv_text)))
        assert csv_rows and all(line["counted"] == "1" for line in csv_rows)
    finally:
        if display is not None:
            display.close()
        table.stop()


def marmite_rounds(hub: Hub) -> int:
    with contextlib.closing(hub.db()) as db:
        return int(db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0])


def seat_phone(table: Table, name: str) -> Phone:
    """A player's phone: the host hands out the seat's link (setup page, PIN), the phone opens and claims it."""
    host = Phone(f"http://127.0.0.1:{table.port}")
    host.open("/unlock")
    status, _ = host.post("/unlock", {"pin": PIN, "csrf_token": host.csrf_token})
    assert status == 200
    setup = host.open("/setup")
    seat = urllib.parse.quote(name, safe="")
    found = re.search(rf'/seat/{re.escape(seat)}\?k=([0-9a-f]+)', setup)
    assert found is not None, f"no seat link for {name}"
    phone = Phone(f"http://127.0.0.1:{table.port}")
    phone.open(f"/seat/{seat}?k={found.group(1)}")
    assert phone.post_json(f"/api/seat/{seat}/claim", {"k": found.group(1)})[0] == 200
    return phone


def test_at_a_table_without_phones_the_director_confirms_on_the_console(hub: Hub) -> None:
    from tests.club.test_console import send_game

    director = Browser(hub.web)
    page = director.get("/director")[1]
    page = director.post("/director/unlock", {"pin": "246810", "csrf_token": director.csrf(page)})[1]
    token = director.csrf(page)
    director.post("/director/settings", {"csrf_token": token, "rule": "stars", "language": "fr", "confirm": "yes"})
    stars = send_game(hub, 1, seed=41)  # a whole game with the table's credentials, no phone at the table
    assert until(lambda: game_status(hub) == "awaiting", "the board waits for the confirmation")
    waiting = marmite("club", "export", "--data", str(hub.data), "--format", "csv").decode().splitlines()
    assert len(waiting) == 1 + len(stars) and {row["counted"] for row in csv.DictReader(waiting)} == {"0"}
    bad = {"csrf_token": token, "table": 1, "game": 1, "who": "", "why": "pas de téléphones"}
    assert director.post("/director/confirm", bad)[0] == 400  # who and why are required: nothing journaled
    assert game_status(hub) == "awaiting"
    assert director.post("/director/confirm", {**bad, "who": "Claire"})[0] == 200
    assert game_status(hub) == "over"
    assert {e["player"]: e["stars"] for e in board(hub)["standings"]} == stars
    assert "Claire — pas de téléphones" in director.get("/director")[1]
    rows = marmite("club", "export", "--data", str(hub.data), "--format", "csv").decode().splitlines()
    assert len(rows) == 1 + len(stars) and {row["counted"] for row in csv.DictReader(rows)} == {"1"}
