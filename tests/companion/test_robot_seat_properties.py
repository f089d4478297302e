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


BUFFET_SEATS = ["Ana", "Bip", "Bop"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(5, 40))
def test_a_buffet_practice_without_cards_turns_over_only_chosen_cards_and_keeps_every_hand(seed: int,
                                                                                            steps: int) -> None:
    """Random choices (people's and robots', some not in hand), reveals and undos at a Sus au buffet !
    practice without cards: a card is turned over only when it is the seat's standing choice, a choice
    only from the seat's hand, every hand stays nine cards less what was turned over, refusals change
    nothing, and a fresh fold of the log agrees."""
    rng = random.Random(seed)
    log: list[dict[str, Any]] = [{"type": "new_game", "game": "buffet", "players": BUFFET_SEATS, "first": "Ana",
                                  "robots": {"seats": {"Bip": "chef", "Bop": "chef"}, "practice": "virtual"}}]
    referee = fresh_fold(log)
    values = [f"mouse-{v}" for v in ["n1", *range(10)]]
    for name in BUFFET_SEATS:
        hand = {"type": "robot", "player": name, "hand": sorted(rng.choice(values) for _ in range(9))}
        assert referee.apply(hand).accepted
        log.append(hand)
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-salad-0", "plate-chicken-5"):
        assert referee.apply({"type": "plate", "plate": plate}).accepted
        log.append({"type": "plate", "plate": plate})
    for _ in range(steps):
        state = referee.state
        assert state is not None
        if state.is_terminal():
            break
        count = len(referee.actions)
        seat = rng.choice(BUFFET_SEATS)
        held = referee.robots.hand(seat) or ()
        roll = rng.random()
        if roll < 0.45:
            card = rng.choice(held) if held and rng.random() < 0.8 else rng.choice(values)
            event: dict[str, Any] = {"type": "robot", "player": seat, "card": card}
        elif roll < 0.9:
            turn = state.public_state()["turn"]
            standing = referee.robots.pending(turn, count) if turn else None
            card = standing.card if standing is not None and rng.random() < 0.8 else rng.choice(values)
            event = {"type": "card", "card": card}
        else:
            event = {"type": "undo"}
        before = (referee.public_state, [referee.robots.hand(name) for name in BUFFET_SEATS])
        outcome = referee.apply(event)
        if not outcome.accepted:
            assert (referee.public_state, [referee.robots.hand(name) for name in BUFFET_SEATS]) == before
            continue
        log.append(event)
        if event["type"] == "robot":
            assert event["card"] in held  # a face-down card only from the seat's own hand
        if event["type"] == "card":
            assert referee.robots.plays[-1][2] == event["card"]
    for name in BUFFET_SEATS:  # nine dealt, less the cards turned over (none drawn: no round ended here)
        turned = sum(1 for _, who, _ in referee.robots.plays if who == name)
        if referee.public_state["round"] == 1:
            assert len(referee.robots.hand(name) or ()) == 9 - turned
    again = fresh_fold(log)
    assert again.public_state == referee.public_state
    for name in BUFFET_SEATS:
        assert again.robots.hand(name) == referee.robots.hand(name)
        assert again.robots.pending(name, len(again.actions)) == referee.robots.pending(name, len(referee.actions))
