"""Bad input at a real hub and its Mosquitto: strangers, wrong credentials, another table's topics,
forged, replayed and malformed rows, a seq gap, an event that does not fold, a hub restored from an
older backup. Refused (or repaired from the table), loudly on the hub's console; nothing lost or doubled."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from club.store import Row
from club.topics import ClubURL, Topics, hub_status
from tests.club.helpers import Hub, Table, assert_copied_exactly, game_events, play, wait_caught_up


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    running = Hub(tmp_path / "hub", tables=3).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def shared_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """One hub for the tests that neither stop it nor share a table (strangers use tables 1-2, forgeries 3)."""
    running = Hub(tmp_path_factory.mktemp("club") / "hub", tables=3).start()
    yield running
    running.stop()


class Client:
    """A bare paho client (a stranger's, or one holding a table's credentials) and what it received."""

    def __init__(self, port: int, user: str | None, password: str | None) -> None:
        self.connected = threading.Event()
        self.answered = threading.Event()
        self.reason: Any = None
        self.received: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user}-{time.monotonic_ns()}",
                                  reconnect_on_failure=False)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.received.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.answered.wait(10)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.reason = reason
        if not reason.is_failure:
            self.connected.set()
        self.answered.set()

    def publish(self, topic: str, payload: Any, retain: bool = False) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(topic, data, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()
        self.client.loop_stop()


def wait_console(hub: Hub, needle: str, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if needle in (console := hub.console()):
            return console
        time.sleep(0.05)
    raise AssertionError(f"{needle!r} never on the hub's console:\n{hub.console()}")


def row(table: int, seq: int, event: dict[str, Any], *, accepted: bool = True, game: int | None = 1) -> dict[str, Any]:
    return {"table": table, "seq": seq, "game": game, "received_at": "2026-01-01T20:00:00.000+00:00",
            "event": event, "accepted": accepted, "reason": None if accepted else "refused", "source": "api"}


def test_strangers_and_wrong_credentials_are_refused_and_a_table_keeps_to_its_own_topics(shared_hub: Hub) -> None:
    hub = shared_hub
    url = ClubURL.parse(hub.urls[1])
    for user, password in ((None, None), ("table-1", "not-the-password"), ("hub", "guess")):
        stranger = Client(hub.port, user, password)
        assert stranger.answered.is_set() and not stranger.connected.is_set(), (user, stranger.reason)
        stranger.close()
    table_one = Client(hub.port, url.user, url.password)
    assert table_one.connected.is_set()
    table_one.client.subscribe([("marmite/#", 1), ("#", 1)])
    time.sleep(0.3)
    other = Topics(url.club, 2)
    # Writing as table 2, or as the hub (an ack, a seating): Mosquitto drops them.
    table_one.publish(other.events, row(2, 1, {"type": "new_game", "players": ["A", "B", "C"]}))
    table_one.publish(other.ack, {"seq": 99, "resend": False}, retain=True)
    table_one.publish(other.seating, {"players": ["Mallory"]}, retain=True)
    time.sleep(0.5)
    assert hub.count(2) == 0
    table_two = ClubURL.parse(hub.urls[2])  # the hub's own credentials are the hub's alone (its client id)
    hub_view = Client(hub.port, table_two.user, table_two.password)
    hub_view.client.subscribe(other.ack, 1)
    time.sleep(0.5)
    assert all(json.loads(payload)["seq"] == 0 for _, payload in hub_view.received), hub_view.received
    # Table 1 reads nothing of table 2 (its acks, seating or rows): only its own ack and the hub's presence.
    assert table_one.received
    assert {topic for topic, _ in table_one.received} <= {Topics(url.club, 1).ack, hub_status(url.club)}
    table_one.close()
    hub_view.close()


def test_forged_replayed_malformed_gapped_and_unfoldable_rows_are_refused_loudly(shared_hub: Hub) -> None:
    hub = shared_hub
    url = ClubURL.parse(hub.urls[3])
    topics = Topics(url.club, 3)
    fake = Client(hub.port, url.user, url.password)
    assert fake.connected.is_set()
    events = game_events(9)
    good = [row(3, seq, event) for seq, event in enumerate(events[:5], start=1)]
    for message in good:
        fake.publish(topics.events, message)
    deadline = time.monotonic() + 10
    while hub.held(3) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.held(3) == 5
    fake.publish(topics.events, good[2])  # replayed: ignored, not counted again, not an alarm
    forged = dict(good[3], event={"type": "undo"})
    fake.publish(topics.events, forged)
    wait_console(hub, "table 3: forged: row 4 differs")
    fake.publish(topics.events, b"{not json")
    wait_console(hub, "table 3: malformed")
    fake.publish(topics.events, dict(good[0], seq=6, table=2))
    wait_console(hub, "says table 2 on table 3's topic")
    fake.publish(topics.events, row(3, 9, events[8]))
    wait_console(hub, "table 3: gap: row 9 after 5")
    fake.client.subscribe(topics.ack, 1)
    deadline = time.monotonic() + 5
    while not fake.received and time.monotonic() < deadline:
        time.sleep(0.05)
    ack = json.loads(fake.received[-1][1])
    assert ack == {"seq": 5, "resend": True, "digest": ack["digest"]}  # with the fingerprint of the row held
    assert ack["digest"] == Row.from_message(3, good[4]).digest()
    # A card no one holds, marked accepted by a lying (or broken) table: stored, but the game is set aside.
    fake.publish(topics.events, row(3, 6, {"type": "card", "card": "no-such-card"}, accepted=True))
    wait_console(hub, "table 3: disagrees: game 1: row 6")
    assert hub.count(3) == 6
    assert [r[2] for r in hub.rows(3)][:5] == [m["event"] for m in good]
    fake.close()


def test_a_hub_restored_from_an_older_backup_is_repaired_from_the_table(tmp_path: Path, hub: Hub) -> None:
    table = Table(tmp_path / "table1", hub.urls[1], 1).start()
    try:
        events = game_events(11)
        play(table, events[:60])
        wait_caught_up(hub, table)
        backup = tmp_path / "backup.sqlite3"
        with contextlib.closing(hub.db()) as live, contextlib.closing(sqlite3.connect(backup)) as copy:
            live.backup(copy)
        play(table, events[60:])
        wait_caught_up(hub, table)
        hub.kill()
        for suffix in ("-wal", "-shm"):
            (hub.data / f"club.sqlite3{suffix}").unlink(missing_ok=True)
        shutil.copy(backup, hub.data / "club.sqlite3")
        assert hub.held(1) < table.last_seq()
        hub.start()
        wait_caught_up(hub, table)
        assert_copied_exactly(hub, table)
    finally:
        table.stop()


def test_a_refused_login_reaches_the_hubs_console(shared_hub: Hub) -> None:
    from club.mqtt import probe

    url = ClubURL.parse(shared_hub.urls[1])
    assert probe(ClubURL(url.host, url.port, url.user, "not-the-password", url.club)) == "refused"
    wait_console(shared_hub, "hub: login: the broker refused")
    with contextlib.closing(shared_hub.db()) as db:
        assert db.execute("SELECT COUNT(*) FROM problems WHERE kind = 'login'").fetchone()[0] >= 1


def test_the_largest_event_a_real_table_accepts_reaches_the_hub_through_its_broker(tmp_path: Path, hub: Hub) -> None:
    from companion.events import MAX_EVENT_BYTES

    table = Table(tmp_path / "table1", hub.urls[1], 1).start()
    try:
        filler, note, accepted = "é\"\x01", "", None
        step = 4096
        while step:  # the longest note the table's API takes (its body and its encoded event within 16 KiB)
            body = json.dumps({"type": "undo", "note": note + filler * step}, ensure_ascii=False,
                              separators=(",", ":")).encode()  # as compact as a tablet may send it
            status, _, _ = table.request("POST", "/api/events", body, {"X-Table-Pin": table.pin})
            if status == 200:
                note, accepted = note + filler * step, note + filler * step
            else:
                step //= 2
        assert accepted is not None
        encoded = json.dumps({"type": "undo", "note": accepted}, ensure_ascii=False, separators=(",", ":"))
        assert MAX_EVENT_BYTES - 64 < len(encoded.encode()) <= MAX_EVENT_BYTES
        wait_caught_up(hub, table)
        assert_copied_exactly(hub, table)
        assert not any("table 1: malformed" in line for line in hub.console().splitlines())
    finally:
        table.stop()
