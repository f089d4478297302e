"""A register-level fake MFRC522 (RC522) with fake cards in its field, for tests and benchmarks.

SPI API: `chip.transfer(data) -> list[int]`; one call is one chip-select-low..high transaction, as
spidev's `xfer2` does. The first byte is the address byte `(reg << 1) & 0x7E`, bit 7 set to read.
Write: `[addr, v1, v2, ...]` writes every value to that register (a FIFO burst). Read:
`[addr1|0x80, addr2|0x80, ..., 0x00]` returns `[0, value(addr1), value(addr2), ...]`: the value of each
addressed register comes in the byte after its address byte, as on the real chip.
`chip.transfers` counts transactions (reset it with `chip.transfers = 0`).

Modelled: FIFO, IRQ registers with their Set1/Set2 bit, Transceive with bit-oriented frames (TxLastBits,
RxAlign, RxLastBits), collisions as the silicon signals them (CollErr together with ParityErr, since the
collided bit breaks its byte's parity; CollReg's CollPos counts from bit 1 of the first FIFO byte, RxAlign
included, 0 meaning 32; CollPosNotValid when a receive saw no collision or one past bit 32; bits after a
collision read 0 when ValuesAfterColl is 0), RFCfgReg's reserved bits (7 and 3..0: they keep their reset
value whatever is written, which the datasheet allows; only RxGain, bits 6..4, takes writes), the timer
(TAuto, prescaler, reload) that ends a receive with no answer, CalcCRC, TxCRCEn/RxCRCEn, MFAuthent
(simplified: key check, no Crypto1), SoftReset, the antenna switch (switching it on powers the cards up
afresh) and the NRSTPD reset line (`chip.set_reset_line(level)`; `hardware.fakes.installed` wires it to a
fake GPIO pin).
Time comes from `clock` (seconds; pass a `VirtualClock` and hook `on_transfer` to model SPI time,
`after_transfer` to mark where the chip's own work ends); frames take their air time at 106 kbit/s.
Cards: `enter(card)`, `leave(card)`, `cards`; `power_up_s`: how long a card needs after entering the field
(or the field coming on) before it answers (ISO 14443-3 allows up to 5 ms; 0 by default).
Faults: `inject(Fault.CRC | PARITY | COLLISION | NO_ANSWER, on=...)` and `lock_up(LockUp.STUCK | GARBAGE)`.
Not modelled: IRQ pin, Transmit/Receive-only commands, Mem, RF-level effects of gain.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware import iso14443 as iso
from hardware.fakes.cards import AirFrame, CardState, FakeCard

__all__ = ["CardState", "FakeCard", "FakeMFRC522", "Fault", "LockUp"]

# Register addresses.
COMMAND, COMM_IEN, DIV_IEN, COMM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(0x01, 0x09)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(0x09, 0x0F)
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = range(0x11, 0x16)
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
RF_CFG = 0x26
RF_CFG_RESERVED = 0x8F  # bit 7 and bits 3..0 of RFCfgReg: reserved; RxGain is bits 6..4
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, T_COUNTER_H, T_COUNTER_L = range(0x2A, 0x30)
VERSION = 0x37

# Commands.
IDLE, MEM, GEN_RANDOM_ID, CALC_CRC, TRANSMIT, NO_CMD_CHANGE, RECEIVE = 0x0, 0x1, 0x2, 0x3, 0x4, 0x7, 0x8
TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0xC, 0xE, 0xF

# CommIrqReg bits.
TX_IRQ, RX_IRQ, IDLE_IRQ, HI_ALERT_IRQ, LO_ALERT_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01
# ErrorReg bits.
BUFFER_OVFL, COLL_ERR, CRC_ERR, PARITY_ERR, PROTOCOL_ERR = 0x10, 0x08, 0x04, 0x02, 0x01

RESET_VALUES = {
    COMMAND: 0x20, COMM_IEN: 0x80, COMM_IRQ: 0x14, WATER_LEVEL: 0x08, CONTROL: 0x10, COLL: 0x80,
    MODE: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, 0x1C: 0x62,
    0x24: 0x26, RF_CFG: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, VERSION: 0x92,
}  # fmt: skip

FIFO_SIZE = 64
XTAL = 13.56e6


class Fault(enum.Enum):
    """A radio fault applied to the next card answer (see `FakeMFRC522.inject`)."""

    NO_ANSWER = "no answer"  # the card's answer is lost: the timer ends the receive
    CRC = "crc"  # one bit of the answer's CRC (or BCC) flips; the chip sees no error itself
    PARITY = "parity"  # one data bit flips and the chip flags ParityErr
    COLLISION = "collision"  # noise: the chip flags a collision in the first bit


class LockUp(enum.Enum):
    """How the chip stops working (see `FakeMFRC522.lock_up`)."""

    STUCK = "stuck"  # registers answer, but commands never finish and the timer never fires; SoftReset cures it
    GARBAGE = "garbage"  # SPI returns noise and writes are lost; only the reset line cures it


@dataclass(slots=True)
class _Pending:
    """A receive in progress: when it ends and what then lands in the chip."""

    at: float
    answer: AirFrame | None
    errors: int
    collision_bit: int | None


class FakeMFRC522:
    """The chip: registers, FIFO, timer, and the cards in its antenna field."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, version: int = 0x92) -> None:
        self.clock = clock
        self.version = version
        self.transfers = 0
        self.bytes_transferred = 0
        self.on_transfer: list[Callable[[int], None]] = []
        self.after_transfer: list[Callable[[], None]] = []
        self.cards: list[FakeCard] = []
        self.power_up_s = 0.0
        self._powered_at: dict[int, float] = {}  # id(card) -> when it can answer
        self.frames_sent: list[list[int]] = []  # air frames the chip sent, for tests
        self.resets = 0
        self._faults: list[tuple[Fault, str]] = []
        self._lockup: LockUp | None = None
        self._reset_line = 1
        self._noise = random.Random(522)
        self._field_on = False
        self._regs = [0] * 64
        self._fifo: list[int] = []
        self._pending: _Pending | None = None
        self._timer_at: float | None = None
        self._power_on()

    # --- test controls ---------------------------------------------------------------------

    def enter(self, card: FakeCard) -> FakeCard:
        """A card comes into the field; it powers up in IDLE."""
        if card not in self.cards:
            card.power_on()
            self.cards.append(card)
            self._powered_at[id(card)] = self.clock() + self.power_up_s
        return card

    def leave(self, card: FakeCard) -> None:
        """A card leaves the field (it loses power and forgets its state)."""
        if card in self.cards:
            self.cards.remove(card)
            card.power_on()

    def inject(self, fault: Fault, *, on: str = "any", count: int = 1) -> None:
        """Apply `fault` to the next `count` card answers to frames of kind `on` (any, reqa, anticoll, select, read)."""
        self._faults.extend([(fault, on)] * count)

    def lock_up(self, mode: LockUp = LockUp.STUCK) -> None:
        """The chip stops working until a SoftReset (STUCK) or a pulse on the reset line (both modes)."""
        self._lockup = mode

    @property
    def locked_up(self) -> LockUp | None:
        return self._lockup

    def set_reset_line(self, level: int) -> None:
        """NRSTPD: low powers the chip down; the rising edge is a hard reset."""
        level = 1 if level else 0
        if level and not self._reset_line:
            self._lockup = None
            self._power_on()
        self._reset_line = level

    def register(self, reg: int) -> int:
        """A register's value without side effects (for tests)."""
        return self._regs[reg]

    # --- SPI -------------------------------------------------------------------------------

    def transfer(self, data: list[int]) -> list[int]:
        """One SPI transaction (see the module docstring)."""
        try:
            return self._transfer(data)
        finally:
            for hook in self.after_transfer:
                hook()

    def _transfer(self, data: list[int]) -> list[int]:
        self.transfers += 1
        self.bytes_transferred += len(data)
        for hook in self.on_transfer:
            hook(len(data))
        if not data or not self._reset_line:
            return [0] * len(data)
        if self._lockup is LockUp.GARBAGE:
            return [self._noise.randrange(256) for _ in data]
        self._advance()
        if data[0] & 0x80:
            out = [0]
            for address in data[:-1]:
                out.append(self._read((address >> 1) & 0x3F))
            return out
        reg = (data[0] >> 1) & 0x3F
        for value in data[1:]:
            self._write(reg, value & 0xFF)
        return [0] * len(data)

    # --- registers -------------------------------------------------------------------------

    def _power_on(self) -> None:
        self.resets += 1
        self._regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self._regs[reg] = value
        self._regs[VERSION] = self.version
        self._fifo = []
        self._pending = None
        self._timer_at = None
        self._antenna(False)

    def _read(self, reg: int) -> int:
        if reg == FIFO_DATA:
            return self._fifo.pop(0) if self._fifo else 0
        if reg == FIFO_LEVEL:
            return len(self._fifo) & 0x7F
        if reg in (T_COUNTER_H, T_COUNTER_L):
            return 0
        return self._regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == FIFO_DATA:
            if len(self._fifo) < FIFO_SIZE:
                self._fifo.append(value)
            else:
                self._regs[ERROR] |= BUFFER_OVFL
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self._fifo = []
                self._regs[ERROR] &= ~BUFFER_OVFL
        elif reg in (COMM_IRQ, DIV_IRQ):
            marked = value & 0x7F
            self._regs[reg] = (self._regs[reg] | marked) if value & 0x80 else (self._regs[reg] & ~marked)
        elif reg == COMMAND:
            self._regs[COMMAND] = (self._regs[COMMAND] & 0x0F) | (value & 0x30)
            self._command(value & 0x0F)
        elif reg == BIT_FRAMING:
            self._regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self._regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif reg == TX_CONTROL:
            self._regs[reg] = value
            self._antenna(bool(value & 0x03))
        elif reg in (VERSION, ERROR, STATUS1, CONTROL):
            pass  # read-only here (timer start/stop bits of ControlReg are not modelled)
        elif reg == STATUS2:
            self._regs[STATUS2] = (self._regs[STATUS2] & 0x08 & value) | (value & 0xC0)
        elif reg == COLL:
            self._regs[COLL] = (value & 0x80) | (self._regs[COLL] & 0x7F)
        elif reg == RF_CFG:
            self._regs[RF_CFG] = (RESET_VALUES[RF_CFG] & RF_CFG_RESERVED) | (value & ~RF_CFG_RESERVED & 0xFF)
        else:
            self._regs[reg] = value

    def _antenna(self, on: bool) -> None:
        """Switching the field on powers the cards up afresh (IDLE); off, they cannot answer."""
        if on and not self._field_on:
            for card in self.cards:
                card.power_on()
                self._powered_at[id(card)] = self.clock() + self.power_up_s
        self._field_on = on

    # --- commands --------------------------------------------------------------------------

    def _set_command(self, command: int) -> None:
        self._regs[COMMAND] = (self._regs[COMMAND] & 0xF0) | command

    def _command(self, command: int) -> None:
        if command == SOFT_RESET:
            if self._lockup is LockUp.STUCK:
                self._lockup = None
            self._power_on()
            return
        if command == NO_CMD_CHANGE:
            return
        self._pending = None
        self._timer_at = None
        if command == IDLE:
            self._set_command(IDLE)
        elif command == CALC_CRC:
            self._set_command(CALC_CRC)
            preset = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}[self._regs[MODE] & 0x03]
            low, high = iso.crc_a(self._fifo, preset)
            self._fifo = []
            self._regs[CRC_RESULT_L], self._regs[CRC_RESULT_H] = low, high
            self._regs[DIV_IRQ] |= 0x04
        elif command == TRANSCEIVE:
            self._set_command(TRANSCEIVE)
            if self._regs[BIT_FRAMING] & 0x80:
                self._transceive()
        elif command == MF_AUTHENT:
            self._set_command(MF_AUTHENT)
            self._authenticate()
        else:
            self._set_command(command)

    def _transceive(self) -> None:
        tx_last_bits = self._regs[BIT_FRAMING] & 0x07
        data = list(self._fifo)
        self._fifo = []
        if self._regs[TX_MODE] & 0x80:
            data = iso.with_crc(data)
            tx_last_bits = 0
        nbits = len(data) * 8 - ((8 - tx_last_bits) % 8)
        self.frames_sent.append(data)
        self._regs[ERROR] &= 0xC0
        self._regs[CONTROL] &= ~0x07
        now = self.clock()
        tx_end = now + nbits * iso.BIT_TIME
        if self._lockup is LockUp.STUCK:
            return
        self._regs[COMM_IRQ] |= TX_IRQ
        answers = []
        if self._field_on:
            frame = AirFrame.of(data, nbits)
            ready = [card for card in self.cards if self._powered_at.get(id(card), 0.0) <= now]  # still powering up
            answers = [a for a in (card.receive(frame) for card in ready) if a is not None]
        kind = _frame_kind(data, nbits)
        answer, errors, collision_bit = self._combine(answers, kind)
        self._start_timer(tx_end)
        answer_starts = tx_end + iso.FRAME_DELAY
        if answer is not None and (self._timer_at is None or self._timer_at > answer_starts):
            self._timer_at = None  # the first bits received stop the timer
            at = answer_starts + len(answer.bits) * iso.BIT_TIME
            self._pending = _Pending(at, answer, errors, collision_bit)

    def _authenticate(self) -> None:
        fifo = list(self._fifo)
        self._fifo = []
        if self._lockup is LockUp.STUCK:
            return
        now = self.clock()
        self._start_timer(now + 12 * 8 * iso.BIT_TIME)
        if len(fifo) < 12 or fifo[0] not in (0x60, 0x61):
            return
        for card in self.cards:
            if self._field_on and card.authenticate(fifo[0], fifo[1], bytes(fifo[2:8]), bytes(fifo[8:12])):
                self._pending = _Pending(now + 1e-3, None, 0, None)
                return

    def _start_timer(self, start: float) -> None:
        if not self._regs[T_MODE] & 0x80:
            self._timer_at = None
            return
        prescaler = ((self._regs[T_MODE] & 0x0F) << 8) | self._regs[T_PRESCALER]
        reload = (self._regs[T_RELOAD_H] << 8) | self._regs[T_RELOAD_L]
        self._timer_at = start + (reload + 1) * (2 * prescaler + 1) / XTAL

    def _combine(self, answers: list[AirFrame], kind: str) -> tuple[AirFrame | None, int, int | None]:
        """What the receiver makes of the cards' answers, faults included: (frame, ErrorReg bits, collision bit)."""
        fault = self._take_fault(kind) if answers else None
        if fault is Fault.NO_ANSWER or not answers:
            return None, 0, None
        bits = list(answers[0].bits)
        errors = 0
        collision: int | None = None
        for other in answers[1:]:
            length = max(len(bits), len(other.bits))
            a = bits + [0] * (length - len(bits))
            b = list(other.bits) + [0] * (length - len(other.bits))
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                if x != y and (collision is None or index < collision):
                    collision = index
                    break
            bits = [x | y for x, y in zip(a, b, strict=True)]
        if fault is Fault.CRC and len(bits) >= 8:
            bits[-1 if len(bits) >= 24 else len(bits) - 8] ^= 1
        elif fault is Fault.PARITY:
            bits[0] ^= 1
            errors |= PARITY_ERR
        elif fault is Fault.COLLISION:
            collision = 0
        if collision is not None:
            errors |= COLL_ERR | PARITY_ERR  # the collided bit's byte fails its parity check too
            if not self._regs[COLL] & 0x80:
                bits = bits[:collision] + [0] * (len(bits) - collision)
        return AirFrame(tuple(bits)), errors, collision

    def _take_fault(self, kind: str) -> Fault | None:
        for index, (fault, on) in enumerate(self._faults):
            if on in ("any", kind):
                del self._faults[index]
                return fault
        return None

    # --- time ------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Land whatever the radio and the timer have done by now."""
        now = self.clock()
        pending = self._pending
        if pending is not None and pending.at <= now:
            self._pending = None
            self._timer_at = None
            if pending.answer is None:  # MFAuthent succeeded
                self._regs[STATUS2] |= 0x08
                self._regs[COMM_IRQ] |= IDLE_IRQ
                self._set_command(IDLE)
            else:
                self._land(pending)
        if self._timer_at is not None and self._timer_at <= now:
            self._timer_at = None
            self._regs[COMM_IRQ] |= TIMER_IRQ

    def _land(self, pending: _Pending) -> None:
        assert pending.answer is not None
        rx_align = (self._regs[BIT_FRAMING] >> 4) & 0x07
        bits = list(pending.answer.bits)
        data = iso.from_bits(bits, rx_align)
        self._fifo = data[:FIFO_SIZE]
        self._regs[CONTROL] = (self._regs[CONTROL] & ~0x07) | ((rx_align + len(bits)) % 8)
        errors = pending.errors
        if self._regs[RX_MODE] & 0x80 and len(data) >= 3 and not iso.crc_ok(data):
            errors |= CRC_ERR
        self._regs[ERROR] = (self._regs[ERROR] & 0xC0) | errors
        if pending.collision_bit is not None:
            position = rx_align + pending.collision_bit + 1
            self._regs[COLL] = (self._regs[COLL] & 0x80) | (position & 0x1F if position <= 32 else 0x20)
        else:
            self._regs[COLL] = (self._regs[COLL] & 0x80) | 0x20  # CollPosNotValid: no collision seen
        self._regs[COMM_IRQ] |= RX_IRQ | (ERR_IRQ if errors else 0)


def _frame_kind(data: list[int], nbits: int) -> str:
    if nbits == 7 and data and data[0] in (iso.REQA, iso.WUPA):
        return "reqa"
    if len(data) >= 2 and data[0] in iso.SEL_CL:
        return "select" if data[1] == iso.NVB_SELECT else "anticoll"
    if data and data[0] == iso.READ:
        return "read"
    return "other"
