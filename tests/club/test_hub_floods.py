"""What one table's messages must never do to the hub: break the night's opening with an absurd presence,
flood the console and the store with taps or calls, hang the hub's stop; and what the board and a player's
phone must show: each game's row count as the export counts it, the player's latest game by time."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import club.hub
from club import web
from club.hub import REFUSALS_SAID
from club.results import night_games
from club.store import Row
from club.web import create_club_app
from companion.referee import Referee
from marmite.games import GAMES
from tests.club.helpers import game_events
from tests.club.inproc import WAIT_SECONDS, Broker, TableClient, WatchedHub, card_row


def _until(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(what)


@pytest.fixture
def broker(tmp_path: Path) -> Any:
    started = Broker(tmp_path / "hub")
    yield started
    started.close()


def test_an_absurd_presence_cannot_break_opening_the_next_night(broker: Broker, tmp_path: Path) -> None:
    hub = WatchedHub(broker, tmp_path / "hub")
    table = TableClient(broker, 2)
    try:
        body = json.dumps({"state": "online", "last_seq": 2**70}).encode()
        table.client.publish(table.topics.status, body, qos=1).wait_for_publish(5)
        _until(lambda: hub.hub.tables.get(2) is not None and hub.hub.tables[2].online, "the presence never came")
        assert hub.hub.open_next_night() == 2
        assert not hub.hub.store._db.in_transaction
        assert hub.hub.store.night() == 2
    finally:
        table.close()
        hub.close()


def test_the_store_ignores_an_implausible_night_start(broker: Broker, tmp_path: Path) -> None:
    """Whatever reaches the store, opening a night leaves no transaction open."""
    hub = WatchedHub(broker, tmp_path / "hub")
    try:
        assert hub.hub.store.open_next_night({1: 2**70, 2: 3}) == 2
        assert not hub.hub.store._db.in_transaction
        assert hub.hub.store.night_starts() == {2: {2: 3}}
    finally:
        hub.close()


def _problems(data: Path) -> int:
    with sqlite3.connect(data / "club.sqlite3") as db:
        return int(db.execute("SELECT COUNT(*) FROM problems").fetchone()[0])


def test_a_flood_of_bad_taps_is_counted_not_echoed(broker: Broker, tmp_path: Path) -> None:
    hub = WatchedHub(broker, tmp_path / "hub")
    table = TableClient(broker, 3)
    answers: list[bytes] = []
    table.client.message_callback_add(table.topics.tapped, lambda c, u, m: answers.append(m.payload))
    table.client.subscribe(table.topics.tapped, 1)
    try:
        for _ in range(200):
            table.client.publish(table.topics.tap, b"x", qos=1)
        good = json.dumps({"table": 3, "uid": "04a1b2c3"}).encode()  # answered after every garbage tap
        table.client.publish(table.topics.tap, good, qos=1).wait_for_publish(10)
        _until(lambda: answers, "the good tap was never answered")
        assert json.loads(answers[0]) == {"kind": "unknown"}
        assert hub.hub.tables[3].refused_messages == 200
        said = [line for line in hub.lines if "table 3" in line]
        assert len(said) <= REFUSALS_SAID + 1, said[-3:]
        assert _problems(tmp_path / "hub") <= REFUSALS_SAID + 1
    finally:
        table.close()
        hub.close()


def test_a_table_calling_in_a_loop_is_said_once_then_counted(broker: Broker, tmp_path: Path) -> None:
    hub = WatchedHub(broker, tmp_path / "hub")
    table = TableClient(broker, 1)
    try:
        for _ in range(100):
            table.client.publish(table.topics.call, b'{"table": 1}', qos=1)
        _until(lambda: hub.hub.tables.get(1) is not None and hub.hub.tables[1].refused_messages == 99,
               f"the calls were not counted: {hub.lines[-3:]}")
        assert sum("the director is called" in line for line in hub.lines) <= REFUSALS_SAID + 1
        assert sum(line.endswith("the director is called") for line in hub.lines) == 1
    finally:
        table.close()
        hub.close()


def test_the_refusals_left_unsaid_are_said_when_the_window_closes(broker: Broker, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(club.hub, "REFUSAL_WINDOW_SECONDS", 1.0)
    monkeypatch.setattr(club.hub, "TICK_SECONDS", 0.2)
    hub = WatchedHub(broker, tmp_path / "hub")
    table = TableClient(broker, 1)
    try:
        for seq in range(1, REFUSALS_SAID + 6):
            table.client.publish(table.topics.events, b'{"seq": %d}' % seq, qos=1)
        _until(lambda: hub.hub.tables.get(1) is not None and hub.hub.tables[1].refused_messages == REFUSALS_SAID + 5,
               "the refusals never came")
        _until(lambda: any(line.endswith("5 more messages refused") for line in hub.lines),
               f"the unsaid refusals were never said: {hub.lines[-3:]}")  # with no later refusal
    finally:
        table.close()
        hub.close()


def test_the_hub_stops_while_a_table_floods_it(broker: Broker, tmp_path: Path) -> None:
    """The store refuses rows (a full disk), the writer waits, the queue fills, paho's thread waits on it:
    closing the hub still ends."""
    hub = WatchedHub(broker, tmp_path / "hub")
    table = TableClient(broker, 1)

    def full_disk(rows: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    hub.hub.store.add = full_disk  # type: ignore[method-assign]
    closing = threading.Thread(target=hub.close, daemon=True)
    try:
        assert table.publish(card_row(1, 1))
        _until(lambda: any("rows not stored" in line for line in hub.lines), "the store never refused")
        for _ in range(3 * club.hub.QUEUE_MESSAGES):
            table.client.publish(table.topics.status, b"offline", qos=0)
        _until(hub.hub._queue.full, "the queue never filled")
        closing.start()
        closing.join(WAIT_SECONDS * 2)
        assert not closing.is_alive(), "the hub's close hangs"
    finally:
        table.close()


def _rows(table: int, events: list[dict[str, Any]], hour: str) -> list[Row]:
    referee, rows = Referee(GAMES), []
    for seq, event in enumerate(events, start=1):
        outcome = referee.apply(event)
        rows.append(Row(table, seq, 1, f"2026-11-27T{hour}:{seq // 60:02d}:{seq % 60:02d}+00:00", event,
                        outcome.accepted, None if outcome.accepted else outcome.reason, "api"))
    return rows


def _send(broker: Broker, hub: WatchedHub, rows: list[Row]) -> None:
    table = TableClient(broker, rows[0].table)
    try:
        for one in rows:
            assert table.publish(one.encoded())
        hub.wait_held(rows[0].table, len(rows))
    finally:
        table.close()


def test_the_board_counts_each_games_rows_as_the_export(broker: Broker, tmp_path: Path) -> None:
    hub = WatchedHub(broker, tmp_path / "hub")
    try:
        rows = _rows(1, game_events(21), "19")
        _send(broker, hub, rows)
        board = hub.hub.board()
        exported = night_games(hub.hub.store, GAMES)
        assert [g["events"] for g in board["games"]] == [g["events"] for g in exported] == [len(rows)]
    finally:
        hub.close()


def test_a_players_phone_offers_their_latest_game(broker: Broker, tmp_path: Path) -> None:
    """Two games with the same players at two tables: the later one (by time) is the last, whatever its table."""
    hub = WatchedHub(broker, tmp_path / "hub")
    try:
        early, late = _rows(2, game_events(21), "19"), _rows(1, game_events(22), "21")
        assert early[0].event["players"] == late[0].event["players"]
        _send(broker, hub, early)
        _send(broker, hub, late)
        player = sorted(late[0].event["players"])[0]
        hub.hub.store.add_players([player])
        number = dict((name, n) for n, name in hub.hub.store.numbered_players())[player]
        counted = [g for g in hub.hub.night_games() if g["counted"] and player in g["players"]]
        assert sorted(g["table"] for g in counted) == [1, 2]
        app = create_club_app(hub.hub, pin="246810", secret_key="test")
        with app.test_request_context(f"/player/part?number={number}"):
            last = web._player_context()["last"]
        assert last is not None and last["table"] == 1
    finally:
        hub.close()
