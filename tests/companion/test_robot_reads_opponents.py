"""The chef reads its opponents in Chaud Devant !: after a round of plays, rule-based players are judged
rule-based and players drawing from the fitted policy are not, and its playouts follow that reading."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.chaud_devant import arena, robot
from companion.chaud_devant.cards import MENUS
from companion.chaud_devant.robot import Position
from companion.chaud_devant.robot_cards import WORTH
from companion.chaud_devant.robot_infer import likelihoods
from companion.chaud_devant.robot_policy import CHEF_POLICY, policy_card
from companion.robots import RobotAsk, position_of
from marmite.games import GAMES
from tests.golden.test_robot_answers_golden import requests


def rule_based(seed: int) -> Any:
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        position = position_of(GAMES, ask)
        return dict(position.choices[position.heuristic(rng)])

    return play


def fitted(seed: int) -> Any:
    """A player drawing its cards from the fitted policy (menus rule-based)."""
    rng = random.Random(seed)

    def play(ask: RobotAsk) -> dict[str, Any]:
        position = position_of(GAMES, ask)
        assert isinstance(position, Position)
        view = position.view
        if view.kind == "menu":
            return dict(position.choices[position.heuristic(rng)])
        world = position.sample(rng)
        card = policy_card(world.hands[view.seat], world_worth(position), world.pot, world.total, world.led,
                           world.spoiled, CHEF_POLICY, rng)
        return dict(position.choices[[value for _, value in position.answers].index(card)])

    return play


def world_worth(position: Position) -> tuple[int, ...]:
    return WORTH[MENUS.index(position.view.menus[position.view.seat])]


def odds_in_round(make: Any, rounds: int) -> list[float]:
    """The chef's reading of seats 1–3 at seat 0's last card decision of a game of `rounds` rounds."""
    result = arena.play_game([make(seat) for seat in range(4)], random.Random(11), rounds=rounds)
    asks = [ask for ask in result.asks if ask.seat == result.asks[0].seat]
    position = position_of(GAMES, asks[-1])
    assert isinstance(position, Position) and position.view.kind == "card"
    position.read_opponents(random.Random(0))
    assert position.rule_odds is not None
    return [position.rule_odds[s] for s in range(4) if s != position.view.seat]


def test_rule_based_players_are_read_as_rule_based() -> None:
    assert all(odds > 0.9 for odds in odds_in_round(rule_based, 2))


def test_players_of_the_fitted_policy_are_not() -> None:
    assert all(odds < 0.1 for odds in odds_in_round(fitted, 2))


def test_with_no_plays_yet_both_models_are_even() -> None:
    first = requests()[0]
    position = position_of(GAMES, first)
    assert isinstance(position, Position)
    position.read_opponents(random.Random(0))
    assert position.rule_odds == [0.5] * position.view.players


def test_the_playouts_draw_each_opponent_from_its_reading() -> None:
    position = position_of(GAMES, requests()[3])
    assert isinstance(position, Position)
    position.rule_odds = [1.0] * position.view.players
    world = position.search_world(random.Random(1))
    assert world.policies is not None
    assert [p is None for p in world.policies] == [s != position.view.seat for s in range(position.view.players)]


def test_the_reading_replays_hands_in_the_deck_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player holds its cards in the deck's order and the rule-based card breaks ties by it: the reading
    replays every round from hands in that order, not with the cards played first."""
    seen: list[list[int]] = []

    def spy(hands: list[list[int]], *args: Any) -> list[tuple[float, float]]:
        seen.extend(list(hand) for hand in hands)
        return likelihoods(hands, *args)

    monkeypatch.setattr(robot, "likelihoods", spy)
    result = arena.play_game([rule_based(seat) for seat in range(4)], random.Random(11), rounds=2)
    position = position_of(GAMES, [ask for ask in result.asks if ask.seat == result.asks[0].seat][-1])
    assert isinstance(position, Position)
    position.read_opponents(random.Random(0))
    assert seen and all(hand == sorted(hand) for hand in seen)
    assert any(len(hand) > 1 for hand in seen)
