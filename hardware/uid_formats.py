"""What a USB keyboard-wedge reader types for a card, and how Marmite reads it back.

Such readers type the UID as text and press Enter, but each brand its own way: hexadecimal or a
10-digit decimal number (four bytes only), in the card's byte order or reversed, the whole UID or
only its first cascade level. An NTAG's 7-byte UID `04 A1 B2 C3 D4 E5 F6` is typed by a "cascade
level 1 only" reader as `88 04 A1 B2`: the cascade tag 0x88 and three bytes, the same for every NTAG
whose UID starts alike. A `UidFormat` says which way a reader types; `normalise` turns what it typed
into bytes in the card's order, `typed` predicts what it types for a UID, `learn` finds the formats
that explain a typed line for a known UID, and `collisions` names the cards a format cannot tell apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.reads import WHOLE_UIDS

CASCADE_TAG = 0x88
HEX = re.compile(r"[0-9a-fA-F]+")
DIGITS = re.compile(r"[0-9]+")
ENCODINGS = ("hex", "dec")
ORDERS = ("msb", "lsb")
SCOPES = ("full", "cl1", "first4")


class UidFormatError(ValueError):
    """What the reader typed is not a UID in the expected format."""


@dataclass(frozen=True)
class UidFormat:
    """How a reader types a UID: `encoding` hex or dec (10 digits, four bytes), `order` msb (the card's
    order) or lsb (reversed), `scope` full, cl1 (cascade level 1: 0x88 and three bytes of a 7-byte UID)
    or first4 (the first four bytes)."""

    encoding: str = "hex"
    order: str = "msb"
    scope: str = "full"

    def __post_init__(self) -> None:
        if self.encoding not in ENCODINGS or self.order not in ORDERS or self.scope not in SCOPES:
            raise ValueError(f"unknown UID format {self.label()!r}: encoding hex|dec, order msb|lsb, "
                             "scope full|cl1|first4")
        if self.encoding == "dec" and self.scope == "full":
            object.__setattr__(self, "scope", "cl1")  # ten digits carry four bytes, never a 7-byte UID

    def label(self) -> str:
        """The option text: `hex`, `dec-lsb`, `hex-cl1`…"""
        parts = [self.encoding]
        if self.order != "msb":
            parts.append(self.order)
        if self.scope != "full" and not (self.encoding == "dec" and self.scope == "cl1"):
            parts.append(self.scope)
        return "-".join(parts)

    @property
    def whole_uid(self) -> bool:
        """True when the reader types every byte of a 7-byte UID (no two cards can collide)."""
        return self.scope == "full"

    @classmethod
    def parse(cls, text: str) -> UidFormat:
        """`hex`, `hex-lsb`, `dec`, `dec-lsb`, `hex-cl1`, `hex-lsb-first4`…: encoding first, then order/scope."""
        words = text.lower().replace("_", "-").split("-")
        encoding = words[0]
        order = next((w for w in words[1:] if w in ORDERS), "msb")
        scope = next((w for w in words[1:] if w in SCOPES), "full")
        if any(w not in ORDERS + SCOPES for w in words[1:]):
            raise ValueError(f"unknown UID format {text!r}: e.g. hex, hex-lsb, dec, dec-lsb, hex-cl1")
        return cls(encoding, order, scope)


FORMATS = tuple(
    UidFormat(e, o, s) for e in ENCODINGS for o in ORDERS for s in SCOPES if not (e == "dec" and s == "full")
)
"""Every way a reader may type a UID."""


def normalise(raw: str, fmt: UidFormat | None = None) -> bytes:
    """The bytes a typed line stands for, in the card's order; `fmt` None guesses from its shape: ten digits
    are `dec-lsb` (the byte order most such readers type), an even count of hex digits is `hex`."""
    text = raw.strip().replace(" ", "").replace(":", "")
    if fmt is None:
        fmt = guessed(text)
    encoding = fmt.encoding
    if encoding == "dec":
        if not DIGITS.fullmatch(text) or int(text) >= 1 << 32:
            raise UidFormatError(f"{raw!r} is not a 10-digit card number")
        data = int(text).to_bytes(4, "big")
    else:
        if not HEX.fullmatch(text) or len(text) % 2 or len(text) // 2 not in (4, 7, 10):
            raise UidFormatError(f"{raw!r} is not a 4, 7 or 10-byte hexadecimal UID")
        data = bytes.fromhex(text)
    return data[::-1] if fmt.order == "lsb" else data


AUTO_DIGITS = UidFormat("dec", "lsb")
"""What `format=auto` makes of ten digits: four bytes typed reversed, as the README's readers do."""


def guessed(text: str) -> UidFormat:
    """The format `auto` reads a typed line in: ten digits `dec-lsb`, else `hex` in the card's order
    (`hex-cl1` for four bytes: the whole UID of a 4-byte card, or cascade level 1 of a 7-byte one)."""
    text = text.strip().replace(" ", "").replace(":", "")
    if DIGITS.fullmatch(text) and len(text) == 10:
        return AUTO_DIGITS
    return UidFormat("hex", "msb", "cl1" if len(text) == 8 else "full")


def text_of(uid: bytes, fmt: UidFormat) -> str:
    """The line a reader typed when `normalise(line, fmt)` gave `uid` (the inverse of `normalise`)."""
    data = uid[::-1] if fmt.order == "lsb" else uid
    return f"{int.from_bytes(data, 'big'):010d}" if fmt.encoding == "dec" else data.hex().upper()


WHOLE = WHOLE_UIDS
"""The format a deck records when its UIDs are whole (taught on an RC522, PN532, PC/SC, or a wedge typing
every byte): any reader reads it, a partial wedge through its own format (`key`)."""


def taught_label(uid: bytes, fmt: UidFormat) -> str:
    """The format a deck records for a card taught as `uid` through a reader of format `fmt`."""
    return WHOLE if fmt.whole_uid and len(uid) != 4 else fmt.label()


def legacy_label(cards: Iterable[str], fmt: UidFormat | None) -> str:
    """The format of a deck written before decks recorded one: whole UIDs are `uid`; four-byte UIDs were
    read as the reader was set (`fmt`), or by the old `auto`, which read ten digits in the card's order."""
    if any(len(uid) != 8 for uid in cards):
        return WHOLE
    return fmt.label() if fmt is not None else "dec"


def deck_aliases(cards: Iterable[str], taught: str, fmt: UidFormat | None) -> dict[str, str] | None:
    """For a deck taught through a partial format `taught`: what a reader of format `fmt` (None: auto)
    makes of each card's line → the deck's UID; None when it can make nothing of them (the deck would
    be orphaned: another encoding, or a reader typing whole UIDs for a deck of partial ones)."""
    then = UidFormat.parse(taught)
    if fmt is not None and (fmt.encoding != then.encoding or fmt.whole_uid != then.whole_uid):
        return None
    aliases: dict[str, str] = {}
    for uid in cards:
        try:
            aliases[normalise(text_of(bytes.fromhex(uid), then), fmt).hex()] = uid
        except UidFormatError:
            return None
    return aliases


def scoped(uid: bytes, scope: str) -> bytes:
    """The bytes of `uid` a reader of `scope` sends (a 4-byte UID is whole in every scope)."""
    if len(uid) == 4 or scope == "full":
        return uid
    if scope == "cl1":
        return bytes([CASCADE_TAG]) + uid[:3]
    return uid[:4]


def typed(uid: bytes, fmt: UidFormat) -> str:
    """What a reader of format `fmt` types for `uid` (upper-case hex, or ten digits)."""
    data = scoped(uid, fmt.scope)
    if fmt.order == "lsb":
        data = data[::-1]
    return f"{int.from_bytes(data, 'big'):010d}" if fmt.encoding == "dec" else data.hex().upper()


def key(uid: bytes, fmt: UidFormat) -> str:
    """The UID Marmite records for `uid` read through `fmt`: the bytes the reader sends, in card order, hex."""
    return scoped(uid, fmt.scope).hex()


def learn(raw: str, uid: bytes) -> list[UidFormat]:
    """The formats in which a reader would type `raw` for the known card `uid` (empty: none explains it)."""
    text = raw.strip().replace(" ", "").replace(":", "").upper()
    return [fmt for fmt in FORMATS if typed(uid, fmt) == text]


def collisions(cards: Mapping[str, str] | Iterable[tuple[str, str]], fmt: UidFormat) -> list[list[str]]:
    """Groups of card codes (from UID hex → code) that a reader of format `fmt` types alike."""
    pairs = cards.items() if isinstance(cards, Mapping) else cards
    seen: dict[str, list[str]] = {}
    for uid, code in pairs:
        seen.setdefault(key(bytes.fromhex(uid), fmt), []).append(code)
    return [sorted(group) for group in seen.values() if len(group) > 1]
