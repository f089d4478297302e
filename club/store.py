"""The hub's own SQLite store: each table's journal rows, copied exactly once, and the problems seen.

A table is the only writer of its rows, so nothing is merged: the store holds, per table, rows 1..n with
no gap (`(table, seq)` is the primary key), and the hub acknowledges n. A row already held is a replay
(ignored) when equal, a forgery (refused, logged) when it differs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.events import MAX_EVENT_BYTES, MAX_EVENT_DEPTH, EventShapes, check_storable, strict_json

STORE_FILE = "club.sqlite3"
ROW_ENVELOPE_BYTES = 4 * 1024  # a row's fields beside its event: numbers, a time, a source, a refusal's reason
MAX_ROW_BYTES = MAX_EVENT_BYTES + ROW_ENVELOPE_BYTES  # the largest row message: table, hub and broker agree
MAX_SEQ = 2**63 - 1  # SQLite's largest integer
DIGEST_CHARS = 32

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rows (
    table_no    INTEGER NOT NULL,
    seq         INTEGER NOT NULL,     -- the table's journal seq
    game        INTEGER,              -- the table's game id (seq of its new_game)
    received_at TEXT NOT NULL,        -- when the table journaled it
    body        TEXT NOT NULL,        -- the event, compact JSON
    accepted    INTEGER NOT NULL CHECK (accepted IN (0, 1)),
    reason      TEXT,
    source      TEXT NOT NULL,
    stored_at   TEXT NOT NULL,
    PRIMARY KEY (table_no, seq)
);
CREATE TABLE IF NOT EXISTS problems (
    id          INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,
    table_no    INTEGER,
    kind        TEXT NOT NULL,        -- gap, forged, malformed, disagrees, ...
    detail      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key         TEXT PRIMARY KEY,     -- scoring, closed, ...
    value       TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    name        TEXT PRIMARY KEY,     -- kept across nights
    number      INTEGER
);
CREATE TABLE IF NOT EXISTS rounds (
    round       INTEGER PRIMARY KEY,  -- the night's games, as seated
    body        TEXT NOT NULL         -- {"game", "tables": [[names]], "dealers": [names]}
);
CREATE TABLE IF NOT EXISTS decisions (
    id          INTEGER PRIMARY KEY,  -- the director's journal: voids and corrections, never deleted
    at          TEXT NOT NULL,
    table_no    INTEGER NOT NULL,
    game        INTEGER NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('void', 'correct')),
    player      TEXT,
    stars       INTEGER,              -- a correction: the player's stars in that game
    who         TEXT NOT NULL,
    why         TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seatings (
    table_no    INTEGER PRIMARY KEY,
    body        TEXT NOT NULL         -- the retained seating message
);
CREATE TABLE IF NOT EXISTS withdrawn (
    kind        TEXT NOT NULL CHECK (kind IN ('decision', 'vouch')),
    id          INTEGER NOT NULL,     -- a decision's or a vouch's id: withdrawn, never deleted
    at          TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE TABLE IF NOT EXISTS nights (
    night       INTEGER PRIMARY KEY,  -- 1, 2, ...: the hub reused week after week
    opened_at   TEXT NOT NULL,
    closed_at   TEXT                  -- "Clore la soirée"; the next night opens when the director asks
);
CREATE TABLE IF NOT EXISTS night_starts (
    night       INTEGER NOT NULL,
    table_no    INTEGER NOT NULL,
    after_seq   INTEGER NOT NULL,     -- the night holds this table's games started after this seq
    PRIMARY KEY (night, table_no)
);
CREATE TABLE IF NOT EXISTS past_rounds (
    night       INTEGER NOT NULL,     -- an earlier night's seatings, moved out of `rounds` at its end
    round       INTEGER NOT NULL,
    body        TEXT NOT NULL,
    PRIMARY KEY (night, round)
);
CREATE TABLE IF NOT EXISTS vouches (
    id          INTEGER PRIMARY KEY,  -- the director confirmed a game's final scores (a confirming night)
    at          TEXT NOT NULL,
    table_no    INTEGER NOT NULL,
    game        INTEGER NOT NULL,
    who         TEXT NOT NULL,
    why         TEXT NOT NULL
);
"""


class StoreError(RuntimeError):
    """The hub's store cannot be opened or written."""


@dataclass(frozen=True, slots=True)
class Row:
    """One table's journal row as the hub keeps it."""

    table: int
    seq: int
    game: int | None
    received_at: str
    event: dict[str, Any]
    accepted: bool
    reason: str | None
    source: str

    @classmethod
    def from_message(cls, table: int, message: dict[str, Any]) -> Row:
        """The row a table published; ValueError naming what is wrong with a malformed one."""
        try:
            row = cls(table, message["seq"], message["game"], message["received_at"], message["event"],
                      message["accepted"], message["reason"], message["source"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"missing field {error}") from None
        if message.get("table") != table:
            raise ValueError(f"says table {message.get('table')!r} on table {table}'s topic")
        if type(row.seq) is not int or not 1 <= row.seq <= MAX_SEQ:
            raise ValueError(f"seq {row.seq!r} is not a positive integer")
        if row.game is not None and (type(row.game) is not int or not 1 <= row.game <= row.seq):
            raise ValueError(f"game {row.game!r} is not a seq at or before {row.seq}")
        if not isinstance(row.event, dict) or not isinstance(row.event.get("type"), str):
            raise ValueError("its event is not an object with a type")
        if type(row.accepted) is not bool or not isinstance(row.received_at, str) or \
                not isinstance(row.source, str) or not (row.reason is None or isinstance(row.reason, str)):
            raise ValueError("accepted, received_at, reason or source has the wrong type")
        return row

    def encoded(self) -> bytes:
        """The message a table publishes for this row: compact UTF-8 JSON (at most MAX_ROW_BYTES for any
        event the table accepts)."""
        return _encode(self.as_message()).encode("utf-8")

    def as_message(self) -> dict[str, Any]:
        """The JSON object a table publishes for this row."""
        return {"table": self.table, "seq": self.seq, "game": self.game, "received_at": self.received_at,
                "event": self.event, "accepted": self.accepted, "reason": self.reason, "source": self.source}

    def same_as(self, other: Row) -> bool:
        return self.as_message() == other.as_message()

    def digest(self) -> str:
        """A short fingerprint of this row's content: the hub's ack carries the one of the row it holds last, so
        a table resuming there proves the hub holds its own rows, not another table's on the same join line."""
        text = json.dumps(self.as_message(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_CHARS]


def parse_row(table: int, payload: bytes, shapes: EventShapes) -> Row:
    """The row in a message on table `table`'s topic, strictly; ValueError saying why when it is not one the
    hub may store: too large, not UTF-8 JSON, NaN, too deep, a lone surrogate, an event the games do not know."""
    if len(payload) > MAX_ROW_BYTES:
        raise ValueError(f"{len(payload)} bytes, more than a row's {MAX_ROW_BYTES}")
    message = strict_json(payload, MAX_ROW_BYTES)  # MalformedEvent, a ValueError, says why it is not one
    if not isinstance(message, dict):
        raise ValueError("not a JSON object")
    row = Row.from_message(table, message)
    check_storable(row.event)  # finite, valid Unicode, at most MAX_EVENT_DEPTH deep and MAX_EVENT_BYTES
    shapes.event_type(row.event)
    try:
        _encode(row.as_message()).encode("utf-8")
    except (ValueError, RecursionError):
        raise ValueError(f"its fields are not plain JSON (nested more than {MAX_EVENT_DEPTH} deep?)") from None
    except UnicodeEncodeError:
        raise ValueError("a field holds a lone surrogate (not valid Unicode)") from None
    return row


def _encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Store:
    """The hub's SQLite file (WAL, synchronous FULL): a row is durable before it is acknowledged."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"{path}: cannot open the club store: {error}") from error

    @classmethod
    def open(cls, data_dir: Path) -> Store:
        return cls(data_dir / STORE_FILE)

    def last_seqs(self) -> dict[int, int]:
        """Per table, the last seq held (rows 1..n, no gap)."""
        with self._lock:
            return dict(self._db.execute("SELECT table_no, MAX(seq) FROM rows GROUP BY table_no").fetchall())

    def row(self, table: int, seq: int) -> Row | None:
        rows = list(self.rows(table, after=seq - 1, limit=1))
        return rows[0] if rows and rows[0].seq == seq else None

    def add(self, rows: Iterable[Row]) -> None:
        """Durably store new rows (the caller checked they follow on, in one transaction)."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        values = [(r.table, r.seq, r.game, r.received_at, _encode(r.event), int(r.accepted), r.reason, r.source, now)
                  for r in rows]
        if not values:
            return
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
                self._db.execute("COMMIT")
            except Exception as error:  # a full disk, or any row it cannot take: the transaction is left clean
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise StoreError(f"{self.path}: cannot store rows: {error}") from error

    def rows(self, table: int | None = None, *, after: int = 0, limit: int | None = None) -> Iterator[Row]:
        """Rows in (table, seq) order: all, or one table's after `after`."""
        query = "SELECT table_no, seq, game, received_at, body, accepted, reason, source FROM rows WHERE seq > ?"
        params: list[Any] = [after]
        if table is not None:
            query += " AND table_no = ?"
            params.append(table)
        query += " ORDER BY table_no, seq LIMIT ?"
        params.append(limit if limit is not None else -1)
        with self._lock:
            fetched = self._db.execute(query, params).fetchall()
        for table_no, seq, game, received_at, body, accepted, reason, source in fetched:
            yield Row(table_no, seq, game, received_at, json.loads(body), bool(accepted), reason, source)

    def problem(self, table: int | None, kind: str, detail: str) -> None:
        """Keep a problem for the director's console."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.execute("INSERT INTO problems (at, table_no, kind, detail) VALUES (?, ?, ?, ?)",
                             (now, table, kind, detail))

    def problems(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest problems, newest first."""
        with self._lock:
            fetched = self._db.execute("SELECT at, table_no, kind, detail FROM problems ORDER BY id DESC LIMIT ?",
                                       (limit,)).fetchall()
        return [{"at": at, "table": table, "kind": kind, "detail": detail} for at, table, kind, detail in fetched]

    def save_seating(self, table: int, body: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO seatings VALUES (?, ?)", (table, _encode(body)))

    def seatings(self) -> dict[int, dict[str, Any]]:
        with self._lock:
            fetched = self._db.execute("SELECT table_no, body FROM seatings").fetchall()
        return {table: json.loads(body) for table, body in fetched}

    def setting(self, key: str, default: str) -> str:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def players(self) -> list[str]:
        """The club's players, kept across nights (by number, then name)."""
        with self._lock:
            return [name for (name,) in self._db.execute("SELECT name FROM players ORDER BY number, name")]

    def numbered_players(self) -> list[tuple[int, str]]:
        """The club's players with their numbers (what a player types on their phone's page)."""
        with self._lock:
            return [(int(n), str(name)) for name, n in
                    self._db.execute("SELECT name, number FROM players ORDER BY number, name")]

    def player(self, number: int) -> str | None:
        """The name of the club's player `number`, None when no player has it."""
        with self._lock:
            row = self._db.execute("SELECT name FROM players WHERE number = ?", (number,)).fetchone()
        return None if row is None else str(row[0])

    def add_players(self, names: Iterable[str]) -> None:
        with self._lock:
            start = self._db.execute("SELECT COALESCE(MAX(number), 0) FROM players").fetchone()[0]
            for offset, name in enumerate(names, start=1):
                self._db.execute("INSERT OR IGNORE INTO players VALUES (?, ?)", (name, start + offset))

    def add_round(self, body: dict[str, Any]) -> int:
        """Keep the next round's seating; its number."""
        with self._lock:
            number = int(self._db.execute("SELECT COALESCE(MAX(round), 0) + 1 FROM rounds").fetchone()[0])
            self._db.execute("INSERT INTO rounds VALUES (?, ?)", (number, _encode(body)))
            return number

    def rounds(self) -> list[dict[str, Any]]:
        with self._lock:
            fetched = self._db.execute("SELECT round, body FROM rounds ORDER BY round").fetchall()
        return [{"round": number, **json.loads(body)} for number, body in fetched]

    def decide(self, table: int, game: int, kind: str, who: str, why: str, *, player: str | None = None,
               stars: int | None = None) -> None:
        """Journal a director's decision (void a game, or correct a player's stars) with who and why."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT INTO decisions (at, table_no, game, kind, player, stars, who, why)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (now, table, game, kind, player, stars, who, why))

    def decisions(self) -> list[dict[str, Any]]:
        """The director's voids and corrections still standing (withdrawn ones left out), oldest first."""
        with self._lock:
            fetched = self._db.execute("SELECT id, at, table_no, game, kind, player, stars, who, why FROM decisions"
                                       " WHERE id NOT IN (SELECT id FROM withdrawn WHERE kind = 'decision')"
                                       " ORDER BY id").fetchall()
        keys = ("id", "at", "table", "game", "kind", "player", "stars", "who", "why")
        return [dict(zip(keys, row, strict=True)) for row in fetched]

    def withdraw(self, kind: str, number: int) -> bool:
        """Withdraw a standing decision ("decision") or director's confirmation ("vouch"); False when there is
        none standing with that id (nothing changed)."""
        table = {"decision": "decisions", "vouch": "vouches"}[kind]
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            if self._db.execute(f"SELECT 1 FROM {table} WHERE id = ?", (number,)).fetchone() is None:
                return False
            return self._db.execute("INSERT OR IGNORE INTO withdrawn VALUES (?, ?, ?)",
                                    (kind, number, now)).rowcount == 1

    def vouch(self, table: int, game: int, who: str, why: str) -> None:
        """Journal that the director confirmed a game's final scores, with who and why (never deleted)."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("INSERT INTO vouches (at, table_no, game, who, why) VALUES (?, ?, ?, ?, ?)",
                             (now, table, game, who, why))

    def vouches(self) -> list[dict[str, Any]]:
        """The director's confirmations, as decisions of kind "confirm" (oldest first)."""
        with self._lock:
            fetched = self._db.execute("SELECT id, at, table_no, game, who, why FROM vouches WHERE id NOT IN"
                                       " (SELECT id FROM withdrawn WHERE kind = 'vouch') ORDER BY id").fetchall()
        return [{"id": number, "at": at, "table": table, "game": game, "kind": "confirm", "player": None,
                 "stars": None, "who": who, "why": why} for number, at, table, game, who, why in fetched]

    # ---------------------------------------------------------------- nights

    def night(self) -> int:
        """The current night's number (1 for a hub that never opened a next one)."""
        with self._lock:
            return int(self._db.execute("SELECT COALESCE(MAX(night), 1) FROM nights").fetchone()[0])

    def nights(self) -> list[dict[str, Any]]:
        """Every night the hub held, oldest first: number, opened_at, closed_at (None while open)."""
        with self._lock:
            fetched = self._db.execute("SELECT night, opened_at, closed_at FROM nights ORDER BY night").fetchall()
        if not fetched:
            return [{"night": 1, "opened_at": None, "closed_at": None}]
        return [{"night": n, "opened_at": opened, "closed_at": closed} for n, opened, closed in fetched]

    def night_starts(self) -> dict[int, dict[int, int]]:
        """Per night (from 2), per table, the seq after which that night's games start."""
        with self._lock:
            fetched = self._db.execute("SELECT night, table_no, after_seq FROM night_starts").fetchall()
        starts: dict[int, dict[int, int]] = {}
        for night, table, after in fetched:
            starts.setdefault(int(night), {})[int(table)] = int(after)
        return starts

    def open_next_night(self, after: dict[int, int]) -> int:
        """Close the current night and open the next, empty: its games are each table's after `after[table]`
        (what the table has journaled so far); the night's seatings move to `past_rounds`. Its number."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                current = int(self._db.execute("SELECT COALESCE(MAX(night), 1) FROM nights").fetchone()[0])
                self._db.execute("INSERT OR IGNORE INTO nights VALUES (?, COALESCE((SELECT MIN(stored_at) FROM rows),"
                                 " ?), NULL)", (current, now))
                self._db.execute("UPDATE nights SET closed_at = COALESCE(closed_at, ?) WHERE night = ?",
                                 (now, current))
                number = current + 1
                self._db.execute("INSERT INTO nights VALUES (?, ?, NULL)", (number, now))
                self._db.executemany("INSERT INTO night_starts VALUES (?, ?, ?)",
                                     [(number, table, seq) for table, seq in sorted(after.items())
                                      if type(table) is int and type(seq) is int and 0 <= seq <= MAX_SEQ])
                self._db.execute("INSERT INTO past_rounds SELECT ?, round, body FROM rounds", (current,))
                self._db.execute("DELETE FROM rounds")
                self._db.execute("DELETE FROM seatings")
                self._db.execute("DELETE FROM settings WHERE key = 'closed'")
                self._db.execute("COMMIT")
            except Exception as error:  # never a transaction left open, whatever failed
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise StoreError(f"{self.path}: cannot open the next night: {error}") from error
            return number

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()
