"""The PN532's host protocol (normal information frames, ACK, error frames) and the few commands a pot needs.

A frame is `00 00 FF LEN LCS TFI DATA… DCS 00`: LEN counts TFI and data, LCS makes LEN+LCS zero mod
256, TFI is D4 (host to chip) or D5 (chip to host), DCS makes TFI+DATA+DCS zero mod 256. The chip
answers each command with an ACK frame (`00 00 FF 00 FF 00`), then a response whose first data byte
is the command code plus one. The same frames travel over HSU (UART) and, behind a ready byte, I2C.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

PREAMBLE = b"\x00\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
HOST, CHIP = 0xD4, 0xD5
WAKEUP = b"\x55\x55" + bytes(14)  # HSU: wakes a sleeping PN532 before its first command

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_DATA_EXCHANGE = 0x40
IN_LIST_PASSIVE_TARGET = 0x4A
IN_RELEASE = 0x52
NTAG_READ, NTAG_WRITE = 0x30, 0xA2


class Pn532Error(RuntimeError):
    """The chip did not answer, answered something broken, or reported an error status."""


def frame(tfi: int, data: bytes) -> bytes:
    """One normal information frame carrying `data` after the frame identifier `tfi`."""
    body = bytes([tfi]) + data
    if len(body) > 0xFF:
        raise ValueError("PN532 frame too long")
    length = len(body)
    return PREAMBLE + bytes([length, (-length) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0x00])


class FrameParser:
    """Bytes in, frames out: `feed` returns ("ack"|"nack"|"frame"|"error", body) for each complete one.

    Noise before a preamble is skipped; a frame whose checksums fail is reported as ("error", b"")."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[tuple[str, bytes]]:
        self._buffer += data
        out: list[tuple[str, bytes]] = []
        while True:
            start = self._buffer.find(b"\x00\xff")
            if start < 0:
                self._buffer = self._buffer[-1:]
                return out
            rest = self._buffer[start + 2 :]
            if len(rest) < 2:
                self._buffer = self._buffer[start:]
                return out
            length, lcs = rest[0], rest[1]
            if (length, lcs) == (0x00, 0xFF):
                out.append(("ack", b""))
                self._buffer = rest[3:] if len(rest) >= 3 else rest[2:]
                continue
            if (length, lcs) == (0xFF, 0x00):
                out.append(("nack", b""))
                self._buffer = rest[3:] if len(rest) >= 3 else rest[2:]
                continue
            if (length + lcs) & 0xFF:
                out.append(("error", b""))
                self._buffer = rest[2:]
                continue
            if len(rest) < 2 + length + 1:
                self._buffer = self._buffer[start:]
                return out
            body = rest[2 : 2 + length]
            dcs = rest[2 + length]
            self._buffer = rest[2 + length + 1 :]
            out.append(("frame", body) if (sum(body) + dcs) & 0xFF == 0 else ("error", b""))


@dataclasses.dataclass(frozen=True)
class Target:
    """A card the chip listed: its number for InDataExchange, and its ISO 14443-3 facts."""

    number: int
    uid: bytes
    sens_res: bytes
    sel_res: int


def parse_targets(data: bytes) -> list[Target]:
    """InListPassiveTarget's answer at 106 kbps type A: NbTg, then per target Tg, SENS_RES, SEL_RES, UID (ATS)."""
    if not data:
        raise Pn532Error("empty InListPassiveTarget answer")
    count, index, targets = data[0], 1, []
    for _ in range(count):
        if index + 5 > len(data):
            raise Pn532Error("InListPassiveTarget answer cut short")
        number, sens_res, sel_res, uid_len = data[index], data[index + 1 : index + 3], data[index + 3], data[index + 4]
        uid = data[index + 5 : index + 5 + uid_len]
        if len(uid) != uid_len or uid_len not in (4, 7, 10):
            raise Pn532Error(f"InListPassiveTarget gave a {uid_len}-byte UID")
        index += 5 + uid_len
        if sel_res & 0x20 and index < len(data):  # ISO 14443-4 card: its ATS follows, length first
            index += data[index]
        targets.append(Target(number, bytes(uid), bytes(sens_res), sel_res))
    return targets


class Transport(Protocol):
    """How frames reach the chip: write bytes, read what arrived (b'' after `timeout` seconds)."""

    def write(self, data: bytes) -> None: ...

    def read(self, timeout: float) -> bytes: ...

    def close(self) -> None: ...


class Pn532:
    """The commands Marmite uses, over any `Transport`; each waits for the ACK, then the answer."""

    def __init__(self, transport: Transport, *, ack_timeout: float = 0.1, answer_timeout: float = 0.5,
                 clock: Callable[[], float] | None = None) -> None:
        import time

        self.transport = transport
        self.ack_timeout = ack_timeout
        self.answer_timeout = answer_timeout
        self._clock = clock or time.monotonic
        self._parser = FrameParser()
        self._pending: list[tuple[str, bytes]] = []  # frames parsed but not yet taken (an ACK and its answer
        # often arrive in one read)

    def command(self, code: int, data: bytes = b"", answer_timeout: float | None = None) -> bytes:
        """Send command `code`, return the answer's data after its code byte; Pn532Error otherwise."""
        while self.transport.read(0.0):  # what is left of an earlier, abandoned exchange is dropped
            pass
        self._parser = FrameParser()
        self._pending = []
        self.transport.write(frame(HOST, bytes([code]) + data))
        self._expect("ack", self.ack_timeout, code)
        body = self._expect("frame", self.answer_timeout if answer_timeout is None else answer_timeout, code)
        if len(body) < 2 or body[0] != CHIP:
            if body[:1] == b"\x7f":
                raise Pn532Error(f"the PN532 refused command {code:02X} (syntax error frame)")
            raise Pn532Error(f"unexpected frame from the PN532: {body.hex()}")
        if body[1] != code + 1:
            raise Pn532Error(f"the PN532 answered {body[1]:02X} to command {code:02X}")
        return body[2:]

    def _expect(self, kind: str, timeout: float, code: int) -> bytes:
        deadline = self._clock() + timeout
        while True:
            while self._pending:
                got, body = self._pending.pop(0)
                if got == kind:
                    return body
                if got in ("nack", "error"):
                    raise Pn532Error(f"the PN532 sent a broken or refused frame to command {code:02X}")
            left = deadline - self._clock()
            if left <= 0:
                what = "acknowledge" if kind == "ack" else "answer"
                self.transport.write(ACK)  # the manual's way to abort the command under way
                raise Pn532Error(f"the PN532 did not {what} command {code:02X}: check its wiring and mode")
            self._pending.extend(self._parser.feed(self.transport.read(left)))

    def wake(self) -> None:
        """Wake the chip (on HSU it sleeps after power-up until it hears 0x55s) and leave SAM out (normal
        mode, no IRQ)."""
        if getattr(self.transport, "needs_wakeup", True):
            self.transport.write(WAKEUP)
        self.command(SAM_CONFIGURATION, bytes([0x01, 0x14, 0x00]))

    def firmware(self) -> tuple[int, int, int]:
        """(IC, version, revision): 0x32 for a PN532."""
        data = self.command(GET_FIRMWARE_VERSION)
        if len(data) < 4:
            raise Pn532Error("short GetFirmwareVersion answer")
        return data[0], data[1], data[2]

    def set_retries(self, passive_activation: int) -> None:
        """RFConfiguration item 5: how often InListPassiveTarget retries before saying 'no card'."""
        self.command(RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, passive_activation]))

    def set_retry_timeout(self, code: int) -> None:
        """RFConfiguration item 2: fRetryTimeout, the time between two activation tries (0x05: 1.6 ms;
        the chip's default 0x0A is 51.2 ms); fATR_RES_Timeout left at its default 0x0B."""
        self.command(RF_CONFIGURATION, bytes([0x02, 0x00, 0x0B, code]))

    def field(self, on: bool) -> None:
        """RFConfiguration item 1: the RF field on or off (off: every card in it loses power and forgets
        being selected or halted; InListPassiveTarget turns it on again)."""
        self.command(RF_CONFIGURATION, bytes([0x01, 0x02 if on else 0x00]))

    def list_targets(self, most: int = 2, answer_timeout: float | None = None) -> list[Target]:
        """InListPassiveTarget at 106 kbps type A: up to `most` (1 or 2) cards, resolved by the chip."""
        return parse_targets(self.command(IN_LIST_PASSIVE_TARGET, bytes([most, 0x00]), answer_timeout))

    def exchange(self, target: int, data: bytes) -> bytes:
        """InDataExchange with a listed target; Pn532Error with the status when the card failed."""
        answer = self.command(IN_DATA_EXCHANGE, bytes([target]) + data)
        if not answer or answer[0] & 0x3F:
            status = answer[0] & 0x3F if answer else -1
            raise Pn532Error(f"the card did not answer (PN532 status {status:02X})")
        return answer[1:]

    def read_pages(self, target: int, page: int) -> bytes:
        """NTAG READ: sixteen bytes from `page`."""
        data = self.exchange(target, bytes([NTAG_READ, page]))
        if len(data) != 16:
            raise Pn532Error(f"NTAG READ gave {len(data)} bytes")
        return data

    def write_page(self, target: int, page: int, data: bytes) -> None:
        """NTAG WRITE: four bytes at `page`."""
        self.exchange(target, bytes([NTAG_WRITE, page]) + data)

    def release(self) -> None:
        """InRelease every target."""
        self.command(IN_RELEASE, b"\x00")
