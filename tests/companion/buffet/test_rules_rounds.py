"""Every rule of a Sus au buffet ! round, one test each, through the contract's replay object."""

from __future__ import annotations

import pytest

from .rulebook import FIVE, FOUR, SIX, THREE, mice, new_game, plates, quick_round, run, state_after

FOUR_PLATES = plates("plate-salad-n1", "plate-cheese-3", "plate-pizza-2")


def test_a_new_buffet_game_waits_for_its_plates_with_every_mouse_on_zero() -> None:
    out = run([new_game()])
    assert out["game"] == "buffet" and out["phase"] == "buffet" and out["round"] == 1 and out["part"] is None
    assert out["turn"] is None and out["positions"] == dict.fromkeys(FOUR, 0)
    assert out["buffet"] == [] and out["plates"] == {name: [] for name in FOUR}
    assert out["score"] == dict.fromkeys(FOUR, 0) and out["plates_left"] == 36 and out["winners"] == []
    assert list(out) == ["game", "phase", "round", "part", "turn", "positions", "in_round", "buffet", "plates",
                         "score", "plates_left", "winners", "refused"]


def test_the_buffet_is_sorted_best_to_worst_whatever_the_order_drawn() -> None:
    out = run([new_game(), *plates("plate-salad-n1", "plate-cheese-3")])
    assert out["buffet"] == ["plate-cheese-3", "plate-salad-n1"] and out["phase"] == "buffet"
    assert out["plates_left"] == 34


def test_plates_of_equal_value_are_ordered_by_food_rank() -> None:
    out = run([new_game(SIX), *plates("plate-salad-2", "plate-pizza-2", "plate-cheese-2", "plate-chicken-2",
                                      "plate-potato-2")])
    assert out["buffet"] == ["plate-cheese-2", "plate-potato-2", "plate-pizza-2", "plate-chicken-2",
                             "plate-salad-2"]


@pytest.mark.parametrize(("players", "size"), [(FOUR, 3), (FIVE, 4), (SIX, 5), (THREE, 5)])
def test_the_buffet_holds_players_minus_one_plates_or_five_with_three(players: tuple[str, ...], size: int) -> None:
    codes = ["plate-cheese-1", "plate-potato-1", "plate-sausage-1", "plate-pizza-1", "plate-chicken-1"][:size]
    before = run([new_game(players), *plates(*codes[:-1])])
    assert before["phase"] == "buffet"
    out = run([new_game(players), *plates(*codes)])
    assert out["phase"] == "step" and out["turn"] == players[0] and out["in_round"] == list(players)


def test_cards_are_revealed_clockwise_from_the_first_player() -> None:
    out = run([new_game(first="Cléo"), *FOUR_PLATES])
    assert out["turn"] == "Cléo" and out["in_round"] == ["Cléo", "Dan", "Ana", "Ben"]
    out = run([new_game(first="Cléo"), *FOUR_PLATES, *mice(4, 2)])
    assert out["turn"] == "Ana" and out["positions"] == {"Ana": 0, "Ben": 0, "Cléo": 4, "Dan": 2}


def test_a_minus_one_first_step_goes_below_zero() -> None:
    out = run([new_game(), *FOUR_PLATES, *mice(-1)])
    assert out["positions"]["Ana"] == -1
    state = state_after([new_game(), *FOUR_PLATES, *mice(-1)])
    assert state.table_view()["players"][0]["square"] == 39


def test_the_rearmost_mouse_leaves_with_the_worst_plate_and_may_swap() -> None:
    out = run([new_game(), *FOUR_PLATES, *mice(5, 3, 7, 6)])
    assert out["plates"]["Ben"] == ["plate-salad-n1"] and out["score"]["Ben"] == -1
    assert out["buffet"] == ["plate-cheese-3", "plate-pizza-2"]
    assert out["in_round"] == ["Ana", "Cléo", "Dan"] and out["turn"] == "Ana"
    state = state_after([new_game(), *FOUR_PLATES, *mice(5, 3, 7, 6, 1, 1, 1)])
    departures = state.history()["rounds"][0]["departures"]
    assert [(d["player"], d["may_swap"]) for d in departures] == [("Ben", True), ("Ana", False)]


def test_a_tie_at_the_rear_sends_nobody_away() -> None:
    out = run([new_game(), *FOUR_PLATES, *mice(5, 3, 7, 3)])
    assert out["in_round"] == list(FOUR) and out["buffet"] == ["plate-cheese-3", "plate-pizza-2", "plate-salad-n1"]
    assert out["turn"] == "Ana" and out["plates"] == {name: [] for name in FOUR}
    out = run([new_game(), *FOUR_PLATES, *mice(5, 3, 7, 3, 0, 1, 0, 0)])
    assert out["plates"]["Dan"] == ["plate-salad-n1"] and out["positions"] == {"Ana": 5, "Ben": 4, "Cléo": 7,
                                                                                  "Dan": 3}


def test_only_the_rearmost_matters_ties_ahead_do_not() -> None:
    out = run([new_game(), *FOUR_PLATES, *mice(5, 5, 2, 5)])
    assert out["plates"]["Cléo"] == ["plate-salad-n1"]


def test_the_last_two_duel_for_the_best_plate_the_loser_gets_nothing() -> None:
    events = [new_game(), *FOUR_PLATES, *mice(5, 3, 7, 6), *mice(0, 1, 1)]  # Ana 5, Cléo 8, Dan 7
    out = run(events)
    assert out["plates"]["Ana"] == ["plate-pizza-2"] and out["in_round"] == ["Cléo", "Dan"]
    out = run([*events, *mice(2, 4)])  # Cléo 10, Dan 11
    assert out["plates"]["Dan"] == ["plate-cheese-3"] and out["plates"]["Cléo"] == []
    assert out["phase"] == "buffet" and out["round"] == 2 and out["buffet"] == []
    assert out["positions"] == dict.fromkeys(FOUR, 0) and out["in_round"] == list(FOUR)


def test_a_tied_duel_is_replayed_until_one_mouse_is_ahead() -> None:
    events = [new_game(), *FOUR_PLATES, *mice(5, 3, 7, 6), *mice(0, 1, 1), *mice(1, 2)]  # Cléo 9, Dan 9
    out = run(events)
    assert out["phase"] == "step" and out["in_round"] == ["Cléo", "Dan"] and out["buffet"] == ["plate-cheese-3"]
    out = run([*events, *mice(3, 3)])  # 12, 12: again
    assert out["in_round"] == ["Cléo", "Dan"] and out["turn"] == "Cléo"
    out = run([*events, *mice(3, 3), *mice(0, -1)])
    assert out["plates"]["Cléo"] == ["plate-cheese-3"] and out["plates"]["Dan"] == [] and out["round"] == 2


def test_a_plate_of_a_food_already_won_covers_the_earlier_one_even_if_worse() -> None:
    round_one = [new_game(), *plates("plate-salad-n1", "plate-cheese-3", "plate-pizza-2")]
    cards = quick_round(round_one)  # the last in reveal order leaves first: Dan, Cléo; Ben loses the duel
    events = [*round_one, *cards]
    out = run(events)
    assert out["plates"]["Ana"] == ["plate-cheese-3"] and out["score"]["Ana"] == 3
    round_two = [*events, *plates("plate-cheese-n1", "plate-potato-1", "plate-sausage-0")]
    out = run([*round_two, *quick_round(round_two)])
    assert out["plates"]["Ana"] == ["plate-cheese-3", "plate-potato-1"]
    assert out["plates"]["Cléo"] == ["plate-pizza-2", "plate-sausage-0"]
    assert out["plates"]["Dan"] == ["plate-salad-n1", "plate-cheese-n1"] and out["score"]["Dan"] == -2
    state = state_after([*round_two, *quick_round(round_two)])
    stack = state.table_view()["players"][3]["plates"]
    assert [(p["code"], p["counted"]) for p in stack] == [("plate-salad-n1", True), ("plate-cheese-n1", True)]


def test_only_the_last_plate_of_a_food_counts() -> None:
    events = [new_game(), *plates("plate-cheese-5", "plate-potato-0", "plate-salad-1")]
    events += quick_round(events)  # Dan potato 0, Cléo salad 1, Ana cheese 5
    events += plates("plate-cheese-0", "plate-sausage-n1", "plate-chicken-n1")
    events += quick_round(events)  # Dan chicken −1, Cléo sausage −1, Ana cheese 0
    out = run(events)
    assert out["plates"]["Ana"] == ["plate-cheese-5", "plate-cheese-0"] and out["score"]["Ana"] == 0
    assert out["score"]["Cléo"] == 0 and out["score"]["Dan"] == -1


def test_three_players_part_one_gives_every_mouse_one_of_the_three_worst_plates() -> None:
    buffet = plates("plate-cheese-5", "plate-potato-4", "plate-sausage-3", "plate-pizza-2", "plate-chicken-1")
    events = [new_game(THREE), *buffet]
    assert run(events)["part"] == 1
    out = run([*events, *mice(4, 2, 6)])  # Ben rearmost
    assert out["plates"]["Ben"] == ["plate-chicken-1"] and out["in_round"] == ["Ana", "Cléo"] and out["part"] == 1
    out = run([*events, *mice(4, 2, 6), *mice(1, 0)])  # Ana 5, Cléo 6: Ana behind
    assert out["plates"] == {"Ana": ["plate-pizza-2"], "Ben": ["plate-chicken-1"], "Cléo": ["plate-sausage-3"]}
    assert out["part"] == 2 and out["phase"] == "step"
    assert out["positions"] == {"Ana": 5, "Ben": 2, "Cléo": 6} and out["in_round"] == list(THREE)
    assert out["buffet"] == ["plate-cheese-5", "plate-potato-4"]


def test_three_players_the_two_left_in_part_one_replay_a_tie() -> None:
    events = [new_game(THREE), *plates("plate-cheese-5", "plate-potato-4", "plate-sausage-3", "plate-pizza-2",
                                       "plate-chicken-1"), *mice(4, 2, 6), *mice(2, 0)]
    out = run(events)
    assert out["in_round"] == ["Ana", "Cléo"] and out["part"] == 1 and out["buffet"][-1] == "plate-pizza-2"


def test_three_players_part_two_keeps_positions_no_swap_and_a_duel_for_the_best() -> None:
    events = [new_game(THREE), *plates("plate-cheese-5", "plate-potato-4", "plate-sausage-3", "plate-pizza-2",
                                       "plate-chicken-1"), *mice(4, 2, 6), *mice(1, 0)]  # Ana 5, Ben 2, Cléo 6
    out = run([*events, *mice(1, 5, 0)])  # Ana 6, Ben 7, Cléo 6: tie at the rear
    assert out["in_round"] == list(THREE) and out["part"] == 2
    events += mice(1, 5, 0, 2, 0, 1)  # Ana 8, Ben 7, Cléo 7: tie again
    events += mice(1, 0, 3)  # Ana 9, Ben 7, Cléo 10: Ben leaves with potato 4
    out = run(events)
    assert out["plates"]["Ben"] == ["plate-chicken-1", "plate-potato-4"] and out["in_round"] == ["Ana", "Cléo"]
    state = state_after(events)
    assert [d["may_swap"] for d in state.history()["rounds"][0]["departures"]] == [True, False, False, False]
    out = run([*events, *mice(2, 1)])  # Ana 11, Cléo 11: again
    assert out["in_round"] == ["Ana", "Cléo"]
    out = run([*events, *mice(2, 1), *mice(0, 1)])
    assert out["plates"]["Cléo"] == ["plate-sausage-3", "plate-cheese-5"] and out["plates"]["Ana"] == ["plate-pizza-2"]
    assert out["round"] == 2 and out["part"] == 1 and out["phase"] == "buffet"
    assert out["positions"] == dict.fromkeys(THREE, 0)
