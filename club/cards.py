"""Members' NFC cards at the hub: one card per player, one player per card, kept across nights.

A card is bound by typing its UID on the director's console, or by tapping it at a table's reader while the
director waits for it there. A table is sent, with its seating, a keyed hash of each seated player's card and
never a UID: it recognises its own players' cards and learns nothing of anyone else's.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.decks import is_uid

_SCHEMA = """
CREATE TABLE IF NOT EXISTS member_cards (
    uid         TEXT PRIMARY KEY,     -- the card's UID, lower-case hex (the decks' one UID rule)
    player      TEXT NOT NULL UNIQUE, -- one card per player, one player per card
    bound_at    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS member_card_secret (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    secret      TEXT NOT NULL         -- the hub's key for the hashes sent to tables; never leaves the hub
);
"""

HASH_HEX = 32
WAIT_SECONDS = 600.0
"""How long the hub waits for a card tapped at a table for a player the director chose."""


class CardError(ValueError):
    """A card the hub refuses to bind, with the reason a console shows: `kind` is not_a_uid, no_player, taken."""

    def __init__(self, kind: str, detail: str, owner: str | None = None) -> None:
        super().__init__(detail)
        self.kind = kind
        self.owner = owner


def normal_uid(text: str) -> str:
    """A typed UID as the decks write it: spaces and colons dropped, lower-case."""
    return "".join(ch for ch in text.strip() if ch not in " :-").lower()


def card_hash(key: str, uid: str) -> str:
    """The keyed hash a table compares a read with (hex); `key` is the seating's own key."""
    return hmac.new(bytes.fromhex(key), uid.lower().encode(), hashlib.sha256).hexdigest()[:HASH_HEX]


@dataclass(frozen=True, slots=True)
class Waiting:
    """The director waits for the next unknown card tapped at `table`, to bind it to `player`."""

    table: int
    player: str
    until: float


class MemberCards:
    """The card table of the hub's store (its own connection to the same SQLite file, WAL)."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._waiting: dict[int, Waiting] = {}
        row = self._db.execute("SELECT secret FROM member_card_secret WHERE id = 1").fetchone()
        if row is None:
            self._db.execute("INSERT OR IGNORE INTO member_card_secret VALUES (1, ?)", (secrets.token_hex(32),))
            row = self._db.execute("SELECT secret FROM member_card_secret WHERE id = 1").fetchone()
        self._secret = bytes.fromhex(str(row[0]))

    # ------------------------------------------------------------------ the card list

    def bind(self, player: str, uid_text: str, players: list[str]) -> str:
        """Bind the card `uid_text` to `player` (replacing the player's earlier card); its UID. CardError, with
        nothing changed, for a text that is not a UID, a player the club does not have, or a card bound to
        someone else."""
        uid = normal_uid(uid_text)
        if not is_uid(uid):
            raise CardError("not_a_uid", f"{uid_text[:40]!r} is not a tag's UID (4, 7 or 10 bytes in hex)")
        if player not in players:
            raise CardError("no_player", f"{player[:80]!r} is not one of the club's players")
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self._lock:
            owner = self._owner_locked(uid)
            if owner is not None and owner != player:
                raise CardError("taken", f"this card is {owner}'s already", owner)
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("DELETE FROM member_cards WHERE player = ?", (player,))
                self._db.execute("INSERT INTO member_cards VALUES (?, ?, ?)", (uid, player, now))
                self._db.execute("COMMIT")
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise
            self._waiting = {t: w for t, w in self._waiting.items() if w.player != player}
        return uid

    def unbind(self, player: str) -> bool:
        """Forget `player`'s card (a lost card); True when they had one."""
        with self._lock:
            return self._db.execute("DELETE FROM member_cards WHERE player = ?", (player,)).rowcount > 0

    def owner(self, uid: str) -> str | None:
        """The player a card is bound to, None for a card no one holds."""
        with self._lock:
            return self._owner_locked(uid.lower())

    def _owner_locked(self, uid: str) -> str | None:
        row = self._db.execute("SELECT player FROM member_cards WHERE uid = ?", (uid,)).fetchone()
        return None if row is None else str(row[0])

    def cards(self) -> dict[str, str]:
        """Player → card UID."""
        with self._lock:
            return {str(p): str(u) for u, p in self._db.execute("SELECT uid, player FROM member_cards")}

    # ------------------------------------------------------------------ waiting for a tap

    def wait_for_tap(self, table: int, player: str, players: list[str], *, seconds: float = WAIT_SECONDS) -> None:
        """The next unknown card tapped at `table` will be `player`'s (CardError for a player the club lacks)."""
        if player not in players:
            raise CardError("no_player", f"{player[:80]!r} is not one of the club's players")
        with self._lock:
            self._waiting[table] = Waiting(table, player, time.monotonic() + seconds)

    def waiting(self) -> list[Waiting]:
        """The taps the director waits for, by table (expired ones dropped)."""
        now = time.monotonic()
        with self._lock:
            self._waiting = {t: w for t, w in self._waiting.items() if w.until > now}
            return [self._waiting[t] for t in sorted(self._waiting)]

    def take_waiting(self, table: int) -> Waiting | None:
        """The tap awaited at `table`, now answered (None when none is awaited)."""
        now = time.monotonic()
        with self._lock:
            waiting = self._waiting.pop(table, None)
        return waiting if waiting is not None and waiting.until > now else None

    # ------------------------------------------------------------------ what a table is sent

    def seating_key(self, table: int, seating: dict[str, Any]) -> str:
        """The key of one table's seating (hex): it differs per table and per game, so hashes never link."""
        label = f"{table}/{seating.get('round')}/{seating.get('game')}".encode()
        return hmac.new(self._secret, label, hashlib.sha256).hexdigest()

    def for_seating(self, table: int, seating: dict[str, Any]) -> dict[str, Any]:
        """`seating` with what the table needs to recognise its seated players' cards: the seating's key and,
        per seat, the keyed hash of that player's card (None for a player without one). No UID, no one else."""
        players = [str(name) for name in seating.get("players", [])]
        cards = self.cards()
        key = self.seating_key(table, seating)
        hashes = [card_hash(key, cards[name]) if name in cards else None for name in players]
        if not any(hashes):
            return seating
        return {**seating, "cards": {"key": key, "seats": hashes}}

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()


def masked(uid: str) -> str:
    """A UID as the console shows it: its last four hex digits only."""
    return f"…{uid[-4:]}"
