"""The pot readers a user can choose with `--reader`: an explicit table, built on demand.

Adding a reader is one line here (its name and how to build it from `KEY=VALUE` options); the
reader itself lives in `hardware/` or `firmware_bridge/` and imports only `companion`.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.reads import Reader

ReaderFactory = Callable[[dict[str, str]], Reader]


def _sim(options: dict[str, str]) -> Reader:
    from hardware.readers.sim import SimReader

    return SimReader()


def _rc522(options: dict[str, str]) -> Reader:
    from hardware.rc522 import RC522Config
    from hardware.readers.rc522 import RC522Reader

    return RC522Reader(RC522Config.from_options(options))


def _usb(options: dict[str, str]) -> Reader:
    from firmware_bridge.host_reader import UsbReader

    return UsbReader.from_options(options)


def _pcsc(options: dict[str, str]) -> Reader:
    from hardware.readers.pcsc import PcscReader

    return PcscReader.from_options(options)


def _pn532(options: dict[str, str]) -> Reader:
    from hardware.readers.pn532 import Pn532Reader

    return Pn532Reader.from_options(options)


def _keyboard(options: dict[str, str]) -> Reader:
    from hardware.readers.keyboard import KeyboardReader

    return KeyboardReader.from_options(options)


READERS: dict[str, tuple[ReaderFactory, str]] = {
    "sim": (_sim, "simulated: cards dropped by the virtual pot or the demo (no hardware)"),
    "rc522": (_rc522, "an RC522 on the Raspberry Pi's SPI bus"),
    "usb": (_usb, "a Raspberry Pi Pico with an RC522, on USB (any computer)"),
    "keyboard": (_keyboard, "a USB reader that types the card's number (Linux, evdev)"),
    "pn532": (_pn532, "a PN532 module on a serial port (Pi UART or a USB-UART dongle) or a Pi's I2C"),
    "pcsc": (_pcsc, "an ACR122U or another PC/SC reader, through pcscd"),
}
"""Reader name → (factory, one-line description). Modules load only when their reader is chosen."""


def reader_names() -> list[str]:
    """The names `--reader` accepts."""
    return list(READERS)


def make_reader(name: str, options: dict[str, str] | None = None) -> Reader:
    """Build the reader called `name`; a clear ValueError for an unknown name or a bad option."""
    try:
        factory, _ = READERS[name]
    except KeyError:
        raise ValueError(f"unknown reader {name!r}; choose one of: {', '.join(READERS)}") from None
    return factory(dict(options or {}))


def parse_reader_option(text: str) -> tuple[str, str]:
    """One `KEY=VALUE` reader setting from the command line; ValueError naming the bad text."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"a reader option is KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()
