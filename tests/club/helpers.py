"""A real club for tests: `marmite club` (with its own Mosquitto) and `marmite run --club` tables as processes,
a TCP relay whose connections a test can cut, and the checks every fault test ends with."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from club.broker import free_port
from companion.buffet import simulate as buffet_simulate
from companion.chaud_devant import simulate as chaud_devant_simulate
from companion.journal import Journal
from tests.drill.helpers import ROOT, Running

CATCH_UP_SECONDS = 10.0
DIRECTOR_PIN = "246810"


def marmite(*args: str, stdin: bytes | None = None) -> bytes:
    """Run `marmite ARGS` (the command's own code, in this process: a new interpreter per export and replay
    cost a second or two each, many times per test); its standard output, failing the test on a non-zero
    status. The commands' processes themselves are tested in tests/marmite."""
    from marmite.cli import main

    out, err, given = io.StringIO(), io.StringIO(), sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(args))
    finally:
        sys.stdin = given
    assert status == 0, err.getvalue()
    return out.getvalue().encode()


class Hub:
    """`marmite club` in a subprocess: its console is kept in a file the test reads."""

    def __init__(self, data: Path, tables: int = 2, name: str = "testclub", extra: tuple[str, ...] = ()) -> None:
        self.data = data
        self.extra = extra
        self.tables = tables
        self.name = name
        self.port = free_port()
        self.web_port = free_port()
        self.console_file = data.parent / f"{data.name}-console.txt"
        self.process: subprocess.Popen[bytes] | None = None
        self.urls: dict[int, str] = {}

    def start(self) -> Hub:
        self.data.mkdir(parents=True, exist_ok=True)
        out = self.console_file.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "club", "--data", str(self.data), "--name", self.name,
             "--tables", str(self.tables), "--mqtt-host", "127.0.0.1", "--mqtt-port", str(self.port),
             "--host", "127.0.0.1", "--port", str(self.web_port), "--pin", DIRECTOR_PIN, *self.extra],
            cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=out, stderr=subprocess.STDOUT)
        out.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.findall(r"Table (\d+) : marmite run --club '([^']+)'", self.console())
            if len(found) >= self.tables:
                self.urls = {int(n): url for n, url in found}
                return self
            assert self.process.poll() is None, self.console()
            time.sleep(0.05)
        raise AssertionError(f"marmite club did not start:\n{self.console()}")

    @property
    def web(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def console(self) -> str:
        return self.console_file.read_text(encoding="utf-8", errors="replace") if self.console_file.exists() else ""

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.process is not None
        self.process.send_signal(sig)
        self.process.wait(timeout=30)

    def broker_pid(self) -> int:
        return int((self.data / "mosquitto" / "mosquitto.pid").read_text().strip())

    def kill_broker(self) -> None:
        """SIGKILL the hub's Mosquitto (the hub restarts it)."""
        pid = self.broker_pid()
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                if self.broker_pid() != pid:
                    return
            time.sleep(0.05)
        raise AssertionError("the hub did not restart Mosquitto")

    def held(self, table: int) -> int:
        with contextlib.closing(self.db()) as db:
            return int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM rows WHERE table_no = ?", (table,)).fetchone()[0])

    def rows(self, table: int) -> list[tuple[Any, ...]]:
        with contextlib.closing(self.db()) as db:
            return [(seq, game, json.loads(body), bool(accepted), reason, source) for seq, game, body, accepted,
                    reason, source in db.execute("SELECT seq, game, body, accepted, reason, source FROM rows"
                                                 " WHERE table_no = ? ORDER BY seq", (table,))]

    def count(self, table: int) -> int:
        with contextlib.closing(self.db()) as db:
            return int(db.execute("SELECT COUNT(*) FROM rows WHERE table_no = ?", (table,)).fetchone()[0])

    def db(self) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{self.data / 'club.sqlite3'}?mode=ro", uri=True, timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill(signal.SIGTERM)


class Table(Running):
    """`marmite run --club URL --table N` on its own data dir."""

    def __init__(self, data: Path, url: str, table: int) -> None:
        super().__init__(data, extra=("--club", url, "--table", str(table)))
        self.table = table

    def journal(self) -> list[tuple[Any, ...]]:
        with Journal.open(self.data, writer=False) as journal:
            return [(r.seq, r.game, r.body, r.accepted, r.reason, r.source) for r in journal.records()]

    def last_seq(self) -> int:
        with Journal.open(self.data, writer=False) as journal:
            return journal.last_seq

    def club_status(self) -> dict[str, Any]:
        status, _, raw = self.request("GET", "/api/club")
        assert status == 200, raw
        answer: dict[str, Any] = json.loads(raw)
        return answer

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=30)


@contextlib.contextmanager
def hub_and_table(root: Path, tables: int = 1) -> Iterator[tuple[Hub, Table]]:
    """A running hub (with `tables` tables' credentials) and table 1 joined to it, both stopped after."""
    hub = Hub(root / "hub", tables=tables).start()
    try:
        table = Table(root / "table1", hub.urls[1], 1).start()
        try:
            yield hub, table
        finally:
            table.stop()
    finally:
        hub.stop()


def game_events(seed: int, kind: str = "chaud_devant", players: int = 4) -> list[dict[str, Any]]:
    """A whole random legal game, plus a few illegal plays (refused rows travel too)."""
    rng = random.Random(seed)
    if kind == "buffet":
        events = buffet_simulate.random_game(rng, players=players)
    else:
        events = chaud_devant_simulate.random_game(rng, players=players)
    for at in sorted(rng.sample(range(2, len(events)), 3), reverse=True):
        events.insert(at, {"type": "card", "card": "no-such-card"})
    return events


def play(table: Table, events: list[dict[str, Any]]) -> None:
    """Post each event to the table, as its host's tablet would."""
    for event in events:
        status, answer = table.play(event)
        assert status == 200, answer


def wait_caught_up(hub: Hub, table: Table, timeout: float = CATCH_UP_SECONDS) -> float:
    """Seconds until the hub holds every row of the table's journal; fails after `timeout`."""
    began = time.monotonic()
    want = table.last_seq()
    while time.monotonic() - began < timeout:
        with contextlib.suppress(sqlite3.OperationalError):
            if hub.held(table.table) >= want:
                return time.monotonic() - began
        time.sleep(0.05)
    raise AssertionError(f"table {table.table}: the hub holds {hub.held(table.table)} of {want} rows after "
                         f"{timeout:.0f} s\n{hub.console()}")


def assert_copied_exactly(hub: Hub, table: Table) -> None:
    """0 lost, 0 duplicated: the hub holds exactly the table's journal; and the hub's results equal,
    game by game, `marmite replay` of the table's `marmite export`."""
    journal = table.journal()
    assert hub.count(table.table) == len(journal)
    assert hub.rows(table.table) == [tuple(row) for row in journal]
    night = json.loads(marmite("club", "export", "--data", str(hub.data)))
    games = night["tables"][str(table.table)]["games"]
    listing = marmite("export", "--list", "--data", str(table.data)).decode()
    listed = [line.split("\t")[0] for line in listing.splitlines()]
    assert sorted(games) == sorted(listed)
    for game in listed:
        log = marmite("export", "--data", str(table.data), "--game", game)
        assert games[game]["state"] == json.loads(marmite("replay", "-", stdin=log)), f"game {game}"


class Relay:
    """A TCP relay on loopback between a table and the broker; `cut()` drops every connection through it
    (a Wi-Fi that comes and goes), `block()`/`unblock()` refuse new ones meanwhile."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.blocked = False
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.blocked:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()

    def close(self) -> None:
        self.server.close()
        self.cut()
