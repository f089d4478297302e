"""A hub in this process on a real Mosquitto (the hub's own config), and bare MQTT clients holding a table's
credentials: what a hostile table or a dying disk does to the hub, watched from inside (every acknowledgement
checked against the store at the moment it is made)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.broker import Credentials, Mosquitto, free_port, write_broker_files
from club.hub import ClubHub
from club.store import Store
from club.topics import HUB_USER, ClubURL, Topics
from marmite.games import GAMES

CLUB = "night"
WAIT_SECONDS = 15.0


def row(table: int, seq: int, event: dict[str, Any], *, game: int | None = 1) -> dict[str, Any]:
    return {"table": table, "seq": seq, "game": game, "received_at": "2026-01-01T20:00:00.000+00:00",
            "event": event, "accepted": True, "reason": None, "source": "api"}


def card_row(table: int, seq: int) -> bytes:
    """An honest table's row `seq` (its game's first row a new_game), as its link encodes it."""
    event = {"type": "new_game", "players": ["Ana", "Bob", "Cléo"]} if seq == 1 else {"type": "undo"}
    return json.dumps(row(table, seq, event), ensure_ascii=False, separators=(",", ":")).encode()


class Broker:
    """The hub's own Mosquitto, written and started in `directory`, with credentials for `tables` tables."""

    def __init__(self, directory: Path, tables: int = 3) -> None:
        self.port = free_port()
        directory.mkdir(parents=True, exist_ok=True)
        self.credentials = Credentials.load_or_create(directory / "credentials.json", tables)
        config = write_broker_files(directory / "mosquitto", CLUB, self.credentials, "127.0.0.1", self.port)
        self.mosquitto = Mosquitto(config, "127.0.0.1", self.port).start()

    def url(self, table: int | None = None) -> ClubURL:
        if table is None:
            return ClubURL("127.0.0.1", self.port, HUB_USER, self.credentials.hub, CLUB)
        return ClubURL("127.0.0.1", self.port, f"table-{table}", self.credentials.tables[table], CLUB)

    def close(self) -> None:
        self.mosquitto.close()


class WatchedHub:
    """A ClubHub whose every acknowledgement, to the broker or to a table, is checked against the store."""

    def __init__(self, broker: Broker, data: Path) -> None:
        self.data = data
        self.lines: list[str] = []
        self.violations: list[str] = []
        self.hub = ClubHub(Store.open(data), broker.url(), GAMES, tables=3, console=self.lines.append)
        self._received: dict[int, mqtt.MQTTMessage] = {}
        self._watch()
        self.hub.start()
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.hub.client.is_connected() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # its subscriptions made: a first night's rows are not published before it listens

    def stored(self, table: int) -> int:
        with contextlib.closing(sqlite3.connect(self.data / "club.sqlite3", timeout=10)) as db:
            return int(db.execute("SELECT COUNT(*) FROM rows WHERE table_no = ?", (table,)).fetchone()[0])

    def _watch(self) -> None:
        hub, client = self.hub, self.hub.client
        on_message, publish_ack, ack = hub._on_message, hub._publish_ack, client.ack

        def received(c: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
            self._received[message.mid] = message
            on_message(c, userdata, message)

        def acked_to_table(table: int, held: int, *, resend: bool) -> None:
            if self.stored(table) < held:
                self.violations.append(f"table {table} told {held} stored; the store holds {self.stored(table)}")
            publish_ack(table, held, resend=resend)

        def acked_to_broker(mid: int, qos: int) -> int:
            message = self._received.get(mid)
            if message is not None and message.topic.endswith("/events"):
                with contextlib.suppress(Exception):
                    body = json.loads(message.payload)
                    table, seq = int(body["table"]), int(body["seq"])
                    if f"/table/{table}/" in message.topic and self.stored(table) < seq and \
                            body == json.loads(card_row(table, seq)):
                        self.violations.append(f"table {table}'s row {seq} acknowledged to the broker unstored")
            result: int = ack(mid, qos)
            return result

        client.on_message = received
        hub._publish_ack = acked_to_table  # type: ignore[method-assign]
        client.ack = acked_to_broker  # type: ignore[method-assign]

    def wait_held(self, table: int, seq: int, timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.stored(table) >= seq and self.hub.held(table) >= seq:
                return
            time.sleep(0.02)
        raise AssertionError(f"table {table}: {self.stored(table)} rows stored, {seq} wanted\n" + "\n".join(self.lines))

    def close(self) -> None:
        self.hub.close()


class TableClient:
    """A bare paho client holding table `table`'s credentials: what a table (honest or not) publishes, and the
    retained ack it reads."""

    def __init__(self, broker: Broker, table: int, *, clean: bool = False) -> None:
        url = broker.url(table)
        self.table = table
        self.topics = Topics(CLUB, table)
        self.acks: list[int] = []
        self.connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-{table}", clean_session=clean,
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set(url.user, url.password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.connected.wait(10), "the broker refused a table's credentials"

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if not reason.is_failure:
            client.subscribe(self.topics.ack, 1)
            self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with contextlib.suppress(ValueError, KeyError, TypeError):
            self.acks.append(int(json.loads(message.payload)["seq"]))

    def publish(self, payload: bytes, *, retain: bool = False, timeout: float = 5.0) -> bool:
        """True once the broker took it (QoS 1 PUBACK)."""
        info = self.client.publish(self.topics.events, payload, qos=1, retain=retain)
        with contextlib.suppress(RuntimeError, ValueError):
            info.wait_for_publish(timeout)
        return info.is_published()

    def wait_ack(self, seq: int, timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.acks and self.acks[-1] >= seq:
                return
            time.sleep(0.02)
        raise AssertionError(f"table {self.table}: acks {self.acks[-5:]}, {seq} wanted")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()
        self.client.loop_stop()
