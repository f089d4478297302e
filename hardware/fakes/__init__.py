"""Fakes of the Pi's hardware, shipped so every package's tests (and benchmarks) can use them.

`installed(chip, gpio)` puts fake `spidev` and `RPi.GPIO` modules in `sys.modules` so the real
`mfrc522` package, imported inside the block, drives `FakeMFRC522` unmodified.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from hardware.fakes import spidev as fake_spidev
from hardware.fakes.cards import CardState, FakeCard
from hardware.fakes.clock import VirtualClock
from hardware.fakes.field import (
    IDEAL,
    PI_ZERO_2W,
    PI_ZERO_2W_REAL,
    PICO,
    ComputeCharge,
    FieldSchedule,
    Realism,
    SpiCost,
    charge_spi,
    overshooting,
)
from hardware.fakes.gpio import FakeGPIO
from hardware.fakes.mfrc522_chip import FakeMFRC522, Fault, LockUp

__all__ = [
    "IDEAL",
    "PICO",
    "PI_ZERO_2W",
    "PI_ZERO_2W_REAL",
    "CardState",
    "ComputeCharge",
    "FakeCard",
    "FakeGPIO",
    "FakeMFRC522",
    "Fault",
    "FieldSchedule",
    "LockUp",
    "Realism",
    "SpiCost",
    "VirtualClock",
    "charge_spi",
    "installed",
    "overshooting",
]

_REPLACED = ("spidev", "RPi", "RPi.GPIO")


@contextmanager
def installed(
    chip: FakeMFRC522, gpio: FakeGPIO | None = None, *, bus: int = 0, device: int = 0, reset_pin: int | None = 25
) -> Iterator[FakeGPIO]:
    """Fake `spidev` (the chip on `bus`.`device`) and `RPi.GPIO` (`gpio`, wired to the chip's reset line).

    `mfrc522` is imported afresh inside the block and forgotten after it, so each block binds its own fakes.
    Yields the FakeGPIO in use. `reset_pin` is the GPIO number (in the mode the code under test sets).
    """
    gpio = gpio or FakeGPIO(clock=chip.clock)
    if reset_pin is not None:
        gpio.on_output(reset_pin, chip.set_reset_line)
    saved = {name: module for name, module in sys.modules.items() if _ours(name)}
    for name in saved:
        del sys.modules[name]
    gpio_module = gpio.as_module()
    package = ModuleType("RPi", "Fake RPi package (hardware.fakes)")
    package.__path__ = []
    package.GPIO = gpio_module  # type: ignore[attr-defined]
    sys.modules["spidev"] = fake_spidev.make_module({(bus, device): chip})
    sys.modules["RPi"] = package
    sys.modules["RPi.GPIO"] = gpio_module
    try:
        yield gpio
    finally:
        for name in [name for name in sys.modules if _ours(name)]:
            del sys.modules[name]
        sys.modules.update(saved)


def _ours(name: str) -> bool:
    return name in _REPLACED or name == "mfrc522" or name.startswith("mfrc522.")
