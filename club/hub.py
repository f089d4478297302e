"""The club hub: copies every table's journal rows into its store exactly once, acknowledges them (retained),
folds each table's games for the board, and publishes each table's next seating (retained).

Messages arrive on paho's thread and are queued; one writer thread stores a batch in one transaction, then
acknowledges it to the broker (manual acks: a row the hub never stored is redelivered) and to the tables.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt

from club.cards import CardError, MemberCards
from club.fold import Decisions, Played, has_robots, judge, lead_of, night_of
from club.games import ClubGames
from club.link import MAX_READERS, reader_summary
from club.mqtt import connect_in_background, make_client
from club.results import confirm_night, game_log, standings
from club.seating import History, SeatingError, seat_round
from club.store import MAX_SEQ, Row, Store, parse_row
from club.topics import (
    ClubURL,
    Topics,
    call_wildcard,
    events_wildcard,
    hub_status,
    status_wildcard,
    table_of,
    tap_wildcard,
)
from companion.confirmation import CONFIRM
from companion.decks import is_uid
from companion.events import EventShapes
from companion.referee import Referee
from companion.replay import replay
from companion.seam import Games
from companion.sides import note_types

log = logging.getLogger(__name__)

BATCH = 500
QUEUE_MESSAGES = 2 * BATCH  # messages received and not yet stored: at most MAX_ROW_BYTES each
BATCH_WAIT_SECONDS = 0.02
STORE_RETRY_MAX_SECONDS = 2.0
TICK_SECONDS = 2.0  # how often an idle writer says what a closed window of refusals left unsaid
QUEUE_WAIT_SECONDS = 0.5  # paho's thread, held by a full queue, looks this often whether the hub stops
LOUD_DETAIL_CHARS = 300
LOGIN_REPORT_SECONDS = 60.0
REFUSALS_SAID = 20  # per table and window: a flooding table is named, not echoed
REFUSAL_WINDOW_SECONDS = 10.0


@dataclass
class GameFold:
    """One table's game as the hub folded it so far."""

    table: int
    game: int
    referee: Referee
    events: int = 0
    refused: int = 0
    disagrees: str | None = None  # why the hub's referee disagrees with the table's verdict
    last_at: str = ""
    kind: str = ""
    players: list[str] = field(default_factory=list)
    verdict: tuple[str, str] | None = None  # (confirmed or disputed, by whom) from a seat's phone, standing
    started_at: str = ""
    lead: str | None = None  # who leads the first trick or plate
    robots: bool = False  # robot seats: shown, never counted

    @property
    def state(self) -> dict[str, Any]:
        return self.referee.public_state


@dataclass
class TableState:
    """What the hub knows of one table's link."""

    held: int = 0  # rows 1..held are stored
    digest: str = ""  # the fingerprint of row `held` (Row.digest), carried by the ack
    online: bool = False
    last_seq: int = 0  # the table's journal length, as its presence message last said
    called_at: str | None = None  # when the table last called the director (UTC), until answered
    last_stored: float = 0.0  # monotonic time of the newest row stored
    gap_reported: bool = False
    twice_reported: bool = False  # the console was told that two tables seem to share this table's join line
    duplicates: int = 0
    refused_messages: int = 0
    refusal_window_at: float = float("-inf")  # when the window of refusals said on the console began
    refusals_said: int = 0
    refusals_unsaid: int = 0
    games: list[int] = field(default_factory=list)
    readers: list[dict[str, Any]] = field(default_factory=list)  # the table's reader health, as it last said


class ClubHub:
    """The hub's service: store, folds, acks, seatings. `console` receives every loud line."""

    def __init__(self, store: Store, url: ClubURL, games: Games, *, tables: int = 0,
                 console: Callable[[str], None] = print) -> None:
        self.store = store
        self.url = url
        self.games = games
        self.club_games = ClubGames(games)
        self.shapes = EventShapes(games)
        self.notes = note_types(games)  # the side ledgers' notes: no action voids a confirmation
        self.console = console
        self.table_count = tables
        self.tables: dict[int, TableState] = {}
        self.folds: dict[tuple[int, int], GameFold] = {}
        self._lock = threading.RLock()
        # Bounded: a table flooding the hub stalls paho's reading (the broker keeps the rest), never the hub's
        # memory. (Mosquitto 2.0.11's in-flight window lets far more than 20 through once acks flow.)
        self._queue: queue.Queue[mqtt.MQTTMessage | None] = queue.Queue(maxsize=QUEUE_MESSAGES)
        self._listeners: list[Callable[[int], None]] = []
        self._changed = threading.Condition()
        self.version = 0
        for table in range(1, tables + 1):  # every table gets an ack, so a new one knows to start at 1
            self.tables[table] = TableState()
        for table, held in store.last_seqs().items():
            last = store.row(table, held)
            self.tables[table] = TableState(held=held, digest="" if last is None else last.digest())
        for row in store.rows():
            self._fold(row, quiet=True)
        self.client = make_client(url, f"marmite-hub-{url.club}", manual_ack=True,
                                  will=(hub_status(url.club), b"offline"))
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.cards = MemberCards(store.path)
        self.client.message_callback_add(tap_wildcard(url.club), self._on_tap)
        self._writer = threading.Thread(target=self._write_loop, name="club-writer", daemon=True)
        self._stopped = threading.Event()
        self._refused_logins = 0
        self._refused_said_at = float("-inf")

    def start(self) -> ClubHub:
        self._writer.start()
        connect_in_background(self.client, self.url)
        return self

    # ------------------------------------------------------------------ MQTT side

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.loud(None, "broker", f"the broker refused the hub: {reason}")
            return
        client.subscribe([(events_wildcard(self.url.club), 1), (status_wildcard(self.url.club), 1),
                          (call_wildcard(self.url.club), 1), (tap_wildcard(self.url.club), 1)])
        with self._lock:  # whatever the broker lost or the hub was restored from: each table resumes at our ack
            acks = {table: state.held for table, state in self.tables.items()}
        for table, held in acks.items():
            self._publish_ack(table, held, resend=True)
        for table, seating in self.store.seatings().items():
            client.publish(Topics(self.url.club, table).seating, json.dumps(self.cards.for_seating(table, seating)),
                           qos=1, retain=True)
        client.publish(hub_status(self.url.club), b"online", qos=1, retain=True)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """Queued for the writer; while the queue is full paho's reading waits, until the hub stops (the
        message is then left unacknowledged: the broker delivers it again)."""
        while not self._stopped.is_set():
            with contextlib.suppress(queue.Full):
                self._queue.put(message, timeout=QUEUE_WAIT_SECONDS)
                return

    def _publish_ack(self, table: int, held: int, *, resend: bool) -> None:
        """The table's head (retained), with the fingerprint of the row held there: a table whose own row
        differs knows another table's rows are stored under its number."""
        with self._lock:
            state = self.tables.get(table)
            digest = state.digest if state is not None and state.held == held else ""
        body: dict[str, Any] = {"seq": held, "resend": resend}
        if digest:
            body["digest"] = digest
        payload = json.dumps(body)
        self.client.publish(Topics(self.url.club, table).ack, payload, qos=1, retain=True)

    # ------------------------------------------------------------------ the writer

    def _write_loop(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=TICK_SECONDS)
            except queue.Empty:
                self.tick()
                continue
            if first is None:
                return
            batch, last = [first], False
            deadline = time.monotonic() + BATCH_WAIT_SECONDS
            while len(batch) < BATCH:
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is None:
                    last = True  # this batch, then stop (never a blocking put: paho may have filled the queue)
                    break
                batch.append(item)
            try:
                handled = self._handle(batch)
            except Exception as error:  # a bug, never a table's message: said, nothing acknowledged
                self.loud(None, "hub", f"a batch could not be handled: {type(error).__name__}: {error}")
                continue
            if not handled:
                return  # the hub stops with rows unstored: none acknowledged, the broker delivers them again
            for message in batch:  # each one stored, or refused for good: never before its batch is committed
                if message.qos > 0:
                    with contextlib.suppress(Exception):
                        self.client.ack(message.mid, message.qos)
            if last:
                return
            self.tick()

    def _handle(self, batch: list[mqtt.MQTTMessage]) -> bool:
        """Check each message on its own (a bad one is refused, naming its table), store the rows in one
        transaction (retried until stored), then move each table's head and acknowledge it to the table.
        False when the hub stops before the rows could be stored (nothing acknowledged)."""
        new: list[Row] = []
        resend: set[int] = set()
        heads: dict[int, int] = {}  # each table's head once this batch is stored
        called = False
        with self._lock:
            pending: dict[tuple[int, int], Row] = {}
            for message in batch:
                table = table_of(message.topic, self.url.club)
                if table is None:
                    continue
                state = self.tables.setdefault(table, TableState())
                try:
                    if message.topic.endswith("/status"):
                        self._presence(table, state, bytes(message.payload), live=not message.retain)
                        called = True  # the console shows presence, unsent rows and reader health
                        continue
                    if message.topic.endswith("/call"):
                        self._call(table, state)
                        called = True
                        continue
                    row = self._check(table, state, heads.get(table, state.held), bytes(message.payload), pending)
                except Exception as error:  # anything one message can raise is that message's refusal alone
                    row = None
                    self._refuse(table, state, f"message refused: {type(error).__name__}: {error}")
                if row is None:
                    if message.retain and message.payload:
                        # A retained message came back at the hub's subscription: cleared, so it never returns.
                        self.client.publish(message.topic, b"", qos=1, retain=True)
                    if state.gap_reported:
                        resend.add(table)
                    continue
                pending[(table, row.seq)] = row
                new.append(row)
                heads[table] = row.seq
        if new and not self._store(new):
            return False
        with self._lock:
            now = time.monotonic()
            for table, head in heads.items():
                self.tables[table].held = head
            for row in new:
                self.tables[row.table].digest = row.digest()  # in seq order: the last one is the head's
                self.tables[row.table].last_stored = now
                self.tables[row.table].gap_reported = False
                self._fold(row)
            touched = {row.table for row in new} | resend
            acks = {table: self.tables[table].held for table in touched}
        for table, held in acks.items():
            self._publish_ack(table, held, resend=table in resend)
        if new or resend or called:
            self.touch()
            for listener in list(self._listeners):
                listener(self.version)
        return True

    def _store(self, rows: list[Row]) -> bool:
        """Store `rows` in one transaction, retried while the store refuses (a full disk): nothing is
        acknowledged meanwhile. False if the hub stops first."""
        delay = 0.2
        failed = False
        while True:
            try:
                self.store.add(rows)
            except Exception as error:
                if not failed:
                    failed = True
                    self.loud(None, "store", f"rows not stored, none acknowledged; trying again: {error}")
                if self._stopped.wait(delay):
                    return False
                delay = min(2 * delay, STORE_RETRY_MAX_SECONDS)
                continue
            if failed:
                self.console("marmite club: hub: store: rows stored again")
            return True

    def _refuse(self, table: int, state: TableState, detail: str, *, kind: str = "malformed") -> None:
        """A message refused: said naming the table, at most REFUSALS_SAID times a window (a flooding table
        must not flood the console or the store), then how many more once the window has passed."""
        state.refused_messages += 1
        now = time.monotonic()
        if now - state.refusal_window_at >= REFUSAL_WINDOW_SECONDS:
            self._close_window(table, state)
            state.refusal_window_at = now
        if state.refusals_said < REFUSALS_SAID:
            state.refusals_said += 1
            self.loud(table, kind, detail)
        else:
            state.refusals_unsaid += 1

    def _call(self, table: int, state: TableState) -> None:
        """A table calls the director: said once until answered; calls again meanwhile go through the table's
        window of refusals (a table pressing it in a loop must not flood the console or the store)."""
        if state.called_at is None:
            self.console(f"marmite club: table {table}: the director is called")
        else:
            self._refuse(table, state, "the director is called again", kind="call")
        state.called_at = datetime.now(UTC).isoformat(timespec="seconds")

    def _close_window(self, table: int, state: TableState) -> None:
        """A window of refusals ends: how many were not said, if any."""
        if state.refusals_unsaid:
            self.loud(table, "malformed", f"{state.refusals_unsaid} more messages refused")
        state.refusals_said, state.refusals_unsaid = 0, 0

    def tick(self) -> None:
        """Say the refusals a window left unsaid once it has passed, without waiting for the next refusal
        (called every few seconds by the writer)."""
        now = time.monotonic()
        with self._lock:
            for table, state in self.tables.items():
                if state.refusals_unsaid and now - state.refusal_window_at >= REFUSAL_WINDOW_SECONDS:
                    self._close_window(table, state)

    def _presence(self, table: int, state: TableState, payload: bytes, *, live: bool) -> None:
        """A table's presence: b"offline" (its will), or {"state": "online", "last_seq": n}. Only a `live` one
        (published since the hub subscribed) is compared with the rows held: a retained one may be older
        than rows the table sent after it (its presence is throttled, its rows are not)."""
        try:
            body: Any = json.loads(payload) if payload.startswith(b"{") else {"state": payload.decode()}
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(body, dict):
            return
        state.online = body.get("state") == "online"
        last_seq = body.get("last_seq")
        if type(last_seq) is int and 0 <= last_seq <= MAX_SEQ:
            state.last_seq = last_seq
            if body.get("conflict") is True:
                self._twice(table, state, "the table found another table's rows stored under its number")
            elif live and last_seq < state.held:
                self._twice(table, state, f"the table says its journal has {last_seq} rows but the hub holds "
                                          f"{state.held} of table {table}'s")
            elif live:
                state.twice_reported = False  # resolved: a later conflict is said again
        readers = body.get("readers")
        if isinstance(readers, list):
            state.readers = [reader_summary(r) for r in readers[:MAX_READERS] if isinstance(r, dict)]

    def _twice(self, table: int, state: TableState, why: str) -> None:
        """Two tables seem to share table `table`'s join line: said once until it resolves."""
        if not state.twice_reported:
            state.twice_reported = True
            self.loud(table, "twice", f"{why}: two tables use table {table}'s join line (or its data was replaced)")

    def _check(self, table: int, state: TableState, held: int, payload: bytes,
               pending: dict[tuple[int, int], Row]) -> Row | None:
        """The row to store next, or None: a replay (ignored), a gap, a forgery or a malformed message (loud).
        `held` is the table's head counting the rows checked before in this batch."""
        try:
            row = parse_row(table, payload, self.shapes)
        except ValueError as error:
            self._refuse(table, state, f"message refused: {error}")
            return None
        if row.seq <= held:
            stored = pending.get((table, row.seq)) or self.store.row(table, row.seq)
            if stored is not None and stored.same_as(row):
                state.duplicates += 1  # a redelivery or a resend after a rewind: already counted once
            else:
                self._refuse(table, state, f"row {row.seq} differs from the one stored: refused", kind="forged")
            return None
        if row.seq > held + 1:
            if not state.gap_reported:
                state.gap_reported = True
                self.loud(table, "gap", f"row {row.seq} after {held}: asked the table to resend from {held + 1}")
            return None
        return row

    def _fold(self, row: Row, *, quiet: bool = False) -> None:
        if row.game is None:
            return
        key = (row.table, row.game)
        fold = self.folds.get(key)
        if fold is None:
            fold = self.folds[key] = GameFold(row.table, row.game, Referee(self.games))
            fold.started_at = row.received_at
            if row.event.get("type") == "new_game":
                fold.kind = str(row.event.get("game", self.games.default))
                players = row.event.get("players")
                fold.players = [str(name) for name in players] if isinstance(players, list) else []
                fold.lead = lead_of(row.event)
                fold.robots = has_robots(row.event)
            self.tables.setdefault(row.table, TableState()).games.append(row.game)
        if row.event.get("type") != CONFIRM and row.event.get("type") in self.shapes.types:
            fold.events += 1  # as the export counts its log: without the confirmations beside it
        fold.last_at = row.received_at
        try:
            outcome = fold.referee.apply(row.event)
            accepted = outcome.accepted
        except Exception as error:  # a malformed event inside a well-formed message
            accepted = False
            if fold.disagrees is None:
                fold.disagrees = f"row {row.seq} does not fold: {error}"
        if accepted:
            self._note_confirmation(fold, row)
        else:
            fold.refused += 1
        if accepted != row.accepted and fold.disagrees is None:
            fold.disagrees = (f"row {row.seq}: the table {'accepted' if row.accepted else 'refused'} it, the hub's "
                              f"referee {'accepts' if accepted else 'refuses'} it")
        if fold.disagrees is not None and not quiet and fold.disagrees.startswith(f"row {row.seq}"):
            self.loud(row.table, "disagrees", f"game {row.game}: {fold.disagrees}; left out of the standings")

    def _note_confirmation(self, fold: GameFold, row: Row) -> None:
        """A seat's confirmation stands until the next accepted action (an undo after the end)."""
        kind = row.event.get("type")
        if kind == CONFIRM:
            if row.source == "seat":
                fold.verdict = (str(row.event.get("verdict")), str(row.event.get("player")))
        elif kind not in self.notes:
            fold.verdict = None

    # ------------------------------------------------------------------ reading

    def loud(self, table: int | None, kind: str, detail: str) -> None:
        """A problem the director must see: on the console, in the log and in the store (the detail cut short
        and made printable: it may quote what a hostile table sent)."""
        detail = detail[:LOUD_DETAIL_CHARS].encode("utf-8", "backslashreplace").decode("utf-8")
        where = "hub" if table is None else f"table {table}"
        self.console(f"marmite club: {where}: {kind}: {detail}")
        log.warning("%s: %s: %s", where, kind, detail)
        self.store.problem(table, kind, detail)

    def login_refused(self) -> None:
        """The broker refused a login (a wrong user or password): said on the console at most once a minute,
        with how many since (a guesser must not flood the console or the store)."""
        now = time.monotonic()
        with self._lock:
            self._refused_logins += 1
            if now - self._refused_said_at < LOGIN_REPORT_SECONDS:
                return
            count, self._refused_logins, self._refused_said_at = self._refused_logins, 0, now
        self.loud(None, "login", f"the broker refused {count} login(s): a wrong user name or password")
        self.touch()

    def add_listener(self, listener: Callable[[int], None]) -> None:
        """Call `listener(version)` after each stored batch (on the writer thread; it must not block)."""
        self._listeners.append(listener)

    def wait_change(self, version: int, timeout: float) -> int:
        """Block until the hub's version passes `version` (or timeout); the version now."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout=timeout)
            return self.version

    def night_games(self) -> list[dict[str, Any]]:
        """The current night's games as the hub folded them, judged with the director's decisions (the same
        judgement as every export's, `club.fold.judge`)."""
        night, starts = self.store.night(), self.store.night_starts()
        with self._lock:
            played = [Played(table, game, fold.kind, fold.players, fold.started_at, fold.state, fold.verdict,
                             fold.disagrees, fold.lead, events=fold.events, robots=fold.robots)
                      for (table, game), fold in sorted(self.folds.items()) if night_of(table, game, starts) == night]
        return judge(played, Decisions.of(self.store), confirm_night(self.store), self.club_games.points)

    def board(self) -> dict[str, Any]:
        """What the wall screen and the director see: each table's state, the counted games, the standings."""
        rule = self.store.setting("scoring", "stars")
        judged = self.night_games()
        games = [{k: v for k, v in g.items() if k not in ("state", "seat_verdict")} for g in judged]
        now = datetime.now(UTC)
        with self._lock:
            tables = []
            for table, link in sorted(self.tables.items()):
                current = next((g for g in reversed(games) if g["table"] == table), None)
                last = self.folds.get((table, current["game"])) if current else None
                age = None
                if last is not None and last.last_at:
                    with contextlib.suppress(ValueError):
                        age = max(0, int((now - datetime.fromisoformat(last.last_at)).total_seconds()))
                tables.append({"table": table, "online": link.online, "held": link.held, "called": link.called_at,
                               "unsent": max(0, link.last_seq - link.held), "last_event_age": age,
                               "readers": list(link.readers) if link.online else [],
                               "current": current})
            version = self.version
        counted = [g for g in games if g["counted"]]
        return {"version": version, "rule": rule, "closed": self.store.setting("closed", "") == "yes",
                "confirm": confirm_night(self.store), "night": self.store.night(),
                "tables": tables, "games": games, "standings": standings(counted, rule)}

    def touch(self) -> None:
        """Something the board shows changed outside the tables (a decision, a setting): wake the pages."""
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def tell_table(self, table: int, notice: dict[str, Any]) -> None:
        """Send a director's decision to the table it is about (QoS 1: kept for a table out of reach)."""
        self.client.publish(Topics(self.url.club, table).notice, json.dumps(notice, ensure_ascii=False), qos=1)

    def answer_call(self, table: int) -> None:
        """The director went to the table that called."""
        with self._lock:
            if table in self.tables:
                self.tables[table].called_at = None
        self.touch()

    def held_all(self) -> dict[str, int]:
        """Per table, the last row stored (what a board client reads from the stream)."""
        with self._lock:
            return {str(table): state.held for table, state in self.tables.items()}

    def held(self, table: int) -> int:
        with self._lock:
            state = self.tables.get(table)
            return 0 if state is None else state.held

    def result(self, table: int, game: int) -> dict[str, Any]:
        """A table's game as `marmite replay` folds that table's export of it."""
        rows = game_log([row for row in self.store.rows(table) if row.game == game and
                         row.event.get("type") in self.shapes.types])  # an older hub kept any type
        return replay(enumerate((row.event for row in rows), start=1), self.games)

    def seat(self, table: int, seating: dict[str, Any]) -> None:
        """Keep and publish (retained) the next game's seating of a table."""
        seating = {**seating, "confirm": confirm_night(self.store)}
        self.store.save_seating(table, seating)
        self.client.publish(Topics(self.url.club, table).seating, json.dumps(self.cards.for_seating(table, seating)),
                            qos=1, retain=True)

    def next_seat(self, player: str) -> dict[str, Any] | None:
        """Where `player` sits in the next game as seated (table, seat from 1, round, game, dealer), or None."""
        for table, seating in sorted(self.store.seatings().items()):
            players = [str(name) for name in seating.get("players", [])]
            if player in players:
                return {"table": table, "seat": players.index(player) + 1, "round": seating.get("round"),
                        "game": seating.get("game"), "dealer": seating.get("dealer") == player}
        return None

    def seat_next_round(self, players: list[str], game: str, *, rules: dict[str, Any] | None = None,
                        seed: int | None = None) -> dict[str, Any]:
        """Seat the night's next game for the players present (from the night's earlier seatings) and publish
        each table's seating, retained; SeatingError when they cannot be seated at the tables there are."""
        history = History()
        for earlier in self.store.rounds():
            history.record(earlier["tables"], earlier["dealers"])
        seated = seat_round(players, history, random.Random(seed), sizes=self.club_games.sizes(game))
        if self.table_count and len(seated.tables) > self.table_count:
            raise SeatingError(f"{len(players)} players need {len(seated.tables)} tables; the club has "
                               f"{self.table_count}", "tables", players=len(players), needed=len(seated.tables),
                               tables=self.table_count)
        body = {"game": game, "tables": seated.tables, "dealers": seated.dealers, "rules": rules or {}}
        number = self.store.add_round(body)
        for index, (table, dealer) in enumerate(zip(seated.tables, seated.dealers, strict=True), start=1):
            self.seat(index, {"table": index, "round": number, "game": game, "players": table, "dealer": dealer,
                              "rules": rules or {}})
        self.touch()
        return {"round": number, **body}

    def open_next_night(self) -> int:
        """Close the night and open the next, empty: the games each table journals from now on are the new
        night's (its standings and exports start empty); the seatings are cleared, here and at the tables."""
        with self._lock:
            after = {table: max(state.held, state.last_seq) for table, state in self.tables.items()}
        seated = list(self.store.seatings())
        number = self.store.open_next_night(after)
        for table in seated:  # `{}`: no seating; a table's setup page then fills in nothing
            self.client.publish(Topics(self.url.club, table).seating, b"{}", qos=1, retain=True)
        self.console(f"marmite club: night {number} opened")
        self.touch()
        return number

    # ------------------------------------------------------------------ confirming nights

    def set_confirm_night(self, on: bool) -> None:
        """Whether a second seat confirms each game's final scores before they count; every table hears it
        in its retained seating (the only topic of the hub's it reads besides acks and notices)."""
        self.store.set_setting("confirm", "yes" if on else "")
        for table, seating in self.store.seatings().items():
            self.seat(table, seating)
        self.touch()

    def close(self) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        if self._writer.is_alive():
            with contextlib.suppress(queue.Full):  # a writer stopped on a store that refuses takes no more
                self._queue.put(None, timeout=5)
        self._writer.join(timeout=5)
        with contextlib.suppress(RuntimeError, ValueError):  # the broker already gone: nobody to tell
            self.client.publish(hub_status(self.url.club), b"offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()
        self.cards.close()
        self.store.close()

    # ------------------------------------------------------------------ members' cards

    def bind_card(self, player: str, uid: str) -> str:
        """Bind a member's card typed on the console (CardError, nothing changed, when refused); its UID.
        The table where the player sits is sent its seating again, with the new card's hash."""
        bound = self.cards.bind(player, uid, self.store.players())
        self.console(f"marmite club: {player}'s member card is bound")
        self.reseat_player(player)
        self.touch()
        return bound

    def reseat_player(self, player: str) -> None:
        for table, seating in self.store.seatings().items():
            if player in [str(name) for name in seating.get("players", [])]:
                self.seat(table, seating)

    def _on_tap(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """A card tapped at a table (paho's thread): answered on the table's own topic, then acknowledged."""
        try:
            table = table_of(message.topic, self.url.club)
            if table is not None:
                self._answer_tap(table, bytes(message.payload))
        except Exception as error:  # never lose paho's thread to one bad message
            self.loud(None, "card", f"a tapped card could not be handled: {error}")
        if message.qos > 0:
            with contextlib.suppress(Exception):
                client.ack(message.mid, message.qos)

    def _answer_tap(self, table: int, payload: bytes) -> None:
        try:
            body = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            body = None
        uid = body.get("uid") if isinstance(body, dict) else None
        if not isinstance(body, dict) or body.get("table") != table or not isinstance(uid, str) or \
                not is_uid(uid.lower()):
            with self._lock:  # in the table's window of refusals: a flood of taps is counted, not echoed
                self._refuse(table, self.tables.setdefault(table, TableState()),
                             "a tapped card's message was refused")
            return
        answer = self._tap_answer(table, uid.lower())
        self.client.publish(Topics(self.url.club, table).tapped, json.dumps(answer, ensure_ascii=False), qos=1)
        self.touch()

    def _tap_answer(self, table: int, uid: str) -> dict[str, Any]:
        """What the table says of a card tapped there: bound for the player awaited, else whose it is."""
        waiting = self.cards.take_waiting(table)
        if waiting is not None:
            try:
                self.bind_card(waiting.player, uid)
            except CardError as error:
                self.loud(table, "card", f"card tapped for {waiting.player} refused: {error}")
                if error.kind != "no_player":  # the director may tap the right card next
                    self.cards.wait_for_tap(table, waiting.player, self.store.players())
                return {"kind": "taken", "player": error.owner} if error.kind == "taken" else {"kind": "unknown"}
            self.console(f"marmite club: table {table}: {waiting.player}'s card tapped and bound")
            return {"kind": "bound", "player": waiting.player}
        owner = self.cards.owner(uid)
        if owner is None:
            return {"kind": "unknown"}
        seat = self.next_seat(owner)
        if seat is None:
            return {"kind": "not_seated", "player": owner}
        kind = "seat" if seat["table"] == table else "elsewhere"
        return {"kind": kind, "player": owner, "table": seat["table"], "seat": seat["seat"], "round": seat["round"]}
