"""Properties of robot seats in the referee, over random games with random undos and wrong cards:
a robot's card is accepted exactly when it is the choice that stands; refusals change nothing; and
the referee folded with undos agrees with a fresh fold of the same log (choices, hands, state)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.chaud_devant.cards import ALL_CODES
from companion.referee import Referee
from marmite.games import GAMES

PLAYERS = ["Ana", "Marmiton", "Cléo"]


def fresh_fold(log: list[dict[str, Any]]) -> Referee:
    referee = Referee(GAMES)
    for event in log:
        referee.apply(event)
    return referee


def ledger_view(referee: Referee) -> tuple[Any, ...]:
    count = len(referee.actions)
    return (referee.robots.pending("Marmiton", count), referee.public_state)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(10, 60))
def test_robot_choices_gate_cards_and_survive_undo(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    cards = list(ALL_CODES)
    rng.shuffle(cards)
    hands = {name: cards[13 * i: 13 * (i + 1)] for i, name in enumerate(PLAYERS)}
    log: list[dict[str, Any]] = [{"type": "new_game", "players": PLAYERS, "dealer": "Cléo",
                                  "robots": {"seats": {"Marmiton": "chef"}}}]
    log += [{"type": "hand", "player": name, "cards": hands[name]} for name in PLAYERS]
    log += [{"type": "menu", "player": name, "menu": "none"} for name in PLAYERS]
    referee = fresh_fold(log)
    for _ in range(steps):
        state = referee.state
        assert state is not None
        public = referee.public_state
        if public["phase"] != "play":
            break
        turn, count = public["turn"], len(referee.actions)
        legal = [event["card"] for event in state.legal_actions()]
        pending = referee.robots.pending("Marmiton", count)
        roll = rng.random()
        if roll < 0.1 and referee.actions[6:]:
            event: dict[str, Any] = {"type": "undo"}
        elif turn == "Marmiton" and pending is None:
            event = {"type": "robot", "player": "Marmiton", "card": rng.choice(legal)} if roll < 0.8 else \
                {"type": "card", "card": rng.choice(legal)}  # a card before the robot chose: robot_not_ready
        else:
            event = {"type": "card", "card": rng.choice(legal if roll < 0.8 else cards)}
        before = referee.public_state
        outcome = referee.apply(event)
        log.append(event)
        if event["type"] == "card" and turn == "Marmiton":
            assert outcome.accepted == (pending is not None and event["card"] == pending.card)
            if pending is not None and event["card"] != pending.card:
                assert outcome.reason in ("not_robot_card", "unknown_card")
            if pending is None:
                assert outcome.reason == "robot_not_ready"
        if not outcome.accepted:
            assert referee.public_state == before
        assert ledger_view(fresh_fold(log)) == ledger_view(referee)
