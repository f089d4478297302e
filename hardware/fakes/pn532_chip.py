"""A fake PN532 on a pseudo-terminal: it speaks the chip's HSU frame protocol (preamble, LEN/LCS, TFI,
DCS, ACK and error frames) to whatever opens `port`, so the real driver and pyserial talk to it.

Cards are put in its field and taken out (`put`, `take`); InListPassiveTarget lists up to two of
them, NTAG READ and WRITE reach their memory. Each byte costs its time on the wire at `baud`, and
an InListPassiveTarget costs `activation_s` of radio time, so latencies are not free.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import tty
from dataclasses import dataclass, field
from typing import Any

from hardware.pn532 import ACK, CHIP, FrameParser, frame

SYNTAX_ERROR = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
STATUS_TIMEOUT = 0x01


@dataclass
class FakeNtag:
    """An NTAG21x in the fake's field: its 7-byte UID and its pages."""

    uid: bytes
    memory: bytearray = field(default_factory=lambda: bytearray(45 * 4))

    def write_user(self, data: bytes) -> None:
        self.memory[16 : 16 + len(data)] = data


class Pn532Chip:
    """What the chip does with a command, whatever the wire: its field of cards and its answers."""

    def __init__(self, *, activation_s: float = 0.002, firmware: tuple[int, int, int] = (0x32, 1, 6)) -> None:
        self.activation_s = activation_s
        self.firmware = firmware
        self.mute = False
        self.commands: list[int] = []
        self._field: list[FakeNtag] = []
        self._listed: list[FakeNtag] = []
        self._lock = threading.Lock()

    # --- the field -----------------------------------------------------------------------

    def put(self, card: FakeNtag) -> None:
        """A card enters the field (on top of any already there)."""
        with self._lock:
            if card not in self._field:
                self._field.append(card)

    def take(self, card: FakeNtag) -> None:
        """A card leaves the field."""
        with self._lock:
            if card in self._field:
                self._field.remove(card)

    def _frames_in(self, parser: FrameParser, data: bytes) -> list[bytes]:
        """The replies (ACK, then the answer or a syntax error frame) to the command frames in `data`."""
        replies: list[bytes] = []
        for kind, body in parser.feed(data):
            if kind != "frame" or len(body) < 2 or body[0] != 0xD4:
                continue
            answer = self._answer(body[1], body[2:])
            replies += [ACK, SYNTAX_ERROR if answer is None else frame(CHIP, bytes([body[1] + 1]) + answer)]
        return replies

    def _answer(self, code: int, data: bytes) -> bytes | None:
        self.commands.append(code)
        if code == 0x02:
            return bytes([*self.firmware, 0x07])
        if code in (0x14, 0x32):
            return b""
        if code == 0x52:
            self._listed = []
            return b"\x00"
        if code == 0x4A and len(data) >= 2 and data[1] == 0x00 and data[0] in (1, 2):
            time.sleep(self.activation_s)
            with self._lock:
                self._listed = list(self._field[: data[0]])
            out = bytes([len(self._listed)])
            for number, card in enumerate(self._listed, start=1):
                out += bytes([number, 0x00, 0x44, 0x00, len(card.uid)]) + card.uid
            return out
        if code == 0x40 and data:
            return self._exchange(data[0], data[1:])
        return None

    def _exchange(self, number: int, data: bytes) -> bytes:
        with self._lock:
            card = self._listed[number - 1] if 0 < number <= len(self._listed) else None
            if card is None or card not in self._field:
                return bytes([STATUS_TIMEOUT])
        if data[:1] == b"\x30" and len(data) == 2:
            start = data[1] * 4
            chunk = bytes(card.memory[start : start + 16])
            return b"\x00" + chunk.ljust(16, b"\x00")
        if data[:1] == b"\xa2" and len(data) == 6 and data[1] >= 4:
            start = data[1] * 4
            card.memory[start : start + 4] = data[2:6]
            return b"\x00"
        return bytes([STATUS_TIMEOUT])


class FakePn532(Pn532Chip):
    """The chip on HSU: its side of a pty; `port` is the path the host opens. It sleeps until woken."""

    def __init__(self, *, baud: int = 115200, asleep: bool = True, **chip: Any) -> None:
        super().__init__(**chip)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.baud = baud
        self.asleep = asleep
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="fake-pn532", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        parser = FrameParser()
        while not self._stop.is_set():
            if not select.select([self._master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self._master, 512)
            except OSError:
                return
            self._wire(len(data))
            if self.asleep and b"\x55" in data:
                self.asleep = False
            if self.asleep or self.mute:
                continue
            for reply in self._frames_in(parser, data):
                self._send(reply)

    def _wire(self, count: int) -> None:
        time.sleep(count * 10 / self.baud)

    def _send(self, data: bytes) -> None:
        self._wire(len(data))
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def close(self) -> None:
        """Stop answering and close the pty."""
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> FakePn532:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FakePn532I2c(Pn532Chip):
    """The chip on I2C, as an i2c-dev device: `write` takes a command frame, `read(n)` gives the ready byte
    (0 until a reply is waiting) and then that reply, padded with zeros, as the chip's I2C side does."""

    def __init__(self, **chip: Any) -> None:
        super().__init__(**chip)
        self._parser = FrameParser()
        self._replies: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        if not self.mute:
            self._replies += self._frames_in(self._parser, bytes(data))

    def read(self, count: int) -> bytes:
        if not self._replies:
            return bytes(count)
        reply = self._replies.pop(0)
        return (b"\x01" + reply).ljust(count, b"\x00")[:count]

    def close(self) -> None:
        self.closed = True
