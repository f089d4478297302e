"""Run by scripts/check-pi-install inside the arm64 root: the GPIO and SPI stacks as the Pi install left them.

There is no device tree under emulation, so rpi-lgpio refuses to load ("only be run on a Raspberry Pi")
until RPI_LGPIO_REVISION, its own setting for this, names a board: each supported model is tried.
"""

from __future__ import annotations

import importlib
import importlib.metadata as metadata
import os
import sys

from hardware.gpio_backend import GpioUnavailable, open_gpio

BOARDS = {"a020d3": "Pi 3 Model B+", "c03114": "Pi 4 Model B", "d04170": "Pi 5 Model B", "902120": "Zero 2 W"}


def owners(path: str) -> list[str]:
    """The installed distributions whose files include `path`."""
    return sorted(
        dist.metadata["Name"] for dist in metadata.distributions() if any(str(f) == path for f in dist.files or ())
    )


def explanation() -> str:
    """What open_gpio says on this machine, which has no gpiochip."""
    try:
        open_gpio()
    except GpioUnavailable as error:
        return str(error)
    raise SystemExit("open_gpio() worked without a gpiochip")


def main() -> int:
    """Who provides RPi.GPIO, the versions, each board's detection, and the explanations of what is missing."""
    gpio_owner = owners("RPi/GPIO/__init__.py")
    if gpio_owner != ["rpi-lgpio"]:
        print(f"RPi/GPIO/__init__.py belongs to {gpio_owner}, not to rpi-lgpio alone", file=sys.stderr)
        return 1
    os.environ.pop("RPI_LGPIO_REVISION", None)
    off_pi = explanation()
    print(f"open_gpio, no device tree: {off_pi}")
    if not off_pi.startswith("this is not a Raspberry Pi"):
        return 1
    for revision, board in BOARDS.items():
        os.environ["RPI_LGPIO_REVISION"] = revision
        loaded = sys.modules.get("RPi.GPIO")  # RPI_INFO is read at import: load the module again for each board
        gpio = importlib.reload(loaded) if loaded else importlib.import_module("RPi.GPIO")
        found = gpio.RPI_INFO["TYPE"]
        no_chip = explanation()
        print(f"{board} ({revision}): rpi-lgpio sees {found!r}; open_gpio: {no_chip}")
        if found != board or not no_chip.startswith("no GPIO chip in /dev"):
            return 1
    for module in ("lgpio", "spidev", "mfrc522"):
        importlib.import_module(module)
    print(
        f"RPi.GPIO {gpio.VERSION} from rpi-lgpio {metadata.version('rpi-lgpio')}, lgpio {metadata.version('lgpio')},"
        f" spidev {metadata.version('spidev')}, mfrc522 {metadata.version('mfrc522')},"
        f" RPi.GPIO distribution {metadata.version('RPi.GPIO')} (hardware/rpi-gpio-provider)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
