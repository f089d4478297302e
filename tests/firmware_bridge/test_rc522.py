"""The firmware's RC522 driver against the register-level fake chip, through the fake `machine`."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge.simulator import FakeMachine, load_firmware
from hardware.fakes.cards import FakeCard
from hardware.fakes.mfrc522_chip import FakeMFRC522, LockUp

load_firmware()
import rc522  # noqa: E402  (the firmware's module, importable once load_firmware put it on sys.path)


@pytest.fixture
def chip() -> FakeMFRC522:
    return FakeMFRC522()


@pytest.fixture
def driver(chip: FakeMFRC522) -> Any:
    machine = FakeMachine(chip)
    reader = rc522.RC522(machine.SPI(0), machine.Pin(17, 1, value=1), machine.Pin(20, 1, value=1))
    assert reader.init() == 0x92
    return reader


def ten_byte_card(uid: bytes) -> FakeCard:
    """A triple-size UID card (no such product in the fakes, but ISO 14443-3 allows it)."""
    return FakeCard(uid, "ntag213", (0x84, 0x00), 0x00, bytearray(180))


@pytest.mark.parametrize(
    "card",
    [FakeCard.classic1k("deadbeef"), FakeCard.ntag213("04a1b2c3d4e5f6"), ten_byte_card(bytes(range(1, 11)))],
    ids=["4 bytes", "7 bytes", "10 bytes"],
)
def test_reads_every_uid_size_once_then_the_card_is_halted(chip: FakeMFRC522, driver: Any, card: FakeCard) -> None:
    chip.enter(card)
    assert driver.read_uid() == card.uid
    assert driver.read_uid() is None  # halted: silent to REQA while it stays in the field
    assert driver.read_uid(rc522.WUPA) == card.uid  # WUPA wakes it
    chip.leave(card)
    chip.enter(card)
    assert driver.read_uid() == card.uid


def test_a_pile_is_read_one_card_per_scan(chip: FakeMFRC522, driver: Any) -> None:
    pile = [FakeCard.ntag213("04a1b2c3d4e5f6"), FakeCard.ntag213("04a1b2c3d4e5f7"), FakeCard.classic1k("04a1b2c3")]
    for card in pile:
        chip.enter(card)
    read = [driver.read_uid() for _ in range(4)]
    assert sorted(uid for uid in read if uid) == sorted(card.uid for card in pile) and read[-1] is None


def test_an_empty_field_reads_nothing(driver: Any) -> None:
    assert driver.read_uid() is None


def test_no_chip_on_the_bus_is_a_chip_error(chip: FakeMFRC522) -> None:
    machine = FakeMachine(chip)
    machine.rc522_wired = False
    reader = rc522.RC522(machine.SPI(0), machine.Pin(17, 1, value=1), machine.Pin(20, 1, value=1))
    with pytest.raises(rc522.ChipError, match="no RC522"):
        reader.init()


def test_a_chip_answering_noise_fails_its_check_and_init_cures_it(chip: FakeMFRC522, driver: Any) -> None:
    chip.lock_up(LockUp.GARBAGE)
    with pytest.raises(rc522.ChipError):
        for _ in range(3):  # one noise byte in 256 may equal the version by chance
            driver.check()
    driver.init()
    driver.check()
    assert chip.locked_up is None


def test_a_stuck_chip_raises_instead_of_hanging(chip: FakeMFRC522, driver: Any) -> None:
    chip.enter(FakeCard.classic1k("deadbeef"))
    chip.lock_up(LockUp.STUCK)
    with pytest.raises(rc522.ChipError, match="never finished"):
        driver.read_uid()
    driver.init()
    assert driver.read_uid() == bytes.fromhex("deadbeef")


def test_crc_a_matches_iso_14443() -> None:
    from hardware import iso14443

    for frame in ([0x50, 0x00], [0x93, 0x70, 1, 2, 3, 4, 4], [0x26]):
        assert tuple(rc522.crc_a(frame)) == iso14443.crc_a(frame)
