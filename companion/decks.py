"""Physical decks: which tag UID is which card, several named decks per data dir, one active.

A deck's portable form is the contract's deck file (`uid,card` CSV). In the data dir, decks live
in `decks/`: one deck file each and `decks.json` naming them, the active one and when each was
last checked. A `tags.json` left by an older Marmite becomes the first deck.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

DECKS_DIR = "decks"
INDEX_FILE = "decks.json"
LEGACY_TAGS_FILE = "tags.json"
FIRST_DECK = "main"
HEADER = ("uid", "card")
UID_PATTERN = re.compile(r"[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20}")
NAME_PATTERN = re.compile(r"[^\W][\w .'-]{0,39}")
DEFAULT_EDITION = "2005"
EDITION_PATTERN = re.compile(r"[0-9]{4}")


class DeckError(ValueError):
    """A deck file or a deck operation we refuse; the message names the row or the deck."""


UID_RULE = "a tag's UID is 8, 14 or 20 hexadecimal digits (4, 7 or 10 bytes)"
"""The one rule for a tag's UID, everywhere one enters: a drop, an enrollment, a deck file."""


def is_uid(text: str) -> bool:
    """True for a UID as a deck file writes it: lower-case hex of 4, 7 or 10 bytes."""
    return UID_PATTERN.fullmatch(text) is not None


def parse_deck_file(text: str, codes: Collection[str]) -> dict[str, str]:
    """The uid → card map of a deck file; DeckError naming the first bad row (the file is refused whole)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    rows = list(csv.reader(io.StringIO(text, newline="")))
    while rows and rows[-1] == []:  # blank lines an editor leaves at the end are no rows
        rows.pop()
    if not rows or tuple(cell.strip() for cell in rows[0]) != HEADER:
        raise DeckError("row 1: the first line must be the header uid,card")
    mapping: dict[str, str] = {}
    row_of_card: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            raise DeckError(f"row {number}: expected two fields uid,card, got {len(row)}")
        uid, code = row
        if not is_uid(uid):
            raise DeckError(f"row {number}: {uid!r} is not a UID (lower-case hex, 8, 14 or 20 digits)")
        if code not in codes:
            raise DeckError(f"row {number}: {code!r} is not a card code")
        if uid in mapping:
            raise DeckError(f"row {number}: UID {uid} is already on an earlier row")
        if code in row_of_card:
            raise DeckError(f"row {number}: card {code} is already on row {row_of_card[code]}")
        mapping[uid] = code
        row_of_card[code] = number
    return mapping


def format_deck_file(mapping: Mapping[str, str], order: Collection[str] = ()) -> str:
    """A deck file for this map, rows in `order` of cards (box order), then any others by card."""
    rank = {code: index for index, code in enumerate(order)}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for uid, code in sorted(mapping.items(), key=lambda item: (rank.get(item[1], len(rank)), item[1])):
        writer.writerow((uid, code))
    return out.getvalue()


@dataclass
class DeckInfo:
    """One deck of the data dir: its name, its file, and when it last passed a deck check."""

    name: str
    file: str
    checked_at: str | None = None
    self_describing: bool = False
    edition: str = DEFAULT_EDITION  # whose card names the deck's cards carry (a game's edition)
    uid_format: str | None = None  # how its UIDs were read: "uid" (whole), or a keyboard wedge's format

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "file": self.file, "checked_at": self.checked_at,
                "self_describing": self.self_describing, "edition": self.edition, "uid_format": self.uid_format}


@dataclass
class DeckIndex:
    """decks.json: every deck and which one is active."""

    active: str
    decks: list[DeckInfo] = field(default_factory=list)

    def find(self, name: str) -> DeckInfo | None:
        return next((deck for deck in self.decks if deck.name == name), None)


class DeckStore:
    """The decks of one data dir. Every write is atomic (temp file, fsync, rename)."""

    def __init__(self, data_dir: Path, codes: Collection[str]) -> None:
        self.data_dir = data_dir
        self.codes = frozenset(codes)
        self.folder = data_dir / DECKS_DIR

    # ------------------------------------------------------------------ reading

    def index(self) -> DeckIndex:
        """decks.json, made (with the migrated tags.json, or an empty first deck) if absent."""
        path = self.folder / INDEX_FILE
        if not path.exists():
            return DeckIndex(FIRST_DECK, [DeckInfo(FIRST_DECK, "1.csv")])
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            decks = [DeckInfo(str(d["name"]), str(d["file"]), d.get("checked_at"), bool(d.get("self_describing")),
                              str(d.get("edition", DEFAULT_EDITION)),
                              str(d["uid_format"]) if d.get("uid_format") else None) for d in raw["decks"]]
            index = DeckIndex(str(raw["active"]), decks)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
            raise DeckError(f"{path}: not a valid deck index: {error}") from error
        if index.find(index.active) is None:
            raise DeckError(f"{path}: the active deck {index.active!r} is not listed")
        return index

    def names(self) -> list[str]:
        return [deck.name for deck in self.index().decks]

    def active_name(self) -> str:
        return self.index().active

    def load(self, name: str | None = None) -> dict[str, str]:
        """The uid → card map of deck `name` (default the active one)."""
        index = self.index()
        info = index.find(name or index.active)
        if info is None:
            raise DeckError(f"no deck named {name!r}")
        path = self.folder / info.file
        if not path.exists():
            return self._legacy() if info.name == FIRST_DECK and not (self.folder / INDEX_FILE).exists() else {}
        try:
            return parse_deck_file(path.read_text(encoding="utf-8"), self.codes)
        except (DeckError, UnicodeDecodeError) as error:
            raise DeckError(f"{path}: {error}") from error

    def _legacy(self) -> dict[str, str]:
        """tags.json of an older Marmite (uid → card), read once to become the first deck."""
        path = self.data_dir / LEGACY_TAGS_FILE
        if not path.exists():
            return {}
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
                raise ValueError("expected an object of uid → code strings")
        except (ValueError, UnicodeDecodeError) as error:
            raise DeckError(f"{path}: not a valid tag map: {error}") from error
        unknown = [code for code in raw.values() if code not in self.codes]
        if unknown:
            raise DeckError(f"{path}: {unknown[0]!r} is not a card code")
        return {uid.lower(): code for uid, code in raw.items()}

    def info(self, name: str | None = None) -> DeckInfo:
        index = self.index()
        found = index.find(name or index.active)
        if found is None:
            raise DeckError(f"no deck named {name!r}")
        return found

    # ------------------------------------------------------------------ writing

    def save(self, mapping: Mapping[str, str], name: str | None = None) -> None:
        """Write deck `name` (default the active one), keeping its check date only if unchanged."""
        for uid, code in mapping.items():
            if code not in self.codes:
                raise DeckError(f"{code!r} is not a card code")
            if not is_uid(uid):
                raise DeckError(f"{uid!r} is not a UID: {UID_RULE}")
        if len(set(mapping.values())) != len(mapping):
            raise DeckError("a card is named by two tags")
        index = self.index()
        info = index.find(name or index.active)
        if info is None:
            raise DeckError(f"no deck named {name!r}")
        if self.load(info.name) != dict(mapping):
            info.checked_at = None
        self._write(self.folder / info.file, format_deck_file(mapping, sorted(self.codes)))
        self._write_index(index)

    def set_aside_unreadable(self) -> tuple[str, str] | None:
        """Move an unreadable deck index or active deck file aside (renamed, never deleted) so the table
        can start without it: (the name it was set aside as, what was wrong and where it went), None when
        the decks read fine."""
        said: list[str] = []
        name = ""
        for _ in range(3):  # the index, then the active deck's file, then the first deck's
            try:
                self.load()
                break
            except DeckError as error:
                path = self.folder / INDEX_FILE
                with contextlib.suppress(DeckError):
                    path = self.folder / self.info().file
                if not path.exists():
                    return path.name, f"{error} (the file could not be set aside)"
                aside = path.with_name(f"{path.name}.unreadable-{datetime.now(UTC):%Y%m%dT%H%M%S}")
                os.replace(path, aside)
                name = aside.name
                said.append(f"{error}; set aside as {aside}")
        return (name, "; ".join(said)) if said else None

    def import_file(self, text: str) -> dict[str, str]:
        """Make a deck file's content the active deck; DeckError (nothing changed) for a bad file."""
        mapping = parse_deck_file(text, self.codes)
        index = self.index()
        self._write(self.folder / self._info(index).file, format_deck_file(mapping, sorted(self.codes)))
        self._info(index).checked_at = None
        self._write_index(index)
        return mapping

    def create(self, name: str, edition: str = DEFAULT_EDITION) -> None:
        """A new empty deck of `edition`, made active."""
        name = name.strip()
        if NAME_PATTERN.fullmatch(name) is None:
            raise DeckError("a deck name is 1 to 40 letters, digits, spaces, . ' - or _")
        _check_edition(edition)
        index = self.index()
        if index.find(name) is not None:
            raise DeckError(f"there is already a deck named {name!r}")
        self._materialise(index)
        used = {deck.file for deck in index.decks}
        number = next(n for n in range(1, len(used) + 2) if f"{n}.csv" not in used)
        info = DeckInfo(name, f"{number}.csv", edition=edition)
        index.decks.append(info)
        index.active = name
        self._write(self.folder / info.file, format_deck_file({}))
        self._write_index(index)

    def activate(self, name: str) -> None:
        index = self.index()
        if index.find(name) is None:
            raise DeckError(f"no deck named {name!r}")
        self._materialise(index)
        index.active = name
        self._write_index(index)

    def mark_checked(self, when: str, name: str | None = None) -> None:
        index = self.index()
        self._materialise(index)
        found = index.find(name or index.active)
        if found is None:
            raise DeckError(f"no deck named {name!r}")
        found.checked_at = when
        self._write_index(index)

    def set_edition(self, edition: str) -> None:
        """The active deck's edition (its cards' names); DeckError for what is not an edition."""
        _check_edition(edition)
        index = self.index()
        self._materialise(index)
        self._info(index).edition = edition
        self._write_index(index)

    def set_self_describing(self, on: bool) -> None:
        index = self.index()
        self._materialise(index)
        self._info(index).self_describing = on
        self._write_index(index)

    def set_uid_format(self, label: str | None) -> None:
        """Record how the active deck's UIDs were read (a wedge reader maps its own format onto it)."""
        index = self.index()
        self._materialise(index)
        self._info(index).uid_format = label
        self._write_index(index)

    def _materialise(self, index: DeckIndex) -> None:
        """Write the first deck's file (migrating tags.json) before the index exists."""
        first = index.decks[0]
        if (self.folder / INDEX_FILE).exists() or (self.folder / first.file).exists():
            return
        self._write(self.folder / first.file, format_deck_file(self._legacy(), sorted(self.codes)))

    @staticmethod
    def _info(index: DeckIndex) -> DeckInfo:
        found = index.find(index.active)
        assert found is not None
        return found

    def _write_index(self, index: DeckIndex) -> None:
        self._materialise(index)
        body = {"active": index.active, "decks": [deck.as_json() for deck in index.decks]}
        self._write(self.folder / INDEX_FILE, json.dumps(body, indent=1, ensure_ascii=False) + "\n")

    @staticmethod
    def _write(path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)


def _check_edition(edition: str) -> None:
    if not isinstance(edition, str) or EDITION_PATTERN.fullmatch(edition) is None:
        raise DeckError(f"{edition!r} is not an edition (a year, such as 2005 or 2023)")
