"""Stacked cards against the clock: the reader's own poll loop, on a fake chip that charges a Pi's SPI time.

Every case is deterministic: virtual time only, the cards' arrival swept across one poll period, the harshest
pair (two NTAGs with the same cascade-level-1 answer, the longest read) over the antenna for 25 ms each.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.reads import TagSeen
from hardware.fakes import (
    PI_ZERO_2W,
    FakeCard,
    FakeGPIO,
    FakeMFRC522,
    FieldSchedule,
    VirtualClock,
    charge_spi,
    installed,
)
from hardware.readers.rc522 import RC522Reader

TWINS = ("04a1b2c3d4e5f6", "04a1b2c3998877")  # the same first three bytes: identical cascade-level-1 answers
DWELL_S = 0.025  # the harsh case of issue 10: each card only 25 ms over the antenna
PHASES = 20  # arrival times tried across one poll period


@pytest.fixture
def rig() -> Iterator[tuple[RC522Reader, FieldSchedule, VirtualClock]]:
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    charge_spi(chip, clock, PI_ZERO_2W)
    schedule = FieldSchedule(chip, clock)
    with installed(chip, FakeGPIO(clock=clock)):
        reader = RC522Reader(clock=clock, sleep=clock.sleep)  # the default settings, as a club runs it
        messages, _ = reader.cycle()
        assert [m.detail for m in messages] == ["MFRC522 v2.0 ready"]
        yield reader, schedule, clock


def passage(reader: RC522Reader, schedule: FieldSchedule, clock: VirtualClock, gap_s: float, phase: float) -> set[str]:
    """The twins arrive `phase` of a poll period after a poll starts, `gap_s` apart: the UIDs reported."""
    messages, pause = reader.cycle()  # a poll of the empty field; the next one comes a poll period after it began
    began = clock.now() - (reader.config.poll_ms / 1000 - pause)
    arrival = began + phase * reader.config.poll_ms / 1000
    first, second = FakeCard.ntag213(TWINS[0]), FakeCard.ntag213(TWINS[1])
    schedule.add(first, arrival, DWELL_S)
    schedule.add(second, arrival + gap_s, DWELL_S)
    reported = {m.uid for m in messages if isinstance(m, TagSeen)}
    clock.sleep(pause)
    while schedule.events:
        schedule.apply()
        messages, pause = reader.cycle()
        reported |= {m.uid for m in messages if isinstance(m, TagSeen)}
        clock.sleep(pause)
    clock.advance(2 * reader.config.debounce_s)
    return reported


@pytest.mark.parametrize("gap_ms", [0, 5, 10, 25])
def test_two_stacked_cards_25_ms_over_the_antenna_are_both_reported_whenever_they_arrive(
    rig: tuple[RC522Reader, FieldSchedule, VirtualClock], gap_ms: int
) -> None:
    reader, schedule, clock = rig
    missed = [
        round(phase / PHASES * reader.config.poll_ms, 2)
        for phase in range(PHASES)
        if passage(reader, schedule, clock, gap_ms / 1000, phase / PHASES) != set(TWINS)
    ]
    assert missed == [], f"a card missed when the pair arrived this many ms into a poll period: {missed}"
