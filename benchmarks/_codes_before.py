"""The `rc522` reader as it read self-describing codes before issue 22, kept for side-by-side figures only.

Every fresh UID's code was read while codes were reported, known to the deck or not, through the `mfrc522`
package: WUPA and SELECT through its `MFRC522_ToCard` (which polls its interrupt register 2,000 times when
no answer comes), blocks through `MFRC522_Read` (which drops the CRC_A unchecked), then the poller's
settings written again. Not used by Marmite itself.
"""

from __future__ import annotations

import contextlib
from typing import Any

from companion.reads import TagSeen
from hardware.readers.rc522 import RC522Reader
from hardware.tag_memory import (
    CLASSIC_DATA,
    CLASSIC_HEADER,
    NTAG213_USER_PAGES,
    NTAG_FIRST_PAGE,
    TRANSPORT_KEY,
    TagLink,
    code_from_classic,
    code_from_ndef,
    ndef_needed,
)


def read_code_before(chip: Any, uid: str) -> str | None:
    """The code on tag `uid` as the reader read it before: all through `mfrc522`'s calls."""
    link = TagLink.__new__(TagLink)  # no own-core PCD: the old path never had one
    link.chip, link.uid, link.sak = chip, b"", 0
    if not link.wake_and_select(bytes.fromhex(uid)):
        return None
    try:
        if link.is_classic:
            if chip.MFRC522_Auth(chip.PICC_AUTHENT1A, CLASSIC_HEADER, TRANSPORT_KEY, list(link.uid)) != chip.MI_OK:
                return None
            blocks = {}
            for block in (CLASSIC_HEADER, *CLASSIC_DATA):
                data = chip.MFRC522_Read(block)
                if data is None:
                    return None
                blocks[block] = bytes(data)
            return code_from_classic(blocks, None)
        memory = b""
        needed = 16
        while len(memory) < needed:
            data = chip.MFRC522_Read(NTAG_FIRST_PAGE + len(memory) // 4)
            if data is None:
                return None
            memory += bytes(data)
            needed = max(16, min(ndef_needed(memory), NTAG213_USER_PAGES * 4))
        return code_from_ndef(memory, None)
    finally:
        link.halt()


class ReaderBefore(RC522Reader):
    """`RC522Reader` with the old code path: every fresh UID's code, through `mfrc522`."""

    def _seen(self, uid: str) -> TagSeen:
        if not self._codes or self._mfrc522 is None:
            return TagSeen(uid, self.name)
        try:
            code = read_code_before(self._mfrc522, uid)
        except Exception:
            code = None
        finally:
            self._restore()
        return TagSeen(uid, self.name, card=code)


def quiet_mfrc522_log() -> None:
    """The old path logs an error line per failed read: silenced here, the figures are what counts."""
    import logging

    with contextlib.suppress(Exception):
        logging.getLogger("mfrc522Logger").setLevel(logging.CRITICAL)
