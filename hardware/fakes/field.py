"""Cards entering and leaving a fake chip's field on a timetable, and what each SPI transaction costs in time.

A pot is timing: a card is over the antenna for a few tens of milliseconds, and a read must fit in that.
`FieldSchedule` moves cards in and out of a `FakeMFRC522` at set virtual times, checked before every SPI
transaction, so a card can arrive or leave in the middle of an anticollision as on a real pot. `charge_spi`
makes each transaction move the virtual clock by a host's cost (`PI_ZERO_2W`, `PICO`).
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.fakes.cards import FakeCard
from hardware.fakes.clock import VirtualClock
from hardware.fakes.mfrc522_chip import FakeMFRC522


@dataclass(frozen=True, slots=True)
class SpiCost:
    """Time one SPI transaction takes on a host: a fixed part (system call, chip select) and the bytes."""

    per_transaction_s: float
    per_byte_s: float

    def of(self, nbytes: int) -> float:
        return self.per_transaction_s + nbytes * self.per_byte_s


PI_ZERO_2W = SpiCost(60e-6, 8e-6)  # spidev from Python on a Pi Zero 2 W, 1 MHz (docs/BENCHMARKS.md)
PICO = SpiCost(15e-6, 8e-6)  # machine.SPI from MicroPython on a Pico, 1 MHz


def charge_spi(chip: FakeMFRC522, clock: VirtualClock, cost: SpiCost) -> None:
    """Every SPI transaction with `chip` from now on moves `clock` by what it costs on that host."""
    chip.on_transfer.append(lambda nbytes: clock.advance(cost.of(nbytes)))


class FieldSchedule:
    """Cards entering and leaving `chip`'s field at set times, applied before each SPI transaction."""

    def __init__(self, chip: FakeMFRC522, clock: VirtualClock) -> None:
        self.chip = chip
        self.clock = clock
        self.events: list[tuple[float, bool, FakeCard]] = []
        chip.on_transfer.append(self.apply)

    def add(self, card: FakeCard, enter_at: float, dwell_s: float) -> None:
        """`card` enters at `enter_at` (virtual seconds) and leaves `dwell_s` later."""
        self.events += [(enter_at, True, card), (enter_at + dwell_s, False, card)]
        self.events.sort(key=lambda event: event[0])

    def apply(self, nbytes: int = 0) -> None:
        """Move in and out every card whose time has come."""
        now = self.clock.now()
        while self.events and self.events[0][0] <= now:
            _, entering, card = self.events.pop(0)
            (self.chip.enter if entering else self.chip.leave)(card)
