"""What is wrong with a Pi's SPI or GPIO, in one line that says what to do about it.

The errors come from `spidev`, from `RPi.GPIO` as Raspberry Pi OS provides it today (rpi-lgpio, on top of
lgpio) and from the original RPi.GPIO; their texts say little ("can not open gpiochip"), so the device files
are looked at to tell a missing device from a missing permission. `dev` and `model` are parameters so tests
can point them at a temporary directory.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from companion.reader_words import Words, words
from hardware.rc522 import RC522Config

DEV = Path("/dev")
MODEL = Path("/proc/device-tree/model")
JOIN_GROUPS = "sudo usermod -aG spi,gpio $USER, then log out and back in (the service: SupplementaryGroups=spi gpio)"
ENABLE_SPI = "enable SPI with: sudo raspi-config nonint do_spi 0 (or raspi-config, Interface Options, SPI), then reboot"


Access = Callable[[Path], bool]


def may_open(path: Path) -> bool:
    """Whether this process may read and write a device file."""
    return os.access(path, os.R_OK | os.W_OK)


def board_model(model: Path = MODEL) -> str | None:
    """The board's name from the device tree ("Raspberry Pi 5 Model B Rev 1.0"), or None off a Pi."""
    try:
        return model.read_bytes().rstrip(b"\0").decode(errors="replace").strip() or None
    except OSError:
        return None


Importer = Callable[[str], ModuleType]


def spi_problem(
    bus: int = 0, device: int = 0, *, dev: Path = DEV, import_module: Importer = importlib.import_module
) -> str | None:
    """Why SPI device BUS.DEVICE cannot be used, found by opening it once (at once, no retries); None if it can."""
    path = dev / f"spidev{bus}.{device}"
    try:
        spi = import_module("spidev").SpiDev()
        spi.open(bus, device)
        spi.close()
    except ImportError as error:
        return explain(error)
    except FileNotFoundError:
        others = sorted(p.name for p in dev.glob("spidev*"))
        found = f" (there is only {', '.join(others)}: check the bus/device options)" if others else ""
        return f"no SPI device {path}{found}: {ENABLE_SPI}"
    except PermissionError:
        return f"no permission for {path}: {JOIN_GROUPS}"
    except OSError as error:
        return f"cannot open {path}: {error.strerror or error}"
    return None


def explain(error: BaseException, *, dev: Path = DEV, model: Path = MODEL, access: Access = may_open) -> str:
    """One line for an error met while opening SPI or GPIO: what is wrong and the fix."""
    return str(explain_words(error, dev=dev, model=model, access=access))


def explain_words(error: BaseException, *, dev: Path = DEV, model: Path = MODEL,
                  access: Access = may_open) -> Words:
    """`explain` as catalog words, for the table to say in its own language."""
    text = str(error)
    board = board_model(model)
    on = f" ({board})" if board else ""
    if isinstance(error, ImportError):
        return words("rc522_not_installed", module=error.name or "a module")
    if isinstance(error, FileNotFoundError) and "spidev" in text:
        return words("rc522_no_spi")
    if isinstance(error, PermissionError):
        return words("rc522_no_access", where=f"SPI/GPIO ({error.filename or text})")
    if "can not open gpiochip" in text or "can't open gpiochip" in text:
        return _gpiochip(dev, on, access)
    if "GPIO busy" in text:
        return words("rc522_gpio_busy")
    if "No access to /dev/mem" in text:
        return words("rc522_old_gpio_mem")
    if "SOC peripheral base address" in text:
        return words("rc522_old_gpio_board", on=on)
    if "Failed to add edge detection" in text:
        return words("rc522_old_gpio_edge")
    if "only be run on a Raspberry Pi" in text or "Not running on a RPi" in text:
        return words("rc522_not_pi", on=on)
    if "old-style revision codes" in text:
        return words("rc522_too_old", on=on)
    return words("rc522_fault", error=type(error).__name__, why=text)


def _gpiochip(dev: Path, on: str, access: Access) -> Words:
    """lgpio says "can not open gpiochip" both when there is none and when it may not be opened."""
    chips = sorted(dev.glob("gpiochip*"))
    if not chips:
        return words("rc522_no_gpiochip", where=str(dev), on=on)
    closed = [chip for chip in chips if not access(chip)]
    if closed:
        return words("rc522_no_access", where=str(closed[0]))
    return words("rc522_gpiochip", where=str(chips[0]), on=on)


def reader_problem(name: str, options: dict[str, str], *, dev: Path = DEV) -> str | None:
    """What keeps reader `name` from ever opening, checked before starting it; None when nothing is known to."""
    if name != "rc522":
        return None
    config = RC522Config.from_options(options)  # a bad option is a ValueError the caller reports
    return spi_problem(config.bus, config.device, dev=dev)
