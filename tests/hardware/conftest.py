"""Fixtures: a fake RC522 on a virtual clock, with the fake spidev and RPi.GPIO modules installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hardware.fakes import FakeGPIO, FakeMFRC522, VirtualClock, installed

SPI_TRANSFER_S = 30e-6  # each SPI transaction moves the virtual clock, as it takes time on a Pi


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def chip(clock: VirtualClock) -> FakeMFRC522:
    chip = FakeMFRC522(clock=clock)
    chip.on_transfer.append(lambda nbytes: clock.advance(SPI_TRANSFER_S))
    return chip


@pytest.fixture
def gpio(chip: FakeMFRC522, clock: VirtualClock) -> Iterator[FakeGPIO]:
    """The fakes in sys.modules for the test's duration; the chip's reset line on BCM 25."""
    with installed(chip, FakeGPIO(clock=clock)) as fake_gpio:
        yield fake_gpio
