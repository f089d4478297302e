"""ISO 14443-3 on an RC522 from a Raspberry Pi, over the `mfrc522` package's spidev handle.

The protocol is `hardware.iso14443` and the chip's part `hardware.mfrc522_pcd`, the same code the Pico
firmware runs; this module only adds the Pi's transport (spidev transactions, sleeps) and its settings.
One empty poll is 7 SPI transfers: six register writes and one burst read of the status registers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from hardware import iso14443 as iso
from hardware import mfrc522_pcd as pcd

CHIP_NAMES = pcd.CHIP_NAMES
GAIN_CODES = pcd.GAIN_CODES
ChipError = pcd.ChipError
RadioError = iso.RadioError
MAX_SPEED_HZ = 10_000_000  # the MFRC522's SPI limit (datasheet, 8.1.2)
MIN_SPEED_HZ = 10_000  # below this a card read (about 200 bytes) outlasts a card's fall through the field


class RegisterAccess(Protocol):
    """The part of `mfrc522.MFRC522` this driver uses: its spidev handle."""

    spi: Any


class SpiTransport:
    """`hardware.mfrc522_pcd`'s transport on a Pi: one spidev `xfer2` per transaction; sleeps injectable."""

    def __init__(self, spi: Any, sleep: Callable[[float], None] = time.sleep) -> None:
        self._spi = spi
        self._sleep = sleep

    def write(self, reg: int, values: Sequence[int]) -> None:
        self._spi.xfer2([(reg << 1) & 0x7E, *values])

    def read(self, regs: Sequence[int]) -> list[int]:
        answer: list[int] = self._spi.xfer2([((r << 1) & 0x7E) | 0x80 for r in regs] + [0])
        return answer[1:]

    def sleep_us(self, us: int) -> None:
        self._sleep(us / 1e6)


@dataclass(frozen=True, slots=True)
class RC522Config:
    """Wiring and tuning; the defaults suit the wiring in hardware/README.md."""

    bus: int = 0
    device: int = 0
    speed_hz: int = 1_000_000
    reset_pin: int = 25  # BCM numbering (header pin 22)
    gain_db: int = 33  # the chip's own default; 48 reaches further, and further into the pile too
    timeout_ms: float = 1.0  # receive timeout: a card answers within 0.1 ms, so 1 ms is plenty
    # One poll every 5 ms. Cards can arrive just after a poll, and reading two stacked cards whose UIDs share
    # their first cascade level takes 14 radio exchanges, about 17 ms of a Pi Zero 2 W's time until the second
    # is selected (half of it SPI transactions, half air time): 5 + 17 ms fits a card that spends only 25 ms
    # over the antenna on the plain model, with 3 ms to spare; 10 ms polls did not. With the Python time, the
    # sleeps' overshoot and the cards' power-up charged too, a Zero 2 W needs 50 ms (docs/BENCHMARKS.md).
    poll_ms: float = 5.0
    debounce_s: float = 1.0  # the same UID again within this time is the same passage
    max_errors: int = 3  # chip errors in a row before a reset

    def __post_init__(self) -> None:
        if self.gain_db not in GAIN_CODES:
            raise ValueError(f"gain must be one of {sorted(GAIN_CODES)} dB, not {self.gain_db}")
        if not pcd.MIN_TIMEOUT_US / 1000 <= self.timeout_ms <= 50:
            raise ValueError(
                f"timeout_ms must be between {pcd.MIN_TIMEOUT_US / 1000} and 50: a card starts answering 0.09 ms "
                "after a command and the RC522's timer must still run when its first bits arrive"
            )
        if not MIN_SPEED_HZ <= self.speed_hz <= MAX_SPEED_HZ:
            raise ValueError(f"speed_hz must be between {MIN_SPEED_HZ} and {MAX_SPEED_HZ} (the RC522's SPI limit)")
        if not 1 <= self.poll_ms <= 20:
            raise ValueError("poll_ms must be between 1 and 20 (a card falls through the field in about 50 ms)")
        if self.debounce_s < 0 or self.max_errors < 1:
            raise ValueError("debounce_s must be 0 or more and max_errors 1 or more")

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


class RC522Driver:
    """The shared protocol on an initialised `mfrc522.MFRC522`; `sleep` is injectable for tests."""

    def __init__(
        self, chip: RegisterAccess, config: RC522Config | None = None, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.config = config or RC522Config()
        self._pcd = pcd.MFRC522Pcd(SpiTransport(chip.spi, sleep), self.config.timeout_ms * 1000, self.config.gain_db)

    @property
    def chip_pcd(self) -> pcd.MFRC522Pcd:
        """The chip as the ISO 14443 core sees it, with the poller's settings (tag-memory reads use it)."""
        return self._pcd

    @property
    def version(self) -> int:
        return self._pcd.version

    @property
    def chip_name(self) -> str:
        return self._pcd.chip_name

    def configure(self) -> None:
        """Program and check the chip; ChipError naming the SPI device when no chip answers."""
        try:
            self._pcd.configure()
        except ChipError:
            if self._pcd.version in pcd.NO_CHIP_VERSIONS:
                cfg = self.config
                raise ChipError(
                    f"no RC522 answers on SPI {cfg.bus}.{cfg.device} (read {self._pcd.version:#04x})"
                ) from None
            raise

    def soft_reset(self) -> None:
        """SoftReset command, then the settings again."""
        self._pcd.soft_reset()

    def poll(self) -> PollResult:
        """Read every new card in the field: REQA reaches only cards not yet halted, and each read ends in HLTA."""
        result = PollResult()
        try:
            uids, result.radio_errors = iso.scan(self._pcd)
        except ChipError as error:
            result.chip_error = str(error)
            return result
        result.uids = [uid.hex() for uid in uids]
        return result

    def read_uid(self) -> str | None:
        """One card's whole UID (lower-case hex), halted afterwards; None if no card answers."""
        uid = iso.read_uid(self._pcd)
        return None if uid is None else uid.hex()
