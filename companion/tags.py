"""Which NFC tag is which card: the active deck's UID → card-code map (see companion.decks).

Game-agnostic: the codes a tag may carry are those of the games the table hosts.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from companion.decks import DeckStore


def simulated_uid(code: str) -> str:
    """The UID the simulated reader gives the card `code` (its ASCII bytes in hex)."""
    return code.encode("ascii").hex()


class TagMap:
    """UID (lower-case hex) → card code; the simulated deck's UIDs are always known."""

    def __init__(self, codes: Collection[str], mapping: dict[str, str] | None = None) -> None:
        self.codes = frozenset(codes)
        self._simulated: dict[str, str] = {simulated_uid(code): code for code in codes}
        self._by_uid: dict[str, str] = dict(self._simulated)
        for uid, code in (mapping or {}).items():
            self.add(uid, code)

    def add(self, uid: str, code: str) -> None:
        """Tie `uid` to `code`; ValueError for a code no tag can carry."""
        if code not in self.codes:
            raise ValueError(f"{code!r} is not a card or menu-card code")
        self._by_uid[uid.lower()] = code

    def lookup(self, uid: str) -> str | None:
        """The code of this tag, or None for a tag not in the map."""
        return self._by_uid.get(uid.lower())

    def learned(self) -> dict[str, str]:
        """The map without the simulated deck (what the active deck holds)."""
        return {uid: code for uid, code in self._by_uid.items() if uid not in self._simulated}

    @classmethod
    def load(cls, data_dir: Path, codes: Collection[str]) -> TagMap:
        """The active deck of the data dir (a tags.json of an older Marmite becomes its first deck);
        ValueError naming the file if it is corrupt."""
        return cls(codes, DeckStore(data_dir, codes).load())

    def save(self, data_dir: Path) -> None:
        """Write the learned tags as the data dir's active deck (atomically)."""
        DeckStore(data_dir, self.codes).save(self.learned())

    def replace(self, mapping: dict[str, str]) -> None:
        """Forget every learned tag and learn `mapping` instead (a new active deck)."""
        fresh = dict(self._simulated)
        for uid, code in mapping.items():
            if code not in self.codes:
                raise ValueError(f"{code!r} is not a card or menu-card code")
            fresh[uid.lower()] = code
        self._by_uid = fresh  # one assignment: a reader thread sees the old deck or the new one
