"""Drills against a real `marmite run` on loopback: displays, slow and greedy clients, PIN guessing,
huge bodies, fuzzing, shutdown. Short here; `MARMITE_SOAK=1 pytest -m slow tests/drill` runs longer."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import JOURNAL_FILE
from tests.drill.helpers import (
    SOAK,
    Display,
    Running,
    loopback,
    plays_answered,
    raise_file_limit,
    session_cookie,
    still_open,
)

PLAYERS = ["Anna", "Bert", "Chloé", "Dirk"]
NEW_GAME = {"type": "new_game", "players": PLAYERS, "dealer": "Dirk"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    running = Running(tmp_path / "data").start()
    yield running
    if running.process is not None and running.process.poll() is None:
        running.stop()


def journal_seqs(data: Path) -> list[int]:
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        return [row[0] for row in db.execute("SELECT seq FROM events ORDER BY seq")]


def test_a_hundred_displays_and_plays_are_still_answered_and_shutdown_is_prompt(server: Running) -> None:
    displays = [Display(server, loopback(i)) for i in range(100)]
    assert [d.status for d in displays] == [200] * 100
    status, answer = server.play(NEW_GAME)  # without spare threads this waits until a display leaves
    assert status == 200 and answer["accepted"] is True
    menus = [server.play({"type": "menu", "player": name, "menu": menu})
             for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True)]
    assert all(status == 200 and body["accepted"] for status, body in menus)
    last = menus[-1][1]["seq"]
    missed = [i for i, d in enumerate(displays) if not d.read_until(f"id: {last}\n".encode())]
    assert missed == []  # every display got every event
    server.stop()
    assert server.process is not None and server.process.returncode == 0
    assert b"still running" not in server.stderr  # waitress did not have to give up on stream threads
    for display in displays:
        display.close()
    restarted = Running(server.data).start()
    try:
        assert restarted.play({"type": "undo"})[1]["seq"] == last + 1  # nothing lost
    finally:
        restarted.stop()


def test_streams_per_device_are_limited_with_retry_after(server: Running) -> None:
    displays = [Display(server, "127.0.0.9") for _ in range(8)]
    assert all(d.status == 200 for d in displays)
    status, headers, body = server.request("GET", "/api/stream", source="127.0.0.9")
    assert status == 429 and int(headers["retry-after"]) >= 1 and b"tab" in body
    other = Display(server, "127.0.0.10")  # another device still gets its stream
    assert other.status == 200
    other.close()
    for display in displays:
        display.close()


def claimed_seat_cookie(server: Running, name: str, source: str) -> str:
    """A phone at `source` that opened `name`'s seat link and claimed it as the page's script does."""
    _, headers, _ = server.request("POST", "/api/unlock", {"pin": server.pin}, source="127.0.0.90")
    _, _, setup = server.request("GET", "/setup", headers={"Cookie": session_cookie(headers)}, source="127.0.0.90")
    link = re.search(rf'href="http://[^/]+(/seat/{name}\?k=[0-9a-f]+)"', setup.decode())
    assert link is not None
    _, headers, page = server.request("GET", link.group(1), source=source)
    cookie = session_cookie(headers)
    csrf = re.search(r'data-csrf="([^"]+)"', page.decode())
    assert csrf is not None
    status, headers, _ = server.request("POST", f"/api/seat/{name}/claim", {"k": link.group(1).split("k=")[1]},
                                        {"Cookie": cookie, "X-CSRF-Token": csrf.group(1)}, source=source)
    assert status == 200
    return session_cookie(headers) if "set-cookie" in headers else cookie


def test_strangers_streams_never_take_the_pin_holders_place(server: Running) -> None:
    server.play(NEW_GAME)
    phone_cookie = claimed_seat_cookie(server, "Anna", "127.0.0.88")
    strangers = [Display(server, loopback(400 + i % 17)) for i in range(17 * 8)]  # 136 tries: the 128 filled
    assert sum(d.status == 200 for d in strangers) == 128 and strangers[-1].status == 429
    tablet = Display(server, "127.0.0.1", headers={"X-Table-Pin": server.pin})
    _, headers, _ = server.request("POST", "/api/unlock", {"pin": server.pin}, source="127.0.0.77")
    unlocked = Display(server, "127.0.0.77", headers={"Cookie": session_cookie(headers)})
    phone = Display(server, "127.0.0.88", headers={"Cookie": phone_cookie})  # a claimed seat's phone
    assert (tablet.status, unlocked.status, phone.status) == (200, 200, 200)
    status, answer = server.play({"type": "menu", "player": "Anna", "menu": "pea"})  # the table still plays
    assert status == 200 and tablet.read_until(f"id: {answer['seq']}\n".encode())
    assert unlocked.read_until(f"id: {answer['seq']}\n".encode())
    stranger = Display(server, "127.0.0.78")  # the reserve is not for strangers
    assert stranger.status == 429
    assert phone.read_until(f"id: {answer['seq']}\n".encode())
    for display in [*strangers, tablet, unlocked, phone, stranger]:
        display.close()


def test_slow_clients_do_not_stop_the_table(server: Running) -> None:
    slow = []
    for i in range(100 if not SOAK else 400):  # each sends a header line now and then, never the end
        sock = server.connect(loopback(i % 20))
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        slow.append(sock)
    status, answer = server.play(NEW_GAME, source="127.0.0.200")
    assert status == 200 and answer["accepted"] is True
    for sock in slow:
        sock.close()


SIX_PLAYS = [NEW_GAME, *({"type": "menu", "player": name, "menu": menu}
                          for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True)),
             {"type": "undo"}]


def test_a_thousand_silent_sockets_from_fifty_addresses_do_not_stop_plays(server: Running) -> None:
    raise_file_limit(1200)
    silent = [server.connect(loopback(i % 50)) for i in range(1000)]  # 20 each: within a device's share
    answered = plays_answered(server, SIX_PLAYS, timeout=3)
    assert len(answered) == 6, f"{len(answered)}/6 plays answered in 3 s"
    assert sum(still_open(sock) for sock in silent) == 1000  # all held (the table has room): none refused
    for sock in silent:
        sock.close()


def test_one_device_cannot_hold_every_connection(server: Running) -> None:
    held = [server.connect("127.0.0.7") for _ in range(60)]
    refused = 0
    for sock in held:
        sock.settimeout(5)
        try:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n")
            refused += sock.recv(1) == b""
        except OSError:
            refused += 1
    assert refused >= 60 - 48  # beyond its share, a device's connections are closed unread
    for sock in held:
        sock.close()


def test_unauthenticated_endpoints_answer_429_with_retry_after(server: Running) -> None:
    for path in ("/api/where", "/api/repeat"):
        answers = [server.request("POST", path, {}, source="127.0.0.30") for _ in range(10)]
        statuses = [status for status, _, _ in answers]
        assert statuses[0] == 200 and 429 in statuses
        assert int(next(h for s, h, _ in answers if s == 429)["retry-after"]) >= 1
    assert server.request("POST", "/api/where", {}, source="127.0.0.31")[0] == 200  # others still may ask


def test_pin_guessing_is_throttled_for_the_whole_table_and_announced(server: Running) -> None:
    watcher = Display(server, "127.0.0.100")
    server.play(NEW_GAME)
    evaluated = 0
    throttled = 0
    for attempt in range(200 if not SOAK else 2000):  # 50 addresses, 4 guesses each
        source = loopback(attempt % 50)
        status, headers, _ = server.request("POST", "/api/undo", {}, {"X-Table-Pin": f"{attempt:06d}"}, source)
        if status == 429:
            throttled += 1
            assert int(headers["retry-after"]) >= 1
        else:
            assert status == 401
            evaluated += 1
    assert evaluated <= 10 and throttled == (200 if not SOAK else 2000) - evaluated
    status, headers, _ = server.request("POST", "/api/undo", {}, {"X-Table-Pin": server.pin})
    assert status == 429  # the PIN itself waits too: no guess is compared while the window is full
    assert watcher.read_until(b"deviner le code PIN")  # the table is told
    watcher.close()


def test_huge_bodies_are_refused_before_they_are_read(server: Running) -> None:
    with server.connect() as sock:  # announces a gigabyte, sends nothing: answered at once with 413
        sock.settimeout(10)
        sock.sendall(f"POST /unlock HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000000\r\n\r\n".encode())
        assert sock.recv(100).split(b" ")[1] == b"413"
    status, _, _ = server.request("POST", "/api/events", b"x" * 70_000, {"X-Table-Pin": server.pin})
    assert status == 413


def fuzz_requests(rng: random.Random, port: int) -> Iterator[tuple[str, str, bytes, dict[str, str]]]:
    paths = ["/", "/setup", "/history", "/unlock", "/lock", "/seat/Anna", "/seat/%3Cb%3E", "/fragment/table",
             "/fragment/seat/x", "/api/state", "/api/events", "/api/undo", "/api/drop", "/api/settings",
             "/api/unlock", "/api/seat/Anna", "/api/games", "/api/auth", "/static/app.js", "/nothing",
             "/unlock?next=//evil", "/api/stream?last_id=-1", "/seat/" + "a" * 3000]
    bodies = [b"", b"{", b"null", b"[]", b'{"type":"card","card":"pea-1a"}', b'{"pin":1}', b"\xff\xfe",
              json.dumps({"type": "new_game", "players": ["\u0000", "-w/x"], "dealer": 3}).encode(),
              b'{"code":"' + b"a" * 5000 + b'"}', b"pin=1&csrf_token=x&next=/%09/evil"]
    while True:
        headers = rng.choice([{}, {"X-Table-Pin": "000000"}, {"X-CSRF-Token": "x"}, {"Last-Event-ID": "abc"},
                              {"Content-Type": "application/x-www-form-urlencoded"}])
        yield rng.choice(["GET", "POST", "PUT", "DELETE"]), rng.choice(paths), rng.choice(bodies), headers


def test_fuzzing_gives_no_5xx_and_changes_nothing_without_the_pin(server: Running) -> None:
    server.play(NEW_GAME)
    before = journal_seqs(server.data)
    rng = random.Random(9)
    count = 3000 if SOAK else 300
    errors = []
    for index, (method, path, body, headers) in zip(range(count), fuzz_requests(rng, server.port), strict=False):
        if path.startswith("/api/stream") and method == "GET":
            continue
        status, _, _ = server.request(method, path, body, headers, source=loopback(index % 200))
        if status >= 500:
            errors.append((method, path, body[:40], status))
    assert errors == []
    assert journal_seqs(server.data) == before  # no change without the PIN


@pytest.mark.slow
def test_soak_displays_drop_and_resume_while_the_table_plays_and_strangers_ask(server: Running) -> None:
    """Displays drop and resume from Last-Event-ID 0 during floods of "where": none misses an event."""
    server.play(NEW_GAME)
    seq = 0
    for name, menu in zip(PLAYERS, ("pea", "onion", "mushroom", "none"), strict=True):
        seq = server.play({"type": "menu", "player": name, "menu": menu})[1]["seq"]
    rng = random.Random(5)
    displays = [Display(server, loopback(i), last_id=0) for i in range(100)]
    began = time.monotonic()
    while time.monotonic() - began < (60 if SOAK else 3):
        index = rng.randrange(100)
        displays[index].close()
        displays[index] = Display(server, loopback(index), last_id=0)
        server.request("POST", "/api/where", {}, source=loopback(200 + index))
    ids = [f"id: {n}\n".encode() for n in range(1, seq + 1)]
    missed = [i for i, d in enumerate(displays) if not all(d.read_until(needle) for needle in ids)]
    assert missed == []
    for display in displays:
        display.close()
