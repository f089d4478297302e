"""A hub that no table can stall or fool, and that a full disk cannot make lie: whatever one table's credentials
publish, every other table's rows are stored and acknowledged, nothing is acknowledged before it is stored, and
the console names the table; a store that refuses to write keeps every row unacknowledged until it can."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from club.broker import MAX_PACKET_BYTES
from club.store import MAX_ROW_BYTES
from companion.events import MAX_EVENT_BYTES
from tests.club.inproc import WAIT_SECONDS as WAIT
from tests.club.inproc import Broker, TableClient, WatchedHub, card_row, row

POISONS: dict[str, bytes] = {
    "NaN": json.dumps(row(3, 1, {"type": "undo", "x": float("nan")})).encode(),
    "lone surrogate": json.dumps(row(3, 1, {"type": "undo", "who": "\ud800"})).encode(),
    "surrogate in the envelope": json.dumps({**row(3, 1, {"type": "undo"}), "source": "\udfff"}).encode(),
    "5,000 deep": b'{"table":3,"seq":1,"game":1,"received_at":"x","accepted":true,"reason":null,"source":"api",'
                  b'"event":{"type":"undo","x":' + b"[" * 5000 + b"]" * 5000 + b"}}",
    "unknown event type": json.dumps(row(3, 1, {"type": "drop_table"})).encode(),
    "huge seq": json.dumps(row(3, 2**70, {"type": "undo"}, game=None)).encode(),
    "not UTF-8": b'{"table":3,"seq":1,"event":"\xff"}',
    "empty": b"",
}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    running = Broker(tmp_path / "hub")
    yield running
    running.close()


@contextlib.contextmanager
def watched(broker: Broker, data: Path) -> Iterator[WatchedHub]:
    hub = WatchedHub(broker, data)
    try:
        yield hub
    finally:
        hub.close()


def names_table(hub: WatchedHub, table: int) -> bool:
    return any(line.startswith(f"marmite club: table {table}: malformed") for line in hub.lines)


def test_poison_rows_from_one_table_are_refused_by_name_and_never_hold_the_others_back(tmp_path: Path,
                                                                                       broker: Broker) -> None:
    with watched(broker, tmp_path / "hub") as hub:
        honest, hostile = TableClient(broker, 1), TableClient(broker, 3)
        for seq, (what, poison) in enumerate(POISONS.items(), start=1):
            before = len(hub.lines)
            assert hostile.publish(poison, retain=True), what
            assert honest.publish(card_row(1, seq))
            hub.wait_held(1, seq)
            honest.wait_ack(seq)
            assert any(line.startswith("marmite club: table 3: malformed") for line in hub.lines[before:]), what
        assert hub.hub.held(3) == 0 and hub.violations == []
        with contextlib.closing(sqlite3.connect(tmp_path / "hub" / "club.sqlite3")) as db:
            assert db.execute("SELECT COUNT(*) FROM rows WHERE table_no = 3").fetchone()[0] == 0
        honest.close()
        hostile.close()
    # A retained poison came back at most once: the hub cleared it, so a restarted hub is not fed it again.
    with watched(broker, tmp_path / "hub") as hub:
        honest = TableClient(broker, 1)
        assert honest.publish(card_row(1, len(POISONS) + 1))
        hub.wait_held(1, len(POISONS) + 1)
        time.sleep(0.5)
        again = [line for line in hub.lines if line.startswith("marmite club: table 3:")]
        assert len(again) <= 1, again  # the last poison, retained before its clearing, at most
        honest.close()
    with watched(broker, tmp_path / "hub") as hub:
        honest = TableClient(broker, 1)
        assert honest.publish(card_row(1, len(POISONS) + 2))
        hub.wait_held(1, len(POISONS) + 2)
        time.sleep(0.5)
        assert not [line for line in hub.lines if line.startswith("marmite club: table 3:")], hub.lines
        honest.close()


def test_a_full_disk_loses_nothing_acknowledged_even_when_the_hub_stops_meanwhile(tmp_path: Path,
                                                                                  broker: Broker) -> None:
    data = tmp_path / "hub"
    with watched(broker, data) as hub:
        tables = [TableClient(broker, 1), TableClient(broker, 2)]
        for table in tables:
            for seq in (1, 2):
                assert table.publish(card_row(table.table, seq))
            hub.wait_held(table.table, 2)
        db = hub.hub.store._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
        for table in tables:
            for seq in range(3, 200):
                assert table.publish(card_row(table.table, seq))
        deadline = time.monotonic() + 10
        while not any("hub: store: rows not stored" in line for line in hub.lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any("disk is full" in line for line in hub.lines), hub.lines
        time.sleep(0.5)
        for table in tables:  # what fitted before the disk filled is stored and acknowledged, nothing more
            held = hub.hub.held(table.table)
            assert held == hub.stored(table.table) < 199 and table.acks[-1] == held
        for table in tables:
            table.close()
        assert hub.violations == []
    # The hub stopped with its disk full; started again with room, it is given every row it never acknowledged.
    with watched(broker, data) as hub:
        for table in (1, 2):
            hub.wait_held(table, 199)
        with contextlib.closing(sqlite3.connect(data / "club.sqlite3")) as db:
            seqs = [s for (s,) in db.execute("SELECT seq FROM rows WHERE table_no = 1 ORDER BY seq")]
        assert seqs == list(range(1, 200))
        assert hub.violations == []


def test_a_full_disk_that_clears_loses_nothing_and_the_hub_carries_on(tmp_path: Path, broker: Broker) -> None:
    with watched(broker, tmp_path / "hub") as hub:
        table = TableClient(broker, 1)
        assert table.publish(card_row(1, 1))
        hub.wait_held(1, 1)
        db = hub.hub.store._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        for seq in range(2, 100):
            assert table.publish(card_row(1, seq))
        time.sleep(1.0)
        assert hub.hub.held(1) == hub.stored(1) < 99 and table.acks[-1] == hub.hub.held(1)
        db.execute("PRAGMA max_page_count = 1073741823")  # room again
        hub.wait_held(1, 99)
        table.wait_ack(99)
        assert hub.violations == []
        table.close()


def test_the_largest_event_a_table_accepts_goes_through_the_real_broker_and_is_stored(tmp_path: Path,
                                                                                     broker: Broker) -> None:
    from companion.events import MalformedEvent, check_storable

    filler = "é\"\x01"  # escaped when encoded: the limit holds for the event as encoded
    event: dict[str, Any] = {"type": "undo", "note": ""}
    while True:
        bigger = {**event, "note": event["note"] + filler}
        try:
            check_storable(bigger)
        except MalformedEvent:
            break
        event = bigger
    encoded = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
    assert MAX_EVENT_BYTES - 32 < len(encoded) <= MAX_EVENT_BYTES
    message = json.dumps({**row(1, 1, {"type": "new_game", "players": ["A", "B", "C"]})}).encode()
    with watched(broker, tmp_path / "hub") as hub:
        table = TableClient(broker, 1)
        assert table.publish(message)
        big = json.dumps({**row(1, 2, event), "reason": "r" * 1000}, ensure_ascii=False,
                         separators=(",", ":")).encode()
        assert len(big) <= MAX_ROW_BYTES
        assert table.publish(big)
        hub.wait_held(1, 2)
        assert hub.hub.store.row(1, 2) is not None and hub.hub.store.row(1, 2).event == event  # type: ignore[union-attr]
        table.close()


def test_a_row_larger_than_a_row_may_be_is_refused_by_the_broker_and_the_hub(tmp_path: Path, broker: Broker) -> None:
    from club.store import parse_row
    from companion.events import EventShapes
    from marmite.games import GAMES

    too_big = json.dumps(row(1, 1, {"type": "undo", "note": "x" * MAX_ROW_BYTES})).encode()
    with pytest.raises(ValueError, match="more than a row"):
        parse_row(1, too_big, EventShapes(GAMES))
    far_too_big = json.dumps(row(1, 1, {"type": "undo", "note": "x" * MAX_PACKET_BYTES})).encode()
    with watched(broker, tmp_path / "hub") as hub:
        hostile = TableClient(broker, 3, clean=True)
        assert hostile.publish(too_big)  # within the broker's packet limit: the hub refuses it, naming the table
        deadline = time.monotonic() + 10
        while not names_table(hub, 3) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any("more than a row" in line for line in hub.lines), hub.lines
        hostile.close()
        hostile = TableClient(broker, 3, clean=True)
        assert not hostile.publish(far_too_big, timeout=3)  # Mosquitto's max_packet_size: disconnected
        honest = TableClient(broker, 1)
        assert honest.publish(card_row(1, 1))
        hub.wait_held(1, 1)
        assert hub.hub.held(3) == 0
        honest.close()
        hostile.close()


def test_a_client_id_is_its_user_so_no_table_can_take_over_the_hub_or_another_table(tmp_path: Path,
                                                                                    broker: Broker) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    victim = TableClient(broker, 1)
    dropped: list[Any] = []
    victim.client.on_disconnect = lambda *args: dropped.append(args)
    for listener_port in (broker.port,):
        thief = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-1", clean_session=True)
        url = broker.url(2)
        thief.username_pw_set(url.user, url.password)
        thief.connect("127.0.0.1", listener_port)
        thief.loop_start()
        time.sleep(1.0)
        thief.disconnect()
        thief.loop_stop()
    assert dropped == []
    victim.close()


# ------------------------------------------------------------------ the property


def _hostile_payloads() -> st.SearchStrategy[bytes]:
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
        max_leaves=20)
    rows = st.builds(lambda seq, event, game, extra: json.dumps(
        {**row(3, seq, event, game=game), **extra}, ensure_ascii=False).encode("utf-8", "surrogatepass"),
        st.integers(-2, 2**65), json_values | st.fixed_dictionaries({"type": st.text(max_size=12)}),
        st.none() | st.integers(-1, 5), st.dictionaries(st.sampled_from(["table", "accepted", "source"]), json_values,
                                                         max_size=2))
    encodings = st.builds(lambda value, codec: json.dumps(value).encode(codec, "ignore"), json_values,
                          st.sampled_from(["utf-8", "utf-16", "latin-1"]))
    sized = st.builds(lambda size, byte: bytes([byte]) * size, st.integers(0, 1 << 20), st.integers(0, 255))
    return st.one_of(st.binary(max_size=512), rows, encodings, sized, st.sampled_from(list(POISONS.values())))


@dataclass
class Night:
    broker: Broker
    hub: WatchedHub
    honest: TableClient
    seq: int = 0


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Night]:
    root = tmp_path_factory.mktemp("hostile")
    broker = Broker(root / "hub")
    hub = WatchedHub(broker, root / "hub")
    honest = TableClient(broker, 1)
    try:
        yield Night(broker, hub, honest)
    finally:
        honest.close()
        hub.close()
        broker.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(payload=_hostile_payloads(), retain=st.booleans())
@example(payload=POISONS["NaN"], retain=False)
@example(payload=POISONS["5,000 deep"], retain=True)
def test_whatever_one_table_publishes_the_others_rows_are_stored_and_acknowledged_and_it_is_named(
        night: Night, payload: bytes, retain: bool) -> None:
    _night_with_a_hostile_table(night, payload, retain)


@pytest.mark.slow
def test_a_60_mb_message_from_one_table_holds_no_one_back(night: Night) -> None:
    _night_with_a_hostile_table(night, b"[" + b"0," * 30_000_000 + b"0]", retain=True)


def _night_with_a_hostile_table(night: Night, payload: bytes, retain: bool) -> None:
    """Table 3's credentials publish `payload` as table 1 publishes its next row (one batch of the hub's, as
    often as not): table 1's row is stored and acknowledged, never acknowledged before it is stored, and
    table 3's message is stored, or a replay of a stored row, or a quiet gap, or table 3 is named."""
    hub = night.hub
    before, held_before, refused_before = len(hub.lines), hub.hub.held(3), _refused(hub)
    gap, duplicate = _is_gap(hub, payload), _duplicate(hub, payload)
    hostile = TableClient(night.broker, 3, clean=True)
    try:
        sent = hostile.client.publish(hostile.topics.events, payload, qos=1, retain=retain)
        night.seq += 1
        assert night.honest.publish(card_row(1, night.seq))
        night.hub.wait_held(1, night.seq)
        night.honest.wait_ack(night.seq)
        with contextlib.suppress(RuntimeError, ValueError):
            sent.wait_for_publish(5)
        if not sent.is_published():
            assert len(payload) > MAX_ROW_BYTES  # only the broker's size limit refuses a message outright
            return
        deadline = time.monotonic() + 10
        named = False
        while time.monotonic() < deadline and not named and hub.hub.held(3) == held_before:
            named = any(line.startswith("marmite club: table 3:") for line in hub.lines[before:])
            if _refused(hub) > refused_before:  # refused: named now, or within the console's window for it
                named = named or any(line.startswith("marmite club: table 3: malformed") for line in hub.lines)
                break
            time.sleep(0.02)
        assert named or hub.hub.held(3) > held_before or duplicate or gap, (payload[:200], hub.lines[before:])
        assert not [line for line in hub.lines[before:] if line.startswith("marmite club: hub:")]
    finally:
        hostile.close()
    assert hub.violations == []
    assert not any(line.startswith("marmite club: table 1: malformed") for line in hub.lines)


def _refused(hub: WatchedHub) -> int:
    state = hub.hub.tables.get(3)
    return 0 if state is None else state.refused_messages


def _is_gap(hub: WatchedHub, payload: bytes) -> bool:
    """A well-formed row of table 3's beyond the next one: refused quietly once a gap was said."""
    from club.store import parse_row
    from companion.events import EventShapes
    from marmite.games import GAMES

    try:
        return parse_row(3, payload, EventShapes(GAMES)).seq > hub.hub.held(3) + 1 and hub.hub.tables[3].gap_reported
    except ValueError:
        return False


def _duplicate(hub: WatchedHub, payload: bytes) -> bool:
    with contextlib.suppress(Exception):
        body = json.loads(payload)
        stored = hub.hub.store.row(3, int(body["seq"]))
        return stored is not None and stored.as_message() == body
    return False


def test_two_tables_on_one_join_line_are_said_on_the_console_and_the_second_never_says_sent(
        tmp_path: Path, broker: Broker) -> None:
    from club.link import TableLink
    from companion.journal import Journal

    with watched(broker, tmp_path / "hub") as hub:
        first = TableClient(broker, 1)  # the first table of the pair has sent 5 rows
        for seq in range(1, 6):
            assert first.publish(card_row(1, seq))
        hub.wait_held(1, 5)
        first.close()
        with Journal.open(tmp_path / "second") as journal:
            journal.append({"type": "new_game", "players": ["Zoé", "Yann", "Xavier"]}, True, None)
            journal.append({"type": "undo"}, True, None)
            link = TableLink(journal, broker.url(1), 1).start()
            try:
                deadline = time.monotonic() + WAIT
                while not link.status().conflict and time.monotonic() < deadline:
                    time.sleep(0.02)
                status = link.status()
                assert status.conflict and not status.sent
                while link._thread.is_alive() and time.monotonic() < deadline:  # it has left the broker
                    time.sleep(0.02)
                first = TableClient(broker, 1)  # the first table back: not pushed off by the second any more
                dropped: list[Any] = []
                first.client.on_disconnect = lambda *args: dropped.append(args)
                time.sleep(3)  # longer than paho's reconnection delay
                assert dropped == [] and not link.status().connected
                first.close()
                journal.append({"type": "undo"}, True, None)
                journal.append({"type": "undo"}, True, None)
                journal.append({"type": "undo"}, True, None)
                journal.append({"type": "undo"}, True, None)  # row 6: never sent as the first table's
                link.journal_changed()
                while not any("table 1: twice" in line for line in hub.lines) and time.monotonic() < deadline:
                    time.sleep(0.02)
                time.sleep(1.5)
            finally:
                link.close()
        assert any("two tables use table 1's join line" in line for line in hub.lines), hub.lines
        assert hub.hub.held(1) == 5


def test_a_table_whose_join_code_another_table_uses_says_so_instead_of_sent() -> None:
    from club.link import LinkStatus
    from club.table import LinkAnnouncer

    said: list[str] = []

    class Service:
        def notice(self, key: str, **fields: Any) -> None:
            said.append(key)

    announcer = LinkAnnouncer(Service(), settle=0.0)  # type: ignore[arg-type]
    announcer.said = "waiting"
    announcer.changed(LinkStatus(True, True, acked=5, last_seq=2, seating=None, conflict=True))
    deadline = time.monotonic() + 5
    while not said and time.monotonic() < deadline:
        time.sleep(0.01)
    announcer.close()
    assert said == ["club_twice"]


@pytest.mark.parametrize("form", ["json", "csv", "bgstats", "players"])
def test_the_exports_never_crash_on_rows_an_older_hub_stored(tmp_path: Path, form: str) -> None:
    from club.store import Row, Store
    from tests.club.helpers import game_events, marmite

    at = "2026-01-01T20:00:00.000+00:00"
    store = Store.open(tmp_path)
    events = game_events(3)
    rows = [Row(1, seq, 1, at, event, True, None, "api") for seq, event in enumerate(events[:30], start=1)]
    rows += [Row(1, 31, 1, at, {"type": "drop_table"}, True, None, "api"),  # a type no game knows
             Row(1, 32, 32, at, {"type": "drop_table"}, True, None, "api"),  # a game that starts with one
             Row(1, 33, 33, at, {"type": "confirm", "player": "A", "verdict": "confirmed"}, True, None, "seat"),
             Row(1, 34, 34, at, {"type": "new_game", "game": "no-such-game", "players": ["A"]}, True, None, "api")]
    store.add(rows)
    store.close()
    out = marmite("club", "export", "--data", str(tmp_path), "--format", form)
    assert out.strip()


def test_a_flooding_table_is_named_on_the_console_not_echoed(tmp_path: Path, broker: Broker) -> None:
    from club.hub import REFUSALS_SAID

    with watched(broker, tmp_path / "hub") as hub:
        hostile, honest = TableClient(broker, 3), TableClient(broker, 1)
        for _ in range(3 * REFUSALS_SAID):
            assert hostile.publish(b"[]")
        assert honest.publish(card_row(1, 1))
        hub.wait_held(1, 1)
        deadline = time.monotonic() + 10
        while hub.hub.tables[3].refused_messages < 3 * REFUSALS_SAID and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.hub.tables[3].refused_messages == 3 * REFUSALS_SAID
        assert len([line for line in hub.lines if line.startswith("marmite club: table 3: malformed")]) == REFUSALS_SAID
        honest.close()
        hostile.close()


def test_a_row_the_store_cannot_take_leaves_no_transaction_open(tmp_path: Path) -> None:
    from club.store import Row, Store, StoreError

    at = "2026-01-01T20:00:00.000+00:00"
    store = Store.open(tmp_path)
    with pytest.raises(StoreError):
        store.add([Row(1, 1, 1, at, {"type": "undo"}, True, None, "api\ud800")])  # refused inside the INSERT
    store.add([Row(1, 1, 1, at, {"type": "undo"}, True, None, "api")])  # the next batch is stored
    assert [row.seq for row in store.rows(1)] == [1]
    store.close()


def test_a_row_of_a_known_type_that_does_not_fold_is_set_aside_and_the_hub_carries_on(tmp_path: Path,
                                                                                       broker: Broker) -> None:
    with watched(broker, tmp_path / "hub") as hub:
        hostile, honest = TableClient(broker, 3), TableClient(broker, 1)
        assert hostile.publish(json.dumps(row(3, 1, {"type": "new_game", "players": 5})).encode())
        hub.wait_held(3, 1)  # a table may journal such a row: stored, its game left out of the standings
        assert honest.publish(card_row(1, 1))
        hub.wait_held(1, 1)
        assert hub.hub.board()["games"][-1]["status"] == "disagrees"
        assert hub.violations == []
        honest.close()
        hostile.close()


def test_every_listener_binds_client_ids_to_users_and_the_packet_limit_is_global(tmp_path: Path) -> None:
    from club.broker import MAX_PACKET_BYTES, config_text

    text = config_text(tmp_path, "0.0.0.0", 8883, tls=(tmp_path / "cert.pem", tmp_path / "key.pem"), local_port=1884)
    sections = text.split("\nlistener ")
    assert len(sections) == 3  # the general settings, then the TLS listener and the hub's own on loopback
    assert f"max_packet_size {MAX_PACKET_BYTES}" in sections[0]
    assert all("use_username_as_clientid true" in section for section in sections[1:])  # after its own line
