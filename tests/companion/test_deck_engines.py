"""The deck engines on their own: enrollment, deck check and dealing by tag (with properties)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.chaud_devant.cards import ALL_CODES
from companion.deck_check import DeckCheck
from companion.decks import DeckError, parse_deck_file
from companion.enrollment import Enrollment
from companion.tag_deal import DealPlan, TagDeal
from marmite.games import GAMES

CODES = GAMES.kinds[GAMES.default].tag_codes  # a Chaud Devant box (the default game's cards)
ORDER = CODES[:12]

actions = st.lists(st.one_of(
    st.tuples(st.just("read"), st.integers(0, 15)),
    st.tuples(st.just("skip"), st.just(0)),
    st.tuples(st.just("back"), st.just(0)),
    st.tuples(st.just("redo"), st.integers(0, len(ORDER) - 1)),
), max_size=60)


@settings(max_examples=200, deadline=None)
@given(actions)
def test_enrollment_keeps_one_tag_per_card_and_one_card_per_tag(steps: list[tuple[str, int]]) -> None:
    enrollment = Enrollment(ORDER, {})
    for action, number in steps:
        before = dict(enrollment.mapping)
        if action == "read":
            tag = f"{number:08x}"
            step = enrollment.read(tag)
            if step.outcome == "taken":
                assert enrollment.mapping == before  # a refused tag changes nothing
                assert before[tag] != step.parts[0].fields["wanted"]
        elif action == "skip":
            enrollment.skip()
        elif action == "back":
            enrollment.back()
        else:
            enrollment.redo(ORDER[number])
        assert len(set(enrollment.mapping.values())) == len(enrollment.mapping)
        assert set(enrollment.mapping.values()) <= set(ORDER)
        assert enrollment.progress() == (len(enrollment.mapping), len(ORDER))
        assert 0 <= enrollment.cursor <= len(ORDER)


def test_enrollment_asks_in_box_order_and_skips_known_cards() -> None:
    enrollment = Enrollment(ORDER, {"0000000a": ORDER[0], "0000000c": ORDER[2]})
    assert enrollment.current == ORDER[1]
    enrollment.read("0000000b")
    assert enrollment.current == ORDER[3]
    enrollment.skip()
    assert enrollment.current == ORDER[4] and enrollment.skipped == [ORDER[3]]
    enrollment.redo(ORDER[0])
    enrollment.read("000000aa")
    assert enrollment.current == ORDER[4]  # back where we were after replacing one card
    assert enrollment.uid_of(ORDER[0]) == "000000aa" and "0000000a" not in enrollment.mapping


def test_a_deck_check_counts_each_card_once() -> None:
    check = DeckCheck(ORDER, {f"{i:08x}": code for i, code in enumerate(ORDER)})
    for tag in ["00000001", "00000002", "00000002", "ffffffff", "FFFFFFFF", *(f"{i:08x}" for i in range(3, 12))]:
        check.read(tag)
    report = check.report()
    assert report["missing"] == [ORDER[0]] and report["doubled"] == [ORDER[2]]
    assert report["unknown"] == ["ffffffff"] and report["ok"] is False and report["seen"] == 11


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=3, max_size=5), st.integers(0, 4), st.data())
def test_a_deal_gives_each_seat_its_size_one_card_at_a_time_clockwise(
        sizes: list[int], first: int, data: st.DataObject) -> None:
    first %= len(sizes)
    players = tuple(f"p{i}" for i in range(len(sizes)))
    deal = TagDeal(DealPlan(players, tuple(sizes), first, frozenset(ALL_CODES)))
    order = deal.sequence()
    assert [order.count(seat) for seat in range(len(sizes))] == sizes
    assert order[0] == first
    count = len(sizes)
    for index in range(1, len(order)):  # clockwise: the next seat that still needs a card
        a, b = order[index - 1], order[index]
        given_so_far = order[:index]
        between = [(a + k) % count for k in range(1, (b - a) % count or count)]
        assert all(given_so_far.count(seat) == sizes[seat] for seat in between)
    cards = list(ALL_CODES[:sum(sizes)]) if sum(sizes) <= 52 else list(ALL_CODES)
    undo_at = data.draw(st.integers(0, max(0, len(cards) - 1)))
    for index, code in enumerate(cards):
        deal.read(code)
        if index == undo_at and not deal.complete:
            deal.undo()
            deal.read(code)
    if sum(sizes) <= 52:
        assert deal.complete
        hands = deal.hands()
        assert sorted(c for hand in hands.values() for c in hand) == sorted(cards)
        assert [len(hands[p]) for p in players] == sizes


def test_a_deal_refuses_a_card_twice_and_a_non_card() -> None:
    deal = TagDeal(DealPlan(("a", "b", "c"), (2, 2, 2), 1, frozenset(ALL_CODES)))
    assert deal.read("pea-1a").fields["player"] == "b"
    assert deal.read("pea-1a").key == "deal_already"
    assert deal.read(None).key == "deal_not_a_card"
    assert deal.read("menu-pea@1").key == "deal_not_a_card"
    assert deal.next_player() == "c"


def test_deck_file_errors_name_the_first_bad_row() -> None:
    try:
        parse_deck_file("uid,card\n0a0b0c0d,pea-1a\n0a0b0c0e,pea-1a\n0a0b0c0d,pea-1b\n", CODES)
    except DeckError as error:
        assert str(error) == "row 3: card pea-1a is already on row 2"
    else:
        raise AssertionError("a doubled card was accepted")
    assert parse_deck_file("\ufeffuid,card\r\n0a0b0c0d,pea-1a\r\n", CODES) == {"0a0b0c0d": "pea-1a"}
    assert parse_deck_file("uid,card\n", CODES) == {}


def test_a_deck_file_ending_in_blank_lines_is_read_but_a_blank_row_inside_is_not() -> None:
    """Editors leave blank lines at the end; those are no rows. A blank row between rows stays malformed."""
    assert parse_deck_file("uid,card\n0a0b0c0d,pea-1a\n\n\n", CODES) == {"0a0b0c0d": "pea-1a"}
    with pytest.raises(DeckError, match="row 3: expected two fields"):
        parse_deck_file("uid,card\n0a0b0c0d,pea-1a\n\n0a0b0c0e,pea-1b\n", CODES)


def test_optional_cards_count_up_to_what_a_box_holds() -> None:
    order = ("a", "b", "x", "y", "z")  # a box holds a and b, and two of x, y, z
    enrollment = Enrollment(order, {}, optional=frozenset({"x", "y", "z"}), optional_in_box=2)
    assert enrollment.progress() == (0, 4) and enrollment.missing() == list(order)
    enrollment.read("01")
    enrollment.read("02")
    enrollment.read("03")
    assert enrollment.progress() == (3, 4) and enrollment.missing() == ["y", "z"]  # one more, either
    enrollment.skip()
    enrollment.read("04")
    assert enrollment.progress() == (4, 4) and enrollment.missing() == []
    assert enrollment.ask().key == "enroll_done"
