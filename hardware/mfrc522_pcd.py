"""The MFRC522 (RC522) as an ISO 14443-3 PCD, over a thin register transport: shared by the Pi and the Pico.

The transport is three calls: `write(reg, values)` (one SPI transaction; several values make a FIFO burst),
`read(regs)` (one SPI transaction reading several registers, as the datasheet allows) and `sleep_us(us)`.
The Pi's wraps the `mfrc522` package's spidev handle, the Pico's wraps `machine.SPI` and its chip-select pin.
Waits are computed from the air time, so an empty poll is 7 SPI transactions: six writes and one status read,
which also reads back two registers whose values are known, so a chip gone mad is noticed at once.
This file runs under CPython and MicroPython (copied to the Pico as `mfrc522_pcd.py`).
"""

# ruff: noqa: UP031  (% formatting: the portable spelling for MicroPython)

try:
    from hardware import iso14443 as iso
except ImportError:  # MicroPython on the Pico: the files sit side by side
    import iso14443 as iso  # type: ignore[import-not-found,no-redef]

TYPE_CHECKING = False  # mypy treats this name as true; neither interpreter imports `typing` here
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol

    class Transport(Protocol):
        """Register access to one MFRC522."""

        def write(self, reg: int, values: Sequence[int]) -> None: ...

        def read(self, regs: Sequence[int]) -> list[int]: ...

        def sleep_us(self, us: int) -> None: ...


# Registers and commands (MFRC522 datasheet, section 9).
COMMAND = 0x01
COMM_IRQ = 0x04
ERROR = 0x06
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37
IDLE = 0x00
TRANSCEIVE = 0x0C
MF_AUTHENT = 0x0E
SOFT_RESET = 0x0F
MF_CRYPTO1_ON = 0x08  # Status2Reg: MFAuthent succeeded, exchanges are enciphered until it is cleared
IDLE_IRQ = 0x10
TX_IRQ = 0x40
RX_IRQ = 0x20
ERR_IRQ = 0x02
TIMER_IRQ = 0x01
COLL_ERR = 0x08
RECEIVE_ERRORS = iso.ERR_BUFFER_OVERFLOW | iso.ERR_CRC | iso.ERR_PARITY | iso.ERR_PROTOCOL
COLL_POS_NOT_VALID = 0x20
POWER_DOWN = 0x10
RX_GAIN_MASK = 0x70  # RFCfgReg bits 6..4; bit 7 and bits 3..0 are reserved and are neither set nor compared

TIMER_PRESCALER = 169  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: one timer tick is 25 µs
TICK_US = (2 * TIMER_PRESCALER + 1) / 13.56
BIT_US = iso.BIT_TIME * 1e6
FRAME_DELAY_US = iso.FRAME_DELAY * 1e6
GAIN_CODES = {18: 0, 23: 1, 33: 4, 38: 5, 43: 6, 48: 7}  # RFCfgReg RxGain, in dB
# The shortest receive timeout a card can meet: it starts answering one frame delay time (91 µs) after the
# command, and the chip stops its timer only once the first 7 bits of the answer are in; 0.5 ms leaves a
# safety margin for slow clone chips. The longest: the 16-bit timer at 25 µs per tick, rounded down.
MIN_TIMEOUT_US = 500
MAX_TIMEOUT_US = 1_600_000
NO_CHIP_VERSIONS = (0x00, 0xFF)
CHIP_NAMES = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522", 0x12: "RC522 clone", 0xB2: "FM17522 clone"}
ANSWER_MARGIN_BITS = 24  # parity (1 in 9), start and end of frame, and about 0.15 ms of slack
AUTH_AIR_US = 1000  # MFAuthent's three further frames and the card's answer delays, about 0.9 ms
STATUS = [COMM_IRQ, ERROR, FIFO_LEVEL, CONTROL, COLL, VERSION, T_RELOAD_L]


class ChipError(Exception):
    """The RC522 itself misbehaves (absent, no interrupt, impossible register values): a reset may cure it."""


def check_timeout_us(timeout_us: float) -> None:
    """ValueError unless a real chip and card can meet this receive timeout."""
    if not MIN_TIMEOUT_US <= timeout_us <= MAX_TIMEOUT_US:
        raise ValueError(
            "the receive timeout must be between %g and %g ms: a card starts answering 0.09 ms after a command "
            "and the RC522's timer must still run when its first bits arrive" % (MIN_TIMEOUT_US / 1000,
                                                                                   MAX_TIMEOUT_US / 1000)
        )


class MFRC522Pcd:
    """One MFRC522 on a transport; `gain_db=None` keeps the chip's own receiver gain."""

    def __init__(self, transport: "Transport", timeout_us: float = 1000, gain_db: int | None = None) -> None:
        check_timeout_us(timeout_us)
        if gain_db is not None and gain_db not in GAIN_CODES:
            raise ValueError("gain must be one of %s dB, not %s" % (sorted(GAIN_CODES), gain_db))
        self._bus = transport
        self._reload = max(1, round(timeout_us / TICK_US)) - 1
        self._gain_db = gain_db
        self._expected = (0, 0)
        self.version = 0

    @property
    def chip_name(self) -> str:
        """The chip's name from its version register."""
        return CHIP_NAMES.get(self.version, "unknown chip %#04x" % self.version)

    # --- set-up and health -------------------------------------------------------------------

    def soft_reset(self) -> int:
        """SoftReset, wait for the oscillator, then `configure`; returns the version register."""
        self._bus.write(COMMAND, [SOFT_RESET])
        for _ in range(50):
            self._bus.sleep_us(1000)
            if not self._bus.read([COMMAND])[0] & POWER_DOWN:
                return self.configure()
        raise ChipError("the RC522 does not come out of reset")

    def configure(self) -> int:
        """Program timer, modulation, gain and anticollision mode, switch the antenna on, check it all."""
        w = self._bus.write
        w(T_MODE, [0x80 | (TIMER_PRESCALER >> 8)])  # TAuto: the timer starts at the end of each transmission
        w(T_PRESCALER, [TIMER_PRESCALER & 0xFF])
        w(T_RELOAD_H, [self._reload >> 8])
        w(T_RELOAD_L, [self._reload & 0xFF])
        w(TX_ASK, [0x40])  # 100 % ASK, as ISO 14443 type A requires
        w(MODE, [0x3D])  # CRC preset 0x6363
        w(TX_MODE, [0x00])  # CRC_A is computed by iso14443, so the chip neither adds nor checks it
        w(RX_MODE, [0x00])
        w(COLL, [0x00])  # ValuesAfterColl = 0: bits after a collision read as 0
        rf_cfg, tx_control = self._bus.read([RF_CFG, TX_CONTROL])
        gain = rf_cfg & RX_GAIN_MASK
        if self._gain_db is not None:
            gain = GAIN_CODES[self._gain_db] << 4
            w(RF_CFG, [(rf_cfg & ~RX_GAIN_MASK & 0xFF) | gain])  # reserved bits written back as read
        w(TX_CONTROL, [tx_control | 0x03])
        self.version = self._bus.read([VERSION])[0]
        self._expected = (self.version, self._reload & 0xFF)
        if self.version in NO_CHIP_VERSIONS:
            raise ChipError("no RC522 answers on the SPI bus (version register reads %#04x)" % self.version)
        got = self._bus.read([T_MODE, T_PRESCALER, T_RELOAD_L, RF_CFG])
        if got[:3] != [0x80 | (TIMER_PRESCALER >> 8), TIMER_PRESCALER & 0xFF, self._reload & 0xFF] or (
            got[3] & RX_GAIN_MASK != gain
        ):
            raise ChipError("the RC522 does not keep its settings (registers read back wrong)")
        return self.version

    def check(self) -> None:
        """ChipError unless the chip still reads back its version and timer setting (unplugged, reset, noise)."""
        if tuple(self._bus.read([VERSION, T_RELOAD_L])) != self._expected or self.version in NO_CHIP_VERSIONS:
            raise ChipError("the RC522 answers nonsense (registers read back wrong)")

    def antenna_off(self) -> None:
        """Switch the field off (cards in it forget they were halted)."""
        self._bus.write(TX_CONTROL, [self._bus.read([TX_CONTROL])[0] & ~0x03 & 0xFF])

    # --- one exchange --------------------------------------------------------------------------

    def _start(self, data: "Sequence[int]", tx_last_bits: int, rx_align: int) -> float:
        """Load the FIFO and start Transceive: the frame's air time in µs."""
        w = self._bus.write
        w(COMMAND, [IDLE])
        w(COMM_IRQ, [0x7F])  # clear every interrupt flag
        w(FIFO_LEVEL, [0x80])  # flush
        w(FIFO_DATA, data)
        w(COMMAND, [TRANSCEIVE])
        w(BIT_FRAMING, [0x80 | (rx_align << 4) | tx_last_bits])  # StartSend
        return (len(data) * 8 - (8 - tx_last_bits) % 8) * BIT_US

    def _status(self) -> list[int]:
        """CommIrq, Error, FIFOLevel, Control, Coll in one transaction, with the known registers checked."""
        status = self._bus.read(STATUS)
        if (status[5], status[6]) != self._expected or status[2] > 64:
            raise ChipError("the RC522 answers nonsense (registers read back wrong)")
        return status

    def transceive(
        self, data: "Sequence[int]", tx_last_bits: int = 0, rx_align: int = 0, expect_bits: int = 0
    ) -> tuple[list[int], int, int | None, int] | None:
        """Send a frame and collect the answer (see `iso14443.Pcd.transceive`).

        Cards answer REQA, anticollision and SELECT a fixed time after the command (ISO 14443-3 frame delay
        time), so the status is read once when the answer must be complete: with the frame sent and nothing
        received by then, nobody answered, without waiting for the receive timer. Only when the frame was
        not even sent does the wait go on, to the timer and beyond: then the chip is stuck.
        """
        return self._exchange(data, tx_last_bits, rx_align, expect_bits, False)

    def exchange(
        self, data: "Sequence[int]", expect_bits: int
    ) -> tuple[list[int], int, int | None, int] | None:
        """A memory command (READ): like `transceive`, but an answer not complete when expected is waited
        for until the receive timer ends, one timer period, since ISO 14443-3 lets a card answer later."""
        return self._exchange(data, 0, 0, expect_bits, True)

    def _exchange(
        self, data: "Sequence[int]", tx_last_bits: int, rx_align: int, expect_bits: int, patient: bool
    ) -> tuple[list[int], int, int | None, int] | None:
        air = self._start(data, tx_last_bits, rx_align)
        timer_end = air + (self._reload + 1) * TICK_US + 50
        if patient:  # long answers: their parity bits (one a byte) count too
            expect_bits += expect_bits // 8
        answered = air + FRAME_DELAY_US + (expect_bits + ANSWER_MARGIN_BITS) * BIT_US
        waits = (answered, max(0.0, timer_end - answered), 2000.0)
        for index, wait in enumerate(waits):
            self._bus.sleep_us(int(wait + 0.5))
            irq, errors, level, control, coll = self._status()[:5]
            if irq & (RX_IRQ | ERR_IRQ):  # an error without RxIRq is noise on the air, not a stuck chip
                fifo = self._bus.read([FIFO_DATA] * level) if level else []
                last = control & 0x07
                nbits = (level - 1) * 8 + (last or 8) if level else 0
                collision = None
                if errors & COLL_ERR:
                    collision = -1 if coll & COLL_POS_NOT_VALID else (coll & 0x1F) or 32
                return fifo, nbits, collision, errors & RECEIVE_ERRORS
            if irq & TIMER_IRQ or (irq & TX_IRQ and not (patient and index == 0)):
                return None
        raise ChipError("the RC522 never finished a transceive (no interrupt after a transmission)")

    def authenticate(self, key_type: int, block: int, key: "Sequence[int]", uid4: "Sequence[int]") -> bool:
        """MIFARE Classic: MFAuthent with `key` (type 0x60 A / 0x61 B) for `block`'s sector; True when the
        chip's Crypto1 unit is on (every exchange after it is enciphered until `stop_crypto`).

        False when the card refused the key or did not answer within the receive timer, which then ends
        the command: the card has gone back to sleep."""
        w = self._bus.write
        w(COMMAND, [IDLE])
        w(COMM_IRQ, [0x7F])
        w(FIFO_LEVEL, [0x80])
        w(FIFO_DATA, [key_type, block] + list(key) + list(uid4))  # noqa: RUF005 (MicroPython: no star in displays)
        w(COMMAND, [MF_AUTHENT])
        # Four frames each way (about 0.9 ms on air with the card's delays), then the timer, then a stuck chip.
        air = 12 * 8 * BIT_US
        waits = (air + AUTH_AIR_US, (self._reload + 1) * TICK_US + 50, 2000.0)
        for wait in waits:
            self._bus.sleep_us(int(wait + 0.5))
            irq, status2, version = self._bus.read([COMM_IRQ, STATUS2, VERSION])
            if version != self._expected[0]:
                raise ChipError("the RC522 answers nonsense (registers read back wrong)")
            if status2 & MF_CRYPTO1_ON:
                return True
            if irq & (TIMER_IRQ | ERR_IRQ | IDLE_IRQ):
                w(COMMAND, [IDLE])
                return False
        raise ChipError("the RC522 never finished an authentication (no interrupt)")

    def stop_crypto(self) -> None:
        """Crypto1 off (after a Classic card is halted): plain exchanges again, as the poll needs."""
        status2 = self._bus.read([STATUS2])[0]
        if status2 & MF_CRYPTO1_ON:
            self._bus.write(STATUS2, [status2 & ~MF_CRYPTO1_ON & 0xFF])

    def send(self, data: "Sequence[int]") -> None:
        """Send a frame that no card answers (HLTA): wait for the end of the transmission only."""
        air = self._start(data, 0, 0)
        for wait in (air + 20, 2000.0):
            self._bus.sleep_us(int(wait + 0.5))
            if self._status()[0] & TX_IRQ:
                return
        raise ChipError("the RC522 never finished sending (no TxIRq)")
