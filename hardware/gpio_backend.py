"""The `RPi.GPIO` module the panel and the reader use, opened in BCM numbering, with errors explained.

On Raspberry Pi OS bookworm and later (kernel 6.6 and later) that module comes from rpi-lgpio, on top of
lgpio and the kernel's gpiochip interface; the original RPi.GPIO cannot detect edges there. Whichever is
installed, what goes wrong becomes a `GpioUnavailable` whose message is one line with the fix.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from hardware.diagnose import DEV, MODEL, explain


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
) -> Any:
    """The `RPi.GPIO` module set to BCM numbering (rpi-lgpio opens the gpiochip here); GpioUnavailable if not."""
    with explained_gpio_errors(dev=dev, model=model):
        gpio: Any = import_module("RPi.GPIO")
        mode = gpio.getmode()
        if mode is None:
            gpio.setmode(gpio.BCM)
        elif mode != gpio.BCM:
            raise GpioUnavailable("GPIO numbering is already set to BOARD; Marmite uses BCM numbers")
        return gpio
