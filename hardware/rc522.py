"""ISO 14443-3 on an RC522, on top of the `mfrc522` package's register access (`Read_/Write_MFRC522`, `spi`).

What the package lacks is written here: full anticollision with cascade levels chosen by the SAK cascade bit,
HLTA after each read, a short receive timeout, waits that sleep instead of spinning, and lock-up detection.
One empty poll is 7 SPI transfers: six register writes and one burst read of the status registers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from hardware import iso14443 as iso

# Registers and commands (MFRC522 datasheet, section 9).
COMMAND, COMM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = (
    0x01,
    0x04,
    0x06,
    0x09,
    0x0A,
    0x0C,
    0x0D,
    0x0E,
)
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK, RF_CFG = 0x11, 0x12, 0x13, 0x14, 0x15, 0x26
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
RX_IRQ, ERR_IRQ, TIMER_IRQ = 0x20, 0x02, 0x01
COLL_ERR, PARITY_ERR, PROTOCOL_ERR, BUFFER_OVFL = 0x08, 0x02, 0x01, 0x10

TIMER_PRESCALER = 169  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: one timer tick is 25 µs
TIMER_TICK = (2 * TIMER_PRESCALER + 1) / 13.56e6
GAIN_CODES = {18: 0, 23: 1, 33: 4, 38: 5, 43: 6, 48: 7}  # RFCfgReg RxGain, in dB
CHIP_NAMES = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522", 0x12: "RC522 clone", 0xB2: "FM17522 clone"}
NO_CHIP_VERSIONS = (0x00, 0xFF)


class RegisterAccess(Protocol):
    """The part of `mfrc522.MFRC522` this driver uses: its register access and its spidev handle."""

    spi: Any

    def Write_MFRC522(self, addr: int, val: int) -> None: ...

    def Read_MFRC522(self, addr: int) -> int: ...


class ChipError(Exception):
    """The RC522 itself misbehaves (no interrupt, impossible register values): a reset may cure it."""


class RadioError(Exception):
    """The air exchange failed (collision left unresolved, CRC, BCC, parity): try again on the next poll."""


@dataclass(frozen=True, slots=True)
class RC522Config:
    """Wiring and tuning; the defaults suit the wiring in hardware/README.md."""

    bus: int = 0
    device: int = 0
    speed_hz: int = 1_000_000
    reset_pin: int = 25  # BCM numbering (header pin 22)
    gain_db: int = 33  # the chip's own default; 48 reaches further, and further into the pile too
    timeout_ms: float = 1.0  # receive timeout: a card answers within 0.1 ms, so 1 ms is plenty
    poll_ms: float = 10.0  # one poll every 10 ms (at most 20 ms with a card read in between)
    debounce_s: float = 1.0  # the same UID again within this time is the same passage
    max_errors: int = 3  # chip errors in a row before a reset

    def __post_init__(self) -> None:
        if self.gain_db not in GAIN_CODES:
            raise ValueError(f"gain must be one of {sorted(GAIN_CODES)} dB, not {self.gain_db}")
        if not 0.1 <= self.timeout_ms <= 50:
            raise ValueError("timeout_ms must be between 0.1 and 50")
        if not 1 <= self.poll_ms <= 20:
            raise ValueError("poll_ms must be between 1 and 20 (a card falls through the field in about 50 ms)")

    @classmethod
    def from_options(cls, options: dict[str, str]) -> RC522Config:
        """Build from `--reader-option KEY=VALUE` strings; a clear ValueError for a bad key or value."""
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, text in options.items():
            if key not in types:
                raise ValueError(f"unknown rc522 option {key!r}; known: {', '.join(types)}")
            convert = float if types[key] in (float, "float") else int
            try:
                values[key] = convert(text)
            except ValueError:
                raise ValueError(f"rc522 option {key}={text!r} is not a number") from None
        return cls(**values)


@dataclass(slots=True)
class PollResult:
    """What one poll found: UIDs (lower-case hex) and the errors met on the way."""

    uids: list[str] = field(default_factory=list)
    radio_errors: list[str] = field(default_factory=list)
    chip_error: str | None = None


@dataclass(frozen=True, slots=True)
class _Frame:
    data: list[int]
    nbits: int  # valid bits, counted from the first FIFO byte's bit 0 (RxAlign included)
    errors: int


class RC522Driver:
    """The protocol on an initialised `mfrc522.MFRC522`; `clock` and `sleep` are injectable for tests."""

    MAX_CARDS_PER_POLL = 4

    def __init__(
        self,
        chip: RegisterAccess,
        config: RC522Config = RC522Config(),
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._chip = chip
        self.config = config
        self._clock = clock
        self._sleep = sleep
        self._reload = max(1, round(config.timeout_ms / 1000 / TIMER_TICK)) - 1
        self._expected: tuple[int, ...] = ()
        self.version = 0

    # --- set-up and health -----------------------------------------------------------------

    def configure(self) -> None:
        """Program timer, modulation, gain and anticollision mode, switch the antenna on, and check it all."""
        w = self._chip.Write_MFRC522
        w(T_MODE, 0x80 | (TIMER_PRESCALER >> 8))  # TAuto: the timer starts at the end of each transmission
        w(T_PRESCALER, TIMER_PRESCALER & 0xFF)
        w(T_RELOAD_H, self._reload >> 8)
        w(T_RELOAD_L, self._reload & 0xFF)
        w(TX_ASK, 0x40)  # 100 % ASK, as ISO 14443 type A requires
        w(MODE, 0x3D)  # CRC preset 0x6363
        w(TX_MODE, 0x00)  # CRC_A is computed here, so the chip neither adds nor checks it
        w(RX_MODE, 0x00)
        w(COLL, 0x00)  # ValuesAfterColl = 0: bits after a collision read as 0
        w(RF_CFG, GAIN_CODES[self.config.gain_db] << 4)
        w(TX_CONTROL, self._chip.Read_MFRC522(TX_CONTROL) | 0x03)
        self.version = self._chip.Read_MFRC522(VERSION)
        self._expected = (self.version, self._reload & 0xFF)
        if self.version in NO_CHIP_VERSIONS:
            raise ChipError(
                f"no RC522 answers on SPI {self.config.bus}.{self.config.device} (read {self.version:#04x})"
            )
        if self._read_many([T_MODE, T_PRESCALER, T_RELOAD_L, RF_CFG]) != [
            0x80 | (TIMER_PRESCALER >> 8),
            TIMER_PRESCALER & 0xFF,
            self._reload & 0xFF,
            GAIN_CODES[self.config.gain_db] << 4,
        ]:
            raise ChipError("the RC522 does not keep its settings (registers read back wrong)")

    @property
    def chip_name(self) -> str:
        return CHIP_NAMES.get(self.version, f"unknown chip {self.version:#04x}")

    def soft_reset(self) -> None:
        """SoftReset command, then the settings again."""
        self._chip.Write_MFRC522(COMMAND, SOFT_RESET)
        self._sleep(0.05)
        self.configure()

    # --- polling ---------------------------------------------------------------------------

    def poll(self) -> PollResult:
        """Read every new card in the field: REQA reaches only cards not yet halted, and each read ends in HLTA."""
        result = PollResult()
        try:
            for _ in range(self.MAX_CARDS_PER_POLL):
                try:
                    uid = self.read_uid()
                except RadioError as error:
                    result.radio_errors.append(str(error))
                    break
                if uid is None:
                    break
                result.uids.append(uid)
        except ChipError as error:
            result.chip_error = str(error)
        return result

    def read_uid(self) -> str | None:
        """One card's whole UID (4, 7 or 10 bytes, lower-case hex), halted afterwards; None if no card answers."""
        if self._transceive([iso.REQA], tx_last_bits=7, expect_bits=None) is None:
            return None
        uid: list[int] = []
        for level in range(3):
            part, sak = self._select_level(level)
            if sak & iso.SAK_CASCADE:
                if part[0] != iso.CASCADE_TAG:
                    raise RadioError("SAK asks for another cascade level but the UID part lacks the cascade tag")
                uid.extend(part[1:])
                continue
            if part[0] == iso.CASCADE_TAG and level < 2:
                raise RadioError("cascade tag in the last UID part")
            uid.extend(part)
            self._transceive(iso.with_crc(iso.HLTA), expect_bits=None)
            return bytes(uid).hex()
        raise RadioError("more than three cascade levels")

    def _select_level(self, level: int) -> tuple[list[int], int]:
        """Anticollision then SELECT at one cascade level: the 4 UID bytes of that level and the SAK."""
        sel = iso.SEL_CL[level]
        known: list[int] = []
        for _ in range(33):
            nvb = ((2 + len(known) // 8) << 4) | (len(known) % 8)
            align = len(known) % 8
            frame = self._transceive(
                [sel, nvb, *iso.from_bits(known)], tx_last_bits=align, rx_align=align, expect_bits=40 - len(known)
            )
            if frame is None:
                raise RadioError("no answer during anticollision")
            if frame.errors & (PARITY_ERR | PROTOCOL_ERR | BUFFER_OVFL):
                raise RadioError(f"receive error {frame.errors:#04x} during anticollision")
            start = 8 * (len(known) // 8)  # level bit held by bit 0 of the first FIFO byte
            received = iso.to_bits(frame.data)[align : frame.nbits]
            if frame.errors & COLL_ERR:
                coll = self._chip.Read_MFRC522(COLL)
                position = start + ((coll & 0x1F) or 32) - 1
                if coll & 0x20 or not len(known) <= position < 40:
                    raise RadioError("collision outside the UID")
                known = [*[*known, *received][:position], 1]
                continue
            bits = [*known, *received]
            if len(bits) != 40:
                raise RadioError(f"anticollision answer of {len(bits)} bits")
            part = iso.from_bits(bits)
            if iso.bcc(part[:4]) != part[4]:
                raise RadioError("UID check byte (BCC) wrong")
            return part[:4], self._select(sel, part)
        raise RadioError("anticollision did not converge")

    def _select(self, sel: int, part: list[int]) -> int:
        frame = self._transceive(iso.with_crc([sel, iso.NVB_SELECT, *part]), expect_bits=24)
        if frame is None:
            raise RadioError("no answer to SELECT")
        if frame.errors or frame.nbits != 24 or not iso.crc_ok(frame.data):
            raise RadioError("SELECT answer damaged (CRC or parity)")
        return frame.data[0]

    # --- one exchange ----------------------------------------------------------------------

    def _transceive(
        self, data: Sequence[int], *, tx_last_bits: int = 0, rx_align: int = 0, expect_bits: int | None
    ) -> _Frame | None:
        """Send a frame and collect the answer; None when the timer says nobody answered.

        `expect_bits=None` means silence is likely (REQA on an empty field, HLTA): wait for the timer at once.
        """
        w = self._chip.Write_MFRC522
        w(COMMAND, IDLE)
        w(COMM_IRQ, 0x7F)  # clear every interrupt flag
        w(FIFO_LEVEL, 0x80)  # flush
        self._chip.spi.xfer2([(FIFO_DATA << 1) & 0x7E, *data])
        w(COMMAND, TRANSCEIVE)
        w(BIT_FRAMING, 0x80 | (rx_align << 4) | tx_last_bits)  # StartSend
        started = self._clock()
        air = (len(data) * 8 - (8 - tx_last_bits) % 8) * iso.BIT_TIME
        timer_end = started + air + (self._reload + 1) * TIMER_TICK + 50e-6
        if expect_bits is None:
            waits = [timer_end, timer_end + 0.002]
        else:
            waits = [started + air + iso.FRAME_DELAY + (expect_bits + 8) * iso.BIT_TIME, timer_end, timer_end + 0.002]
        for until in waits:
            self._sleep(max(0.0, until - self._clock()))
            irq, errors, level, control, *check = self._read_many(
                [COMM_IRQ, ERROR, FIFO_LEVEL, CONTROL, VERSION, T_RELOAD_L]
            )
            if tuple(check) != self._expected or level > 64:
                raise ChipError("the RC522 answers nonsense (registers read back wrong)")
            if irq & (RX_IRQ | ERR_IRQ):  # an error without RxIRq is noise on the air, not a stuck chip
                fifo = self._read_many([FIFO_DATA] * level) if level else []
                last = control & 0x07
                nbits = (level - 1) * 8 + (last or 8) if level else 0
                return _Frame(fifo, nbits, errors & 0x1F)
            if irq & TIMER_IRQ:
                return None
        raise ChipError("the RC522 stopped answering (no interrupt after a transmission)")

    def _read_many(self, registers: Sequence[int]) -> list[int]:
        """Read several registers in one SPI transaction (address bytes, then 0x00)."""
        answer: list[int] = self._chip.spi.xfer2([((r << 1) & 0x7E) | 0x80 for r in registers] + [0])
        return answer[1:]
