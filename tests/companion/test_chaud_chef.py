"""Chaud Devant !'s chef: its fitted playout policy, the worth of the menus it keeps, and the flat PIMC
(the benchmark's baseline) left exactly as it was."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.chaud_devant.cards import MENUS
from companion.chaud_devant.robot import CHEF_PLAYOUT_COST, ChaudWorld, Position, playable
from companion.chaud_devant.robot_cards import SUIT_OF, VALUE_OF, WORTH
from companion.chaud_devant.robot_policy import (
    CHEF_POLICY,
    MENUS_LATER,
    Weights,
    follow_features,
    lead_features,
    policy_card,
    score,
)
from companion.robots import LEVEL_SETTINGS, SearchCost, choose, flat_pimc, position_of
from marmite.games import GAMES
from tests.companion.test_robots import chaud_asks

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

positions = st.tuples(
    st.permutations(range(52)), st.integers(1, 13), st.integers(0, 4), st.integers(0, 4), st.integers(-1, 3),
    st.booleans(), st.integers(0, 9))


def spot(case: tuple[list[int], int, int, int, int, bool, int]) -> tuple[list[int], tuple[int, ...], list[int],
                                                                          int, int, bool]:
    """A hand, a menu's worths, a pot, its sum, the led suit and the spoiled state, from a drawn case."""
    deck, size, pot_size, menu, led, spoiled, total = case
    pot = deck[20:20 + pot_size]
    return deck[:size], WORTH[menu], pot, total, led if pot else -1, spoiled


@SETTINGS
@given(positions)
def test_the_policy_plays_the_legal_card_its_features_score_highest(case: tuple[list[int], int, int, int, int,
                                                                                 bool, int]) -> None:
    """`policy_card` sums per-card tables for speed; it must name the card the features' scores rank first."""
    hand, worth, pot, total, led, spoiled = spot(case)
    legal = playable(hand, led, spoiled)
    scores = [score(CHEF_POLICY.lead, lead_features(hand, worth, c)) if not pot else
              score(CHEF_POLICY.follow, follow_features(hand, worth, pot, total, led, c)) for c in legal]
    assert policy_card(hand, worth, pot, total, led, spoiled, CHEF_POLICY) == legal[scores.index(max(scores))]


@SETTINGS
@given(positions, st.integers(0, 2**32))
def test_the_policy_draws_only_legal_cards(case: tuple[list[int], int, int, int, int, bool, int], seed: int) -> None:
    hand, worth, pot, total, led, spoiled = spot(case)
    drawn = policy_card(hand, worth, pot, total, led, spoiled, CHEF_POLICY, random.Random(seed))
    assert drawn in playable(hand, led, spoiled)


def test_the_policy_draws_follow_its_scores() -> None:
    """Drawn with the softmax of the scores: a card scored 20 above the others is drawn (nearly) always;
    with every score equal, every legal card is drawn."""
    peas = sorted((c for c in range(52) if SUIT_OF[c] == 0 and VALUE_OF[c] in (1, 2, 5)), key=VALUE_OF.__getitem__)
    taker = next(c for c in peas if VALUE_OF[c] == 5)
    pot, hand = [peas[-1]], [c for c in peas[:-1]]  # a pea 5 in the pot (sum 5): only a 5 takes
    steep = Weights(lead=(0.0,) * 7, follow=(20.0,) + (0.0,) * 13)  # the feature "takes the trick" scores 20
    flat = Weights(lead=(0.0,) * 7, follow=(0.0,) * 14)
    rng = random.Random(1)
    drawn = [policy_card(hand, WORTH[0], pot, 5, 0, False, steep, rng) for _ in range(200)]
    assert drawn.count(taker) >= 199
    assert set(policy_card(hand, WORTH[0], pot, 5, 0, False, flat, rng) for _ in range(200)) == set(hand)


def test_a_weight_per_feature() -> None:
    try:
        Weights(lead=(1.0,), follow=(1.0,))
    except ValueError:
        return
    raise AssertionError("a policy with too few weights was accepted")


FLAT_PIMC_CHOICES = [3, 0, 0, 0, 1, 0, 3, 2, 9, 0, 2, 1, 0, 3, 2, 0, 10, 0, 1, 2, 0, 1, 4, 0, 4, 0, 4, 3, 4, 0, 1, 0, 2,
                     4, 2, 2, 1, 1, 1]
"""The flat PIMC's Chaud Devant answers before the chef's fitted playouts (commit 8f8bcd5, the same script)."""


def test_the_flat_pimc_plays_as_before() -> None:
    choices = []
    for seed, players, reveal, edition in ((1, 4, "simultaneous", "2005"), (2, 3, "sequential", "2005"),
                                           (3, 5, "simultaneous", "2023")):
        asks = chaud_asks(seed, players, reveal, edition)
        for index in range(0, len(asks), max(1, len(asks) // 12)):
            choices.append(flat_pimc(position_of(GAMES, asks[index]), random.Random(index), 8, math.inf))
    assert choices == FLAT_PIMC_CHOICES


def test_the_flat_pimc_worlds_keep_the_rule_based_playouts() -> None:
    position = position_of(GAMES, chaud_asks(5, 4, "simultaneous", "2005")[0])
    assert isinstance(position, Position)
    world = position.sample(random.Random(1))
    assert world.policy is None and world.later is None and world.noise > 0


def test_the_chef_values_the_menus_it_keeps() -> None:
    """At a menu decision the chef's world adds to the round's points what the menus left are worth."""
    ask = chaud_asks(7, 4, "simultaneous", "2005")[0]
    position = position_of(GAMES, ask)
    assert isinstance(position, Position) and position.view.kind == "menu"
    table = MENUS_LATER[(4, 52)]
    assert len(table) == 32 and table[0] == 0.0
    for choice, event in enumerate(position.choices):
        world = position.search_world(random.Random(choice))
        assert world.policy is CHEF_POLICY and world.noise == 0.0
        world.apply_root(choice)
        kept = sum(1 << m for m in range(len(MENUS)) if MENUS[m] != event["menu"])
        assert world.later_worth == table[kept]
        points = world.run_out(choice)
        assert math.isclose(points, world.won[world.seat] + (5 if event["menu"] == "none" else 0) + table[kept])


def test_a_later_round_values_only_the_menus_left() -> None:
    """Round 3: the menus kept are those not used in rounds 1 and 2, less the one chosen now."""
    asks = [ask for ask in chaud_asks(12, 4, "simultaneous", "2005")]
    positions = [position_of(GAMES, ask) for ask in asks]
    third = [p for p in positions if isinstance(p, Position) and p.view.kind == "menu" and p.view.round_number == 3]
    assert third
    table = MENUS_LATER[(4, 52)]
    for position in third:
        used = position.view.used_menus[position.view.seat]
        assert len(used) == 2
        for choice, event in enumerate(position.choices):
            world = position.search_world(random.Random(choice))
            world.apply_root(choice)
            kept = [m for m in MENUS if m not in used and m != event["menu"]]
            assert len(kept) == 2
            assert world.later_worth == table[sum(1 << MENUS.index(m) for m in kept)]


def test_a_card_decision_adds_no_menu_worth() -> None:
    asks = [ask for ask in chaud_asks(8, 4, "simultaneous", "2005") if len(ask.log) > 8]
    position = position_of(GAMES, asks[0])
    assert isinstance(position, Position) and position.view.kind == "card"
    assert position.search_world(random.Random(0)).later is None


def test_worlds_are_played_out_by_the_chef_alone() -> None:
    """The chef's world class is the flat PIMC's: only its settings differ."""
    position = position_of(GAMES, chaud_asks(9, 3, "sequential", "2005")[3])
    assert isinstance(position, Position)
    assert type(position.search_world(random.Random(2))) is type(position.sample(random.Random(2))) is ChaudWorld
    assert isinstance(position, SearchCost) and position.search_cost == CHEF_PLAYOUT_COST


def test_the_chefs_budget_is_counted_in_its_own_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chef's playouts cost `CHEF_PLAYOUT_COST` rule-based ones: its budget, sized for those, is divided by it."""
    import companion.robots as robots

    position = position_of(GAMES, chaud_asks(9, 3, "sequential", "2005")[3])
    assert isinstance(position, Position) and len(position.choices) > 1
    budgets: list[int] = []

    def halving(_position: object, _rng: object, budget: int, _deadline: float) -> int:
        budgets.append(budget)
        return 0

    monkeypatch.setattr(robots, "sequential_halving", halving)
    chef, think_ms = LEVEL_SETTINGS["chef"], 400
    choose(position, chef, random.Random(0), think_ms, deadline=0.0)
    count = len(position.choices)
    sized = max(count, int(think_ms * chef.share * position.rollouts_per_ms))
    assert budgets == [max(count, int(sized / CHEF_PLAYOUT_COST))]
