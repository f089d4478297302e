"""A pot on a virtual clock: the `rc522` reader's own poll loop, a fake chip with a Pi's costs, cards on a timetable.

`PiPot` is what the timing tests and the reader benchmarks run: cards enter and leave the field at set
virtual times (checked before every SPI transaction), the reader's `cycle()` runs as its thread would,
and every message and poll duration is kept. `realism` adds what the plain model leaves free
(compute time, sleep overshoot, card power-up: `hardware.fakes.field.Realism`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from companion.reads import ReaderMessage, TagSeen
from hardware.fakes import installed
from hardware.fakes.cards import FakeCard
from hardware.fakes.clock import VirtualClock
from hardware.fakes.field import (
    IDEAL,
    PI_ZERO_2W,
    ComputeCharge,
    FieldSchedule,
    Realism,
    SpiCost,
    charge_spi,
    overshooting,
)
from hardware.fakes.gpio import FakeGPIO
from hardware.fakes.mfrc522_chip import FakeMFRC522
from hardware.rc522 import RC522Config
from hardware.readers.rc522 import RC522Reader


@dataclass(frozen=True, slots=True)
class Arrival:
    """One card's passage: it enters `at` seconds after the passage starts and stays `dwell_s`."""

    card: FakeCard
    at: float
    dwell_s: float


class PiPot(AbstractContextManager["PiPot"]):
    """An `RC522Reader` (or `make_reader`'s) polling a `FakeMFRC522` with a host's SPI cost and `realism`."""

    def __init__(
        self,
        config: RC522Config | None = None,
        *,
        cost: SpiCost = PI_ZERO_2W,
        realism: Realism = IDEAL,
        make_reader: Callable[..., RC522Reader] = RC522Reader,
    ) -> None:
        self.clock = VirtualClock()
        self.chip = FakeMFRC522(clock=self.clock)
        self.chip.power_up_s = realism.power_up_s
        self.compute = ComputeCharge(self.chip, self.clock, realism.compute_scale) if realism.compute_scale else None
        charge_spi(self.chip, self.clock, cost)
        self.schedule = FieldSchedule(self.chip, self.clock)
        self._fakes = installed(self.chip, FakeGPIO(clock=self.clock))
        self._fakes.__enter__()
        sleep = overshooting(self.clock, realism.sleep_overshoot_s)
        self.reader = make_reader(config, clock=self.clock, sleep=sleep)
        self.sleep = sleep
        self.polls: list[float] = []  # how long each cycle's work took (virtual seconds)
        messages, pause = self.cycle()
        if not any(getattr(m, "ok", False) for m in messages):
            raise RuntimeError(f"the fake reader did not start: {messages}")
        self.sleep(pause)

    def cycle(self) -> tuple[list[ReaderMessage], float]:
        """What the reader's thread does once, with its duration kept."""
        if self.compute is not None:
            self.compute.restart()
        began = self.clock.now()
        messages, pause = self.reader.cycle()
        self.polls.append(self.clock.now() - began)
        return messages, pause

    def passage(self, arrivals: Sequence[Arrival], phase: float = 0.0, settle_s: float = 2.0) -> list[TagSeen]:
        """Run the reader while `arrivals` pass, starting `phase` (0..1) of a poll period after a poll began;
        the TagSeen reported. Afterwards the clock moves `settle_s` on (past the debounce time)."""
        period = self.reader.config.poll_ms / 1000
        start = self.clock.now() + phase * period
        for arrival in arrivals:
            self.schedule.add(arrival.card, start + arrival.at, arrival.dwell_s)
        seen: list[TagSeen] = []
        while self.schedule.events:
            self.schedule.apply()
            messages, pause = self.cycle()
            seen += [m for m in messages if isinstance(m, TagSeen)]
            self.sleep(pause)
        self.clock.advance(settle_s)
        return seen

    def close(self) -> None:
        self.reader.close()
        self._fakes.__exit__(None, None, None)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def code_of(seen: Sequence[TagSeen], uid: str) -> Any:
    """The code reported with `uid` (None if none), or the string "missing" when `uid` was not reported."""
    for message in seen:
        if message.uid == uid:
            return message.card
    return "missing"
