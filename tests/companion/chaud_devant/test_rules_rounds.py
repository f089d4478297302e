"""Menus, deals, the end of a round, scoring with the floor at 0, five rounds and shared victory."""

from __future__ import annotations

import pytest

from companion.chaud_devant.cards import ALL_CODES, DECK
from companion.chaud_devant.game import parse_game
from companion.chaud_devant.state import score_round
from companion.chaud_devant.views import public_state
from tests.companion.chaud_devant.rulebook import (
    UNDO,
    card,
    menu,
    new_game,
    play_out_round,
    referee_after,
    started,
    state_after,
)


@pytest.mark.parametrize(("count", "edition", "sizes"), [
    (3, "2005", (13, 13, 13)), (4, "2005", (13, 13, 13, 13)), (3, "2023", (13, 13, 13)),
    (5, "2005", (10, 11, 11, 10, 10)), (5, "2023", (10, 10, 10, 10, 10)),
])
def test_deal_sizes(count: int, edition: str, sizes: tuple[int, ...]) -> None:
    names = ["A", "B", "C", "D", "E"][:count]
    setup = parse_game(names, "A", {"edition": edition})
    assert setup is not None
    assert setup.deal_sizes(0) == sizes


def test_five_players_2005_first_two_clockwise_from_dealer_get_eleven() -> None:
    setup = parse_game(["A", "B", "C", "D", "E"], "D", {})
    assert setup is not None and setup.deal_sizes(3) == (11, 10, 10, 10, 11)


def test_menus_are_absent_before_a_simultaneous_reveal() -> None:
    state = state_after(new_game(), menu("Virginie", "pea"), menu("Bruno", "none"))
    assert "menus" not in state["rounds"][0]
    assert state["phase"] == "menu" and state["turn"] is None


def test_a_player_may_choose_again_before_the_reveal_and_the_last_choice_counts() -> None:
    events = [new_game(), menu("Virginie", "pea"), menu("Virginie", "onion"), *started()[2:]]
    assert state_after(*events)["rounds"][0]["menus"]["Virginie"] == "onion"


def test_the_reveal_starts_play_with_the_first_player() -> None:
    state = state_after(*started())
    assert state["phase"] == "play" and state["turn"] == "Virginie"
    expected = {"Virginie": "pea", "Bruno": "none", "Valentine": "pepper", "Nicolas": "onion"}
    assert state["rounds"][0]["menus"] == expected


def test_sequential_menus_are_shown_as_they_are_revealed() -> None:
    state = state_after(new_game(menu_reveal="sequential"), menu("Virginie", "pea"))
    assert state["rounds"][0]["menus"] == {"Virginie": "pea"}


def test_sequential_dealer_may_copy_the_first_player_when_nothing_else_is_left() -> None:
    referee = referee_after(new_game(("A", "B", "C"), menu_reveal="sequential"))
    game = referee.state
    assert game is not None
    # Menus by seat (A, B, C); in round 5 the dealer B has only "none" left, as has C who reveals first.
    schedule = [("pea", "onion", "mushroom"), ("onion", "pea", "pepper"), ("mushroom", "pepper", "pea"),
                ("pepper", "mushroom", "onion"), ("none", "none", "none")]
    for number, by_seat in enumerate(schedule, start=1):
        dealer = game.game.dealer_of(number)
        for seat in [(dealer + 1 + k) % 3 for k in range(3)]:
            outcome = referee.apply(menu(game.players[seat], by_seat[seat]))
            assert outcome.accepted, (number, seat, outcome.reason)
        play_out_round(referee)
    assert game.progress.phase == "game_over"


def test_rounds_begin_with_their_first_menu_or_hand_and_the_dealer_rotates() -> None:
    referee = referee_after(*started())
    play_out_round(referee)
    state = public_state(referee.state)
    assert state["phase"] == "menu" and state["round"] == 2 and len(state["rounds"]) == 1
    referee.apply(menu("Bruno", "pea"))
    state = public_state(referee.state)
    assert len(state["rounds"]) == 2 and state["rounds"][1]["dealer"] == "Virginie"


def test_the_round_ends_when_the_turn_reaches_an_empty_hand_and_the_open_pot_goes_to_nobody() -> None:
    referee = referee_after(*started(players=("A", "B", "C"), choices=("pea", "onion", "none")))
    game = referee.state
    assert game is not None
    played = play_out_round(referee)
    current = game.progress.rounds[0]
    in_tricks = [code for trick in current.tricks for code in trick.cards]
    assert sorted(in_tricks + current.unclaimed) == sorted(played)
    assert min(current.left) == 0
    assert public_state(game)["pot"] == {"cards": [], "sum": 0, "led": None, "spoiled": False}


def test_the_round_ends_on_the_seat_the_turn_would_pass_to_and_that_seat_has_no_card() -> None:
    # Low cards first, so the round runs long and its last play may or may not win a trick.
    referee = referee_after(*started(players=("A", "B", "C"), choices=("pea", "onion", "none")))
    game = referee.state
    assert game is not None
    low = [c for c in ALL_CODES if DECK[c].value <= 1 and not DECK[c].is_overflow]
    play_out_round(referee, low + [c for c in ALL_CODES if c not in low])
    current = game.progress.rounds[0]
    last = current.plays[-1]
    won_last = bool(current.tricks) and current.tricks[-1].cards[-1] == last.card
    next_seat = last.seat if won_last else (last.seat + 1) % 3  # the winner leads, else clockwise
    assert game.progress.phase == "menu"
    assert current.left[next_seat] == 0
    assert bool(current.unclaimed) != won_last  # an unfinished pot exactly when the last card won nothing


def test_scoring_soup_menu_counts_its_suit_and_loses_per_pepper() -> None:
    won = [DECK[c] for c in ("pea-0a", "pea-x", "pea-10", "onion-3a", "pepper-2a")]
    assert score_round("pea", won) == 3 - 1


def test_scoring_pepper_menu_counts_peppers_and_loses_per_bouillon_not_overflow() -> None:
    won = [DECK[c] for c in ("pepper-1a", "pepper-2b", "pea-0a", "onion-0b", "mushroom-x")]
    assert score_round("pepper", won) == 2 - 2


def test_scoring_no_soup_is_five_minus_cards_won_and_may_be_negative() -> None:
    assert score_round("none", []) == 5
    assert score_round("none", [DECK[c] for c in ALL_CODES[:7]]) == -2


def test_rulebook_example_valentine_scores_two_for_two_peppers() -> None:
    plays = ["pea-3a", "pea-1a", "pepper-5a", "onion-x", "mushroom-4a", "pea-3b", "pepper-4a"]
    assert score_round("pepper", [DECK[c] for c in plays]) == 2


def test_stars_are_floored_at_zero_after_each_round() -> None:
    referee = referee_after(*started(players=("A", "B", "C"), choices=("none", "none", "none")))
    play_out_round(referee)
    game = referee.state
    assert game is not None
    points = game.progress.rounds[0].points
    assert points is not None
    assert game.progress.stars == [max(0, 5 + points[seat]) for seat in range(3)]
    assert min(points.values()) < -5  # somebody won more than ten cards: floored


def test_five_rounds_then_game_over_with_shared_victory() -> None:
    referee = referee_after(new_game(("A", "B", "C")))
    game = referee.state
    assert game is not None
    rotation = ["pea", "onion", "mushroom", "pepper", "none"]
    for number in range(5):
        for seat, name in enumerate(game.players):
            assert referee.apply(menu(name, rotation[(seat + number) % 5])).accepted
        play_out_round(referee)
    state = public_state(game)
    assert state["phase"] == "game_over" and state["round"] == 5 and state["turn"] is None
    top = max(state["stars"].values())
    assert state["winners"] == [n for n, s in state["stars"].items() if s == top]
    assert all(len(r["points"]) == 3 for r in state["rounds"])
    assert str(referee.apply(menu("A", "pea")).reason) == "wrong_phase"
    assert str(referee.apply(card("pea-1a")).reason) == "wrong_phase"
    assert referee.apply(UNDO).accepted
    state = public_state(referee.state)
    assert state["phase"] == "play" and state["winners"] == [] and "points" not in state["rounds"][-1]


def test_undo_takes_back_across_a_round_end() -> None:
    referee = referee_after(*started())
    play_out_round(referee)
    game = referee.state
    assert game is not None
    assert game.progress.phase == "menu"
    referee.apply(UNDO)
    game = referee.state  # undo replays the other actions onto a fresh state
    assert game is not None
    assert game.progress.phase == "play" and game.progress.rounds[0].points is None


def test_undo_of_the_event_that_opened_a_round_removes_the_round() -> None:
    events = [new_game(), menu("Virginie", "pea")]
    assert len(state_after(*events)["rounds"]) == 1
    assert state_after(*events, UNDO)["rounds"] == []


def test_undo_repeatedly_walks_back() -> None:
    assert state_after(*started(), card("pea-1a"), card("pea-2a"), UNDO, UNDO)["pot"]["cards"] == []
    assert state_after(*started(), card("pea-1a"), UNDO, UNDO)["phase"] == "menu"


def test_a_new_game_starts_over() -> None:
    state = state_after(*started(), card("pea-1a"), new_game(("X", "Y", "Z")))
    assert state["rounds"] == [] and state["stars"] == {"X": 5, "Y": 5, "Z": 5}
