"""The director's console over HTTP against a real hub: the PIN and its bounds, CSRF, decisions journaled
with who and why and reflected in the standings, the ranking rule, the exports; the board needs no PIN
and shows no secret."""

from __future__ import annotations

import contextlib
import html
import http.cookiejar
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

from club.topics import ClubURL, Topics
from tests.club.helpers import DIRECTOR_PIN, Hub, Table, game_events, play, wait_caught_up
from tests.club.test_bad_input import Client, row
from tests.drill.helpers import Display


class Browser:
    """A cookie-keeping HTTP client, as a director's tablet would be."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, path: str, fields: dict[str, Any]) -> tuple[int, str]:
        data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def csrf(self, page: str) -> str:
        found = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert found is not None
        return found.group(1)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    running = Hub(tmp_path / "hub", tables=2).start()
    yield running
    running.stop()


def send_game(hub: Hub, table: int, seed: int) -> dict[str, int]:
    """A whole game published with the table's own credentials (as its link would); its final stars."""
    from companion.referee import Referee
    from marmite.games import GAMES

    url = ClubURL.parse(hub.urls[table])
    client = Client(hub.port, url.user, url.password)
    referee = Referee(GAMES)
    events = game_events(seed)
    for seq, event in enumerate(events, start=1):
        accepted = referee.apply(event).accepted
        client.publish(Topics(url.club, table).events, row(table, seq, event, accepted=accepted))
    client.close()
    deadline = time.monotonic() + 10
    while hub.held(table) < len(events) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.held(table) == len(events)
    return {name: int(value) for name, value in referee.public_state["stars"].items()}


def test_console_decisions_change_the_standings_and_are_journaled(hub: Hub) -> None:
    stars = send_game(hub, 1, seed=41)
    visitor = Browser(hub.web)
    board = json.loads(visitor.get("/api/board")[1])
    assert {e["player"]: e["stars"] for e in board["standings"]} == stars
    assert "menus" not in json.dumps(board)  # the board shows scores, never a seat's secrets
    assert visitor.get("/director/night.csv")[0] == 403

    director = Browser(hub.web)
    status, page = director.get("/director")
    assert status == 200 and 'name="pin"' in page
    assert director.post("/director/unlock", {"pin": DIRECTOR_PIN, "csrf_token": "forged"})[0] == 403
    status, page = director.post("/director/unlock", {"pin": DIRECTOR_PIN, "csrf_token": director.csrf(page)})
    assert status == 200 and "seat-title" in page
    token = director.csrf(page)
    assert director.post("/director/close", {"csrf_token": "forged"})[0] == 403
    assert visitor.post("/director/void", {"table": 1, "game": 1, "who": "x", "why": "y"})[0] == 403

    for table, game in ((10 ** 30, 1), (1, 10 ** 30), (7, 1), (1, 99)):  # beyond SQLite's integers; no such game
        bad = {"csrf_token": token, "table": table, "game": game, "who": "x", "why": "y"}
        assert director.post("/director/void", bad)[0] == 400
        assert director.post("/director/correct", {**bad, "player": "Ana", "stars": 3})[0] == 400
    assert "x — y" not in director.get("/director")[1]  # refused, and nothing journaled

    status, raw = director.get("/director/night.bgstats.json")
    bgstats = json.loads(raw)
    assert status == 200 and len(bgstats["plays"]) == 1
    names = {p["id"]: p["name"] for p in bgstats["players"]}
    assert {names[s["playerRefId"]]: int(s["score"]) for s in bgstats["plays"][0]["playerScores"]} == stars
    statistics = json.loads(director.get("/director/night.players.json")[1])
    assert {e["player"]: (e["games"], e["average"]) for e in statistics} == {n: (1, v) for n, v in stars.items()}
    assert {e["player"]: e["menus"] for e in statistics} == table_menus(41)

    player = max(stars, key=lambda name: stars[name])
    director.post("/director/correct", {"csrf_token": token, "table": 1, "game": 1, "player": player,
                                        "stars": stars[player] + 5, "who": "Claire", "why": "carte mal lue"})
    board = json.loads(visitor.get("/api/board")[1])
    assert {e["player"]: e["stars"] for e in board["standings"]}[player] == stars[player] + 5
    status, page = director.get("/director")
    assert "Claire — carte mal lue" in page
    director.post("/director/settings", {"csrf_token": token, "rule": "placement", "language": "en"})
    board = json.loads(visitor.get("/api/board")[1])
    assert board["rule"] == "placement" and board["standings"][0]["player"] == player
    assert "Ranking: placement points" in visitor.get("/")[1]
    director.post("/director/void", {"csrf_token": token, "table": 1, "game": 1, "who": "Claire",
                                     "why": "donne faussée", "sure": "yes"})
    assert json.loads(visitor.get("/api/board")[1])["standings"] == []
    status, csv_text = director.get("/director/night.csv")
    assert status == 200 and csv_text.count("\n") == 1 + len(stars)  # the game is listed, as not counted
    status, raw = director.get("/director/night.bgstats.json")
    assert status == 200 and json.loads(raw)["plays"] == []  # a voided game counts in no export
    assert json.loads(director.get("/director/night.players.json")[1]) == []
    director.post("/director/close", {"csrf_token": token})  # not ticked: nothing closes
    assert "The night is closed" not in visitor.get("/")[1]
    director.post("/director/close", {"csrf_token": token, "sure": "yes"})
    assert "The night is closed" in visitor.get("/")[1]


def table_menus(seed: int) -> dict[str, dict[str, dict[str, int]]]:
    """Each player's menus in game `seed` as the table folds it: chosen, and succeeded (above zero)."""
    from companion.referee import Referee
    from marmite.games import GAMES

    referee = Referee(GAMES)
    for event in game_events(seed):
        referee.apply(event)
    menus: dict[str, dict[str, dict[str, int]]] = {name: {} for name in referee.public_state["stars"]}
    rounds = referee.public_state["rounds"]
    assert rounds and all(set(r["menus"]) == set(menus) for r in rounds)  # every round, every player chose
    for played in rounds:
        for name, menu in played["menus"].items():
            tally = menus[name].setdefault(menu, {"chosen": 0, "succeeded": 0})
            tally["chosen"] += 1
            tally["succeeded"] += played["points"][name] > 0
    return menus


def test_pin_guessing_is_bounded(hub: Hub) -> None:
    guesser = Browser(hub.web)
    token = guesser.csrf(guesser.get("/director")[1])
    answers = [guesser.post("/director/unlock", {"pin": f"{n:06d}", "csrf_token": token})[0] for n in range(8)]
    assert answers[:5] == [200] * 5 and 429 in answers[5:]


def test_a_correction_is_announced_at_its_table(tmp_path: Path, hub: Hub) -> None:
    table = Table(tmp_path / "table1", hub.urls[1], 1).start()
    display = None
    try:
        play(table, game_events(43)[:30])
        wait_caught_up(hub, table)
        display = Display(table, "127.0.0.1")
        director = Browser(hub.web)
        page = director.get("/director")[1]
        page = director.post("/director/unlock", {"pin": DIRECTOR_PIN, "csrf_token": director.csrf(page)})[1]
        director.post("/director/correct", {"csrf_token": director.csrf(page), "table": 1, "game": 1,
                                            "player": "Bruno", "stars": 3, "who": "Claire", "why": "carte mal lue"})
        said = "L’arbitre (Claire) a corrigé un résultat : Bruno, 3. Motif : carte mal lue."
        assert display.read_until(said.encode(), timeout=10), display.seen[-1500:]
        director.post("/director/confirm", {"csrf_token": director.csrf(page), "table": 1, "game": 1,
                                            "who": "Claire", "why": "recompté"})
        said = "L’arbitre (Claire) a confirmé les scores finaux d’une partie de cette table. Motif : recompté."
        assert display.read_until(said.encode(), timeout=10), display.seen[-1500:]
    finally:
        if display is not None:
            display.close()
        table.stop()


def test_the_board_has_the_tables_limits(hub: Hub) -> None:
    import http.client

    streams = []
    try:
        for _ in range(4):
            connection = http.client.HTTPConnection("127.0.0.1", hub.web_port, timeout=10)
            connection.request("GET", "/api/board/stream")
            answer = connection.getresponse()
            assert answer.status == 200 and answer.readline().startswith(b"retry:")
            streams.append(connection)
        extra = http.client.HTTPConnection("127.0.0.1", hub.web_port, timeout=10)
        extra.request("GET", "/api/board/stream")
        assert extra.getresponse().status == 429  # a fifth stream from one device
        extra.close()
    finally:
        for connection in streams:
            connection.close()
    with urllib.request.urlopen(f"{hub.web}/", timeout=10) as answer:
        policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy


def director_page(hub: Hub, lang: str = "en") -> Browser:
    """A director's browser, unlocked, with the console in `lang`."""
    director = Browser(hub.web)
    page = director.post("/director/unlock", {"pin": DIRECTOR_PIN, "csrf_token": director.csrf(
        director.get("/director")[1])})[1]
    director.post("/director/settings", {"csrf_token": director.csrf(page), "rule": "stars", "language": lang})
    return director


def wait_for(director: Browser, text: str, timeout: float = 10) -> str:
    """The console page once it shows `text` (fails after `timeout`)."""
    deadline = time.monotonic() + timeout
    page = ""
    while time.monotonic() < deadline:
        page = director.get("/director")[1]
        if text in page:
            return page
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not on the console:\n{page[-3000:]}")


def test_each_tables_reader_health_reaches_the_console(tmp_path: Path, hub: Hub) -> None:
    table = Table(tmp_path / "table1", hub.urls[1], 1).start()  # a real table, its simulated reader ready
    try:
        director = director_page(hub, "fr")
        wait_for(director, "sim : prêt")
        url = ClubURL.parse(hub.urls[2])  # table 2 as a PC/SC table without its reader says it
        client = Client(hub.port, url.user, url.password)
        client.publish(Topics(url.club, 2).status, {"state": "online", "last_seq": 0, "readers": [
            {"reader": "pcsc<b>", "ok": False, "state": "missing", "detail": "no PC/SC reader: plug it in"}]})
        client.publish(Topics(url.club, 2).events, b"not json")  # a problem, told in the console's language
        wait_for(director, "Un message illisible a été refusé.")
        page = wait_for(director, "pcsc&lt;b&gt; : absent")
        assert "<b>" not in page and "(no PC/SC reader: plug it in)" in page
        client.publish(Topics(url.club, 2).status, b"offline")  # its last will: nothing stale is shown
        director.post("/director/settings", {"csrf_token": director.csrf(page), "rule": "stars", "language": "nl"})
        page = wait_for(director, "sim: klaar")
        deadline = time.monotonic() + 10  # the last will reaches the hub on its own time: wait for it, not for luck
        while "pcsc" in page and time.monotonic() < deadline:
            time.sleep(0.1)
            page = director.get("/director")[1]
        assert "pcsc" not in page and "Een onleesbaar bericht is geweigerd." in page
        client.close()
    finally:
        table.stop()


def test_each_players_phone_shows_their_next_table_and_seat(hub: Hub) -> None:
    names = ["Ana", "Bruno", "Cléo", "Dan", "Élise", "Farid<i>"]
    director = director_page(hub, "fr")
    phone = Browser(hub.web)
    assert "Aucun joueur n’a le numéro 1." in phone.get("/player?number=1")[1]
    assert phone.get("/player?number=abc")[0] == 400 and phone.get("/player?number=100000")[0] == 400
    assert phone.get("/player?number=%C2%B2")[0] == 400  # "²": a digit to str.isdigit, not to int()
    page = director.get("/director")[1]
    director.post("/director/seat", {"csrf_token": director.csrf(page), "players": "\n".join(names),
                                     "game": "chaud_devant"})
    with contextlib.closing(hub.db()) as db:
        numbers = dict(db.execute("SELECT name, number FROM players"))
        seatings = {table: json.loads(body) for table, body in db.execute("SELECT table_no, body FROM seatings")}
    assert sorted(numbers) == sorted(names) and len(seatings) == 2
    assert f"{numbers['Ana']} — Ana" in director.get("/director")[1]
    for table, seating in seatings.items():
        for seat, name in enumerate(seating["players"], start=1):
            status, page = phone.get(f"/player?number={numbers[name]}")
            shown = html.escape(name, quote=False)
            assert status == 200 and f"{shown}, partie 1 : table {table}, place {seat}." in page
            assert ("C’est vous qui distribuez." in page) == (seating["dealer"] == name)
    assert "<i>" not in phone.get(f"/player/part?number={numbers['Farid<i>']}")[1]
    with urllib.request.urlopen(f"{hub.web}/player?number=1", timeout=10) as answer:
        assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
