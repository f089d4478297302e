"""The firmware's RC522 driver against the register-level fake chip, through the fake `machine`."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.simulator import FakeMachine, load_firmware
from hardware.fakes.cards import FakeCard
from hardware.fakes.clock import VirtualClock
from hardware.fakes.mfrc522_chip import FakeMFRC522, Fault, LockUp

load_firmware()
import rc522  # noqa: E402  (the firmware's module, importable once load_firmware put it on sys.path)


@pytest.fixture
def chip() -> FakeMFRC522:
    return FakeMFRC522(clock=VirtualClock())


def wired(chip: FakeMFRC522, machine: FakeMachine | None = None) -> Any:
    """The firmware's RC522 on `chip`, sleeping on the chip's virtual clock."""
    machine = machine or FakeMachine(chip)
    clock = chip.clock
    assert isinstance(clock, VirtualClock)
    return rc522.RC522(
        machine.SPI(0), machine.Pin(17, 1, value=1), machine.Pin(20, 1, value=1),
        sleep=lambda us: clock.advance(us / 1e6),
    )


@pytest.fixture
def driver(chip: FakeMFRC522) -> Any:
    reader = wired(chip)
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


def test_a_pile_is_read_in_one_scan(chip: FakeMFRC522, driver: Any) -> None:
    pile = [FakeCard.ntag213("04a1b2c3d4e5f6"), FakeCard.ntag213("04a1b2c3d4e5f7"), FakeCard.classic1k("04a1b2c3")]
    for card in pile:
        chip.enter(card)
    assert sorted(driver.scan()) == sorted(card.uid for card in pile)  # collisions resolved, parity errors and all
    assert driver.scan() == [] and driver.radio_errors == 0


def test_an_empty_field_reads_nothing(driver: Any) -> None:
    assert driver.read_uid() is None


def test_no_chip_on_the_bus_is_a_chip_error(chip: FakeMFRC522) -> None:
    machine = FakeMachine(chip)
    machine.rc522_wired = False
    reader = wired(chip, machine)
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


class Link:
    """The USB side of a Board: what it wrote, decoded."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.reported: set[int] = set()

    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.written.extend(data)

    def tag_uids(self) -> list[bytes]:
        """The UIDs of the TAG messages written since the last call (a resent TAG counts once)."""
        from firmware_bridge import protocol as p

        frames = p.FrameDecoder().feed(bytes(self.written))
        self.written = bytearray()
        by_seq = {f.seq: p.parse_tag(f.body)[2] for f in frames if f.kind == p.TAG}
        return [uid for seq, uid in by_seq.items() if seq not in self.reported and not self.reported.add(seq)]


class Ticks:
    """A millisecond clock the test moves."""

    def __init__(self) -> None:
        self.now = 100_000

    def __call__(self) -> int:
        return self.now


def board_on(chip: FakeMFRC522) -> tuple[Any, Link, Ticks]:
    bridge = load_firmware()
    reader = wired(chip)
    link, ticks = Link(), Ticks()
    board = bridge.Board(reader, link, boot_id=7, clock=ticks)
    board.start()
    return board, link, ticks


def steps(board: Any, ticks: Ticks, ms: int) -> None:
    """`ms` of the main loop, with a host listening (no quiet sending)."""
    for _ in range(ms // 5):
        board.last_host_ms = ticks.now
        board.step()
        ticks.now += 5


def test_the_board_reports_two_stacked_cards_from_one_scan(chip: FakeMFRC522) -> None:
    board, link, ticks = board_on(chip)
    steps(board, ticks, 3000)
    link.tag_uids()
    twins = [FakeCard.ntag213("04a1b2c3d4e5f6"), FakeCard.ntag213("04a1b2c3998877")]
    for card in twins:
        chip.enter(card)
    board.last_scan_ms = None
    board.last_host_ms = ticks.now
    board.step()  # one scan
    assert sorted(link.tag_uids()) == sorted(card.uid for card in twins)


def test_a_resting_card_is_not_reported_again_after_a_chip_reinit(chip: FakeMFRC522) -> None:
    board, link, ticks = board_on(chip)
    chip.enter(FakeCard.classic1k("deadbeef"))
    steps(board, ticks, 5000)  # read once, then resting, halted, long past the debounce time
    assert link.tag_uids() == [bytes.fromhex("deadbeef")]
    chip.lock_up(LockUp.GARBAGE)  # the next version check fails: the board re-initialises the chip
    steps(board, ticks, 3000)
    assert chip.locked_up is None and chip.resets > 2  # the field went off and on: the card woke up
    assert link.tag_uids() == []
    chip.leave(chip.cards[0])
    steps(board, ticks, 3000)
    chip.enter(FakeCard.classic1k("deadbeef"))  # played again later: a new pass, reported
    steps(board, ticks, 100)
    assert link.tag_uids() == [bytes.fromhex("deadbeef")]


def test_radio_errors_that_repeat_show_in_the_heartbeat(chip: FakeMFRC522) -> None:
    from firmware_bridge import protocol as p

    board, link, ticks = board_on(chip)
    chip.enter(FakeCard.classic1k("deadbeef"))
    chip.inject(Fault.PARITY, on="anticoll", count=1000)  # more than 2 s of scans meet
    steps(board, ticks, 2000)
    frames = p.FrameDecoder().feed(bytes(link.written))
    states = [p.parse_heartbeat(f.body)[3] for f in frames if f.kind == p.HEARTBEAT]
    assert states[-1] == p.STATE_READER_OK | p.STATE_RADIO_ERRORS


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=100))
def test_a_card_arriving_in_the_middle_of_a_scan_is_read_by_the_next(arrival: int) -> None:
    """Two 7-byte cards with the same first three bytes; the second enters before SPI transaction `arrival`."""
    chip = FakeMFRC522(clock=VirtualClock())
    driver = wired(chip)
    driver.init()
    first, second = FakeCard.ntag213("04a1b2c3d4e5f6"), FakeCard.ntag213("04a1b2c3998877")
    chip.transfers = 0
    chip.on_transfer.append(lambda nbytes: chip.enter(second) if chip.transfers == arrival else None)
    chip.enter(first)
    read = [uid for _ in range(20) for uid in driver.scan()]
    assert chip.transfers > arrival
    assert sorted(read) == sorted([first.uid, second.uid])
