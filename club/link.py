"""A table's link to the club hub: publishes every journal row (accepted and refused) at QoS 1 to its own
topic, resumes from the hub's acknowledged seq after any disconnect, and keeps the hub's seating.

The table never waits for the link: its journal is the source of truth and the link only reads it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from club.mqtt import connect_in_background, make_client
from club.store import MAX_ROW_BYTES, Row
from club.topics import ClubURL, Topics, hub_status
from companion.journal import Journal

log = logging.getLogger(__name__)

WINDOW = 1_000  # rows handed to paho beyond the hub's ack at most
BATCH = 200
IDLE_SECONDS = 1.0
PRESENCE_SECONDS = 2.0
MAX_READERS = 8


def reader_summary(health: dict[str, Any]) -> dict[str, Any]:
    """One reader's health for the hub: its name, ok, its state (ok, missing, errors) and detail, bounded."""
    info = health.get("info") if isinstance(health.get("info"), dict) else {}
    ok = health.get("ok") is True
    state = str((info or {}).get("state") or health.get("state") or ("ok" if ok else "errors"))
    return {"reader": str(health.get("reader", ""))[:32], "ok": ok, "state": state[:16],
            "detail": str(health.get("detail", ""))[:160]}


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """What the table shows and says: connected or not, how many rows the hub has not acknowledged."""

    connected: bool  # to the broker
    hub_online: bool
    acked: int
    last_seq: int
    seating: dict[str, Any] | None
    conflict: bool = False  # the hub holds rows of this table's that this journal never had
    too_large: int | None = None  # the row the link stopped at: larger than the hub and the broker take

    @property
    def pending(self) -> int:
        return max(0, self.last_seq - self.acked)

    @property
    def sent(self) -> bool:
        return self.pending == 0 and not self.conflict

    @property
    def reachable(self) -> bool:
        """Both the broker and the hub are there: rows sent now are stored now."""
        return self.connected and self.hub_online

    def as_json(self) -> dict[str, Any]:
        return {"connected": self.connected, "hub_online": self.hub_online, "acked": self.acked,
                "pending": self.pending, "sent": self.sent, "reachable": self.reachable,
                "seating": self.seating, "conflict": self.conflict, "too_large": self.too_large}


class TableLink:
    """Publishes `journal`'s rows for table `table`; `on_status` hears each change of what the table shows."""

    def __init__(self, journal: Journal, url: ClubURL, table: int, *,
                 on_status: Callable[[LinkStatus], None] | None = None, ca_file: Path | None = None,
                 on_notice: Callable[[dict[str, Any]], None] | None = None,
                 readers: Callable[[], list[dict[str, Any]]] | None = None) -> None:
        self.journal = journal
        self.readers = readers
        self.url = url
        self.table = table
        self.topics = Topics(url.club, table)
        self.on_status = on_status
        self.on_notice = on_notice
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._connected = False
        self._acked = 0
        self._sent = 0  # rows up to here were handed to paho since the last rewind
        self._have_ack = False  # nothing is sent before the hub's ack says where to start
        self._conflict = False  # the hub acknowledged rows this journal never had: two tables on one join line
        self._seating: dict[str, Any] | None = None
        self._too_large: int | None = None  # a row too large to send: nothing from it on is sent
        self._hub_online = False
        self._told_seq = -1
        self._told_at = 0.0
        self._told_readers: list[dict[str, Any]] = []
        self._last_status: LinkStatus | None = None
        self.client = make_client(url, f"marmite-table-{url.club}-{table}", ca_file=ca_file,
                                  will=(self.topics.status, b"offline"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._pump, name=f"club-link-{table}", daemon=True)

    def start(self) -> TableLink:
        connect_in_background(self.client, self.url)
        self._thread.start()
        return self

    def call_director(self) -> bool:
        """Publish "director called" (QoS 1; paho keeps it while the broker is out of reach)."""
        info = self.client.publish(self.topics.call, json.dumps({"table": self.table}), qos=1)
        return info.rc in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN)

    def journal_changed(self, *_: Any) -> None:
        """Wake the pump: the journal has a new row (a table-service listener; never blocks)."""
        self._wake.set()

    # ------------------------------------------------------------------ MQTT callbacks (paho's thread)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("club link: the broker refused table %d: %s", self.table, reason)
            return
        with self._lock:
            self._connected = True
            self._have_ack = False  # wait for the retained ack: it says where the hub stands
        client.subscribe([(self.topics.ack, 1), (self.topics.seating, 1), (self.topics.notice, 1),
                          (hub_status(self.url.club), 1), (self.topics.tapped, 1)])
        self._publish_presence()
        self._changed()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._lock:
            self._connected = False
            self._have_ack = False
        self._changed()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == hub_status(self.url.club):
            with self._lock:
                self._hub_online = message.payload == b"online"
            self._changed()
            return
        try:
            body = json.loads(message.payload)
        except ValueError:
            log.warning("club link: unreadable message on %s", message.topic)
            return
        if message.topic == self.topics.ack and isinstance(body, dict) and type(body.get("seq")) is int:
            foreign = self._foreign(body["seq"], body.get("digest"))
            with self._lock:
                self._acked = body["seq"]
                if foreign and not self._conflict:
                    self._conflict = True  # the pump says so in its presence, then leaves the broker
                    log.error("club link: the hub's row %d of table %d is not this journal's: another table "
                              "uses this join line; this table leaves the broker to it", self._acked, self.table)
                if self._acked > self.journal.last_seq and not self._conflict:
                    # The hub holds more of this table's rows than its journal has: another table uses this
                    # join line (or this table's data was replaced). Never "all sent", and nothing more sent.
                    self._conflict = True  # the pump says this table's length, then leaves the broker
                    log.error("club link: the hub holds %d rows of table %d but this journal has %d: another "
                              "table uses this join line; this table leaves the broker to it", self._acked,
                              self.table, self.journal.last_seq)
                if body.get("resend") or not self._have_ack or self._sent < self._acked:
                    self._sent = self._acked  # resume right after what the hub holds
                self._have_ack = True
            self._wake.set()
        elif message.topic == self.topics.notice and isinstance(body, dict):
            if self.on_notice is not None:
                self.on_notice(body)
        elif message.topic == self.topics.seating and isinstance(body, dict):
            with self._lock:
                self._seating = body
        self._changed()

    def _foreign(self, acked: int, digest: Any) -> bool:
        """Whether the hub's row `acked`, by the fingerprint its ack carries, is not this journal's row there
        (an older hub sends none: nothing is known)."""
        if not isinstance(digest, str) or not 1 <= acked <= self.journal.last_seq:
            return False
        record = next(iter(self.journal.records(after=acked - 1, limit=1)), None)
        if record is None or record.seq != acked:
            return False
        row = Row(self.table, record.seq, record.game, record.received_at, record.body, record.accepted,
                  record.reason, record.source)
        return row.digest() != digest

    def _publish_presence(self) -> mqtt.MQTTMessageInfo:
        """Online, and how long the journal is (the director's console shows what is still unsent); with
        "conflict" when the hub holds another table's rows under this table's number."""
        self._told_seq = self.journal.last_seq
        self._told_at = time.monotonic()
        self._told_readers = self._reader_report()
        presence: dict[str, Any] = {"state": "online", "last_seq": self._told_seq, "readers": self._told_readers}
        if self._conflict:
            presence["conflict"] = True
        body = json.dumps(presence, ensure_ascii=False)
        return self.client.publish(self.topics.status, body, qos=1, retain=True)

    def _reader_report(self) -> list[dict[str, Any]]:
        """The table's reader health as the console shows it (name, ok, state, detail), bounded."""
        if self.readers is None:
            return []
        return [reader_summary(health) for health in self.readers()[:MAX_READERS]]

    # ------------------------------------------------------------------ the pump

    def _pump(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(IDLE_SECONDS)
            self._wake.clear()
            if self._conflict:
                self._leave()
                return
            while not self._stop.is_set() and self._send_some():
                pass
            if self._connected and ((self.journal.last_seq != self._told_seq and
                                     time.monotonic() - self._told_at >= PRESENCE_SECONDS)
                                    or self._reader_report() != self._told_readers):
                self._publish_presence()

    def _send_some(self) -> bool:
        """Hand the next rows to paho; True when there may be more to send now."""
        with self._lock:
            if not (self._connected and self._have_ack) or self._conflict:
                return False
            start, limit = self._sent, min(BATCH, self._acked + WINDOW - self._sent)
            if self._too_large is not None:
                limit = min(limit, self._too_large - 1 - start)
        if limit <= 0 or start >= self.journal.last_seq:
            return False
        records = list(self.journal.records(after=start, limit=limit))
        for record in records:
            row = Row(self.table, record.seq, record.game, record.received_at, record.body, record.accepted,
                      record.reason, record.source)
            message = row.encoded()
            if len(message) > MAX_ROW_BYTES:
                # The broker would drop the connection for it, again at each reconnection, and the hub cannot
                # store the rows after it without it: never sent, the table says so (nothing skipped silently).
                log.error("club link: row %d is %d bytes, more than the hub takes (%d): results stop there",
                          record.seq, len(message), MAX_ROW_BYTES)
                with self._lock:
                    self._too_large = record.seq
                self._changed()
                return False
            info = self.client.publish(self.topics.events, message, qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS and info.rc != mqtt.MQTT_ERR_NO_CONN:
                log.warning("club link: cannot publish row %d: %s", record.seq, mqtt.error_string(info.rc))
                return False
            with self._lock:
                if self._sent != start:  # rewound meanwhile: start again from the ack
                    return True
                self._sent = start = record.seq
        self._changed()
        return bool(records)

    def _leave(self) -> None:
        """Another table uses this join line: say this journal's length (the hub's console names the table),
        then leave the broker for good. A client id is its user there: the two would push each other off
        every second, and the other table's results would stall too."""
        with contextlib.suppress(Exception):
            self._publish_presence().wait_for_publish(PRESENCE_SECONDS)
        self.client.disconnect()

    # ------------------------------------------------------------------ status

    def status(self) -> LinkStatus:
        with self._lock:
            return LinkStatus(self._connected, self._connected and self._hub_online, self._acked,
                              self.journal.last_seq, self._seating, self._conflict, self._too_large)

    def _changed(self) -> None:
        status = self.status()
        if self.on_status is not None and status != self._last_status:
            self._last_status = status
            self.on_status(status)

    def close(self) -> None:
        """Stop publishing and disconnect (the broker keeps the session); idempotent."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=2)
        self.client.disconnect()
        self.client.loop_stop()
