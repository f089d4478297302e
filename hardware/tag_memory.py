"""Self-describing tags: the card's code written on the tag itself (writes through the `mfrc522` package,
reads through the project's own ISO 14443 core, CRC_A checked).

* NTAG21x: an NDEF message (encoded with `ndeflib`) holding one NFC Forum external record
  `marmite.table:card` whose payload is the card code, in a TLV from page 4.
* MIFARE Classic 1K: sector 1, transport key A; block 4 is a header (magic, version, length,
  CRC-32 of the code), blocks 5 and 6 hold the code.

Nothing half-written is trusted: an NTAG's TLV length is zeroed first and written last, so a tag
leaving the field mid-write reads as empty; a Classic header is written last and carries the
code's CRC, so new data under an old header does not check. Every write is read back.
"""

from __future__ import annotations

import re
import time
import zlib
from collections.abc import Callable, Collection
from typing import Any

import ndef

from hardware import iso14443 as iso
from hardware.mfrc522_pcd import ChipError, MFRC522Pcd
from hardware.rc522 import SpiTransport

RECORD_TYPE = "urn:nfc:ext:marmite.table:card"
NTAG_FIRST_PAGE = 4
NTAG213_USER_PAGES = 36
NTAG_FAST_PAGES = 10
"""Pages one FAST_READ takes from page 4: 40 bytes, the NDEF message of any code up to 16 characters
(every card of both games), in one exchange instead of three READs."""
CLASSIC_HEADER, CLASSIC_DATA = 4, (5, 6)
CLASSIC_MAGIC = b"MRMT"
CLASSIC_VERSION = 1
TRANSPORT_KEY = [0xFF] * 6
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
TX_IRQ = 0x40  # CommIrqReg: the frame has left the antenna
HALT_POLLS = 50  # HLTA is 4 bytes (0.4 ms on air): a few register reads at any SPI speed
CODE_SHAPE = re.compile(r"[a-z0-9][a-z0-9@._-]{0,31}")
"""What a card code looks like, for a reader that does not know the table's codes (the core checks them)."""
WRITE_TIMEOUT_US = 15_000
"""The receive timeout while a tag is written (as `mfrc522` sets it): a tag's EEPROM write takes ~5 ms.
A poller restores its own settings after."""
AUTH_KEY_A = 0x60


class TagWriteError(RuntimeError):
    """The tag left the field or refused a write: what is on it is not trusted."""


def ndef_bytes(code: str) -> bytes:
    """The NTAG user memory for `code`: NDEF TLV (0x03), its length, the message, terminator (0xFE)."""
    message = b"".join(ndef.message_encoder([ndef.Record(RECORD_TYPE, "", code.encode("ascii"))]))
    if len(message) > 0xFE:
        raise ValueError("card code too long for a short NDEF TLV")
    return bytes([0x03, len(message)]) + message + b"\xfe"


def _accepted(code: str, codes: Collection[str] | None) -> str | None:
    """`code` if it is one of `codes` (or, with no codes given, shaped like a card code), else None."""
    if codes is None:
        return code if CODE_SHAPE.fullmatch(code) else None
    return code if code in codes else None


def ndef_needed(head: bytes) -> int:
    """How many bytes of NTAG user memory hold the NDEF TLV whose start `head` shows (0: none)."""
    index = 0
    while index < len(head) and head[index] == 0x00:  # NULL TLVs
        index += 1
    if index + 2 > len(head) or head[index] != 0x03:
        return 0
    return index + 2 + head[index + 1]


def code_from_ndef(memory: bytes, codes: Collection[str] | None) -> str | None:
    """The card code an NTAG's user memory holds, or None (empty, foreign, damaged or half-written).
    `codes` None: any code-shaped text (a reader reports it; the table decides)."""
    index = 0
    while index < len(memory) and memory[index] == 0x00:  # NULL TLVs
        index += 1
    if index + 2 > len(memory) or memory[index] != 0x03:
        return None
    length = memory[index + 1]
    body = memory[index + 2 : index + 2 + length]
    if length == 0 or len(body) != length:
        return None
    try:
        records = list(ndef.message_decoder(body))
    except (ndef.DecodeError, ValueError):  # ndeflib also raises ValueError (UnicodeDecodeError…) on a
        return None  # foreign record it cannot decode: a stranger's sticker, a damaged tag
    if len(records) != 1 or records[0].type != RECORD_TYPE:
        return None
    try:
        code = bytes(records[0].data).decode("ascii")
    except UnicodeDecodeError:
        return None
    return _accepted(code, codes)


def classic_blocks(code: str) -> dict[int, bytes]:
    """The three Classic blocks for `code` (header last to write)."""
    raw = code.encode("ascii")
    if len(raw) > 32:
        raise ValueError("card code longer than two blocks")
    header = CLASSIC_MAGIC + bytes([CLASSIC_VERSION, len(raw)]) + zlib.crc32(raw).to_bytes(4, "big") + bytes(6)
    data = raw.ljust(32, b"\x00")
    return {CLASSIC_DATA[0]: data[:16], CLASSIC_DATA[1]: data[16:], CLASSIC_HEADER: header}


def code_from_classic(blocks: dict[int, bytes], codes: Collection[str] | None) -> str | None:
    """The card code of Classic blocks 4-6, or None unless the header's length and CRC check."""
    header = blocks.get(CLASSIC_HEADER, b"")
    if len(header) != 16 or header[:4] != CLASSIC_MAGIC or header[4] != CLASSIC_VERSION:
        return None
    length = header[5]
    second = blocks.get(CLASSIC_DATA[1], bytes(16) if length <= 16 else b"")  # unread when the code fits in one
    data = blocks.get(CLASSIC_DATA[0], b"") + second
    raw = data[:length]
    if len(data) != 32 or length > 32 or zlib.crc32(raw).to_bytes(4, "big") != header[6:10]:
        return None
    try:
        code = raw.decode("ascii")
    except UnicodeDecodeError:
        return None
    return _accepted(code, codes)


def is_classic(uid: bytes, sak: int) -> bool:
    """A MIFARE Classic (1K or 4K) by its SAK: its memory opens with a key, not page by page."""
    return len(uid) == 4 and sak & 0x18 == 0x08


def read_code_with(pcd: MFRC522Pcd, uid: bytes, codes: Collection[str] | None = None) -> str | None:
    """The code on tag `uid`, through the project's own ISO 14443 core on a configured `pcd`: woken and
    selected (WUPA, SELECT), read with CRC_A checked (after MFAuthent for a Classic), halted again.

    One attempt: None when the tag has gone (an exchange gives up after one receive-timer period), refuses,
    answers damaged, or holds no code to trust. A ChipError (the chip itself) is left to the caller."""
    try:
        sak = iso.wake_select(pcd, uid)
    except iso.RadioError:
        return None
    if sak is None:
        return None
    try:
        if is_classic(uid, sak):
            if not pcd.authenticate(AUTH_KEY_A, CLASSIC_HEADER, TRANSPORT_KEY, list(uid[:4])):
                return None
            blocks = {CLASSIC_HEADER: bytes(iso.read_block(pcd, CLASSIC_HEADER))}
            for block in CLASSIC_DATA[: 2 if blocks[CLASSIC_HEADER][5] > 16 else 1]:
                blocks[block] = bytes(iso.read_block(pcd, block))  # the second data block only for a long code
            return code_from_classic(blocks, codes)
        try:  # one FAST_READ for any card code; more READs only if the record runs on
            memory = bytes(iso.read_pages(pcd, NTAG_FIRST_PAGE, NTAG_FIRST_PAGE + NTAG_FAST_PAGES - 1))
        except iso.Refused:  # a tag without FAST_READ (a first Ultralight) went back to sleep: four pages a READ
            if iso.wake_select(pcd, uid) is None:
                return None
            memory = bytes(iso.read_block(pcd, NTAG_FIRST_PAGE))
        needed = min(ndef_needed(memory), NTAG213_USER_PAGES * 4)
        while len(memory) < needed:
            memory += bytes(iso.read_block(pcd, NTAG_FIRST_PAGE + len(memory) // 4))
        return code_from_ndef(memory, codes)
    except iso.RadioError:
        return None
    finally:
        iso.halt(pcd)
        pcd.stop_crypto()


def memory_pcd(chip: Any, sleep: Callable[[float], None] = time.sleep) -> MFRC522Pcd:
    """The own core's PCD on an `mfrc522.MFRC522`'s SPI handle, configured with the write timeout."""
    pcd = MFRC522Pcd(SpiTransport(chip.spi, sleep), WRITE_TIMEOUT_US)
    pcd.configure()
    return pcd


class TagLink:
    """One tag in the field, spoken to through an `mfrc522.MFRC522` (its ToCard, CRC, Auth, Write) for
    selection and writes, and through the own core (`memory_pcd`) for reads, whose CRC_A is checked."""

    def __init__(self, chip: Any, sleep: Callable[[float], None] = time.sleep) -> None:
        self.chip = chip
        self.pcd = memory_pcd(chip, sleep)
        self.uid: bytes = b""
        self.sak = 0

    # ------------------------------------------------------------------ selection

    def select(self) -> bool:
        """REQA, then anticollision and SELECT at each cascade level; True when one tag is active."""
        chip = self.chip
        status, _ = chip.MFRC522_Request(chip.PICC_REQIDL)
        if status != chip.MI_OK:
            return False
        uid: list[int] = []
        for sel in SEL:
            chip.Write_MFRC522(chip.BitFramingReg, 0x00)
            status, part, _ = chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, [sel, 0x20])
            if status != chip.MI_OK or len(part) != 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return False
            frame = [sel, 0x70, *part]
            status, answer, bits = chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, frame + chip.CalulateCRC(frame))
            if status != chip.MI_OK or bits != 24:
                return False
            sak = answer[0]
            if sak & 0x04:
                if part[0] != CASCADE_TAG:
                    return False
                uid.extend(part[1:4])
                continue
            uid.extend(part[:4])
            self.uid, self.sak = bytes(uid), sak
            return True
        return False

    def wake_and_select(self, uid: bytes) -> bool:
        """WUPA (which wakes a halted tag too), then SELECT `uid` at each cascade level with no
        anticollision: only that tag answers, and the others woken with it go back to sleep."""
        chip = self.chip
        chip.Write_MFRC522(chip.BitFramingReg, 0x07)
        chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, [chip.PICC_REQALL])  # tags of two kinds collide here: no matter
        try:
            levels = iso.uid_levels(uid)
        except ValueError:
            return False
        for depth, (sel, part) in enumerate(zip(SEL, levels, strict=False)):
            chip.Write_MFRC522(chip.BitFramingReg, 0x00)
            frame = [sel, 0x70, *part, iso.bcc(part)]
            status, answer, bits = chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, frame + chip.CalulateCRC(frame))
            if status != chip.MI_OK or bits != 24 or bool(answer[0] & 0x04) != (depth < len(levels) - 1):
                return False
            self.sak = answer[0]
        self.uid = bytes(uid)
        return True

    def halt(self) -> None:
        """HLTA (encrypted while a Classic sector is open), then Crypto1 off: the tag sleeps again.

        Sent with `mfrc522`'s register calls but not its ToCard: a tag never answers HLTA, and
        ToCard, which ignores the timer, would poll its 2,000 times before giving up."""
        chip = self.chip
        frame = [0x50, 0x00]
        frame += chip.CalulateCRC(frame)
        chip.Write_MFRC522(chip.CommandReg, chip.PCD_IDLE)
        chip.Write_MFRC522(chip.CommIrqReg, 0x7F)
        chip.SetBitMask(chip.FIFOLevelReg, 0x80)
        for byte in frame:
            chip.Write_MFRC522(chip.FIFODataReg, byte)
        chip.Write_MFRC522(chip.BitFramingReg, 0x00)
        chip.Write_MFRC522(chip.CommandReg, chip.PCD_TRANSCEIVE)
        chip.SetBitMask(chip.BitFramingReg, 0x80)  # StartSend
        for _ in range(HALT_POLLS):
            if chip.Read_MFRC522(chip.CommIrqReg) & TX_IRQ:  # sent: nothing to wait for
                break
        chip.Write_MFRC522(chip.CommandReg, chip.PCD_IDLE)
        chip.ClearBitMask(chip.BitFramingReg, 0x80)
        chip.MFRC522_StopCrypto1()

    @property
    def is_classic(self) -> bool:
        return is_classic(self.uid, self.sak)

    # ------------------------------------------------------------------ NTAG pages

    def read_pages(self, first: int, count: int) -> bytes:
        """`count` NTAG pages from `first` (READ gives four at a time, CRC_A checked); TagWriteError if the
        tag is gone or the answer is damaged."""
        out = b""
        for page in range(first, first + count, 4):
            out += self._read(page)
        return out[: count * 4]

    def _read(self, address: int) -> bytes:
        try:
            return bytes(iso.read_block(self.pcd, address))
        except (iso.RadioError, ChipError) as error:
            raise TagWriteError(f"reading {address}: {error}") from None

    def write_page(self, page: int, data: bytes) -> None:
        """NTAG WRITE (0xA2) of one 4-byte page; TagWriteError without the 4-bit ACK."""
        chip = self.chip
        frame = [0xA2, page, *data]
        status, answer, bits = chip.MFRC522_ToCard(chip.PCD_TRANSCEIVE, frame + chip.CalulateCRC(frame))
        if status != chip.MI_OK or bits != 4 or (answer[0] & 0x0F) != 0x0A:
            raise TagWriteError(f"page {page} not written")

    # ------------------------------------------------------------------ Classic blocks

    def open_sector(self, block: int) -> None:
        chip = self.chip
        if chip.MFRC522_Auth(chip.PICC_AUTHENT1A, block, TRANSPORT_KEY, list(self.uid)) != chip.MI_OK:
            raise TagWriteError(f"sector of block {block} refused the transport key")

    def read_block(self, block: int) -> bytes:
        """One Classic block (CRC_A checked) of the open sector; TagWriteError if gone or damaged."""
        return self._read(block)

    # ------------------------------------------------------------------ the card code

    def read_code(self, codes: Collection[str] | None) -> str | None:
        """The code written on the selected tag, or None when there is none to trust (`codes` None:
        any code-shaped text)."""
        try:
            if self.is_classic:
                self.open_sector(CLASSIC_HEADER)
                blocks = {block: self.read_block(block) for block in (CLASSIC_HEADER, *CLASSIC_DATA)}
                return code_from_classic(blocks, codes)
            memory = self.read_pages(NTAG_FIRST_PAGE, 4)  # one READ; more only if the record runs on
            needed = min(ndef_needed(memory), NTAG213_USER_PAGES * 4)
            if needed > len(memory):
                memory += self.read_pages(NTAG_FIRST_PAGE + 4, (needed - len(memory) + 3) // 4)
            return code_from_ndef(memory, codes)
        except TagWriteError:
            return None

    def write_code(self, code: str, codes: Collection[str] | None) -> None:
        """Write `code` on the selected tag and read it back; TagWriteError if it is not there after."""
        if self.is_classic:
            self.open_sector(CLASSIC_HEADER)
            for block, data in classic_blocks(code).items():  # data blocks first, header last
                try:
                    self.chip.MFRC522_Write(block, list(data))
                except IndexError:  # the package indexes an empty answer when the card has gone
                    raise TagWriteError(f"block {block} not written") from None
        else:
            memory = ndef_bytes(code)
            memory += bytes(-len(memory) % 4)
            pages = [memory[i : i + 4] for i in range(0, len(memory), 4)]
            if len(pages) > NTAG213_USER_PAGES:
                raise ValueError("card code too long for an NTAG213")
            self.write_page(NTAG_FIRST_PAGE, bytes([0x03, 0x00, 0xFE, 0x00]))  # empty until complete
            for offset, page in enumerate(pages[1:], start=1):
                self.write_page(NTAG_FIRST_PAGE + offset, page)
            self.write_page(NTAG_FIRST_PAGE, pages[0])  # the length last: the record is whole or absent
        if self.read_code(codes) != code:
            raise TagWriteError(f"{code} did not read back")


class ChipTagWriter:
    """companion.reads.TagWriter on an `mfrc522.MFRC522`: select the tag in the field, check its
    UID, write the code, read it back. Use it only while no reader thread polls the same chip."""

    def __init__(self, chip: Any, codes: Collection[str], sleep: Callable[[float], None] = time.sleep) -> None:
        self.chip = chip
        self.codes = frozenset(codes)
        self.sleep = sleep

    def write_card(self, uid: str, code: str) -> bool:
        link = TagLink(self.chip, self.sleep)
        if not link.select() or link.uid.hex() != uid.lower():
            return False
        try:
            link.write_code(code, self.codes)
        except TagWriteError:
            return False
        return True


def write_tag_code(chip: Any, uid: str, code: str, sleep: Callable[[float], None] = time.sleep) -> bool:
    """Write `code` on tag `uid` (woken and selected) and read it back; False if it is not there after.
    The link sets the long write timeout; a poller restores its own settings after."""
    link = TagLink(chip, sleep)
    if not link.wake_and_select(bytes.fromhex(uid)):
        return False
    try:
        link.write_code(code, None)
    except TagWriteError:
        return False
    finally:
        link.halt()
    return True
