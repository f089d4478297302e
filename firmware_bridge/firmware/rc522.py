"""The RC522 on the Pico: the shared ISO 14443-3 core (`iso14443`, `mfrc522_pcd`) over machine.SPI.

Only the transport lives here: one chip-select-low transaction per register access, and the reset pin.
The protocol is the one the Pi driver runs (hardware/iso14443.py and hardware/mfrc522_pcd.py, copied next
to this file on the Pico). Runs unchanged under CPython against a fake chip.
"""

try:
    from time import sleep_us
except ImportError:  # CPython (tests, benchmarks)
    from cpython_ticks import sleep_us

try:
    import iso14443
    import mfrc522_pcd
except ImportError:  # CPython: the same files, from the repository
    from hardware import iso14443, mfrc522_pcd

REQA = iso14443.REQA
WUPA = iso14443.WUPA
ChipError = mfrc522_pcd.ChipError
RadioError = iso14443.RadioError
TIMEOUT_US = 5000  # no answer within 5 ms ends a receive (cards answer within 0.1 ms)


def crc_a(data):
    """CRC_A (ISO 14443-3), low byte first."""
    return list(iso14443.crc_a(data))


class SpiTransport:
    """Register access over machine.SPI and a chip-select pin, for `mfrc522_pcd`."""

    def __init__(self, spi, cs, sleep=sleep_us):
        self._spi = spi
        self._cs = cs
        self.sleep_us = sleep
        self._cs.value(1)

    def _xfer(self, data):
        buf = bytearray(data)
        self._cs.value(0)
        try:
            self._spi.write_readinto(buf, buf)
        finally:
            self._cs.value(1)
        return buf

    def write(self, reg, values):
        self._xfer([(reg << 1) & 0x7E] + list(values))

    def read(self, regs):
        return list(self._xfer([((reg << 1) & 0x7E) | 0x80 for reg in regs] + [0])[1:])


class RC522:
    """The chip on an SPI bus with its chip-select pin and (optional) reset pin."""

    def __init__(self, spi, cs, rst=None, sleep=sleep_us):
        self._rst = rst
        self._sleep = sleep
        self.pcd = mfrc522_pcd.MFRC522Pcd(SpiTransport(spi, cs, sleep), TIMEOUT_US)
        self.version = None
        self.radio_errors = 0

    def init(self):
        """Reset the chip, set its timer and modulation, switch the antenna on; ChipError if it is absent."""
        self.version = None
        if self._rst is not None:
            self._rst.value(0)
            self._sleep(100)
            self._rst.value(1)
            self._sleep(100)
        self.version = self.pcd.soft_reset()
        return self.version

    def check(self):
        """ChipError unless the chip still reads back what it had at init (unplugged, reset, noise)."""
        if self.version is None:
            raise ChipError("the RC522 is not initialised")
        self.pcd.check()

    def antenna_off(self):
        """Switch the field off (cards in it forget they were halted)."""
        self.pcd.antenna_off()

    def scan(self):
        """Every card in the field that answers REQA, each selected then halted: a list of UIDs (bytes)."""
        uids, errors = iso14443.scan(self.pcd)
        self.radio_errors += len(errors)
        return uids

    def read_uid(self, command=REQA):
        """One card that answers `command`, selected then halted: its UID, or None (also after a radio error)."""
        try:
            return iso14443.read_uid(self.pcd, command)
        except RadioError:
            self.radio_errors += 1
            return None
