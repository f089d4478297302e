"""Run by scripts/check-pi-install inside the arm64 root: the GPIO and SPI stacks as the Pi install left them."""

from __future__ import annotations

import importlib.metadata as metadata
import sys

import lgpio  # type: ignore[import-not-found]
import mfrc522
import RPi.GPIO as GPIO
import spidev

from hardware.gpio_backend import GpioUnavailable, open_gpio


def owners(path: str) -> list[str]:
    """The installed distributions whose files include `path`."""
    return sorted(
        dist.metadata["Name"] for dist in metadata.distributions() if any(str(f) == path for f in dist.files or ())
    )


def main() -> int:
    """Check who provides RPi.GPIO, print the versions, and check the explanation of a missing gpiochip."""
    gpio_owner = owners("RPi/GPIO/__init__.py")
    if gpio_owner != ["rpi-lgpio"]:
        print(f"RPi/GPIO/__init__.py belongs to {gpio_owner}, not to rpi-lgpio alone", file=sys.stderr)
        return 1
    print(
        f"RPi.GPIO {GPIO.VERSION} from rpi-lgpio {metadata.version('rpi-lgpio')}, lgpio {metadata.version('lgpio')},"
        f" spidev {metadata.version('spidev')} ({spidev.__name__}), mfrc522 {metadata.version('mfrc522')}"
        f" ({mfrc522.__name__}), RPi.GPIO distribution {metadata.version('RPi.GPIO')} ({lgpio.__name__})"
    )
    try:
        open_gpio()
    except GpioUnavailable as error:
        print(f"open_gpio without a gpiochip: {error}")
        return 0 if "no GPIO chip" in str(error) else 1
    print("open_gpio() worked without a gpiochip", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
