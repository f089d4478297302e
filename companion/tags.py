"""Which NFC tag is which card: a UID → card-code map kept in the data dir as tags.json.

Game-agnostic: the codes a tag may carry are those of the games the table hosts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from pathlib import Path

TAGS_FILE = "tags.json"


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
        """The map without the simulated deck (what tags.json holds)."""
        return {uid: code for uid, code in self._by_uid.items() if uid not in self._simulated}

    @classmethod
    def load(cls, data_dir: Path, codes: Collection[str]) -> TagMap:
        """Read data_dir/tags.json if present; ValueError naming the file if it is corrupt."""
        path = data_dir / TAGS_FILE
        if not path.exists():
            return cls(codes)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(raw, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
            ):
                raise ValueError("expected an object of uid → code strings")
            return cls(codes, raw)
        except (ValueError, UnicodeDecodeError) as error:
            raise ValueError(f"{path}: not a valid tag map: {error}") from error

    def save(self, data_dir: Path) -> None:
        """Write tags.json atomically (temp file, fsync, rename)."""
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / TAGS_FILE
        tmp = path.with_suffix(".json.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(self.learned(), handle, indent=1, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
