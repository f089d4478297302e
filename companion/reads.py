"""Tag reads: what every pot reader reports (the port readers implement), and the one
double-read policy, when a tag read again is the same play, not a new event.

A physical card can reach the table twice for one drop; three windows catch it, each where it
arises:

* **reader debounce** (the reader itself, `hardware`/`firmware_bridge`): a card resting in the
  field is reported once until it leaves it;
* **USB sequence memory** (`firmware_bridge`): a frame the Pico resends because its ACK was lost (or
  has not left yet: the host acknowledges a tag only once `TagSeen.done` says the table dealt with it)
  carries the same sequence number and is dropped by the host;
* **table window** (here): a tag whose read was accepted less than `DOUBLE_READ_SECONDS` ago is
  ignored while that play still stands (an undo frees it at once) and the game says a read of that
  card now would repeat it (`State.repeats_read`: for Chaud Devant, the card is already in this
  round; a card replayed in the next round is a new play). At start the guard is rebuilt
  from the journal: the reads accepted in the last `DOUBLE_READ_SECONDS` before the table stopped
  are guarded for `RESTART_GRACE_SECONDS` after it starts again, so a card resting on the antenna,
  or re-delivered by the USB board after a crash, is ignored rather than refused.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from companion.reader_words import Words


@dataclass(frozen=True, slots=True)
class TagSeen:
    """A tag entered the reader's field: its UID in lower-case hex, when, and which reader saw it.

    `done`, when set, is called once the read is dealt with (journaled, or judged a double read):
    a reader that must acknowledge reads (the USB board) acknowledges only then. `card` is the
    card code a self-describing tag carries (see companion.deck_desk), when the reader read one.
    `resting`: read just after the reader restarted, and seen before it: a card lying on the
    antenna, or the same card played again; the table ignores it if it repeats a play that stands.
    `raw`: what the reader sent before it was normalised (the text a keyboard-wedge reader typed).
    """

    uid: str
    reader: str
    at: float = field(default_factory=time.time)
    done: Callable[[], None] | None = field(default=None, compare=False)
    card: str | None = None
    resting: bool = False
    raw: str | None = field(default=None, compare=False)


class TagWriter(Protocol):
    """Writes a card code on the tag now in the reader's field, and reads it back (self-describing
    decks); False when the tag is not that UID, cannot be written, or did not read back."""

    def write_card(self, uid: str, code: str) -> bool: ...


@runtime_checkable
class TagMemory(Protocol):
    """A reader that reads and writes tag memory: while `report_codes(True)`, each `TagSeen` carries
    the code-shaped text the tag holds (`card`; the table decides whether it is a card), and
    `write_card` is a `TagWriter` that waits for the reader's poll to finish."""

    def report_codes(self, on: bool) -> None: ...

    def write_card(self, uid: str, code: str) -> bool: ...


WHOLE_UIDS = "uid"
"""The format a deck records when its UIDs are whole: taught on a reader that sends every byte."""


@runtime_checkable
class PartialUids(Protocol):
    """A reader that may send only part of each UID (a keyboard-wedge reader typing cascade level 1):
    `use_deck` maps a deck's UIDs (UID → card code), read in format `taught` (None: not recorded), onto
    what the reader sends, and returns the groups of cards it cannot tell apart; `taught` then says the
    format the deck should record (None: not known yet); `sent_as` the format in which this reader lately
    sent `uid` (None: another reader sent it, one that sends whole UIDs)."""

    def use_deck(self, cards: Mapping[str, str], taught: str | None = None) -> list[list[str]]: ...

    def taught(self) -> str | None: ...

    def sent_as(self, uid: str) -> str | None: ...


@runtime_checkable
class KnownTags(Protocol):
    """A tag-memory reader told which UIDs the deck already knows, so that it reads no memory for
    them: only the code of a tag the deck lacks is ever used, and a memory read costs radio time
    during which the next card could pass unseen."""

    def skip_codes_of(self, known: Callable[[str], bool]) -> None: ...


@runtime_checkable
class TagKinds(Protocol):
    """A tag writer that writes only some tags (NTAG pages, never a MIFARE Classic's sectors): `writes`
    says whether it can write a code on the tag with this UID."""

    def writes(self, uid: str) -> bool: ...


@runtime_checkable
class ReadSignals(Protocol):
    """A reader that shows the table's verdict on its last read itself (the ACR122U's red and green LED):
    `read_judged` is told, for each announcement of a play or an enrollment read, whether it was taken."""

    def read_judged(self, accepted: bool) -> None: ...


@dataclass(frozen=True, slots=True)
class ReaderHealth:
    """A reader's state for the table display: ok or not, a short detail (English, for logs), free-form
    facts, and `words`: the detail as catalog words, which the table says in its own language."""

    reader: str
    ok: bool
    detail: str = ""
    info: tuple[tuple[str, str], ...] = ()
    at: float = field(default_factory=time.time)
    words: Words | None = None


ReaderMessage = TagSeen | ReaderHealth
ReaderQueue = queue.Queue[ReaderMessage]


class Reader(Protocol):
    """A running pot reader: `start` launches its thread, which only turns radio into TagSeen and
    ReaderHealth values on the queue; `close` is idempotent."""

    name: str

    def start(self, out: ReaderQueue) -> None: ...

    def close(self) -> None: ...


DOUBLE_READ_SECONDS = 3.0
"""A tag read again this soon after its read was accepted is the same play."""

RESTART_GRACE_SECONDS = 10.0
"""How long after a start the reads accepted just before the stop stay guarded."""


class ReadGuard:
    """Remembers accepted tag reads (tag code → deadline and the journal seq of the play)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._guarded: dict[str, tuple[float, int]] = {}

    def accepted(self, tag: str, seq: int) -> None:
        """A read of `tag` became the accepted play `seq`."""
        self._guarded[tag] = (self._clock() + DOUBLE_READ_SECONDS, seq)

    def restore(self, reads: Iterable[tuple[str, int]]) -> None:
        """At start: guard the reads accepted just before the stop for the restart grace."""
        deadline = self._clock() + RESTART_GRACE_SECONDS
        for tag, seq in reads:
            self._guarded[tag] = (deadline, seq)

    def is_double_read(self, tag: str, stands: Callable[[int], bool]) -> bool:
        """True when `tag` was accepted within its window and that play `stands` (was not undone)."""
        entry = self._guarded.get(tag)
        if entry is None:
            return False
        deadline, seq = entry
        if self._clock() >= deadline or not stands(seq):
            del self._guarded[tag]
            return False
        return True

    def clear(self) -> None:
        """Forget every guarded read (a new game)."""
        self._guarded.clear()


ReadTaker = Callable[[str, str | None], bool]
"""Takes a tag read before the game (uid, the code a self-describing tag carries): True when it took it."""

READ_ORDER = ("deck_desk", "seat_cards")
"""Who may take a read before the game, first to last: the deck desk (while it enrolls, checks or deals,
or to offer a self-describing card its deck lacks), then a club table's members' cards (an unknown tag
between games). A taker not named here is asked after these, in the order it was registered."""


class ReadTakers:
    """The ordered takers of a table's reads, asked in one place (`take`); the order is `order`'s, never
    the order in which the composition root happened to register them."""

    def __init__(self, order: Iterable[str] = READ_ORDER) -> None:
        self.order = tuple(order)
        self._takers: tuple[tuple[str, ReadTaker], ...] = ()  # replaced whole: a read never sees half a change

    def add(self, name: str, taker: ReadTaker) -> None:
        """Register `taker` under `name`, asked in the declared order; it replaces a taker of that name (a
        new deck desk on the same table: the last one built takes the reads, as one hook did)."""
        rank = {known: i for i, known in enumerate(self.order)}
        takers = [(known, old) if known != name else (name, taker) for known, old in self._takers]
        if name not in self.names():
            takers.append((name, taker))
        takers.sort(key=lambda pair: rank.get(pair[0], len(self.order)))  # stable: unnamed ones keep their order
        self._takers = tuple(takers)

    def names(self) -> tuple[str, ...]:
        """The registered takers' names, in the order they are asked."""
        return tuple(name for name, _ in self._takers)

    def take(self, uid: str, written: str | None) -> str | None:
        """Ask each taker in turn; the name of the one that took the read, or None (the game takes it)."""
        for name, taker in self._takers:
            if taker(uid, written):
                return name
        return None
