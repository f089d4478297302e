"""Enrollment: teach Marmite a deck card by card, in box order, with skip, back, redo and resume.

Pure: it changes its own uid → card map and says what happened as `Part`s; the deck desk saves
the map and the progress and speaks the parts. The same engine serves the tablet and the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.seam import Part


@dataclass(frozen=True, slots=True)
class Step:
    """What one read or one control did: `outcome` and the parts to say."""

    outcome: str
    parts: tuple[Part, ...]


class Enrollment:
    """Asks for each code of `order` in turn; a tag naming another card is refused, naming it.
    Of the `optional` codes (cards a box may lack) a complete deck has `optional_in_box`."""

    def __init__(self, order: Sequence[str], mapping: Mapping[str, str], *, cursor: int = 0,
                 skipped: Sequence[str] = (), single: str | None = None, resume_at: int | None = None,
                 again: bool = False, optional: frozenset[str] = frozenset(), optional_in_box: int = 0) -> None:
        self.order = tuple(order)
        self.optional = frozenset(code for code in optional if code in self.order)
        self.optional_in_box = min(optional_in_box, len(self.optional))
        self.mapping = dict(mapping)
        self.cursor = max(0, min(cursor, len(self.order)))
        self.skipped = [code for code in skipped if code in self.order]
        self.single = single if single in self.order else None
        self.resume_at = resume_at
        self.again = again
        if not again and single is None and cursor == 0 and self.current is not None and self.current in self.known():
            self._advance()

    # ------------------------------------------------------------------ queries

    @property
    def current(self) -> str | None:
        """The card asked for now; None when the pass is over."""
        return self.order[self.cursor] if self.cursor < len(self.order) else None

    def known(self) -> set[str]:
        return set(self.mapping.values())

    def missing(self) -> list[str]:
        """Cards of the order no tag names yet, in box order (optional ones only while too few are known)."""
        known = self.known()
        spares_short = len(self.optional & known) < self.optional_in_box
        return [code for code in self.order if code not in known and (spares_short or code not in self.optional)]

    def progress(self) -> tuple[int, int]:
        """(cards known, cards in a complete deck)."""
        known = self.known()
        required = sum(1 for code in self.order if code in known and code not in self.optional)
        spares = min(len(self.optional & known), self.optional_in_box)
        return required + spares, len(self.order) - len(self.optional) + self.optional_in_box

    def uid_of(self, code: str) -> str | None:
        return next((uid for uid, card in self.mapping.items() if card == code), None)

    def ask(self) -> Part:
        """The request for the current card (or the end of the pass)."""
        count, total = self.progress()
        if self.current is None:
            return Part("enroll_done", {"count": count, "total": total, "missing": self.missing()})
        copy = "replace" if self.single is not None else ("again" if self.current in self.known() else "new")
        return Part("enroll_ask", {"card": self.current, "count": count, "total": total, "position": self.cursor + 1,
                                   "mode": copy})

    # ------------------------------------------------------------------ reads and controls

    def read(self, uid: str) -> Step:
        """A tag passed over the reader: it becomes the current card unless it names another one."""
        uid = uid.lower()
        code = self.current
        if code is None:
            return Step("done", (self.ask(),))
        owner = self.mapping.get(uid)
        if owner is not None and owner != code:
            return Step("taken", (Part("enroll_taken", {"card": owner, "wanted": code}), self.ask()))
        if owner == code:
            said = Part("enroll_same", {"card": code})
        else:
            for old in [u for u, c in self.mapping.items() if c == code]:
                del self.mapping[old]
            self.mapping[uid] = code
            said = Part("enroll_learned", {"card": code})
        if code in self.skipped:
            self.skipped.remove(code)
        self._after_card()
        return Step("learned", (said, self.ask()))

    def skip(self) -> Step:
        """Leave the current card for later."""
        code = self.current
        if code is None:
            return Step("done", (self.ask(),))
        if code not in self.known() and code not in self.skipped:
            self.skipped.append(code)
        self._after_card()
        return Step("skipped", (Part("enroll_skipped", {"card": code}), self.ask()))

    def back(self) -> Step:
        """Go back one card (to pass it again)."""
        if self.single is not None:
            return Step("back", (self.ask(),))
        self.cursor = max(0, self.cursor - 1)
        return Step("back", (self.ask(),))

    def redo(self, code: str) -> Step:
        """Ask for one card again (a lost or damaged card's new tag), then return where we were."""
        if code not in self.order:
            raise ValueError(f"{code!r} is not a card of this deck")
        self.resume_at = self.cursor if self.single is None else self.resume_at
        self.single = code
        self.cursor = self.order.index(code)
        return Step("redo", (self.ask(),))

    def _after_card(self) -> None:
        if self.single is not None:
            self.single = None
            self.cursor = self.resume_at if self.resume_at is not None else len(self.order)
            self.resume_at = None
            return
        self._advance()

    def _advance(self) -> None:
        """Move to the next card no tag names yet (to the very next card when enrolling again)."""
        known = self.known()
        self.cursor += 1
        while not self.again and self.cursor < len(self.order) and self.order[self.cursor] in known:
            self.cursor += 1

    # ------------------------------------------------------------------ persistence

    def progress_json(self) -> dict[str, Any]:
        """What resuming needs besides the deck itself."""
        return {"cursor": self.cursor, "skipped": list(self.skipped), "single": self.single,
                "resume_at": self.resume_at, "again": self.again}

    def as_json(self) -> dict[str, Any]:
        count, total = self.progress()
        return {**self.progress_json(), "current": self.current, "count": count, "total": total,
                "missing": self.missing()}
