"""The PN532 as the chip behaves (hardware/fakes/pn532_chip.py cites the reports), on a virtual clock shared
by the fake and the reader: each modelled behaviour, and the reader that is right on it."""

from __future__ import annotations

import queue

import pytest

from companion.reads import ReaderQueue, TagSeen
from hardware.fakes.clock import VirtualClock
from hardware.fakes.pn532_chip import FakeNtag, FakePn532I2c
from hardware.pn532 import Pn532, Pn532Error
from hardware.readers.common import Backoff
from hardware.readers.pn532 import I2cTransport, Pn532Reader

A = FakeNtag(bytes.fromhex("04112233445566"))
B = FakeNtag(bytes.fromhex("04aabbccddeeff"))
C = FakeNtag(bytes.fromhex("04999999999999"))


def driver(clock: VirtualClock) -> tuple[Pn532, FakePn532I2c]:
    chip = FakePn532I2c(clock=clock)
    pn532 = Pn532(I2cTransport(backend=chip, sleep=clock.sleep, clock=clock), clock=clock)
    pn532.wake()
    pn532.set_retries(1)
    return pn532, chip


def test_a_card_left_listed_after_looking_for_a_second_is_not_listed_again_until_the_field_goes_off() -> None:
    pn532, chip = driver(VirtualClock())
    chip.put(A)
    assert [len(pn532.list_targets(2)) for _ in range(4)] == [1, 0, 0, 0]  # halted, woken by WUPA: ACTIVE*
    pn532.field(False)
    assert [t.uid for t in pn532.list_targets(2)] == [A.uid]


def test_with_maxtg_1_a_held_card_is_listed_every_time_unless_the_chip_tries_once() -> None:
    pn532, chip = driver(VirtualClock())
    chip.put(A)
    assert [len(pn532.list_targets(1)) for _ in range(4)] == [1, 1, 1, 1]  # NXP 481864: "no problem at all"
    pn532.set_retries(0)
    assert [len(pn532.list_targets(1)) for _ in range(4)] == [0, 1, 0, 1]  # Adafruit-PN532 #52: alternate reads


def test_of_two_cards_left_listed_the_first_is_halted_until_the_field_goes_off() -> None:
    pn532, chip = driver(VirtualClock())
    chip.put(A)
    chip.put(B)
    lists = [[t.uid for t in pn532.list_targets(2)] for _ in range(4)]
    assert lists == [[A.uid, B.uid], [B.uid], [], []]
    pn532.field(False)  # ESPHome #9875: field off after every poll
    assert [t.uid for t in pn532.list_targets(2)] == [A.uid, B.uid]


def thread_sequence(cards: list[FakeNtag], commands: int) -> list[object]:
    """NXP 481864's host: the chip's default retries (for ever), InListPassiveTarget with MaxTg=2 again and
    again; a command that only gets its ACK is abandoned (the driver aborts it) and the next one sent."""
    clock = VirtualClock()
    chip = FakePn532I2c(clock=clock)
    pn532 = Pn532(I2cTransport(backend=chip, sleep=clock.sleep, clock=clock), clock=clock)
    pn532.wake()
    for card in cards:
        chip.put(card)
    results: list[object] = []
    for _ in range(commands):
        try:
            results.append(len(pn532.list_targets(2, 0.2)))
        except Pn532Error:  # ACK, then nothing: "no actual data"
            results.append("none")
    return results


def test_the_thread_s_sequences_two_tags_2_then_1_then_none_one_tag_every_second_attempt() -> None:
    assert thread_sequence([A, B], 6) == [2, 1, "none", 2, 1, "none"]  # "2 tags, then only 1 tag, then none"
    assert thread_sequence([A], 4) == [1, "none", 1, "none"]  # "read only on exactly every second attempt"


def test_an_empty_poll_costs_its_retries_at_fretrytimeout() -> None:
    clock = VirtualClock()
    pn532, _ = driver(clock)
    began = clock.now()
    assert pn532.list_targets(2) == []
    default = clock.now() - began
    pn532.set_retry_timeout(0x05)
    began = clock.now()
    assert pn532.list_targets(2) == []
    assert default == pytest.approx(2 * 0.0512) and clock.now() - began == pytest.approx(2 * 0.0016)


def test_with_infinite_retries_the_chip_acknowledges_then_stays_silent() -> None:
    clock = VirtualClock()
    chip = FakePn532I2c(clock=clock)
    pn532 = Pn532(I2cTransport(backend=chip, sleep=clock.sleep, clock=clock), clock=clock)
    pn532.wake()
    with pytest.raises(Exception, match="did not answer"):
        pn532.list_targets(2)  # WMT-GmbH/pn532 #21: ACK, then nothing


# --- the reader on the model ---------------------------------------------------------------


def rig(clock: VirtualClock) -> tuple[Pn532Reader, FakePn532I2c, ReaderQueue]:
    chip = FakePn532I2c(clock=clock)
    reader = Pn532Reader(lambda: I2cTransport(backend=chip, sleep=clock.sleep, clock=clock), where="model",
                         clock=clock)
    out: ReaderQueue = queue.Queue()
    reader._out = out
    return reader, chip, out


def run(reader: Pn532Reader, clock: VirtualClock, seconds: float) -> None:
    """The reader's own thread turns, on the virtual clock."""
    end, backoff = clock.now() + seconds, Backoff()
    while clock.now() < end:
        clock.sleep(max(reader.step(backoff), 0.0001))


def seen(out: ReaderQueue) -> list[str]:
    uids = []
    while not out.empty():
        message = out.get_nowait()
        if isinstance(message, TagSeen):
            uids.append(message.uid)
    return uids


def test_a_card_resting_is_written_whatever_the_last_poll_left_it_in() -> None:
    clock = VirtualClock()
    reader, chip, out = rig(clock)
    chip.put(A)
    run(reader, clock, 0.2)
    assert seen(out) == [A.uid.hex()], "a resting card is not read again"
    assert reader._chip is not None and reader._chip.list_targets(2) == []  # halted: no listing finds it
    assert reader.write_card(A.uid.hex(), "cd-tomate-1"), "a card missed by the next listing is never found"


def test_a_lost_answer_costs_a_retry_not_half_a_second() -> None:
    clock = VirtualClock()
    reader, chip, out = rig(clock)
    run(reader, clock, 0.1)
    chip.lose_answers = 1
    now = clock.now()
    chip.schedule(A, now + 0.07, now + 0.07 + 0.25)
    run(reader, clock, 0.5)
    assert seen(out) == [A.uid.hex()]


@pytest.mark.parametrize("window", [0.04, 0.06, 0.12, 0.25])
def test_no_card_is_lost_passing_whatever_its_phase(window: float) -> None:
    clock = VirtualClock()
    reader, chip, out = rig(clock)
    run(reader, clock, 0.1)
    lost = []
    for phase in range(0, 60, 3):
        card = FakeNtag(bytes([0x04, phase, 1, 2, 3, 4, 5]))
        now = clock.now()
        chip.schedule(card, now + phase / 1000, now + phase / 1000 + window)
        run(reader, clock, window + 0.1 + phase / 1000)
        chip.take(card)
        if seen(out) != [card.uid.hex()]:
            lost.append(phase)
    assert lost == []


@pytest.mark.parametrize("resting", [1, 2])
def test_a_card_dropped_on_resting_ones_is_seen_and_the_resting_ones_are_not_read_again(resting: int) -> None:
    clock = VirtualClock()
    reader, chip, out = rig(clock)
    for card in (A, B)[:resting]:
        chip.put(card)
    run(reader, clock, 0.3)
    assert sorted(seen(out)) == sorted(card.uid.hex() for card in (A, B)[:resting])
    for drop in range(5):
        card = FakeNtag(bytes([0x04, 0x77, drop, 1, 2, 3, 4]))
        now = clock.now()
        chip.schedule(card, now + 0.013 * drop, now + 0.013 * drop + 0.06)
        run(reader, clock, 0.9)  # five drops over 4.5 s: the resting cards are never said again
        assert seen(out) == [card.uid.hex()]


class Stretching(FakePn532I2c):
    """The chip on a Pi's I2C, which does not wait out its clock stretching: some transfers fail EREMOTEIO."""

    def __init__(self, **chip: object) -> None:
        super().__init__(**chip)  # type: ignore[arg-type]
        self.refusals = 0

    def read(self, count: int) -> bytes:
        self.refusals += 1
        if self.refusals % 3 == 0:
            import errno

            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return super().read(count)


def test_an_i2c_transfer_refused_with_eremoteio_is_tried_again() -> None:
    clock = VirtualClock()
    chip = Stretching(clock=clock)
    transport = I2cTransport(backend=chip, sleep=clock.sleep, clock=clock)
    pn532 = Pn532(transport, clock=clock)
    pn532.wake()
    chip.put(A)
    assert pn532.firmware()[0] == 0x32 and [t.uid for t in pn532.list_targets(2)] == [A.uid]
    assert transport.remote_io_retries > 0


class SlowToWake(FakePn532I2c):
    """A dongle whose first answer takes about a second (nfcpy waits 1.5 s for it)."""

    def __init__(self, clock: VirtualClock) -> None:
        super().__init__(clock=clock)
        self.awake_at = clock.now() + 1.0

    def read(self, count: int) -> bytes:
        if self.clock.now() < self.awake_at:
            return bytes(count)
        return super().read(count)


def test_a_first_ack_a_second_late_is_waited_for() -> None:
    clock = VirtualClock()
    chip = SlowToWake(clock)
    reader = Pn532Reader(lambda: I2cTransport(backend=chip, sleep=clock.sleep, clock=clock), where="model",
                         clock=clock)
    assert reader._open(), reader._health.detail


@pytest.mark.parametrize("resting", [1, 2])
def test_cards_resting_cost_the_host_no_more_commands_than_an_empty_reader(resting: int) -> None:
    clock = VirtualClock()
    reader, chip, out = rig(clock)
    run(reader, clock, 0.3)
    before = len(chip.commands)
    run(reader, clock, 3.0)
    empty = len(chip.commands) - before
    for card in (A, B)[:resting]:
        chip.put(card)
    run(reader, clock, 0.5)
    assert sorted(seen(out)) == sorted(card.uid.hex() for card in (A, B)[:resting])
    before = len(chip.commands)
    run(reader, clock, 3.0)
    assert len(chip.commands) - before <= empty + 1, "the resting cards are listed again and again"
    assert seen(out) == []


def test_cards_resting_are_not_said_again_when_the_field_is_cycled() -> None:
    clock = VirtualClock()
    reader, chip, out = rig(clock)
    chip.put(A)
    chip.put(B)
    run(reader, clock, 0.3)
    assert sorted(seen(out)) == sorted([A.uid.hex(), B.uid.hex()])
    run(reader, clock, 2.0)  # resting, halted: long past the debounce
    chip.lose_answers = 1  # a lost answer: the reader turns the field off before trying again
    run(reader, clock, 1.0)
    assert seen(out) == [], "the resting cards woke with the field and were said again"
    run(reader, clock, 2.0)
    assert reader.write_card(A.uid.hex(), "cd-tomate-1")  # a write turns the field off too
    run(reader, clock, 1.0)
    assert seen(out) == []
    chip.take(A)
    run(reader, clock, 1.5)
    chip.put(A)  # lifted and put back: a new passage
    run(reader, clock, 0.5)
    assert seen(out) == [A.uid.hex()]
