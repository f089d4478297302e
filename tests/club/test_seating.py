"""Seating a club night: properties over random player lists, and the night against a random draw."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.games import ClubGames
from club.seating import History, SeatingError, random_night, seat_night, seat_round, table_sizes
from marmite.games import GAMES

SIZES = {name: facts.players for name, facts in ClubGames(GAMES).facts.items()}
"""Players per table of each hosted game, as each game states them."""


@given(players=st.integers(3, 120), game=st.sampled_from(sorted(SIZES)))
def test_table_sizes_seat_everyone_at_allowed_sizes(players: int, game: str) -> None:
    low, high = SIZES[game]
    sizes = table_sizes(players, low, high)
    assert sum(sizes) == players
    assert all(low <= size <= high for size in sizes)
    assert max(sizes) - min(sizes) <= 1


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 40), rounds=st.integers(1, 4), game=st.sampled_from(sorted(SIZES)),
       seed=st.integers(0, 2**32))
def test_every_round_seats_each_player_once_with_a_dealer_at_each_table(players: int, rounds: int, game: str,
                                                                        seed: int) -> None:
    names = [f"Joueur {i}" for i in range(players)]
    for seated in seat_night(names, rounds, sizes=SIZES[game], seed=seed):
        assert sorted(name for table in seated.tables for name in table) == sorted(names)
        assert all(dealer in table for dealer, table in zip(seated.dealers, seated.tables, strict=True))
        low, high = SIZES[game]
        assert all(low <= len(table) <= high for table in seated.tables)


def test_a_night_repeats_far_fewer_pairs_than_a_random_draw_and_shares_out_dealing() -> None:
    names = [f"P{i}" for i in range(40)]
    history = History()
    seat_night(names, 5, seed=3, history=history)
    baseline = random_night(names, 5, seed=3)
    assert history.repeated_pairs() < baseline.repeated_pairs()
    assert max(history.dealt.values()) < max(baseline.dealt.values())


def test_late_arrivals_and_drop_outs_are_seated_from_the_night_so_far() -> None:
    rng = random.Random(5)
    history = History()
    first = seat_round([f"P{i}" for i in range(12)], history, rng)
    history.record(first.tables, first.dealers)
    present = [f"P{i}" for i in range(2, 12)] + ["Late 1", "Late 2", "Late 3"]
    second = seat_round(present, history, rng)
    assert sorted(n for table in second.tables for n in table) == sorted(present)
    met_again = [(a, b) for table in second.tables for a in table for b in table
                 if a < b and history.met[(a, b)]]
    # Two first-game tables of 4 each spread over 3 tables force one pair each to meet again: no more.
    assert len(met_again) == 2


def test_a_name_twice_or_too_few_players_is_refused() -> None:
    with pytest.raises(SeatingError, match="twice"):
        seat_round(["Ana", "Bo", "Ana", "Cy"], History(), random.Random(1))
    with pytest.raises(SeatingError, match="at least 3"):
        seat_round(["Ana", "Bo"], History(), random.Random(1))
