"""The fake chip itself, driven by the stock mfrc522 code: memory, faults, resets, and the stock code's flaws."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from hardware import iso14443 as iso
from hardware.fakes import FakeCard, FakeGPIO, FakeMFRC522, LockUp, VirtualClock, installed
from hardware.fakes import mfrc522_chip as regs


@pytest.fixture
def stock(chip: FakeMFRC522, gpio: FakeGPIO) -> Iterator[Any]:
    """The package's own MFRC522 class, BCM numbering, reset on BCM 25."""
    gpio.setmode(gpio.mode or 11)
    from mfrc522 import MFRC522

    reader = MFRC522(pin_rst=25)
    yield reader
    assert sys.modules["spidev"].__doc__.startswith("Fake spidev")  # type: ignore[union-attr]


def select_ntag(stock: Any) -> None:
    """Both cascade levels with the stock primitives (the package itself stops after level 1)."""
    assert stock.MFRC522_Request(stock.PICC_REQIDL)[0] == stock.MI_OK
    status, level1 = stock.MFRC522_Anticoll()
    assert status == stock.MI_OK and level1[0] == iso.CASCADE_TAG
    assert stock.MFRC522_SelectTag(level1) == iso.SAK_CASCADE
    stock.Write_MFRC522(stock.BitFramingReg, 0x00)
    status, level2, _ = stock.MFRC522_ToCard(stock.PCD_TRANSCEIVE, [0x95, 0x20])
    assert status == stock.MI_OK
    frame = [0x95, 0x70, *level2]
    status, sak, bits = stock.MFRC522_ToCard(stock.PCD_TRANSCEIVE, frame + stock.CalulateCRC(frame))
    assert (status, bits, sak[0]) == (stock.MI_OK, 24, 0x00)


def test_ntag_pages_read_and_write(chip: FakeMFRC522, stock: Any) -> None:
    card = chip.enter(FakeCard.ntag213("04a1b2c3d4e5f6"))
    select_ntag(stock)
    assert bytes(stock.MFRC522_Read(0)) == card.memory[0:16]
    assert bytes(stock.MFRC522_Read(0)[:3]) == bytes.fromhex("04a1b2")
    frame = [iso.NTAG_WRITE, 4, 0xCA, 0xFE, 0xBA, 0xBE]
    status, answer, bits = stock.MFRC522_ToCard(stock.PCD_TRANSCEIVE, frame + stock.CalulateCRC(frame))
    assert (status, answer, bits) == (stock.MI_OK, [iso.ACK], 4)
    assert card.page(4) == bytes.fromhex("cafebabe")
    assert bytes(stock.MFRC522_Read(4)[:4]) == bytes.fromhex("cafebabe")


def test_classic_blocks_through_simple_mfrc522(chip: FakeMFRC522, gpio: FakeGPIO) -> None:
    card = chip.enter(FakeCard.classic1k("deadbeef"))
    gpio.setmode(11)
    from mfrc522 import SimpleMFRC522

    simple = SimpleMFRC522()
    uid, _ = simple.write_no_block("menu-pea@1")
    assert uid == int("deadbeef" + f"{iso.bcc(bytes.fromhex('deadbeef')):02x}", 16)
    assert card.block(8)[:10] == b"menu-pea@1"
    chip.leave(card)
    chip.enter(card)
    assert simple.read_no_block()[1].startswith("menu-pea@1")


def test_a_wrong_key_is_refused(chip: FakeMFRC522, stock: Any) -> None:
    chip.enter(FakeCard.classic1k("deadbeef"))
    stock.MFRC522_Request(stock.PICC_REQIDL)
    _, uid = stock.MFRC522_Anticoll()
    stock.MFRC522_SelectTag(uid)
    assert stock.MFRC522_Auth(stock.PICC_AUTHENT1A, 11, [0] * 6, uid) != stock.MI_OK
    assert stock.MFRC522_Read(8) is None


def test_stock_code_reads_only_cascade_level_one(chip: FakeMFRC522, stock: Any) -> None:
    """The reported flaw: two NTAGs sharing their first three bytes look the same to the package."""
    ids = []
    for uid in ("04a1b2c3d4e5f6", "04a1b2c3998877"):
        card = chip.enter(FakeCard.ntag213(uid))
        stock.MFRC522_Request(stock.PICC_REQIDL)
        ids.append(stock.MFRC522_Anticoll()[1])
        chip.leave(card)
    assert ids[0] == ids[1] == [0x88, 0x04, 0xA1, 0xB2, iso.bcc([0x88, 0x04, 0xA1, 0xB2])]


def test_stock_wait_loop_spins_on_an_empty_field(chip: FakeMFRC522, stock: Any) -> None:
    """The reported flaw: `~` for `not` ignores the timer, so an empty poll runs the loop out."""
    chip.transfers = 0
    assert stock.MFRC522_Request(stock.PICC_REQIDL)[0] == stock.MI_ERR
    assert chip.transfers > 2000


def test_two_cards_collide(chip: FakeMFRC522, stock: Any) -> None:
    chip.enter(FakeCard.classic1k("deadbeef"))
    chip.enter(FakeCard.classic1k("de00beef"))
    stock.MFRC522_Request(stock.PICC_REQIDL)
    status, _ = stock.MFRC522_Anticoll()
    assert status == stock.MI_ERR
    assert chip.register(regs.ERROR) & (regs.COLL_ERR | regs.PARITY_ERR) == regs.COLL_ERR | regs.PARITY_ERR
    assert chip.register(regs.COLL) & 0x3F == 8 + 1  # 0xad ^ 0x00: bit 0 of the second byte differs first


def test_a_receive_without_collision_marks_coll_pos_not_valid(chip: FakeMFRC522, stock: Any) -> None:
    chip.enter(FakeCard.classic1k("deadbeef"))
    stock.MFRC522_Request(stock.PICC_REQIDL)
    assert chip.register(regs.COLL) & 0x20 and not chip.register(regs.ERROR) & regs.COLL_ERR


def test_rf_cfg_reserved_bits_keep_their_reset_value(chip: FakeMFRC522, stock: Any) -> None:
    stock.Write_MFRC522(regs.RF_CFG, 0x70)
    assert stock.Read_MFRC522(regs.RF_CFG) == 0x78  # RxGain written; reserved bit 3 as at reset


def test_spi_bursts_follow_the_datasheet(chip: FakeMFRC522) -> None:
    fifo = (regs.FIFO_DATA << 1) & 0x7E
    chip.transfer([fifo, 1, 2, 3])
    level, version = (regs.FIFO_LEVEL << 1) | 0x80, (regs.VERSION << 1) | 0x80
    assert chip.transfer([level, version, 0]) == [0, 3, 0x92]
    assert chip.transfer([fifo | 0x80] * 3 + [0]) == [0, 1, 2, 3]


def test_calc_crc_matches_crc_a(chip: FakeMFRC522, stock: Any) -> None:
    assert stock.CalulateCRC([0x50, 0x00]) == [0x57, 0xCD]
    assert tuple(stock.CalulateCRC([0x93, 0x70, 1, 2, 3, 4, 4])) == iso.crc_a([0x93, 0x70, 1, 2, 3, 4, 4])


def test_lock_ups_and_their_cures(chip: FakeMFRC522, stock: Any, gpio: FakeGPIO, clock: VirtualClock) -> None:
    chip.lock_up(LockUp.STUCK)
    assert stock.Read_MFRC522(stock.VersionReg) == 0x92  # registers still answer
    stock.MFRC522_Reset()
    assert chip.locked_up is None
    chip.lock_up(LockUp.GARBAGE)
    stock.MFRC522_Reset()  # lost in the noise
    assert chip.locked_up is LockUp.GARBAGE
    assert {stock.Read_MFRC522(stock.VersionReg) for _ in range(20)} != {0x92}
    gpio.output(25, 0)
    assert stock.Read_MFRC522(stock.VersionReg) == 0  # powered down
    gpio.output(25, 1)
    assert chip.locked_up is None and stock.Read_MFRC522(stock.VersionReg) == 0x92
    assert stock.Read_MFRC522(stock.TModeReg) == 0  # a hard reset forgets the settings


def test_a_card_in_a_field_switched_off_forgets_its_halt(chip: FakeMFRC522, stock: Any) -> None:
    card = chip.enter(FakeCard.ntag213("04a1b2c3d4e5f6"))
    select_ntag(stock)
    frame = list(iso.HLTA)
    stock.MFRC522_ToCard(stock.PCD_TRANSCEIVE, frame + stock.CalulateCRC(frame))
    assert card.state.value == "halt"
    stock.AntennaOff()
    stock.AntennaOn()
    assert card.state.value == "idle"


def test_installed_leaves_sys_modules_as_it_found_them(clock: VirtualClock) -> None:
    before = {name for name in sys.modules if name.split(".")[0] in ("spidev", "RPi", "mfrc522")}
    with installed(FakeMFRC522(clock=clock)):
        import mfrc522

        assert mfrc522.MFRC522 is not None
    after = {name for name in sys.modules if name.split(".")[0] in ("spidev", "RPi", "mfrc522")}
    assert before == after


def test_a_card_is_silent_while_it_powers_up(chip: FakeMFRC522, clock: VirtualClock, stock: Any) -> None:
    """ISO 14443-3 gives a card up to 5 ms after the field reaches it before it must answer."""
    chip.power_up_s = 3e-3
    chip.enter(FakeCard.classic1k("deadbeef"))
    assert stock.MFRC522_Request(stock.PICC_REQIDL)[0] != stock.MI_OK
    clock.advance(3e-3)
    assert stock.MFRC522_Request(stock.PICC_REQIDL)[0] == stock.MI_OK


def test_the_realistic_fake_charges_compute_time_and_sleep_overshoot(chip: FakeMFRC522, clock: VirtualClock) -> None:
    from hardware.fakes import ComputeCharge, overshooting

    cpu = [10.0]
    charge = ComputeCharge(chip, clock, scale=15.0, cpu=lambda: cpu[0])
    before = clock.now()
    cpu[0] += 0.001  # the driver spent 1 ms of this machine's time between two transactions
    chip.transfer([0x80 | (0x37 << 1), 0])
    spent = clock.now() - before - 30e-6  # less the conftest's SPI cost
    assert spent == pytest.approx(0.015) and charge.charged_s == pytest.approx(0.015)
    cpu[0] += 0.5  # time spent inside the fake chip is the chip's, not the driver's
    charge.restart()
    before = clock.now()
    chip.transfer([0x80 | (0x37 << 1), 0])
    assert clock.now() - before == pytest.approx(30e-6)
    sleep = overshooting(clock, 80e-6)
    before = clock.now()
    sleep(0.001)
    sleep(0)
    assert clock.now() - before == pytest.approx(0.00108)
