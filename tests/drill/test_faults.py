"""Drills in process against faults and odd input: a dying card (EIO on every read and write), numbers
beyond SQLite's integers, JSON nested too deep, seat pages kept by a cache, a disk stall."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import pytest
from flask import Flask

from companion.journal import Journal
from companion.table import TableService
from tests.drill.conftest import HEADERS, PLAYERS
from tests.web_ui.seat_phone import claim
from tests.web_ui.test_robot_ask_shown import up_to_the_robots_turn

NEW_GAME = {"type": "new_game", "players": PLAYERS, "dealer": "Dirk"}


def journal_rows(journal: Journal) -> list[tuple[Any, ...]]:
    return [(r.seq, r.body, r.accepted) for r in journal.records()]


class DyingCard:
    """The journal's SQLite connection on a card that now answers every read and write with EIO
    (SQLITE_IOERR, as SQLite reports an I/O error of the file system); everything else as before."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.dead = False

    def execute(self, *args: Any) -> Any:
        if self.dead:
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = 10 | (3 << 8)  # type: ignore[attr-defined]  # SQLITE_IOERR_WRITE
            error.sqlite_errorname = "SQLITE_IOERR_WRITE"  # type: ignore[attr-defined]
            raise error
        return self._db.execute(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def test_after_eio_every_answer_is_the_storage_trouble_never_a_500(app: Flask, service: TableService) -> None:
    client = app.test_client()
    assert client.post("/api/events", headers=HEADERS, json=NEW_GAME).get_json()["accepted"]
    before = journal_rows(service.journal)
    card = DyingCard(service.journal._db)
    service.journal._db = card  # type: ignore[assignment]
    card.dead = True
    play = {"type": "menu", "player": "Anna", "menu": "pea"}
    answers = [client.post("/api/events", headers={**HEADERS, "Idempotency-Key": f"k{n}"}, json=play)
               for n in range(3)]
    answers += [client.post("/api/events", headers=HEADERS, json=play),
                client.get("/api/games"), client.get("/api/games?before=3"),
                client.get("/setup", headers=HEADERS)]
    assert [a.status_code for a in answers] == [503] * len(answers)
    assert all(a.headers["Retry-After"] == "5" for a in answers)
    assert all(a.get_json()["storage"] == "io" for a in answers if a.is_json)
    assert "Le disque n&#39;arrive plus à écrire" in answers[-1].get_data(as_text=True)  # the page says it, in French
    assert service.table_view()["storage"] == {"ok": False, "trouble": "io"}  # shown and spoken by the table
    card.dead = False
    assert journal_rows(service.journal) == before  # nothing changed
    answer = client.post("/api/events", headers={**HEADERS, "Idempotency-Key": "k0"}, json=play)
    assert answer.status_code == 200 and answer.get_json()["accepted"]  # the card works again: recorded
    assert service.table_view()["storage"]["ok"] is True


@pytest.mark.parametrize("query", ["before=9223372036854775808", "before=-1", "before=99999999999999999999999"])
def test_games_beyond_sqlite_integers_are_a_400(app: Flask, service: TableService, query: str) -> None:
    client = app.test_client()
    client.post("/api/events", headers=HEADERS, json=NEW_GAME)
    before = journal_rows(service.journal)
    answer = client.get(f"/api/games?{query}")
    assert answer.status_code == 400 and "before" in answer.get_json()["error"]
    assert journal_rows(service.journal) == before


@pytest.mark.parametrize("path", ["/api/unlock", "/api/deck/enroll", "/api/settings", "/api/seat/Anna/menu"])
def test_json_nested_deeper_than_the_parser_is_a_400(app: Flask, service: TableService, path: str) -> None:
    client = app.test_client()
    client.post("/api/events", headers=HEADERS, json=NEW_GAME)
    before = journal_rows(service.journal)
    body = "[" * 20_000 + "]" * 20_000  # 40 KB: under the body limit, far over the parser's depth
    answer = client.post(path, data=body, content_type="application/json", headers=HEADERS)
    assert answer.status_code in (400, 403)
    assert journal_rows(service.journal) == before


def test_seat_pages_and_answers_are_never_stored(app: Flask) -> None:
    client = app.test_client()
    client.post("/api/events", headers=HEADERS, json=NEW_GAME)
    key = claim(client, "Anna")
    for path in (f"/seat/Anna?k={key}", f"/fragment/seat/Anna?k={key}", f"/api/seat/Anna?k={key}"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "no-store", path
    assert "no-store" not in client.get("/").headers.get("Cache-Control", "")  # the shared screen may be cached


def test_a_disk_stall_never_blocks_the_read_views(app: Flask, service: TableService,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:

    client = app.test_client()
    assert client.post("/api/events", headers=HEADERS, json=NEW_GAME).get_json()["accepted"]
    stalled, release = stall_the_disk(monkeypatch)
    play = threading.Thread(target=lambda: app.test_client().post(
        "/api/events", headers=HEADERS, json={"type": "menu", "player": "Anna", "menu": "pea"}))
    play.start()
    assert stalled.wait(10)
    key = claim(app.test_client(), "Anna")
    paths = ["/api/state", "/api/table", "/", "/fragment/table", f"/seat/Anna?k={key}", "/api/history", "/history"]
    waiting, answers = read_at_once(app, paths)
    release.set()
    play.join(10)
    assert waiting == [], f"{waiting} waited behind the stuck write"
    assert answers == dict.fromkeys(paths, 200)
    assert service.state()["phase"] is not None and journal_rows(service.journal)[-1][1]["menu"] == "pea"


BUFFET_PLAYERS = ["Ana", "Bip", "Bop"]
MICE = ["mouse-1", "mouse-2", "mouse-3", "mouse-4", "mouse-5", "mouse-6", "mouse-7", "mouse-8", "mouse-9"]


def test_a_disk_stall_never_blocks_a_buffet_practice_step(app: Flask, service: TableService,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """During a step at a buffet practice without cards, the pages that say who still chooses (T, the seat's
    own hand and cards) read without the writers' lock: a card write stuck on the disk never holds them."""

    client = app.test_client()
    robots = {"seats": {"Bip": "debutant", "Bop": "debutant"}, "practice": "virtual"}
    assert client.post("/api/events", headers=HEADERS, json={
        "type": "new_game", "game": "buffet", "players": BUFFET_PLAYERS, "first": "Ana", "robots": robots}
    ).get_json()["accepted"]
    for name in BUFFET_PLAYERS:  # the hands the table deals without cards, and its plates (no robot driver runs)
        assert service.submit({"type": "robot", "player": name, "hand": MICE}, "robot").accepted
    for plate in ("plate-cheese-3", "plate-pizza-2", "plate-potato-1", "plate-chicken-0", "plate-salad-n1"):
        assert service.submit({"type": "plate", "plate": plate}, "robot").accepted
    assert service.state()["phase"] == "step"
    key = claim(app.test_client(), "Ana")
    stalled, release = stall_the_disk(monkeypatch)
    play = threading.Thread(target=lambda: service.submit({"type": "robot", "player": "Bip", "card": "mouse-5"},
                                                          "robot"))
    play.start()
    assert stalled.wait(10)
    paths = ["/api/state", "/", "/fragment/table", "/fragment/seat/Bip", f"/seat/Ana?k={key}",
             f"/fragment/seat/Ana?k={key}"]
    waiting, answers = read_at_once(app, paths)
    release.set()
    play.join(10)
    assert waiting == [], f"{waiting} waited behind the stuck write"
    assert answers == dict.fromkeys(paths, 200)


def read_at_once(app: Flask, paths: list[str]) -> tuple[list[str], dict[str, int]]:
    """GET every path in its own thread, each given 5 s: the paths still waiting, and each answer's status."""
    answers: dict[str, int] = {}

    def read(path: str) -> None:
        answers[path] = app.test_client().get(path).status_code

    readers = [threading.Thread(target=read, args=(path,)) for path in paths]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(5)
    return [path for path, reader in zip(paths, readers, strict=True) if reader.is_alive()], answers


def stall_the_disk(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The journal's next fsync hangs, as a card that stops answering does: set `stalled` when it starts,
    and it goes on once `release` is set."""
    import companion.journal

    stalled, release = threading.Event(), threading.Event()
    real_sync = companion.journal._datasync

    def stuck_sync(fd: int) -> None:
        stalled.set()
        release.wait(30)
        real_sync(fd)

    monkeypatch.setattr(companion.journal, "_datasync", stuck_sync)
    return stalled, release


@pytest.mark.parametrize("game", ["chaud_devant", "buffet"])
def test_a_disk_stall_never_blocks_a_real_robot_tables_pages(app: Flask, service: TableService, game: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """At a real table with a robot seat, the table's page asks for the card the robot chose (Chaud Devant) and
    the robots' page lists their hands (the buffet): both read without the writers' lock."""
    client = app.test_client()
    if game == "chaud_devant":
        up_to_the_robots_turn(client, service, HEADERS)
        state = service.game_state
        assert state is not None
        write: dict[str, Any] = {"type": "robot", "player": "Marmiton", "card": state.legal_actions()[0]["card"]}
    else:
        assert client.post("/api/events", headers=HEADERS, json={
            "type": "new_game", "game": "buffet", "players": BUFFET_PLAYERS, "first": "Ana",
            "robots": {"seats": {"Bop": "debutant"}}}).get_json()["accepted"]
        write = {"type": "plate", "plate": "plate-cheese-3"}
    stalled, release = stall_the_disk(monkeypatch)
    writer = threading.Thread(target=lambda: service.submit(write, "robot"))
    writer.start()
    assert stalled.wait(10)
    paths = ["/", "/fragment/table", "/setup/robots"]
    waiting, answers = read_at_once(app, paths)
    release.set()
    writer.join(10)
    assert waiting == [], f"{waiting} waited behind the stuck write"
    assert answers == dict.fromkeys(paths, 200)
