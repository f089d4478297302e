"""Cards entering and leaving a fake chip's field on a timetable, and what each SPI transaction costs in time.

A pot is timing: a card is over the antenna for a few tens of milliseconds, and a read must fit in that.
`FieldSchedule` moves cards in and out of a `FakeMFRC522` at set virtual times, checked before every SPI
transaction, so a card can arrive or leave in the middle of an anticollision as on a real pot. `charge_spi`
makes each transaction move the virtual clock by a host's cost (`PI_ZERO_2W`, `PICO`).

An honest fake also charges what the model leaves free: `ComputeCharge` moves the clock by the driver's
own Python time between two transactions (this process's measured thread time, scaled for the Pi),
`overshooting` makes every sleep last longer than asked, as a Linux sleep does, and the chip's
`power_up_s` keeps a card silent for its first milliseconds in the field. `Realism` bundles the three.
"""

from __future__ import annotations

import time
from collections.abc import Callable
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


PI_ZERO_2W_CPU_SCALE = 15.0
"""How much longer the same Python takes on a Pi Zero 2 W (Cortex-A53, 1 GHz) than on the x86 cores the
figures come from: a Pi 4 is 4-6 times slower per core (docs/BENCHMARKS.md), a Zero 2 W about 2.5 times
slower again. An estimate, not a measurement on the board; the benchmarks print the figure they use."""


@dataclass(frozen=True, slots=True)
class Realism:
    """What the plain fake leaves free: compute time (scale of this machine's thread time, 0 for none),
    sleep overshoot, and card power-up."""

    compute_scale: float = 0.0
    sleep_overshoot_s: float = 0.0
    power_up_s: float = 0.0


IDEAL = Realism()
PI_ZERO_2W_REAL = Realism(PI_ZERO_2W_CPU_SCALE, 80e-6, 3e-3)
"""The harsh but plausible case: the driver's Python at a Zero 2 W's speed, 80 µs over every sleep
(a Linux timer's slack on a busy Pi), cards that need 3 ms to power up (ISO 14443-3 allows 5)."""


class ComputeCharge:
    """Moves `clock` by the Python time the driver spends between two SPI transactions, times `scale`.

    Time inside the fake chip is left out (a real chip costs none of the host's time): the count starts
    again after each transaction, and at `restart()` (a benchmark's own bookkeeping is not the driver's)."""

    def __init__(self, chip: FakeMFRC522, clock: VirtualClock, scale: float,
                 cpu: Callable[[], float] = time.thread_time) -> None:
        self.clock = clock
        self.scale = scale
        self.cpu = cpu
        self.charged_s = 0.0
        self._since = cpu()
        chip.on_transfer.insert(0, self._charge)
        chip.after_transfer.append(self.restart)

    def restart(self) -> None:
        self._since = self.cpu()

    def _charge(self, nbytes: int = 0) -> None:
        spent = max(0.0, self.cpu() - self._since) * self.scale
        self.charged_s += spent
        self.clock.advance(spent)


def overshooting(clock: VirtualClock, overshoot_s: float) -> Callable[[float], None]:
    """A sleep on `clock` that lasts `overshoot_s` longer than asked (asked for nothing, it returns at once)."""

    def sleep(seconds: float) -> None:
        clock.advance(seconds + overshoot_s if seconds > 0 else 0.0)

    return sleep


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
