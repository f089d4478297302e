"""Playouts whose other seats make random moves while the robot seat keeps the rule-based policy
(`own_noise`): the robot's own moves in them are the heuristic's, and a world without `own_noise`
plays every seat alike (the flat PIMC's playouts are unchanged)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.buffet import robot as buffet_robot
from companion.buffet.robot import BuffetWorld
from companion.chaud_devant import robot as chaud_robot
from companion.chaud_devant.robot import ChaudWorld
from companion.robots import RobotAsk, position_of
from marmite.games import GAMES
from tests.companion.test_robots import buffet_asks, buffet_cases, chaud_asks, chaud_cases, pick

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_a_world_without_own_noise_plays_every_seat_alike() -> None:
    for world in (ChaudWorld(), BuffetWorld()):
        world.noise = 0.25
        world.seat = 1
        assert [world.noise_of(seat) for seat in range(4)] == [0.25] * 4
        world.own_noise = 0.0
        assert [world.noise_of(seat) for seat in range(4)] == [0.25, 0.0, 0.25, 0.25]


def chaud_own_moves_are_heuristic(ask: RobotAsk, seed: int) -> int:
    """Play sampled worlds out with every other move random: each of the robot's is the heuristic's."""
    position = position_of(GAMES, ask)
    rng = random.Random(seed)
    checked = 0
    for _ in range(3):
        world = position.sample(rng)
        assert isinstance(world, ChaudWorld)
        world.noise, world.own_noise = 1.0, 0.0
        world.apply_root(rng.randrange(len(position.choices)))
        while not world.is_terminal():
            seat = world.seat
            if world.pending and world.pending[0] == seat:
                expected = chaud_robot.menu_choice(world.hands[seat], world.options(seat), random.Random(0), 0.0)
                world.rollout_step(rng)
                assert world.menus[seat] == expected
                checked += 1
            elif not world.pending and world.turn == seat:
                hand = list(world.hands[seat])
                expected = chaud_robot.card_choice(hand, world.menus[seat], world.pot, world.total, world.led,
                                                   world.spoiled, random.Random(0), 0.0)
                world.rollout_step(rng)
                assert [c for c in hand if c not in world.hands[seat]] == [expected]
                checked += 1
            else:
                world.rollout_step(rng)
    return checked


def buffet_own_moves_are_heuristic(ask: RobotAsk, seed: int) -> int:
    """The same for Sus au buffet !: the robot's mouse card of each later step is the heuristic's."""
    position = position_of(GAMES, ask)
    rng = random.Random(seed)
    checked = 0
    for _ in range(3):
        world = position.sample(rng)
        assert isinstance(world, BuffetWorld)
        world.noise, world.own_noise = 1.0, 0.0
        world.apply_root(rng.randrange(len(position.choices)))
        while not world.is_terminal():
            due = next((s for s in world.in_round if s not in world.chosen), None)
            if due == world.seat and world.hands[due]:
                hand = list(world.hands[due])
                expected = buffet_robot.lean_card_choice(hand, due, world.positions, world.in_round, world.buffet,
                                                         world.part_plates, world.won[due])
                world.rollout_step(rng)
                assert world.chosen[due] == expected
                checked += 1
            else:
                world.rollout_step(rng)
    return checked


def chaud_ask(case: tuple[Any, ...]) -> RobotAsk:
    game_seed, players, reveal, edition, index = case
    return pick(chaud_asks(game_seed, players, reveal, edition), index)


def buffet_ask(case: tuple[Any, ...]) -> RobotAsk:
    game_seed, players, rounds, index = case
    return pick(buffet_asks(game_seed, players, rounds), index)


PER_GAME: dict[str, tuple[st.SearchStrategy[tuple[Any, ...]], Callable[[tuple[Any, ...]], RobotAsk],
                          Callable[[RobotAsk, int], int]]] = {
    "chaud_devant": (chaud_cases, chaud_ask, chaud_own_moves_are_heuristic),
    "buffet": (buffet_cases, buffet_ask, buffet_own_moves_are_heuristic),
}
"""Per game: its simulated decisions (a case names one), and the check that plays them out."""


@pytest.mark.parametrize("game", list(PER_GAME))
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_the_robot_keeps_its_policy_among_random_players(game: str, data: st.DataObject, seed: int) -> None:
    cases, ask_of, own_moves_are_heuristic = PER_GAME[game]
    own_moves_are_heuristic(ask_of(data.draw(cases, label="case")), seed)


def test_the_robot_moves_are_checked_at_all() -> None:
    """The properties above see the robot's own later moves (not only worlds where it has none)."""
    chaud = sum(chaud_own_moves_are_heuristic(ask, 7) for ask in chaud_asks(3, 4, "simultaneous", "2005")[:4])
    buffet = sum(buffet_own_moves_are_heuristic(ask, 7) for ask in buffet_asks(3, 4, 1)[:4])
    assert chaud > 0 and buffet > 0
