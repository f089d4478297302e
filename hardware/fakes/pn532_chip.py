"""A fake PN532 on a pseudo-terminal: it speaks the chip's HSU frame protocol (preamble, LEN/LCS, TFI,
DCS, ACK and error frames) to whatever opens `port`, so the real driver and pyserial talk to it.

Cards are put in its field and taken out (`put`, `take`); InListPassiveTarget lists up to two of
them as the chip does (see `Pn532Chip`), NTAG READ and WRITE reach their memory. Each byte costs its
time on the wire at `baud`, and each activation try its radio time, so latencies are not free.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.pn532 import ACK, CHIP, FrameParser, frame

SYNTAX_ERROR = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
SILENT = object()  # an answer the chip never sends
STATUS_TIMEOUT = 0x01


@dataclass
class FakeNtag:
    """An NTAG21x in the fake's field: its 7-byte UID and its pages."""

    uid: bytes
    memory: bytearray = field(default_factory=lambda: bytearray(45 * 4))

    def write_user(self, data: bytes) -> None:
        self.memory[16 : 16 + len(data)] = data


IDLE, ACTIVE, ACTIVE_STAR, HALT = "idle", "active", "active*", "halt"
RETRY_TIMEOUT_S = {n: 100e-6 * 2 ** (n - 1) for n in range(1, 16)} | {0: 0.0}
"""RFConfiguration item 2's fRetryTimeout codes (UM0701-02 §7.3.1): 0x01 100 µs, doubling to 0x0A 51.2 ms."""


class Pn532Chip:
    """What the chip does with a command, whatever the wire: its field of cards and its answers.

    Modelled from the User Manual (UM0701-02) and public reports on real modules; each behaviour is
    tested in tests/readers/test_pn532_chip_model.py against today's reader, none checked on a module:

    * **ISO 14443-3 card states** (the PICC state machine of ISO/IEC 14443-3, type A). A card entering the
      field is IDLE and answers REQA; selected, it is ACTIVE. A new InListPassiveTarget sends REQA again:
      an ACTIVE card does not answer it and drops back to IDLE, so it answers the chip's next try of the
      same command; a card selected after a WUPA (ACTIVE*, from HALT) drops back to HALT instead, and
      answers no REQA again until the field goes off.
    * **Two targets** (MaxTg=2). To look for a second card the chip halts the first it found (HLTA). A second
      card found stays ACTIVE, the first HALT; when there is none, the chip wakes and selects the first
      again (WUPA, SELECT: it must stay reachable for InDataExchange), which leaves it ACTIVE*. So a card
      left resting is listed once, then never while it rests; two resting give "2, then 1, then none"
      (NXP community thread 481864, MaxTg=2, firmware 1.6), and one tag is found "on exactly every second
      attempt" only where each silent command is abandoned (next point). With MaxTg=1 nothing is halted and
      "there is no problem at all" (same thread), unless the chip makes a single try (MxRtyPassiveActivation
      0): then a held card is found on alternate polls (Adafruit-PN532 #52).
    * **An abandoned command resets the field** (inferred, not documented): with the chip's default infinite
      retries an InListPassiveTarget with nothing to find never answers; the host's next frame abandons it
      (UM0701-02: an ACK aborts the command), and the thread's sequence repeats ("2, 1, none" again), and
      sending every command twice makes the reads reliable: every card is IDLE again after an abandoned
      listing, as after a field off.
    * **Field off resets every card.** RFConfiguration item 1 with the RF bit clear cuts the field: every
      card loses power and is IDLE when it comes back (ESPHome #9875's driver turns the field off after
      every poll for this reason). InListPassiveTarget turns the field on again. InRelease makes the
      chip's targets IDLE again (model: how a real chip leaves them is not checked).
    * **Retries and fRetryTimeout.** With no card, InListPassiveTarget tries MxRtyPassiveActivation + 1
      times (RFConfiguration item 5; 0xFF: for ever), one try every fRetryTimeout (item 2, third byte,
      default 0x0A = 51.2 ms), each try looking at the field as it is then; an empty poll with one retry
      costs about 100 ms (Adafruit CircuitPython PN532 #50: "sometimes >100ms").
    * **Silence after an ACK.** The chip acknowledges a command, then may send nothing: for ever with
      infinite retries and no card (WMT-GmbH/pn532 #21, NXP community thread 715392), or when an answer is
      lost on the wire (`lose_answers`).

    `clock` (a VirtualClock) makes every cost a move of virtual time instead of a sleep; cards then enter
    and leave at given times (`schedule`)."""

    def __init__(self, *, activation_s: float = 0.003, firmware: tuple[int, int, int] = (0x32, 1, 6),
                 clock: Any = None) -> None:
        self.activation_s = activation_s
        self.firmware = firmware
        self.clock = clock
        self.mute = False
        self.lose_answers = 0  # the next answers are lost after their ACK (silence after an ACK)
        self.garble = 0  # the next answers arrive with a broken checksum
        self.commands: list[int] = []
        self.listings: list[int] = []  # how many targets each InListPassiveTarget gave
        self.retries = 0xFF  # MxRtyPassiveActivation: the chip's default is to try for ever
        self.retry_timeout_s = RETRY_TIMEOUT_S[0x0A]
        self.field_on = False
        self._field: list[FakeNtag] = []
        self._times: dict[int, tuple[float, float]] = {}  # id(card) → (enters, leaves) on the clock
        self._state: dict[int, str] = {}
        self._listed: list[FakeNtag] = []
        self._abandoned = False  # the last listing never answered: the next frame abandons it
        self._lock = threading.Lock()

    # --- the field -----------------------------------------------------------------------

    def put(self, card: FakeNtag) -> None:
        """A card enters the field (on top of any already there), IDLE."""
        with self._lock:
            if card not in self._field:
                self._field.append(card)
                self._state[id(card)] = IDLE

    def take(self, card: FakeNtag) -> None:
        """A card leaves the field."""
        with self._lock:
            if card in self._field:
                self._field.remove(card)
            self._times.pop(id(card), None)

    def schedule(self, card: FakeNtag, enters: float, leaves: float) -> None:
        """With a `clock`: the card is in the field from `enters` until `leaves` (clock seconds)."""
        with self._lock:
            if card not in self._field:
                self._field.append(card)
            self._times[id(card)] = (enters, leaves)
            self._state[id(card)] = IDLE

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else time.monotonic()

    def _spend(self, seconds: float) -> None:
        if self.clock is not None:
            self.clock.sleep(seconds)
        else:
            time.sleep(seconds)

    def _present(self) -> list[FakeNtag]:
        """The cards in the field now; a scheduled card that left comes back IDLE if it enters again."""
        now = self._now()
        present = []
        for card in self._field:
            span = self._times.get(id(card))
            if span is None or span[0] <= now < span[1]:
                present.append(card)
            else:
                self._state[id(card)] = IDLE  # out of the field: no power, no state
        return present

    def _frames_in(self, parser: FrameParser, data: bytes, send: Callable[[bytes], None] | None = None) -> list[bytes]:
        """The replies (ACK, then the answer or a syntax error frame) to the command frames in `data`; each
        goes to `send` as soon as it is ready (the ACK before the command runs, as the chip does)."""
        replies: list[bytes] = []
        for kind, body in parser.feed(data):
            self._abandon()  # any frame, an ACK too, abandons a listing that never answered
            if kind != "frame" or len(body) < 2 or body[0] != 0xD4:
                continue
            if send is not None:
                send(ACK)
            else:
                replies.append(ACK)
            answer = self._answer(body[1], body[2:])
            if answer is SILENT:
                continue
            if self.lose_answers > 0:
                self.lose_answers -= 1
                continue
            reply = frame(CHIP, bytes([body[1] + 1]) + answer) if isinstance(answer, bytes) else SYNTAX_ERROR
            if self.garble > 0:  # noise on the wire: the answer's checksum is broken
                self.garble -= 1
                reply = reply[:-2] + bytes([reply[-2] ^ 0xFF]) + reply[-1:]
            if send is not None:
                send(reply)
            else:
                replies.append(reply)
        return replies

    def _answer(self, code: int, data: bytes) -> object:
        self.commands.append(code)
        if code == 0x02:
            return bytes([*self.firmware, 0x07])
        if code == 0x14:
            return b""
        if code == 0x32:
            self._configure(data)
            return b""
        if code == 0x52:
            with self._lock:
                for card in self._listed:
                    self._state[id(card)] = IDLE
                self._listed = []
            return b"\x00"
        if code == 0x4A and len(data) >= 2 and data[1] == 0x00 and data[0] in (1, 2):
            return self._list(data[0])
        if code == 0x40 and data:
            return self._exchange(data[0], data[1:])
        return None

    def _configure(self, data: bytes) -> None:
        """RFConfiguration: item 1 the field (bit 1: RF on), item 2 the timings, item 5 the retries."""
        if data[:1] == b"\x01" and len(data) >= 2:
            on = bool(data[1] & 0x02)
            if self.field_on and not on:
                with self._lock:
                    for card in self._field:
                        self._state[id(card)] = IDLE
                    self._listed = []
            self.field_on = on
        elif data[:1] == b"\x02" and len(data) >= 4:
            self.retry_timeout_s = RETRY_TIMEOUT_S.get(data[3], RETRY_TIMEOUT_S[0x0F])
        elif data[:1] == b"\x05" and len(data) >= 4:
            self.retries = data[3]

    def _list(self, most: int) -> object:
        """InListPassiveTarget at 106 kbps type A, try after try, the cards' states as modelled above."""
        self.field_on = True
        tries = 0
        began = self._now()
        with self._lock:
            dropped = set()  # selected when the listing began: they miss its first REQA, and fall back
            for card in self._field:
                state = self._state.get(id(card))
                if state == ACTIVE:
                    self._state[id(card)] = IDLE
                    dropped.add(id(card))
                elif state == ACTIVE_STAR:
                    self._state[id(card)] = HALT
        found: list[FakeNtag] = []
        while True:
            with self._lock:
                present = self._present()
                idle = [c for c in present if self._state.get(id(c)) == IDLE]
                answering = [c for c in idle if tries > 0 or id(c) not in dropped]
                if answering:
                    found = answering[:1]
                    if most == 2:  # the first halted, REQA again: the cards that fell back answer it too
                        found += [c for c in idle if c is not answering[0]][:1]
            if found:
                break
            tries += 1
            self._spend(max(0.0, began + tries * self.retry_timeout_s - self._now()))  # each try waits this long
            if self.retries != 0xFF and tries > self.retries:
                break
            if (self.retries == 0xFF and tries > 50) or self._interrupted():
                self._abandoned = True
                return SILENT  # no card for ever, or the host aborted: the answer never comes
        self._spend(self.activation_s * len(found))
        with self._lock:
            for card in found:
                self._state[id(card)] = ACTIVE
            if most == 2 and len(found) == 2:
                self._state[id(found[0])] = HALT  # halted to reach the second
            elif most == 2 and found:
                self._state[id(found[0])] = ACTIVE_STAR  # halted to look for a second, then woken and selected
            self._listed = found
        self.listings.append(len(found))
        out = bytes([len(found)])
        for number, card in enumerate(found, start=1):
            out += bytes([number, 0x00, 0x44, 0x00, len(card.uid)]) + card.uid
        return out

    def _interrupted(self) -> bool:
        """Whether the host sent something meanwhile: any frame (an ACK first) aborts the command under way
        (UM0701-02: an ACK frame from the host aborts the current command)."""
        return False

    def _abandon(self) -> None:
        """The host's next frame after a listing that never answered: every card IDLE, as after a field off."""
        if self._abandoned:
            self._abandoned = False
            with self._lock:
                for card in self._field:
                    self._state[id(card)] = IDLE
                self._listed = []

    def _exchange(self, number: int, data: bytes) -> bytes:
        with self._lock:
            card = self._listed[number - 1] if 0 < number <= len(self._listed) else None
            if card is None or card not in self._present():
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
            self._frames_in(parser, data, self._send)

    def _interrupted(self) -> bool:
        return bool(select.select([self._master], [], [], 0)[0])

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
