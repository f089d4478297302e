"""The table journal: every event received, accepted or refused, in an append-only SQLite file.

WAL with synchronous=FULL and one explicit transaction per event: once `append` returns,
the event survives a crash or a power cut; a torn write never reaches committed history.
A high-water mark kept beside the database (`marmite.mark`) records the last acknowledged
event and a digest of it, so a journal that lost acknowledged events (a torn or truncated
file, a zero-byte file, a damaged WAL) is refused at open instead of served as a shorter game.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

JOURNAL_FILE = "marmite.sqlite3"
MARK_FILE = "marmite.mark"
SCHEMA_VERSION = 4
RESTORE_HINT = ("restore the data dir from a backup, or move it aside and restore a game with "
                "`marmite import FILE` from an export")

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

# Schema 3: a finished game's summary, kept when the next game starts, so listing games never
# replays history; and the Idempotency-Key of each request that recorded an event.
_SCHEMA_3 = """
CREATE TABLE IF NOT EXISTS summaries (
    game        INTEGER PRIMARY KEY,  -- seq of the game's new_game
    started_at  TEXT NOT NULL,
    players     TEXT NOT NULL,        -- JSON list
    events      INTEGER NOT NULL,     -- events journaled in that game, refused ones included
    facts       TEXT NOT NULL         -- JSON object: the game's State.summary()
);
CREATE TABLE IF NOT EXISTS requests (
    key         TEXT PRIMARY KEY,     -- the client's Idempotency-Key
    seq         INTEGER NOT NULL      -- the event that request recorded
);
"""

# Schema 4: a game replaced by another can be resumed or closed later. A resumption makes an earlier game
# the current one again (events after it belong to that game); a closed game is marked abandoned.
_SCHEMA_4 = """
CREATE TABLE IF NOT EXISTS resumptions (
    id          INTEGER PRIMARY KEY,
    game        INTEGER NOT NULL,     -- seq of the new_game of the game made current again
    after_seq   INTEGER NOT NULL,     -- the journal's last seq when it was resumed
    at          TEXT NOT NULL         -- UTC, ISO 8601
);
CREATE TABLE IF NOT EXISTS abandoned (
    game        INTEGER PRIMARY KEY,  -- seq of the new_game of a game closed before its end
    at          TEXT NOT NULL
);
"""

_CURRENT_GAME = "SELECT MAX(seq) FROM events WHERE type = 'new_game' AND accepted = 1"
_LAST_RESUMPTION = "SELECT game, after_seq FROM resumptions ORDER BY id DESC LIMIT 1"
_ROW = "SELECT seq, received_at, body, accepted, reason, source, tag FROM events WHERE seq = ?"

# SQLite's primary result codes for storage trouble (sqlite3.Error.sqlite_errorcode & 0xff)
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


class JournalError(RuntimeError):
    """The journal cannot be opened or written; the message says which file and why."""


class StorageError(JournalError):
    """The disk refused a write: `kind` is "full", "read_only" or "io"; nothing was recorded."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


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
    status: str = "unfinished"
    """"current", "over", "abandoned" (closed before its end) or "unfinished" (replaced, can be resumed)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One event to record: its outcome, source, physical card, the request key, and the summary
    of the game it closes (an accepted new_game closes the game before it)."""

    event: dict[str, Any]
    accepted: bool
    reason: str | None
    source: str = "api"
    tag: str | None = None
    key: str | None = None
    closes: tuple[int, dict[str, Any]] | None = None
    outside: bool = False  # judged outside any game (an imported log's lines before its first new_game)


def encode_event(event: dict[str, Any]) -> str:
    """Compact, UTF-8 friendly JSON for one event."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def storage_kind(error: BaseException) -> str | None:
    """"full", "read_only" or "io" when `error` is the disk refusing a write, else None."""
    if isinstance(error, sqlite3.Error):
        code = (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF
        return {_SQLITE_FULL: "full", _SQLITE_READONLY: "read_only", _SQLITE_IOERR: "io",
                _SQLITE_CANTOPEN: "io"}.get(code)
    if isinstance(error, OSError):
        import errno

        return {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "read_only",
                errno.EACCES: "read_only", errno.EPERM: "read_only"}.get(error.errno or 0, "io")
    return None


def _digest(row: tuple[Any, ...]) -> str:
    """A digest of one events row as stored (seq, time, body, outcome, source, tag)."""
    return hashlib.sha256(json.dumps(list(row), ensure_ascii=False).encode()).hexdigest()[:32]


def _datasync(fd: int) -> None:
    """fdatasync where the system has it (the file's data, and its size when that changed), else fsync."""
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


class HighWaterMark:
    """The last acknowledged seq and its row's digest, in a small file beside the database.

    Two fixed 64-byte slots written in turn with a CRC each, then fdatasync: a torn write spoils
    at most the slot being written, and the other still holds the previous mark. Written after
    each commit, so it may lag the database by the event being acknowledged, never lead it.
    """

    SLOT = 64

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def read(self) -> tuple[int, str] | None:
        """The newest valid (seq, digest), None when there is no mark file; JournalError if unreadable."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise JournalError(f"{self.path}: cannot read the high-water mark: {error.strerror}") from error
        best: tuple[int, str] | None = None
        for start in range(0, len(data), self.SLOT):
            fields = data[start:start + self.SLOT].decode("ascii", "replace").split()
            if len(fields) != 3:
                continue
            seq, digest, crc = fields
            if f"{zlib.crc32(f'{seq} {digest}'.encode()):08x}" != crc or not seq.isdigit():
                continue
            if best is None or int(seq) > best[0]:
                best = (int(seq), digest)
        if best is None and data.strip(b"\0"):
            raise JournalError(f"{self.path}: the high-water mark is damaged; {RESTORE_HINT}")
        return best

    def write(self, seq: int, digest: str) -> None:
        """Record (seq, digest) durably in the slot of seq's parity."""
        text = f"{seq} {digest}"
        slot = f"{text} {zlib.crc32(text.encode()):08x}".ljust(self.SLOT - 1).encode() + b"\n"
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        os.lseek(self._fd, (seq % 2) * self.SLOT, os.SEEK_SET)
        os.write(self._fd, slot)
        _datasync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class Journal:
    """Append-only event store; safe to share between threads (one writer at a time).

    `writer=False` opens it for reading (export): the mark is checked but never written.
    """

    def __init__(self, path: Path, *, writer: bool = True) -> None:
        self.path = path
        self.writer = writer
        self._lock = threading.Lock()
        self._mark = HighWaterMark(path.with_name(MARK_FILE))
        mark = self._mark.read()
        if mark is not None and mark[0] > 0 and (not path.exists() or path.stat().st_size == 0):
            what = "missing" if not path.exists() else "empty (zero bytes)"
            raise JournalError(f"{path}: the journal file is {what} but {mark[0]} events were acknowledged;"
                               f" {RESTORE_HINT}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (sqlite3.Error, OSError) as error:
            raise JournalError(f"{path}: cannot open the journal: {error}") from error
        try:
            self._configure()
            self._db.executescript(_SCHEMA)
            self._check_version()
            row = self._db.execute("SELECT seq, received_at FROM events ORDER BY seq DESC LIMIT 1").fetchone()
            self._last_seq: int = row[0] if row else 0
            self._last_received_at: str | None = row[1] if row else None
            self._game: int | None = self._read_current_game()
            self._check_mark(mark)
        except sqlite3.Error as error:
            self._db.close()
            raise JournalError(f"{path}: cannot open the journal: {error}") from error
        except JournalError:
            self._db.close()
            raise

    @classmethod
    def open(cls, data_dir: Path, *, writer: bool = True) -> Journal:
        """The journal of a data dir, created if needed."""
        return cls(data_dir / JOURNAL_FILE, writer=writer)

    def _configure(self) -> None:
        """WAL and full sync, read back: a file system that cannot give them is refused."""
        self._db.execute("PRAGMA busy_timeout=5000")
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        self._db.execute("PRAGMA synchronous=FULL")
        synchronous = self._db.execute("PRAGMA synchronous").fetchone()[0]
        if str(mode).lower() != "wal" or synchronous != 2:
            raise JournalError(f"{self.path}: SQLite gave journal_mode={mode}, synchronous={synchronous}"
                               " instead of wal and 2 (FULL); put the data dir on a local disk")

    def _read_current_game(self) -> int | None:
        """The newest game started, unless an earlier one was resumed since."""
        newest = self._db.execute(_CURRENT_GAME).fetchone()[0]
        if not self._has_table("resumptions"):  # an older journal opened for reading
            return int(newest) if newest is not None else None
        resumed = self._db.execute(_LAST_RESUMPTION).fetchone()
        if resumed is not None and (newest is None or resumed[1] >= newest):
            return int(resumed[0])
        return int(newest) if newest is not None else None

    def _has_table(self, name: str) -> bool:
        return self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                (name,)).fetchone() is not None

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.executescript(_SCHEMA_3 + _SCHEMA_4)
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] in ("2", "3") and not self.writer:  # read as it is: reading never changes the file
            return
        elif row[0] in ("1", "2", "3"):  # add what later schemas have, in one transaction
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if row[0] == "1":
                    self._db.execute("ALTER TABLE events ADD COLUMN tag TEXT")
                for statement in (_SCHEMA_3 + _SCHEMA_4).split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        elif row[0] != str(SCHEMA_VERSION):
            raise JournalError(f"{self.path}: journal schema {row[0]}, expected {SCHEMA_VERSION}")

    def _check_mark(self, mark: tuple[int, str] | None) -> None:
        """Refuse a journal that lost events it once acknowledged; write the mark of an older one."""
        count = self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        if count != self._last_seq:
            raise JournalError(f"{self.path}: the journal holds {count} events but its last is number "
                               f"{self._last_seq}: events are missing; {RESTORE_HINT}")
        if mark is None:
            if self._last_seq and self.writer:  # a journal from before the mark: start keeping it
                self._write_mark(self._last_seq)
            return
        seq, digest = mark
        if seq > self._last_seq:
            raise JournalError(f"{self.path}: the journal ends at event {self._last_seq} but {seq} were "
                               f"acknowledged: it is torn, truncated or its WAL is damaged; {RESTORE_HINT}")
        row = self._db.execute(_ROW, (seq,)).fetchone()
        if seq and (row is None or _digest(row) != digest):
            raise JournalError(f"{self.path}: event {seq} differs from the one acknowledged: the journal is "
                               f"damaged; {RESTORE_HINT}")

    def _write_mark(self, seq: int, row: tuple[Any, ...] | None = None) -> None:
        """Move the high-water mark to `seq` (just committed, its row given or read back); a failure
        leaves it lagging, which is safe."""
        try:
            if row is None:
                row = self._db.execute(_ROW, (seq,)).fetchone()
            self._mark.write(seq, _digest(row))
        except (OSError, sqlite3.Error) as error:
            log.warning("%s: cannot move the high-water mark to %d: %s", self._mark.path, seq, error)

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
        *, tag: str | None = None, key: str | None = None, closes: tuple[int, dict[str, Any]] | None = None,
    ) -> int:
        """Durably record one event; returns its seq. An accepted new_game starts a new game."""
        return self.append_many([Entry(event, accepted, reason, source, tag, key, closes)])[0]

    def append_many(self, entries: Iterable[Entry]) -> list[int]:
        """Durably record events in one transaction (all or none); their seqs.

        StorageError when the disk refuses (full, read-only, I/O), JournalError for anything else
        (another process wrote to this journal, a value that cannot be stored): nothing recorded.
        """
        rows = []
        for entry in entries:
            try:
                body = encode_event(entry.event)
                body.encode("utf-8")  # a lone surrogate cannot be stored: refuse before writing
            except (ValueError, TypeError) as error:
                raise JournalError(f"{self.path}: cannot record event: {error}") from error
            rows.append((entry, body))
        if not self.writer:
            raise JournalError(f"{self.path}: opened for reading only")
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            game = self._game
            seqs: list[int] = []
            row: tuple[Any, ...] = ()
            try:
                self._db.execute("BEGIN IMMEDIATE")  # takes the write lock: seq below is ours alone
                last = self._db.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0
                if last != self._last_seq:
                    raise JournalError(
                        f"{self.path}: another process wrote to this journal (it ends at event {last}, this"
                        f" table expected {self._last_seq}); only one `marmite run` may serve a data dir")
                for offset, (entry, body) in enumerate(rows, start=1):
                    seq = last + offset
                    kind = str(entry.event.get("type", ""))
                    if entry.closes is not None:
                        self._insert_summary(*entry.closes)
                    if entry.accepted and kind == "new_game":
                        game = seq
                    self._db.execute(
                        "INSERT INTO events (seq, game, received_at, type, body, accepted, reason, source, tag)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (seq, None if entry.outside else game, now, kind, body, int(entry.accepted), entry.reason,
                         entry.source, entry.tag),
                    )
                    row = (seq, now, body, int(entry.accepted), entry.reason, entry.source, entry.tag)
                    if entry.key is not None:
                        self._db.execute("INSERT INTO requests (key, seq) VALUES (?, ?)", (entry.key, seq))
                    seqs.append(seq)
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                if isinstance(error, JournalError):
                    raise
                kind_of_trouble = storage_kind(error)
                if kind_of_trouble is not None:
                    raise StorageError(f"{self.path}: cannot record event: {error}", kind_of_trouble) from error
                if isinstance(error, sqlite3.Error | ValueError | TypeError):
                    raise JournalError(f"{self.path}: cannot record event: {error}") from error
                raise
            if seqs:
                self._last_seq = seqs[-1]
                self._game = game
                self._last_received_at = now
                self._write_mark(seqs[-1], row)
            return seqs

    def _insert_summary(self, game: int, facts: dict[str, Any]) -> None:
        """Keep a game's summary (inside the caller's transaction)."""
        row = self._db.execute("SELECT received_at, body FROM events WHERE seq = ?", (game,)).fetchone()
        if row is None:
            return
        count = self._db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (game,)).fetchone()[0]
        players = json.loads(row[1]).get("players", [])
        self._db.execute("INSERT OR REPLACE INTO summaries VALUES (?, ?, ?, ?, ?)",
                         (game, row[0], encode_event(players), count, encode_event(facts)))

    def keep_summaries(self, summaries: Iterable[tuple[int, dict[str, Any]]]) -> None:
        """Keep the summaries of finished games found without one (journals of schema 2)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for game, facts in summaries:
                    self._insert_summary(game, facts)
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise JournalError(f"{self.path}: cannot keep game summaries: {error}") from error
                raise

    def resume(self, game: int, closes: tuple[int, dict[str, Any]] | None) -> None:
        """Durably make `game` (an earlier game) the current one again, keeping the summary of the game
        it replaces (`closes`); a game closed as abandoned is open again. Events recorded from now on
        belong to `game`."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds")

        def change() -> None:
            if closes is not None:
                self._insert_summary(*closes)
            self._db.execute("DELETE FROM summaries WHERE game = ?", (game,))
            self._db.execute("DELETE FROM abandoned WHERE game = ?", (game,))
            self._db.execute("INSERT INTO resumptions (game, after_seq, at) VALUES (?, ?, ?)",
                             (game, self._last_seq, now))

        self._change("resume a game", change)
        self._game = game

    def abandon(self, game: int, facts: dict[str, Any]) -> None:
        """Durably mark an earlier game, not the current one, as closed before its end (abandoned),
        keeping its summary; nothing of its log changes."""
        if game == self._game:
            raise JournalError(f"{self.path}: game {game} is the current game; only an earlier game can be closed")
        now = datetime.now(UTC).isoformat(timespec="milliseconds")

        def change() -> None:
            self._insert_summary(game, facts)
            self._db.execute("INSERT OR REPLACE INTO abandoned (game, at) VALUES (?, ?)", (game, now))

        self._change("close a game", change)

    def _change(self, what: str, change: Any) -> None:
        """Run `change` in one durable transaction under the lock; StorageError/JournalError as append."""
        if not self.writer:
            raise JournalError(f"{self.path}: opened for reading only")
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                change()
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                kind_of_trouble = storage_kind(error)
                if kind_of_trouble is not None:
                    raise StorageError(f"{self.path}: cannot {what}: {error}", kind_of_trouble) from error
                if isinstance(error, sqlite3.Error):
                    raise JournalError(f"{self.path}: cannot {what}: {error}") from error
                raise

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Hold the lock for a read; the disk failing it is StorageError (a 503, announced), any other
        SQLite error JournalError: never a bare sqlite3 error."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as error:
                kind = storage_kind(error)
                if kind is not None:
                    raise StorageError(f"{self.path}: cannot read the journal: {error}", kind) from error
                raise JournalError(f"{self.path}: cannot read the journal: {error}") from error

    def abandoned_games(self) -> set[int]:
        """The games closed before their end."""
        with self._reading():
            if not self._has_table("abandoned"):
                return set()
            return {game for (game,) in self._db.execute("SELECT game FROM abandoned").fetchall()}

    def unsummarised_games(self) -> list[int]:
        """Finished games (not the current one) whose summary is not kept yet."""
        with self._reading():
            rows = self._db.execute(
                "SELECT seq FROM events WHERE type = 'new_game' AND accepted = 1"
                " AND seq NOT IN (SELECT game FROM summaries) ORDER BY seq").fetchall()
        return [seq for (seq,) in rows if seq != self._game]

    def summaries(self, *, before: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """The kept summaries of finished games (game, started_at, players and facts), oldest first:
        all, or the newest `limit` of those that started before game `before`."""
        with self._reading():
            rows = self._db.execute(
                "SELECT game, started_at, players, facts FROM summaries WHERE game < ? ORDER BY game DESC LIMIT ?",
                (before if before is not None else 2**63 - 1, limit if limit is not None else -1)).fetchall()
        abandoned = self.abandoned_games()
        return [{"game": game, "started_at": at, "players": json.loads(players), **json.loads(facts),
                 "abandoned": game in abandoned}
                for game, at, players, facts in reversed(rows)]

    def game_start(self, game: int) -> tuple[str, list[str]] | None:
        """When a game started and its players (from its new_game)."""
        with self._reading():
            row = self._db.execute("SELECT received_at, body FROM events WHERE seq = ?", (game,)).fetchone()
        return None if row is None else (row[0], list(json.loads(row[1]).get("players", [])))

    def answer_for(self, key: str) -> Record | None:
        """The event a request with this Idempotency-Key recorded, None for a new key."""
        with self._reading():
            row = self._db.execute("SELECT seq FROM requests WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        return next(iter(self.records(after=row[0] - 1, limit=1)), None)

    def records(self, game: int | None = None, after: int = 0, limit: int | None = None) -> Iterator[Record]:
        """Records in seq order: all, or one game's; only those after `after`."""
        query = "SELECT seq, game, received_at, body, accepted, reason, source, tag FROM events WHERE seq > ?"
        params: list[Any] = [after]
        if game is not None:
            query += " AND game = ?"
            params.append(game)
        query += " ORDER BY seq"
        if limit is not None:
            query += " LIMIT ?"
            params.append(limit)
        with self._reading():
            rows = self._db.execute(query, params).fetchall()
        for seq, game_id, received_at, body, accepted, reason, source, tag in rows:
            yield Record(seq, game_id, received_at, json.loads(body), bool(accepted), reason, source, tag)

    def first_game_from(self, seq: int) -> int | None:
        """The first game started at or after `seq`, None if none."""
        with self._reading():
            row = self._db.execute("SELECT MIN(seq) FROM events WHERE type = 'new_game' AND accepted = 1"
                                   " AND seq >= ?", (seq,)).fetchone()
        return None if row is None else row[0]

    def earliest_game_since(self, seq: int) -> int | None:
        """The earliest game any event from `seq` on belongs to (a resumed game's may be long before)."""
        with self._reading():
            row = self._db.execute("SELECT MIN(game) FROM events WHERE seq >= ?", (seq,)).fetchone()
        return None if row is None else row[0]

    def game_of(self, seq: int) -> int | None:
        """The game the event `seq` belongs to (None for events before any game, or no such event)."""
        with self._reading():
            row = self._db.execute("SELECT game FROM events WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else row[0]

    def games(self) -> list[GameSummary]:
        """Every game in the journal, oldest first."""
        with self._reading():
            rows = self._db.execute(
                "SELECT g.seq, g.received_at, g.body, (SELECT COUNT(*) FROM events e WHERE e.game = g.seq)"
                " FROM events g WHERE g.type = 'new_game' AND g.accepted = 1 ORDER BY g.seq"
            ).fetchall()
            phases: dict[int, Any] = {}
            if self._has_table("summaries"):
                phases = {game: json.loads(facts).get("phase")
                          for game, facts in self._db.execute("SELECT game, facts FROM summaries").fetchall()}
        abandoned = self.abandoned_games()

        def status(game: int) -> str:
            if game == self._game:
                return "current"
            if game in abandoned:
                return "abandoned"
            return "over" if phases.get(game) == "game_over" else "unfinished"

        return [
            GameSummary(seq, at, count, list(json.loads(body).get("players", [])), status(seq))
            for seq, at, body, count in rows
        ]

    def close(self) -> None:
        """Close the file; idempotent."""
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()
            self._mark.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
