"""A small MFRC522 (RC522) driver for MicroPython over machine.SPI: ISO 14443-3 type A UIDs only.

Reads 4-, 7- and 10-byte UIDs (cascade levels, anticollision with collision resolution), then HLTA so a
card lying on the antenna answers once. Runs unchanged under CPython against a fake chip.
"""

try:
    from time import sleep_us, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython (tests, benchmarks)
    from cpython_ticks import sleep_us, ticks_add, ticks_diff, ticks_ms

# Registers.
COMMAND = 0x01
COMM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
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
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands.
IDLE = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# PICC commands.
REQA = 0x26
WUPA = 0x52
SEL_CL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88

OK = 0
NO_ANSWER = 1
ERR = 2
COLLISION = 3

TRANSCEIVE_DEADLINE_MS = 30  # the chip's own timer gives up after ~5.5 ms; this catches a stuck chip


class ChipError(Exception):
    """The RC522 does not answer like an RC522 (unwired, unpowered, or stuck)."""


def crc_a(data):
    """CRC_A (ISO 14443-3), low byte first, computed here rather than by the chip: one SPI round trip less."""
    crc = 0x6363
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


class RC522:
    """The chip on an SPI bus with its chip-select pin and (optional) reset pin."""

    def __init__(self, spi, cs, rst=None):
        self._spi = spi
        self._cs = cs
        self._rst = rst
        self.version = None
        self._cs.value(1)

    # --- SPI ----------------------------------------------------------------------------

    def _xfer(self, data):
        buf = bytearray(data)
        self._cs.value(0)
        try:
            self._spi.write_readinto(buf, buf)
        finally:
            self._cs.value(1)
        return buf

    def _write(self, reg, *values):
        self._xfer([(reg << 1) & 0x7E] + list(values))

    def _read(self, reg):
        return self._xfer([((reg << 1) & 0x7E) | 0x80, 0])[1]

    def _read_many(self, reg, count):
        if count <= 0:
            return []
        address = ((reg << 1) & 0x7E) | 0x80
        return list(self._xfer([address] * count + [0])[1:])

    def _set_bits(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear_bits(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    # --- set-up -------------------------------------------------------------------------

    def init(self):
        """Reset the chip, set its timer and modulation, switch the antenna on; ChipError if it is absent."""
        if self._rst is not None:
            self._rst.value(0)
            sleep_us(100)
            self._rst.value(1)
            sleep_us(100)
        self._write(COMMAND, SOFT_RESET)
        deadline = ticks_add(ticks_ms(), 50)
        while self._read(COMMAND) & 0x10:  # PowerDown bit: set until the oscillator runs
            if ticks_diff(deadline, ticks_ms()) < 0:
                raise ChipError("the RC522 does not come out of reset")
            sleep_us(200)
        version = self._read(VERSION)
        if version not in (0x88, 0x90, 0x91, 0x92, 0xB2, 0x12):
            self.version = None
            raise ChipError("no RC522 on the SPI bus (version register reads 0x%02x)" % version)
        self.version = version
        self._write(T_MODE, 0x80)  # TAuto: the timer starts at the end of each transmission
        self._write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1): 25 µs ticks
        self._write(T_RELOAD_H, 0x00)
        self._write(T_RELOAD_L, 0xC8)  # 200 ticks: 5 ms without an answer ends the receive
        self._write(TX_ASK, 0x40)  # 100 % ASK
        self._write(MODE, 0x3D)  # CRC preset 0x6363
        self._write(TX_MODE, 0x00)
        self._write(RX_MODE, 0x00)
        self._set_bits(TX_CONTROL, 0x03)  # antenna on
        return version

    def check(self):
        """ChipError unless the chip still reads back the version it had at init (unplugged, reset, noise)."""
        version = self._read(VERSION)
        if self.version is None or version != self.version:
            raise ChipError("the RC522 stopped answering (version register reads 0x%02x)" % version)

    def antenna_off(self):
        """Switch the field off (cards in it forget they were halted)."""
        self._clear_bits(TX_CONTROL, 0x03)

    # --- ISO 14443-3 ---------------------------------------------------------------------

    def _transceive(self, data, tx_last_bits=0, rx_align=0):
        """Send `data`, wait for the answer: (status, bytes, valid bits in the last byte)."""
        self._write(COMMAND, IDLE)
        self._write(COMM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        self._write(FIFO_DATA, *data)
        framing = (rx_align << 4) | tx_last_bits
        self._write(BIT_FRAMING, framing)
        self._write(COMMAND, TRANSCEIVE)
        self._write(BIT_FRAMING, framing | 0x80)
        deadline = ticks_add(ticks_ms(), TRANSCEIVE_DEADLINE_MS)
        while True:
            irq = self._read(COMM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq
                break
            if irq & 0x01:  # TimerIRq: nobody answered
                return NO_ANSWER, [], 0
            if ticks_diff(deadline, ticks_ms()) < 0:
                raise ChipError("the RC522 never finished a transceive")
            sleep_us(50)
        self._write(BIT_FRAMING, framing)
        error = self._read(ERROR)
        if error & 0x13:  # BufferOvfl, ParityErr, ProtocolErr
            return ERR, [], 0
        count = self._read(FIFO_LEVEL) & 0x7F
        last_bits = self._read(CONTROL) & 0x07
        received = self._read_many(FIFO_DATA, count)
        if error & 0x08:
            return COLLISION, received, last_bits
        return OK, received, last_bits

    def request(self, command=REQA):
        """REQA (idle cards) or WUPA (also halted ones): True if a card answered with an ATQA."""
        self._write(COLL, 0x80)  # ValuesAfterColl
        status, data, last_bits = self._transceive([command], tx_last_bits=7)
        if status == COLLISION:
            return True  # cards of different types answer different ATQAs at once: anticollision sorts them
        return status == OK and len(data) == 2 and last_bits == 0

    def _anticollision(self, level):
        """One cascade level: the 4 UID bytes of that level and the SAK, or None."""
        sel = SEL_CL[level]
        uid = [0, 0, 0, 0, 0]  # 4 bytes and BCC
        known = 0
        for _ in range(33):
            if known >= 32:
                frame = [sel, 0x70] + uid
                frame = frame + crc_a(frame)
                status, data, _bits = self._transceive(frame)
                if status != OK or len(data) != 3 or crc_a(data[:1]) != data[1:3]:
                    return None
                return uid[:4], data[0]
            whole = known // 8
            tx_last_bits = known % 8
            nvb = ((2 + whole) << 4) | tx_last_bits
            sent = [sel, nvb] + uid[: whole + (1 if tx_last_bits else 0)]
            self._write(COLL, 0x00)  # bits after a collision read as 0
            status, data, _bits = self._transceive(sent, tx_last_bits, tx_last_bits)
            if status not in (OK, COLLISION) or not data:
                return None
            # Merge the answer into what we know: its first byte continues our partial byte.
            for index, value in enumerate(data):
                position = whole + index
                if position >= 5:
                    break
                if index == 0 and tx_last_bits:
                    mask = (0xFF << tx_last_bits) & 0xFF
                    uid[position] = (uid[position] & ~mask & 0xFF) | (value & mask)
                else:
                    uid[position] = value
            if status == OK:
                if uid[0] ^ uid[1] ^ uid[2] ^ uid[3] != uid[4]:
                    return None
                known = 32
                continue
            coll = self._read(COLL)
            if coll & 0x20:  # CollPosNotValid
                return None
            position = coll & 0x1F or 32
            collision_at = whole * 8 + position
            if collision_at <= known or collision_at > 32:
                return None
            # Take the branch where the colliding bit is 1; the other card is read on a later round.
            bit = collision_at - 1
            uid[bit // 8] |= 1 << (bit % 8)
            known = collision_at
        return None

    def select(self):
        """Anticollision and SELECT through the cascade levels: the UID (4, 7 or 10 bytes) or None."""
        uid = []
        for level in range(3):
            result = self._anticollision(level)
            if result is None:
                return None
            part, sak = result
            if sak & 0x04:  # cascade bit: the UID goes on at the next level
                if part[0] != CASCADE_TAG:
                    return None
                uid.extend(part[1:])
                continue
            uid.extend(part)
            return bytes(uid)
        return None

    def halt(self):
        """HLTA: the selected card stays silent to REQA until it leaves the field.

        A card never answers HLTA, so wait only for the end of transmission, not for the timer.
        """
        frame = [0x50, 0x00]
        frame = frame + crc_a(frame)
        self._write(COMMAND, IDLE)
        self._write(COMM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        self._write(FIFO_DATA, *frame)
        self._write(BIT_FRAMING, 0x00)
        self._write(COMMAND, TRANSCEIVE)
        self._write(BIT_FRAMING, 0x80)
        deadline = ticks_add(ticks_ms(), TRANSCEIVE_DEADLINE_MS)
        while not self._read(COMM_IRQ) & 0x40:  # TxIRq
            if ticks_diff(deadline, ticks_ms()) < 0:
                raise ChipError("the RC522 never finished sending HLTA")
            sleep_us(50)
        self._write(BIT_FRAMING, 0x00)
        self._write(COMMAND, IDLE)

    def read_uid(self, command=REQA):
        """One scan: the UID of a card that answers `command`, selected then halted; None if none."""
        if not self.request(command):
            return None
        uid = self.select()
        if uid is None:
            return None
        self.check()  # a UID read from a chip gone mad is no UID
        self.halt()
        return uid
