"""The chef's lean playouts (`run_out`) agree with the step-by-step rollout policy at noise 0: the same
return and the same final world, from random positions of both games and random sampled worlds (in
Chaud Devant also the chef's own worlds, whose fitted policy draws its cards with the playout's dice)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.buffet.robot import BuffetWorld
from companion.chaud_devant.robot import ChaudWorld
from companion.robots import Position, RobotAsk, RunsOut, World, playout, position_of
from marmite.games import GAMES
from tests.companion.test_robots import buffet_asks, buffet_cases, chaud_asks, chaud_cases, pick

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def agree(ask: RobotAsk, seed: int, *, chef: bool = False) -> None:
    """Every answer of a few sampled worlds (the flat PIMC's, or the chef's with `chef`): the lean playout
    and the steps end alike."""
    position = position_of(GAMES, ask)
    rng = random.Random(seed)
    for _ in range(3):
        world = position.search_world(rng) if chef else position.sample(rng)
        world.noise = 0.0
        lean_matches_steps(position, world, rng)


def lean_matches_steps(position: Position, world: World, rng: random.Random) -> None:
    """Each answer played out from `world` both ways, with the same dice: the same return, the same end."""
    assert isinstance(world, RunsOut) and isinstance(world, ChaudWorld | BuffetWorld)
    for choice in range(len(position.choices)):
        dice = rng.getrandbits(64)
        stepped, lean = world.clone(), world.clone()
        expected = playout(stepped, choice, random.Random(dice))
        lean.apply_root(choice)
        assert lean.run_out(dice) == expected
        assert snapshot(lean) == snapshot(stepped)


def snapshot(world: ChaudWorld | BuffetWorld) -> tuple[object, ...]:
    """What a playout leaves behind: hands, scores, pot or positions."""
    if isinstance(world, ChaudWorld):
        return world.over, world.hands, world.menus, world.won, world.pot, world.total, world.turn
    return world.over, world.hands, world.positions, world.won, world.buffet, world.pile, world.ahead


@SETTINGS
@given(chaud_cases, st.integers(0, 2**32))
def test_chaud_devant_lean_playout_agrees_with_the_steps(case: tuple[int, int, str, str, int], seed: int) -> None:
    game_seed, players, reveal, edition, index = case
    agree(pick(chaud_asks(game_seed, players, reveal, edition), index), seed)


@SETTINGS
@given(chaud_cases, st.integers(0, 2**32))
def test_chaud_devant_chef_playout_agrees_with_the_steps(case: tuple[int, int, str, str, int], seed: int) -> None:
    """The chef's worlds draw every card with the fitted policy: lean and stepped draw the same cards."""
    game_seed, players, reveal, edition, index = case
    agree(pick(chaud_asks(game_seed, players, reveal, edition), index), seed, chef=True)


@SETTINGS
@given(buffet_cases, st.integers(0, 2**32))
def test_buffet_lean_playout_agrees_with_the_steps(case: tuple[int, int, int, int], seed: int) -> None:
    game_seed, players, rounds, index = case
    agree(pick(buffet_asks(game_seed, players, rounds), index), seed)
