"""The table journal: every event received, accepted or refused, in an append-only SQLite file.

WAL with synchronous=FULL and one explicit transaction per event: once `append` returns,
the event survives a crash or a power cut; a torn write never reaches committed history.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

JOURNAL_FILE = "marmite.sqlite3"
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq         INTEGER PRIMARY KEY,  -- strictly increasing, never reused
    game        INTEGER,              -- seq of the accepted new_game this event belongs to
    received_at TEXT NOT NULL,        -- UTC, ISO 8601
    type        TEXT NOT NULL,
    body        TEXT NOT NULL,        -- the event as received, compact JSON
    accepted    INTEGER NOT NULL CHECK (accepted IN (0, 1)),
    reason      TEXT,
    source      TEXT NOT NULL,
    tag         TEXT                  -- the physical card a reader saw, for reads (schema 2)
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game, seq);
CREATE INDEX IF NOT EXISTS new_games ON events (seq) WHERE type = 'new_game' AND accepted = 1;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_CURRENT_GAME = "SELECT MAX(seq) FROM events WHERE type = 'new_game' AND accepted = 1"


class JournalError(RuntimeError):
    """The journal cannot be opened or written; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class Record:
    """One journaled event."""

    seq: int
    game: int | None
    received_at: str
    body: dict[str, Any]
    accepted: bool
    reason: str | None
    source: str
    tag: str | None = None

    @property
    def line(self) -> str:
        """The event as one JSON Lines line (no newline)."""
        return encode_event(self.body)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game in the journal: its id (the seq of its new_game), start time and event count."""

    game: int
    started_at: str
    events: int
    players: list[str]


def encode_event(event: dict[str, Any]) -> str:
    """Compact, UTF-8 friendly JSON for one event."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


class Journal:
    """Append-only event store; safe to share between threads (one writer at a time)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
            self._check_version()
            row = self._db.execute("SELECT seq, received_at FROM events ORDER BY seq DESC LIMIT 1").fetchone()
            self._last_seq: int = row[0] if row else 0
            self._last_received_at: str | None = row[1] if row else None
            game_row = self._db.execute(_CURRENT_GAME).fetchone()
            self._game: int | None = game_row[0]
        except sqlite3.Error as error:
            raise JournalError(f"{path}: cannot open the journal: {error}") from error

    @classmethod
    def open(cls, data_dir: Path) -> Journal:
        """The journal of a data dir, created if needed."""
        return cls(data_dir / JOURNAL_FILE)

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] == "1":  # schema 1 had no tag column: add it, in one transaction
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("ALTER TABLE events ADD COLUMN tag TEXT")
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
            self._db.execute("COMMIT")
        elif row[0] != str(SCHEMA_VERSION):
            raise JournalError(f"{self.path}: journal schema {row[0]}, expected {SCHEMA_VERSION}")

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def last_received_at(self) -> str | None:
        """When the newest event was received (UTC, ISO 8601), None for an empty journal."""
        return self._last_received_at

    @property
    def current_game(self) -> int | None:
        """The id of the game events are now attributed to (None before any game)."""
        return self._game

    def append(
        self, event: dict[str, Any], accepted: bool, reason: str | None, source: str = "api",
        *, tag: str | None = None,
    ) -> int:
        """Durably record one event; returns its seq. An accepted new_game starts a new game."""
        body = encode_event(event)
        kind = str(event.get("type", ""))
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")  # takes the write lock: seq below is ours alone
                seq = (self._db.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0) + 1
                if seq != self._last_seq + 1:  # another process wrote: find its current game
                    self._game = self._db.execute(_CURRENT_GAME).fetchone()[0]
                game = seq if accepted and kind == "new_game" else self._game
                self._db.execute(
                    "INSERT INTO events (seq, game, received_at, type, body, accepted, reason, source, tag)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (seq, game, now, kind, body, int(accepted), reason, source, tag),
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"{self.path}: cannot record event: {error}") from error
            self._last_seq = seq
            self._game = game
            self._last_received_at = now
            return seq

    def records(self, game: int | None = None, after: int = 0) -> Iterator[Record]:
        """Records in seq order: all, or one game's; only those after `after`."""
        query = "SELECT seq, game, received_at, body, accepted, reason, source, tag FROM events WHERE seq > ?"
        params: list[Any] = [after]
        if game is not None:
            query += " AND game = ?"
            params.append(game)
        query += " ORDER BY seq"
        with self._lock:
            try:
                rows = self._db.execute(query, params).fetchall()
            except sqlite3.Error as error:
                raise JournalError(f"{self.path}: cannot read the journal: {error}") from error
        for seq, game_id, received_at, body, accepted, reason, source, tag in rows:
            yield Record(seq, game_id, received_at, json.loads(body), bool(accepted), reason, source, tag)

    def game_of(self, seq: int) -> int | None:
        """The game the event `seq` belongs to (None for events before any game, or no such event)."""
        with self._lock:
            row = self._db.execute("SELECT game FROM events WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else row[0]

    def games(self) -> list[GameSummary]:
        """Every game in the journal, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.seq, g.received_at, g.body, (SELECT COUNT(*) FROM events e WHERE e.game = g.seq)"
                " FROM events g WHERE g.type = 'new_game' AND g.accepted = 1 ORDER BY g.seq"
            ).fetchall()
        return [
            GameSummary(seq, at, count, list(json.loads(body).get("players", [])))
            for seq, at, body, count in rows
        ]

    def close(self) -> None:
        """Close the file; idempotent."""
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
