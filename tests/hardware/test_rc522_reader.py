"""The real mfrc522 code with our driver on top, against the fake chip: what reaches the table."""

from __future__ import annotations

import itertools
import logging
import queue
from typing import Any

import pytest

from companion.reads import ReaderHealth, ReaderMessage, TagSeen
from hardware.fakes import FakeCard, FakeGPIO, FakeMFRC522, Fault, LockUp, VirtualClock
from hardware.rc522 import RC522Config
from hardware.readers.rc522 import RC522Reader
from marmite.readers import make_reader

NTAG = "04a1b2c3d4e5f6"
NTAG_TWIN = "04a1b2c3998877"  # same first three bytes: the same cascade-level-1 answer as NTAG
CLASSIC = "deadbeef"


@pytest.fixture
def reader(gpio: FakeGPIO, clock: VirtualClock) -> RC522Reader:
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    opening = reader.step()
    assert [(m.ok, m.detail) for m in opening if isinstance(m, ReaderHealth)] == [(True, "MFRC522 v2.0 ready")]
    return reader


def tags(messages: list[ReaderMessage]) -> list[str]:
    return [m.uid for m in messages if isinstance(m, TagSeen)]


def run(reader: RC522Reader, clock: VirtualClock, polls: int) -> list[ReaderMessage]:
    """`polls` polls, `poll_ms` apart."""
    messages: list[ReaderMessage] = []
    for _ in range(polls):
        messages += reader.step()
        clock.advance(reader.config.poll_ms / 1000)
    return messages


def test_reads_a_four_byte_uid_exactly(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    chip.enter(FakeCard.classic1k(CLASSIC))
    assert tags(run(reader, clock, 3)) == [CLASSIC]


def test_reads_seven_byte_uids_in_full(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    first = tags(run(reader, clock, 3))
    chip.enter(FakeCard.ntag213(NTAG_TWIN))
    second = tags(run(reader, clock, 3))
    assert (first, second) == ([NTAG], [NTAG_TWIN])


def test_a_resting_card_is_reported_once(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    card = chip.enter(FakeCard.ntag213(NTAG))
    messages = run(reader, clock, 500)  # five seconds of polling, well past the debounce time
    assert tags(messages) == [NTAG]
    assert card.state.value == "halt"


def test_a_card_dropped_on_a_halted_one_is_reported(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock
) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    first = tags(run(reader, clock, 10))
    chip.enter(FakeCard.classic1k(CLASSIC))
    second = tags(run(reader, clock, 10))
    assert (first, second) == ([NTAG], [CLASSIC])


def test_two_cards_at_once_are_both_reported(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    chip.enter(FakeCard.ntag213(NTAG_TWIN))
    chip.enter(FakeCard.classic1k(CLASSIC))
    assert sorted(tags(run(reader, clock, 5))) == sorted([NTAG, NTAG_TWIN, CLASSIC])


@pytest.mark.parametrize("fault", list(Fault))
@pytest.mark.parametrize("on", ["reqa", "anticoll", "select"])
def test_radio_faults_never_make_up_a_card(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock, fault: Fault, on: str
) -> None:
    chip.inject(fault, on=on, count=3)
    chip.enter(FakeCard.ntag213(NTAG))
    assert tags(run(reader, clock, 30)) == [NTAG]


def test_a_card_leaving_mid_read_is_not_reported(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    chip.inject(Fault.NO_ANSWER, on="select", count=10**6)  # it never gets as far as being selected
    assert tags(run(reader, clock, 50)) == []


def test_same_card_debounce(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    card = FakeCard.ntag213(NTAG)
    seen = []
    for pause in (0.1, 0.1, 2.0, 0.0):  # bounces out and back twice quickly, then comes back much later
        chip.enter(card)
        seen += tags(run(reader, clock, 2))
        chip.leave(card)
        clock.advance(pause)
    assert seen == [NTAG, NTAG]


def test_recovers_from_a_stuck_chip_with_a_soft_reset(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    chip.lock_up(LockUp.STUCK)
    chip.enter(FakeCard.ntag213(NTAG))
    messages = run(reader, clock, 10)
    health = [(m.ok, m.detail.split(" (")[0]) for m in messages if isinstance(m, ReaderHealth)]
    assert health == [(False, "reader locked up"), (True, "MFRC522 v2.0 back after a reset")]
    assert tags(messages) == [NTAG]
    assert chip.locked_up is None and reader.resets == 1
    assert [c.value for c in gpio.outputs(25)] == [0, 1]  # set up at start; the soft reset sufficed: no pulse later


def test_recovers_from_a_garbage_chip_with_the_reset_pin(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    chip.lock_up(LockUp.GARBAGE)
    messages = run(reader, clock, 10)
    assert tags(messages) == [NTAG]
    assert [m.ok for m in messages if isinstance(m, ReaderHealth)] == [False, True]
    assert [c.value for c in gpio.outputs(25)] == [0, 1, 0, 1]  # set up at start, then one pulse


def test_a_resting_card_is_not_reported_again_after_a_reset(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock
) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    before = tags(run(reader, clock, 300))  # well past the debounce time
    chip.lock_up(LockUp.STUCK)
    after = run(reader, clock, 20)
    assert reader.resets == 1 and chip.resets > 1  # the field went off and on: the card woke up
    assert (before, tags(after)) == ([NTAG], [])


def test_garbage_never_becomes_a_tag(chip: FakeMFRC522, gpio: FakeGPIO, clock: VirtualClock) -> None:
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    reader.step()
    gpio.on_output(25, lambda level: chip.lock_up(LockUp.GARBAGE))  # every reset pulse leaves it broken
    chip.lock_up(LockUp.GARBAGE)
    messages = run(reader, clock, 2000)
    assert tags(messages) == []
    assert [m.ok for m in messages if isinstance(m, ReaderHealth)][-1] is False


def test_no_chip_on_the_bus_is_reported_with_a_hint(chip: FakeMFRC522, gpio: FakeGPIO, clock: VirtualClock) -> None:
    chip.version = 0x00  # the MISO line reads as zeros
    chip.set_reset_line(0)
    chip.set_reset_line(1)
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    [health] = reader.step()
    assert isinstance(health, ReaderHealth) and not health.ok
    assert "no RC522 answers on SPI 0.0" in health.detail


def test_missing_hardware_modules_are_reported(clock: VirtualClock) -> None:
    reader = RC522Reader(gpio=None, clock=clock, sleep=clock.sleep)
    [health] = reader.step()  # no fakes installed: spidev and RPi.GPIO cannot be imported here
    assert isinstance(health, ReaderHealth) and not health.ok
    assert "is not installed: run scripts/install-pi" in health.detail


def test_an_empty_poll_costs_few_transfers(chip: FakeMFRC522, reader: RC522Reader) -> None:
    chip.transfers = 0
    reader.step()
    assert chip.transfers <= 15


def test_registered_and_configurable() -> None:
    reader = make_reader("rc522", {"gain_db": "48", "reset_pin": "24"})
    assert isinstance(reader, RC522Reader) and reader.config.gain_db == 48 and reader.config.reset_pin == 24
    with pytest.raises(ValueError, match="gain must be one of"):
        make_reader("rc522", {"gain_db": "50"})
    with pytest.raises(ValueError, match="unknown rc522 option"):
        make_reader("rc522", {"volume": "11"})
    with pytest.raises(ValueError, match="poll_ms"):
        make_reader("rc522", {"poll_ms": "50"})


def test_the_thread_puts_tags_on_the_queue() -> None:
    """Real time, real thread: a card in the field reaches the queue, and close() is idempotent."""
    from hardware.fakes import installed

    chip = FakeMFRC522()
    chip.enter(FakeCard.ntag213(NTAG))
    out: queue.Queue[ReaderMessage] = queue.Queue()
    with installed(chip):
        reader = make_reader("rc522")
        reader.start(out)
        try:
            first = out.get(timeout=5)
            second = out.get(timeout=5)
        finally:
            reader.close()
            reader.close()
    assert isinstance(first, ReaderHealth) and first.ok
    assert isinstance(second, TagSeen) and second.uid == NTAG and second.reader == "rc522"


def test_a_chip_that_does_not_answer_gives_its_spi_handle_back(chip: FakeMFRC522, gpio: FakeGPIO,
                                                               clock: VirtualClock) -> None:
    chip.version = 0  # nothing answers on SPI
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    first = reader.step()
    assert [m.ok for m in first if isinstance(m, ReaderHealth)] == [False]
    assert reader._mfrc522 is None, "a failed open must release SPI before the next try"


def test_an_spi_error_is_reported_and_the_thread_keeps_going(chip: FakeMFRC522, gpio: FakeGPIO,
                                                             clock: VirtualClock) -> None:
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    out: queue.Queue[ReaderMessage] = queue.Queue()
    reader.start(out)
    try:
        opened = out.get(timeout=5)
        assert isinstance(opened, ReaderHealth) and opened.ok

        def unplugged(nbytes: int) -> None:
            raise OSError(5, "Input/output error")

        chip.on_transfer.append(unplugged)
        while True:
            message = out.get(timeout=5)
            if isinstance(message, ReaderHealth) and not message.ok:
                break
        assert message.detail  # says what went wrong, for the table display
        assert reader._thread is not None and reader._thread.is_alive()
    finally:
        reader.close()


class LgpioError(Exception):
    """Stands for rpi-lgpio's `lgpio.error`, which is not an OSError."""


LgpioError.__module__ = "lgpio"
LgpioError.__name__ = LgpioError.__qualname__ = "error"


def test_any_exception_in_the_thread_is_reported_and_the_reader_comes_back(
    chip: FakeMFRC522, gpio: FakeGPIO
) -> None:
    reader = RC522Reader()
    out: queue.Queue[ReaderMessage] = queue.Queue()
    failing = [True]

    def gpiochip_gone(nbytes: int) -> None:
        if failing[0]:
            raise LgpioError("can not open gpiochip")

    reader.start(out)
    try:
        assert (opened := out.get(timeout=5)) and isinstance(opened, ReaderHealth) and opened.ok
        chip.on_transfer.append(gpiochip_gone)
        down = out.get(timeout=5)
        assert isinstance(down, ReaderHealth) and not down.ok
        # explained as `marmite reader test` explains it: no chip, no permission, or which board
        assert "gpiochip" in down.detail.lower().replace(" ", "")
        failing[0] = False
        while not ((back := out.get(timeout=10)) and isinstance(back, ReaderHealth) and back.ok):
            pass
        assert reader._thread is not None and reader._thread.is_alive()
    finally:
        reader.close()


def test_failed_opens_back_off_and_report_every_time(chip: FakeMFRC522, gpio: FakeGPIO, clock: VirtualClock) -> None:
    chip.version = 0  # nothing answers on SPI
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    attempts: list[float] = []
    start = clock.now()
    while clock.now() - start < 120:
        if reader.step():
            attempts.append(round(clock.now() - start))
        clock.advance(0.5)
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert gaps[:4] == [2, 4, 8, 16] and set(gaps[4:]) == {30}


def test_failed_opens_leave_no_logging_handler_behind(chip: FakeMFRC522, gpio: FakeGPIO, clock: VirtualClock) -> None:
    logger = logging.getLogger("mfrc522Logger")
    before = list(logger.handlers)
    chip.version = 0
    reader = RC522Reader(clock=clock, sleep=clock.sleep)
    for _ in range(50):
        reader.step()
        clock.advance(60)
    assert logger.handlers == before
    assert reader.step() or True  # still trying, not stuck


def test_a_resting_card_is_not_reported_again_after_a_reopen(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock
) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    before = tags(run(reader, clock, 300))  # well past the debounce time: the card sleeps, halted
    chip.on_transfer.append(unplug_once := _raise_once(OSError(5, "Input/output error")))
    after: list[ReaderMessage] = []
    for _ in range(400):  # the loop's own handling: _fail, then a reopen after the backoff
        try:
            after += reader.step()
        except OSError as error:
            after += reader._fail(error)
        clock.advance(0.01)
    assert unplug_once.fired and chip.resets > 1  # the reopen reset the chip: the card woke up
    assert [m.ok for m in after if isinstance(m, ReaderHealth)] == [False, True]
    assert (before, tags(after)) == ([NTAG], [])


def _raise_once(error: Exception) -> Any:
    class Once:
        fired = False

        def __call__(self, nbytes: int) -> None:
            if not self.fired:
                self.fired = True
                raise error

    return Once()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("timeout_ms", "0.1", "timeout_ms must be between 0.5 and 50"), ("speed_hz", "20000000", "SPI limit")],
)
def test_settings_a_chip_cannot_meet_are_refused(option: str, value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RC522Config.from_options({option: value})


def test_gain_is_set_without_touching_reserved_bits(chip: FakeMFRC522, gpio: FakeGPIO, clock: VirtualClock) -> None:
    reader = RC522Reader(RC522Config(gain_db=48), clock=clock, sleep=clock.sleep)
    [health] = reader.step()  # the fake keeps RFCfgReg's reserved bits whatever is written, as silicon may
    assert health.ok and chip.register(0x26) == 0x78  # RxGain 48 dB, reserved bit 3 as at reset


def test_radio_errors_that_repeat_are_reported(chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock) -> None:
    chip.enter(FakeCard.ntag213(NTAG))
    chip.inject(Fault.PARITY, on="anticoll", count=4 * 30)  # 30 polls of damaged answers, 4 tries each
    messages = run(reader, clock, 60)
    health = [(m.ok, m.detail.split(" (")[0]) for m in messages if isinstance(m, ReaderHealth)]
    assert health == [(False, "radio errors keep coming"), (True, "radio errors stopped")]
    assert tags(messages) == [NTAG]


def test_the_driver_library_does_not_flood_the_log(
    chip: FakeMFRC522, reader: RC522Reader, clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    """`mfrc522` logs error lines for every exchange that fails: a Classic whose sector another key locks
    would write two per attempt into the service log. The reader reports the failed write itself."""
    card = FakeCard.classic1k(CLASSIC)
    card.memory[7 * 16 : 7 * 16 + 6] = bytes(range(1, 7))  # sector 1's key A is not the transport key
    chip.enter(card)
    assert tags(reader.step()) == [CLASSIC]
    with caplog.at_level(logging.DEBUG):
        for _ in range(5):
            assert not reader.write_card(CLASSIC, "pea-0a")
    assert not [r for r in caplog.records if r.name == "mfrc522Logger"]
