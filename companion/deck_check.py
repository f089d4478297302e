"""The deck check: the whole deck passes over the reader; what is missing, unknown or doubled."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.seam import Part


class DeckCheck:
    """Counts reads against a deck: each card of `order` should be seen exactly once."""

    def __init__(self, order: Sequence[str], mapping: Mapping[str, str]) -> None:
        self.order = tuple(order)
        self.mapping = {uid.lower(): code for uid, code in mapping.items()}
        self.seen: Counter[str] = Counter()
        self.unknown: list[str] = []

    def read(self, uid: str) -> Part:
        """One tag passed: seen, seen again, or not in the deck."""
        uid = uid.lower()
        code = self.mapping.get(uid)
        if code is None or code not in self.order:
            if uid not in self.unknown:
                self.unknown.append(uid)
            return Part("check_unknown", {"uid": uid})
        self.seen[code] += 1
        if self.seen[code] > 1:
            return Part("check_twice", {"card": code})
        return Part("check_seen", {"count": len(self.seen), "total": len(self.order)})

    def report(self) -> dict[str, Any]:
        """Cards not seen, unknown tags, cards seen twice (by code, in box order); ok when none."""
        missing = [code for code in self.order if code not in self.seen]
        doubled = [code for code in self.order if self.seen[code] > 1]
        return {"seen": len(self.seen), "total": len(self.order), "missing": missing,
                "unknown": list(self.unknown), "doubled": doubled,
                "ok": not missing and not self.unknown and not doubled}

    def report_part(self) -> Part:
        return Part("check_report", self.report())
