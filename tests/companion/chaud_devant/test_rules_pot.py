"""The pot: sums, led suit, spoiled soup, overflow, and who wins a trick."""

from __future__ import annotations

from tests.companion.chaud_devant.rulebook import card, started, state_after


def test_rulebook_example_valentine_wins_with_eleven_on_a_spoiled_soup_after_an_overflow() -> None:
    plays = ["pea-3a", "pea-1a", "pepper-5a", "onion-x", "mushroom-4a", "pea-3b", "pepper-4a"]
    state = state_after(*started(), *map(card, plays))
    trick = state["rounds"][0]["tricks"][0]
    assert trick == {"winner": "Valentine", "cards": plays}
    assert state["turn"] == "Valentine"
    assert state["pot"] == {"cards": [], "sum": 0, "led": None, "spoiled": False}


def test_rulebook_example_sums_are_announced_as_in_the_rulebook() -> None:
    sums = []
    events = started()
    for code in ["pea-3a", "pea-1a", "pepper-5a", "onion-x", "mushroom-4a", "pea-3b"]:
        events.append(card(code))
        sums.append(state_after(*events)["pot"]["sum"])
    assert sums == [3, 4, 9, 0, 4, 7]


def test_the_lead_sets_the_led_suit() -> None:
    pot = state_after(*started(), card("onion-2a"))["pot"]
    assert pot == {"cards": ["onion-2a"], "sum": 2, "led": "onion", "spoiled": False}


def test_a_pepper_lead_leaves_no_led_suit_and_spoils_the_soup() -> None:
    pot = state_after(*started(), card("pepper-3a"))["pot"]
    assert pot["led"] is None and pot["spoiled"] is True and pot["sum"] == 3


def test_a_led_ten_counts_zero() -> None:
    assert state_after(*started(), card("pea-10"))["pot"]["sum"] == 0


def test_a_ten_played_later_counts_ten_and_wins() -> None:
    state = state_after(*started(), card("pea-10"), card("pea-1a"), card("mushroom-10"))
    assert state["rounds"][0]["tricks"] == [{"winner": "Valentine", "cards": ["pea-10", "pea-1a", "mushroom-10"]}]


def test_a_ten_right_after_an_overflow_counts_ten() -> None:
    state = state_after(*started(), card("pea-2a"), card("pea-x"), card("pea-10"))
    assert state["rounds"][0]["tricks"][0]["winner"] == "Valentine"


def test_overflow_resets_the_sum_but_keeps_led_suit_and_spoiled_state() -> None:
    pot = state_after(*started(), card("pea-4a"), card("pepper-5a"), card("onion-x"))["pot"]
    assert pot == {"cards": ["pea-4a", "pepper-5a", "onion-x"], "sum": 0, "led": "pea", "spoiled": True}


def test_counting_restarts_from_zero_after_an_overflow() -> None:
    pot = state_after(*started(), card("pea-4a"), card("pea-x"), card("pea-3a"))["pot"]
    assert pot["sum"] == 3


def test_an_overflow_lead_leads_its_suit_with_sum_zero() -> None:
    pot = state_after(*started(), card("mushroom-x"))["pot"]
    assert pot == {"cards": ["mushroom-x"], "sum": 0, "led": "mushroom", "spoiled": False}


def test_a_pepper_later_in_the_trick_spoils_the_soup() -> None:
    pot = state_after(*started(), card("pea-1a"), card("pepper-1a"))["pot"]
    assert pot["spoiled"] is True and pot["led"] == "pea"


def test_reaching_ten_exactly_wins_the_trick_and_the_winner_leads_next() -> None:
    state = state_after(*started(), card("pea-5a"), card("pea-5b"))
    assert state["rounds"][0]["tricks"] == [{"winner": "Bruno", "cards": ["pea-5a", "pea-5b"]}]
    assert state["turn"] == "Bruno"


def test_below_ten_the_turn_passes_clockwise() -> None:
    assert state_after(*started(), card("pea-5a"), card("pea-4a"))["turn"] == "Valentine"


def test_play_goes_round_the_table_again_while_the_sum_stays_below_ten() -> None:
    plays = ["pea-0a", "pea-0b", "onion-0a", "onion-0b", "mushroom-0a"]
    state = state_after(*started(), *map(card, plays))
    assert state["turn"] == "Bruno" and state["pot"]["sum"] == 0


def test_the_first_player_is_left_of_the_dealer() -> None:
    events = started()
    events[0]["dealer"] = "Virginie"
    assert state_after(*events)["turn"] == "Bruno"
