"""The end of a buffet game: when the buffet cannot be laid out, the scores, and the tie-break."""

from __future__ import annotations

import pytest

from companion.buffet.plates import STAND_IN_SET, counted, score
from companion.buffet.state import rank_winners

from .rulebook import FIVE, FOUR, SIX, THREE, new_game, plates, quick_round, run, state_after


@pytest.mark.parametrize(("players", "rounds", "left"), [(THREE, 7, 1), (FOUR, 12, 0),
                                                         (FIVE, 9, 0), (SIX, 7, 1)])
def test_the_game_ends_when_the_next_buffet_cannot_be_laid_out(players: tuple[str, ...], rounds: int,
                                                               left: int) -> None:
    size = 5 if len(players) == 3 else len(players) - 1
    events = [new_game(players)]
    codes = list(STAND_IN_SET)
    for number in range(1, rounds + 1):
        assert run(events)["phase"] == "buffet" and run(events)["round"] == number
        events += plates(*codes[:size])
        codes = codes[size:]
        events += quick_round(events)
    out = run(events)
    assert out["phase"] == "game_over" and out["round"] == rounds and out["plates_left"] == left
    assert out["turn"] is None and out["in_round"] == [] and out["buffet"] == []
    expected = {name: score(out["plates"][name]) for name in players}
    assert out["score"] == expected
    top = max(expected.values())
    assert set(out["winners"]) <= {name for name, points in expected.items() if points == top}
    assert out["winners"]


def test_scores_sum_the_counted_plates_one_per_food() -> None:
    won = ["plate-cheese-5", "plate-pizza-2", "plate-cheese-n1", "plate-salad-3"]
    assert counted(won) == {"cheese": "plate-cheese-n1", "pizza": "plate-pizza-2", "salad": "plate-salad-3"}
    assert score(won) == 4


def test_a_single_top_score_wins_without_tie_break() -> None:
    assert rank_winners([3, 7, 5], [{}, {"salad": "plate-salad-5"}, {}]) == ((1,), False)


def test_a_tie_goes_to_the_player_holding_the_better_ranked_food() -> None:
    tops = [{"potato": "p", "salad": "s"}, {"cheese": "c", "salad": "s"}, {"chicken": "k"}]
    assert rank_winners([4, 4, 1], tops) == ((1,), True)


def test_the_tie_break_goes_down_the_foods_while_the_tied_hold_the_same() -> None:
    tops = [{"cheese": "c", "pizza": "z"}, {"cheese": "c", "sausage": "s"}, {"cheese": "c", "sausage": "s"}]
    assert rank_winners([5, 5, 5], tops) == ((1, 2), True)


def test_players_with_the_same_foods_share_the_victory() -> None:
    tops = [{"cheese": "c", "salad": "s"}, {"cheese": "c", "salad": "s"}, {}]
    assert rank_winners([6, 6, 2], tops) == ((0, 1), False)


def test_equal_scores_after_a_round_are_ranked_by_the_better_food() -> None:
    events = [new_game(), *plates("plate-cheese-2", "plate-potato-2", "plate-salad-n1")]
    events += quick_round(events)  # Dan salad −1, Cléo potato 2, Ana cheese 2: Ana and Cléo tied
    state = state_after(events)
    assert state.scores()[0] == state.scores()[2] == 2
    assert rank_winners(state.scores(), [counted(w) for w in state.won]) == ((0,), True)
