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
    """The bytes a typed line stands for, in the card's order; `fmt` None guesses hex or dec from its shape
    (ten digits: decimal; an even count of hex digits: hex), in the card's order."""
    text = raw.strip().replace(" ", "").replace(":", "")
    encoding = fmt.encoding if fmt is not None else ("dec" if DIGITS.fullmatch(text) and len(text) == 10 else "hex")
    if encoding == "dec":
        if not DIGITS.fullmatch(text) or int(text) >= 1 << 32:
            raise UidFormatError(f"{raw!r} is not a 10-digit card number")
        data = int(text).to_bytes(4, "big")
    else:
        if not HEX.fullmatch(text) or len(text) % 2 or len(text) // 2 not in (4, 7, 10):
            raise UidFormatError(f"{raw!r} is not a 4, 7 or 10-byte hexadecimal UID")
        data = bytes.fromhex(text)
    return data[::-1] if fmt is not None and fmt.order == "lsb" else data


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
