"""Properties: whatever cards lie in the field and whatever the radio does, exactly those cards are reported."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.reads import TagSeen
from hardware import iso14443 as iso
from hardware.fakes import FakeCard, FakeGPIO, FakeMFRC522, Fault, VirtualClock, installed
from hardware.readers.rc522 import RC522Reader


def card_for(uid: bytes) -> FakeCard:
    if len(uid) == 4:
        return FakeCard.classic1k(uid)
    if len(uid) == 7:
        return FakeCard.ntag213(uid)
    return FakeCard(uid, "ntag213", (0x84, 0x00), 0x00, bytearray(180))  # a 10-byte UID: three cascade levels


def valid_uid(uid: bytes) -> bool:
    """ISO 14443-3: the cascade tag never starts a UID part (uid0, and uid3 and uid6 of longer UIDs)."""
    return iso.CASCADE_TAG not in uid[0 : len(uid) - 1 : 3]


uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)).filter(valid_uid)
faults = st.lists(st.tuples(st.sampled_from(list(Fault)), st.sampled_from(["any", "reqa", "anticoll", "select"])))


@settings(max_examples=200, deadline=None)
@given(st.lists(uids, min_size=1, max_size=5, unique=True), faults)
def test_exactly_the_cards_in_the_field_are_reported(cards: list[bytes], injected: list[tuple[Fault, str]]) -> None:
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    chip.on_transfer.append(lambda n: clock.advance(30e-6))
    with installed(chip, FakeGPIO(clock=clock)):
        reader = RC522Reader(clock=clock, sleep=clock.sleep)
        reader.step()
        for fault, on in injected:
            chip.inject(fault, on=on)
        for uid in cards:
            chip.enter(card_for(uid))
        seen = []
        for _ in range(20 + 3 * len(injected)):
            seen += [m.uid for m in reader.step() if isinstance(m, TagSeen)]
            clock.advance(0.01)
    assert sorted(seen) == sorted(uid.hex() for uid in cards)


@settings(max_examples=150, deadline=None)
@given(st.lists(uids, min_size=2, max_size=2, unique=True), st.integers(min_value=1, max_value=120))
def test_a_card_arriving_at_any_moment_of_another_cards_read_is_reported_too(
    pair: list[bytes], arrival: int
) -> None:
    """The second card enters the field just before SPI transaction `arrival` of the poll reading the first."""
    clock = VirtualClock()
    chip = FakeMFRC522(clock=clock)
    first, second = (card_for(uid) for uid in pair)
    transfers = [0]

    def tick(nbytes: int) -> None:
        clock.advance(30e-6)
        transfers[0] += 1
        if transfers[0] == arrival:
            chip.enter(second)

    with installed(chip, FakeGPIO(clock=clock)):
        reader = RC522Reader(clock=clock, sleep=clock.sleep)
        reader.step()
        chip.on_transfer.append(tick)
        chip.enter(first)
        seen = []
        for _ in range(30):  # an empty poll is 7 transactions: the last arrival comes in time for a few more
            seen += [m.uid for m in reader.step() if isinstance(m, TagSeen)]
            clock.advance(0.01)
    assert transfers[0] > arrival
    assert sorted(seen) == sorted(uid.hex() for uid in pair)
