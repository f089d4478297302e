"""Self-describing decks against the clock: codes read without losing the next card (issue 22, item 1).

The reader's own poll loop on a fake chip charging a Pi Zero 2 W's SPI time (60 µs per transaction), cards
passing on a timetable. Each case is deterministic (virtual time only), swept over arrival times.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hardware.fakes import FakeCard
from hardware.fakes.pot import Arrival, PiPot, code_of
from hardware.iso14443 import READ as READ_COMMAND
from hardware.tag_memory import CLASSIC_DATA, CLASSIC_HEADER, NTAG_FIRST_PAGE, classic_blocks, ndef_bytes

FIRST, SECOND = "04a1b2c3d4e5f6", "04c3b2a1998877"
CODES = {FIRST: "pea-0a", SECOND: "menu-mushroom@5"}
PHASES = 5  # arrival times tried across one poll period


def carrying(uid: str, code: str) -> FakeCard:
    """A tag with `code` written on it as a self-describing deck writes it."""
    if len(uid) == 8:
        card = FakeCard.classic1k(uid)
        for block, data in classic_blocks(code).items():
            card.memory[block * 16 : block * 16 + 16] = data
        return card
    card = FakeCard.ntag213(uid)
    memory = ndef_bytes(code)
    card.memory[NTAG_FIRST_PAGE * 4 : NTAG_FIRST_PAGE * 4 + len(memory)] = memory
    return card


@pytest.fixture
def pot() -> Iterator[PiPot]:
    with PiPot() as pot:  # the default settings, as a club runs them
        pot.reader.report_codes(True)
        yield pot


@pytest.mark.parametrize("gap_ms", [20, 40, 80, 150])
def test_a_second_card_soon_after_a_brief_first_is_read_with_its_code(pot: PiPot, gap_ms: int) -> None:
    """Before: reading the first card's code spun 2,000 status reads once it had gone (183 ms on this
    model), and the second card passed unseen, every time."""
    for step in range(PHASES):
        seen = pot.passage([Arrival(carrying(FIRST, CODES[FIRST]), 0, 0.025),
                            Arrival(carrying(SECOND, CODES[SECOND]), gap_ms / 1000, 0.050)], step / PHASES)
        assert code_of(seen, SECOND) == CODES[SECOND], f"phase {step}/{PHASES}: {seen}"
        assert code_of(seen, FIRST) in (CODES[FIRST], None)  # the first may leave before its code is read


def test_two_cards_ten_ms_apart_are_both_reported(pot: PiPot) -> None:
    for step in range(PHASES):
        seen = pot.passage([Arrival(carrying(FIRST, CODES[FIRST]), 0, 0.025),
                            Arrival(carrying(SECOND, CODES[SECOND]), 0.010, 0.025)], step / PHASES)
        assert {m.uid for m in seen} == {FIRST, SECOND}, f"phase {step}/{PHASES}"


@pytest.mark.parametrize("uid", [FIRST, "deadbeef"])
def test_one_card_briefly_in_the_field_comes_with_its_code(pot: PiPot, uid: str) -> None:
    for step in range(PHASES):
        seen = pot.passage([Arrival(carrying(uid, "onion-5a"), 0, 0.025)], step / PHASES)
        assert code_of(seen, uid) == "onion-5a", f"phase {step}/{PHASES}: {seen}"


def test_a_tag_the_deck_knows_is_not_read(pot: PiPot) -> None:
    """Only the code of a tag the deck lacks is ever used: a known tag costs no memory read."""
    pot.reader.skip_codes_of(lambda uid: uid == FIRST)
    pot.chip.frames_sent.clear()
    seen = pot.passage([Arrival(carrying(FIRST, "pea-0a"), 0, 0.05)])
    assert [(m.uid, m.card) for m in seen] == [(FIRST, None)]
    assert not [f for f in pot.chip.frames_sent if f[0] == READ_COMMAND]
    seen = pot.passage([Arrival(carrying(SECOND, "pea-0b"), 0, 0.05)])
    assert [(m.uid, m.card) for m in seen] == [(SECOND, "pea-0b")]


def test_a_code_read_of_a_card_gone_gives_up_after_one_timer_period(pot: PiPot) -> None:
    """The card leaves right after the scan read its UID: the code read costs a few transactions, not thousands."""
    card = pot.chip.enter(carrying(FIRST, "pea-0a"))
    driver = pot.reader._driver
    assert driver is not None
    scan = driver.poll

    def scan_then_leave() -> object:
        result = scan()
        pot.chip.leave(card)
        return result

    driver.poll = scan_then_leave  # type: ignore[method-assign,assignment]
    before = pot.chip.transfers
    [seen] = pot.reader.step()
    assert seen.uid == FIRST and seen.card is None  # type: ignore[union-attr]
    assert pot.chip.transfers - before < 100


def test_the_classic_data_blocks_are_read_after_authentication(pot: PiPot) -> None:
    card = carrying("deadbeef", "menu-pepper@3")
    seen = pot.passage([Arrival(card, 0, 0.05)])
    assert code_of(seen, "deadbeef") == "menu-pepper@3"
    reads = [f[1] for f in pot.chip.frames_sent if f[0] == READ_COMMAND]
    assert reads == [CLASSIC_HEADER, CLASSIC_DATA[0]]  # a code of up to 16 characters fits in one data block
