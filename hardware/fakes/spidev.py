"""A fake of the `spidev` module whose `SpiDev` talks to fake chips instead of /dev/spidevB.D.

`make_module({(bus, device): chip})` builds the module object; `hardware.fakes.installed` puts it in
`sys.modules` as `spidev`. `xfer`, `xfer2` and `xfer3` are one chip-select transaction each.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Protocol


class SpiChip(Protocol):
    """Anything that answers SPI transactions, such as `FakeMFRC522`."""

    def transfer(self, data: list[int]) -> list[int]: ...


def make_module(chips: Mapping[tuple[int, int], SpiChip]) -> types.ModuleType:
    """A module that behaves as `spidev`, with `chips` wired to their (bus, device)."""
    wiring = dict(chips)

    class SpiDev:
        """spidev.SpiDev: open(bus, device), xfer2(list) -> list, close()."""

        def __init__(self, bus: int | None = None, device: int | None = None) -> None:
            self.max_speed_hz = 500_000
            self.mode = 0
            self.bits_per_word = 8
            self._chip: SpiChip | None = None
            if bus is not None and device is not None:
                self.open(bus, device)

        def open(self, bus: int, device: int) -> None:
            try:
                self._chip = wiring[(bus, device)]
            except KeyError:
                raise FileNotFoundError(2, f"No such file or directory: '/dev/spidev{bus}.{device}'") from None

        def xfer2(self, data: list[int]) -> list[int]:
            if self._chip is None:
                raise OSError(9, "Bad file descriptor")
            return self._chip.transfer([int(b) & 0xFF for b in data])

        xfer = xfer2
        xfer3 = xfer2

        def writebytes(self, data: list[int]) -> None:
            self.xfer2(data)

        def close(self) -> None:
            self._chip = None

    module = types.ModuleType("spidev", "Fake spidev (hardware.fakes.spidev)")
    module.SpiDev = SpiDev  # type: ignore[attr-defined]
    return module
