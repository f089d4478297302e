"""The `RPi.GPIO` module the panel and the reader use, opened in BCM numbering, with errors explained.

On Raspberry Pi OS bookworm and later (kernel 6.6 and later) that module comes from rpi-lgpio, on top of
lgpio and the kernel's gpiochip interface; the original RPi.GPIO cannot detect edges there. Whichever is
installed, what goes wrong becomes a `GpioUnavailable` whose message is one line with the fix.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Protocol, cast

from hardware.diagnose import DEV, MODEL, explain


class Pwm(Protocol):
    """A software PWM channel of `RPi.GPIO` (the passive buzzer's tone)."""

    def start(self, duty_cycle: float) -> None: ...

    def stop(self) -> None: ...

    def ChangeDutyCycle(self, duty_cycle: float) -> None: ...

    def ChangeFrequency(self, frequency: float) -> None: ...


class GpioBackend(Protocol):
    """What Marmite uses of the `RPi.GPIO` module (rpi-lgpio, the original, or the test fake)."""

    BCM: int
    OUT: int
    IN: int
    LOW: int
    HIGH: int
    PUD_UP: int
    BOTH: int

    def getmode(self) -> int | None: ...

    def setmode(self, mode: int) -> None: ...

    def setup(self, channel: int | Iterable[int], direction: int, *, initial: int = ...,
              pull_up_down: int = ...) -> None: ...

    def output(self, channel: int | Iterable[int], value: int | bool) -> None: ...

    def input(self, channel: int) -> int: ...

    def cleanup(self, channel: int | Iterable[int] | None = ...) -> None: ...

    def add_event_detect(self, channel: int, edge: int, *, callback: Callable[[int], None] | None = ...,
                         bouncetime: int = ...) -> None: ...

    def remove_event_detect(self, channel: int) -> None: ...

    def PWM(self, channel: int, frequency: float) -> Pwm: ...


class GpioUnavailable(Exception):
    """The GPIO cannot be used here; the message says why and what to do."""


@contextmanager
def explained_gpio_errors(*, dev: Path = DEV, model: Path = MODEL) -> Iterator[None]:
    """Turn any error raised inside the block into a `GpioUnavailable` with a one-line explanation."""
    try:
        yield
    except GpioUnavailable:
        raise
    except Exception as error:  # lgpio.error, RuntimeError, NotImplementedError, OSError...: all mean "no GPIO"
        raise GpioUnavailable(explain(error, dev=dev, model=model)) from error


def open_gpio(
    import_module: Callable[[str], ModuleType] = importlib.import_module, *, dev: Path = DEV, model: Path = MODEL
) -> GpioBackend:
    """The `RPi.GPIO` module set to BCM numbering (rpi-lgpio opens the gpiochip here); GpioUnavailable if not."""
    with explained_gpio_errors(dev=dev, model=model):
        gpio = cast(GpioBackend, import_module("RPi.GPIO"))  # a module: checked against the Protocol by use
        mode = gpio.getmode()
        if mode is None:
            gpio.setmode(gpio.BCM)
        elif mode != gpio.BCM:
            raise GpioUnavailable("GPIO numbering is already set to BOARD; Marmite uses BCM numbers")
        return gpio
