"""The buffet chef's worlds that play on past the round (`Position.extend`): a round played on deals
its buffet from plates not laid yet and refills every hand to nine without making a card, the lean
playout still agrees with the steps, a card kept at the game's end is worth nothing, and the flat
PIMC (which never extends its worlds) plays exactly as before."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.buffet.arena import play_game
from companion.buffet.plates import FOODS, PLATES
from companion.buffet.robot import KEPT_WEIGHT, SEARCH_KEPT_WEIGHT, BuffetWorld, Position
from companion.robots import RobotAsk, SearchCost, flat_pimc, position_of
from marmite.games import GAMES
from tests.companion.test_robot_lean import lean_matches_steps
from tests.companion.test_robots import pick

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_player(seed: int) -> Any:
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        if ask.ask == "swap":
            return {"type": "swap", "cards": sorted(ask.hand)[: rng.randrange(len(ask.hand) + 1)]}
        return {"type": "card", "card": rng.choice(ask.hand)}

    return play


def whole_game_asks(seed: int, players: int) -> list[RobotAsk]:
    """Every request of a whole game of random players (the last rounds included)."""
    return play_game([random_player(seed * 10 + s) for s in range(players)], random.Random(seed)).asks


games = st.tuples(st.integers(0, 10_000), st.integers(3, 6), st.integers(0, 10_000))


def extended(ask: RobotAsk, rng: random.Random, rounds: int = 1) -> tuple[Position, BuffetWorld]:
    """A chef's world for `ask` whose Position plays `rounds` rounds further (the machinery, whatever the default)."""
    position = position_of(GAMES, ask)
    assert isinstance(position, Position) and isinstance(position, SearchCost)
    position.search_rounds = rounds
    position.search_kept_weight = 0.25  # unlike the default and the flat PIMC's, to see it used
    return position, position.search_world(rng)


@SETTINGS
@given(games, st.integers(0, 2**32))
def test_a_world_played_on_keeps_its_cards_and_plates_consistent(case: tuple[int, int, int], seed: int) -> None:
    game_seed, players, index = case
    ask = pick(whole_game_asks(game_seed, players), index)
    rng = random.Random(seed)
    position, world = extended(ask, rng)
    view = position.view
    size = 5 if view.two_parts else view.players - 1
    assert len(world.ahead) == position.rounds_ahead()
    ahead_plates = [plate for buffet in world.ahead for plate in buffet]
    laid = {(FOODS.index(PLATES[code].food), PLATES[code].value) for code in view.laid}
    assert len(set(ahead_plates)) == len(ahead_plates) and not set(ahead_plates) & laid
    for buffet in world.ahead:
        assert len(buffet) == size and list(buffet) == sorted(buffet, key=lambda p: (-p[1], p[0]))
    game_ends = (36 - len(view.laid)) // size <= position.search_rounds  # no round after the horizon's
    if view.kind == "card":
        assert world.kept_weight == (0.0 if game_ends else 0.25)
    else:  # a trade is valued by the cards it brings, at the flat PIMC's price
        assert world.kept_weight == KEPT_WEIGHT
    start = Counter(v for hand in world.hands for v in hand) + Counter(world.pile)
    played: Counter[int] = Counter()
    pile, rounds_left, reshuffled = len(world.pile), len(world.ahead), False
    world.apply_root(rng.randrange(len(position.choices)))
    played.update(world.chosen.values())
    while not world.is_terminal():
        before = dict(world.chosen)
        world.rollout_step(rng)
        played.update(v for seat, v in world.chosen.items() if seat not in before)
        assert all(len(hand) <= 9 for hand in world.hands)
        reshuffled = reshuffled or len(world.pile) > pile  # the estimate's reshuffle of a whole composition
        pile = len(world.pile)
        if not reshuffled:  # until then no card is made: hands, pile and cards played come from the start's
            now = Counter(v for hand in world.hands for v in hand) + Counter(world.pile) + played
            assert not now - start
        if len(world.ahead) < rounds_left:  # a new round: hands back to nine, mice at 0, its buffet laid
            rounds_left = len(world.ahead)
            assert all(len(hand) == 9 for hand in world.hands)
            assert world.positions == [0] * view.players and world.in_round == list(view.order)
            assert not world.chosen and not world.swap_given and world.part == (1 if view.two_parts else None)
            assert len(world.buffet) == size
    assert not world.ahead  # every round ahead was played


@SETTINGS
@given(games, st.integers(0, 2**32))
def test_the_lean_playout_agrees_with_the_steps_past_the_round(case: tuple[int, int, int], seed: int) -> None:
    game_seed, players, index = case
    ask = pick(whole_game_asks(game_seed, players), index)
    rng = random.Random(seed)
    for _ in range(2):
        position, world = extended(ask, rng)
        world.noise = world.own_noise = 0.0
        lean_matches_steps(position, world, rng)


def test_the_last_round_values_kept_cards_at_nothing() -> None:
    asks = [ask for ask in whole_game_asks(7, 4) if ask.ask is None]
    last = position_of(GAMES, asks[-1])
    first = position_of(GAMES, asks[0])
    assert isinstance(last, Position) and isinstance(first, Position)
    first.search_rounds = last.search_rounds = 1
    assert last.rounds_ahead() == 0 and first.rounds_ahead() == 1
    assert first.search_cost > 1 and last.search_cost == 1
    for rounds in (0, 1):
        _, world = extended(asks[-1], random.Random(1), rounds)
        assert world.kept_weight == 0.0 and world.ahead == ()
        _, world = extended(asks[0], random.Random(1), rounds)
        assert world.kept_weight == 0.25 and len(world.ahead) == rounds
    assert last.sample(random.Random(1)).kept_weight == KEPT_WEIGHT  # the flat PIMC's worlds: as before


def test_the_chef_searches_the_worlds_it_is_meant_to() -> None:
    """`search_world` is where the buffet chef's measured gain is wired in: its worlds carry the chef's noise
    and kept-card price (nothing in the game's last round), the flat PIMC's `sample` the rule-based ones."""
    for ask in whole_game_asks(11, 4)[::7]:
        position = position_of(GAMES, ask)
        assert isinstance(position, Position)
        if position.view.kind != "card":
            continue
        chef, flat = position.search_world(random.Random(3)), position.sample(random.Random(3))
        assert (chef.noise, chef.own_noise) == (position.search_noise, position.search_own_noise)
        assert chef.kept_weight == SEARCH_KEPT_WEIGHT != flat.kept_weight == KEPT_WEIGHT
        assert chef.hands == flat.hands and chef.positions == flat.positions


def test_the_chef_default_stops_at_the_round_end_at_its_usual_cost() -> None:
    ask = whole_game_asks(7, 4)[0]
    position = position_of(GAMES, ask)
    assert isinstance(position, Position)
    assert position.search_rounds == 0 and position.search_cost == 1 and position.search_kept_weight == 0.0


FLAT_PIMC_CHOICES = [0, 1, 1, 3, 4, 0, 2, 4, 4, 5, 0, 5, 1, 0, 1, 0, 0, 0, 0, 2, 2, 0, 1, 0, 3, 4, 2, 0, 0, 0, 4, 5, 5,
                     0, 2, 3, 0, 6, 2, 0, 5]
"""The flat PIMC's answers before the chef's worlds played on (commit 6fec998, the same script)."""


def test_the_flat_pimc_plays_as_before() -> None:
    choices = []
    for seed, players in ((1, 4), (2, 3), (3, 5)):
        asks = play_game([random_player(seed * 10 + s) for s in range(players)], random.Random(seed)).asks
        for index in range(0, len(asks), max(1, len(asks) // 12)):
            choices.append(flat_pimc(position_of(GAMES, asks[index]), random.Random(index), 8, math.inf))
    assert choices == FLAT_PIMC_CHOICES
