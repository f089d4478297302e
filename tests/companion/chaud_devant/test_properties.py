"""Properties of the rules over random whole games (3–5 players, both editions and reveal modes,
hands known for none, some or all seats, double reads, unknown tags, undos and revokes).

Each check recomputes what it can from the true deal and the card codes, not from the engine's
own helpers, so that it can disagree with the engine.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.chaud_devant.cards import ALL_CODES, MENUS
from companion.chaud_devant.game import ROUNDS, STARTING_STARS, Edition, MenuReveal
from companion.chaud_devant.records import RoundState
from companion.chaud_devant.simulate import NO_NOISE, TABLE_NOISE, Noise, Simulation, simulate
from companion.chaud_devant.state import State
from companion.chaud_devant.views import public_state, table_view
from companion.journal import Journal
from companion.referee import Outcome, Referee
from companion.replay import parse_log, replay
from marmite.contract_commands import run_export
from marmite.games import GAMES

HEAVY_NOISE = Noise(double_read=0.2, unknown_tag=0.1, undo=0.1, revoke=0.25, rechoose=0.5)

# Not derandomized: each run tries new games; a failure prints its example and @reproduce_failure.
# The seam-level properties (undo, replay, refusals, legal actions, leaks, phrases) are in tests/conformance.
CI = settings(max_examples=60, database=None, deadline=None, print_blob=True, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: st.DrawFn) -> Simulation:
    """A simulated whole game with random table, rules, known seats and noise."""
    players = draw(st.integers(3, 5))
    seats = frozenset(range(players))
    known = draw(st.one_of(st.just(frozenset()), st.just(seats), st.frozensets(st.sampled_from(sorted(seats)))))
    return simulate(
        random.Random(draw(st.integers(0, 2**32 - 1))),
        players=players,
        edition=cast(Edition, draw(st.sampled_from(["2005", "2023"]))),
        menu_reveal=cast(MenuReveal, draw(st.sampled_from(["simultaneous", "sequential"]))),
        known_hands=known,
        noise=draw(st.sampled_from([NO_NOISE, TABLE_NOISE, HEAVY_NOISE])),
    )


# ------------------------------------------------------------------ independent arithmetic


def face(code: str) -> tuple[str, int, bool]:
    """Suit, face value and overflow flag read from a card code alone."""
    suit, rank = code.split("-")
    if rank == "x":
        return suit, 0, True
    return suit, int(rank.rstrip("ab")), False


def running_sums(cards: list[str]) -> list[int]:
    """The announced sum after each card of a trick: a led 10 counts 0, an overflow resets to 0."""
    sums: list[int] = []
    for index, code in enumerate(cards):
        _, value, overflow = face(code)
        if overflow:
            total = 0
        elif index == 0:
            total = 0 if value == 10 else value
        else:
            total = sums[-1] + value
        sums.append(total)
    return sums


def points(menu: str, won: list[str]) -> int:
    """RULES.md's scoring table for one player and the cards of the tricks they won."""
    suits = [face(code)[0] for code in won]
    if menu == "none":
        return 5 - len(won)
    if menu == "pepper":
        bouillons = sum(1 for code in won if code.endswith(("-0a", "-0b")))
        return suits.count("pepper") - bouillons
    return suits.count(menu) - suits.count("pepper")


# ------------------------------------------------------------------ folding a game


@dataclass(frozen=True)
class Step:
    """One event folded: the seat whose turn it was and the completed tricks before it, and its outcome."""

    index: int
    event: dict[str, Any]
    outcome: Outcome
    turn_before: int | None
    tricks_before: int
    game: State


def fold(sim: Simulation, referee: Referee | None = None) -> Iterator[Step]:
    """Apply the game's events one by one, yielding each step."""
    referee = referee or Referee(GAMES)
    for index, event in enumerate(sim.events):
        game = referee.state
        turn = game.progress.turn if game is not None else None
        current = game.progress.open_round if game is not None else None
        tricks = len(current.tricks) if current is not None else 0
        outcome = referee.apply(event)
        assert referee.state is not None
        yield Step(index, event, outcome, turn, tricks, referee.state)


def last_round(game: State) -> RoundState:
    assert game.progress.rounds
    return game.progress.rounds[-1]


def remaining(sim: Simulation, current: RoundState) -> list[set[str]]:
    """The true cards still in each hand: the deal minus the cards played this round."""
    return [set(dealt) - current.played for dealt in sim.deals[current.number - 1]]


def final_state(sim: Simulation) -> State:
    referee = Referee(GAMES)
    for event in sim.events:
        referee.apply(event)
    assert referee.state is not None
    return referee.state


# ------------------------------------------------------------------ properties


@CI
@given(games())
def test_all_52_cards_are_accounted_for_at_every_step(sim: Simulation) -> None:
    for step in fold(sim):
        game = step.game
        if not game.progress.rounds:
            continue
        current = last_round(game)
        pot = game.progress.pot.cards if current.points is None else current.unclaimed
        in_tricks = [code for trick in current.tricks for code in trick.cards]
        assert Counter(in_tricks + pot) == Counter(current.played)
        hands = remaining(sim, current)
        every = in_tricks + pot + [code for hand in hands for code in hand] + list(sim.set_aside[current.number - 1])
        assert sorted(every) == sorted(ALL_CODES)
        assert current.left == [len(hand) for hand in hands]
        for seat, known in current.hands.items():
            assert known == hands[seat]


@CI
@given(games())
def test_the_round_ends_exactly_when_the_turn_reaches_an_empty_hand(sim: Simulation) -> None:
    count = len(sim.players)
    ended: list[int] = []
    for step in fold(sim):
        if step.event["type"] != "card" or not step.outcome.accepted:
            continue
        seat = step.turn_before
        assert seat is not None
        current = last_round(step.game)
        assert step.event["card"] in sim.deals[current.number - 1][seat], "played from another seat's deal"
        won = len(current.tricks) > step.tricks_before
        next_seat = seat if won else (seat + 1) % count
        hands = remaining(sim, current)
        if current.points is not None:
            ended.append(current.number)  # twice when the last card is undone and played again
            assert not hands[next_seat], "the round ended while the next player still had cards"
            assert step.game.progress.turn is None
        else:
            assert step.game.progress.phase == "play"
            assert step.game.progress.turn == next_seat
            assert hands[next_seat], "the turn passed to an empty hand and the round went on"
    assert sorted(set(ended)) == list(range(1, ROUNDS + 1))


@CI
@given(games())
def test_the_pot_sum_follows_the_rule_and_a_trick_ends_at_ten(sim: Simulation) -> None:
    for step in fold(sim):
        game = step.game
        pot = game.progress.pot
        if pot.cards:
            sums = running_sums(pot.cards)
            assert pot.sum == sums[-1]
            assert all(total < 10 for total in sums[1:]), "a pot reached 10 and nobody won it"
            first_suit = face(pot.cards[0])[0]
            assert pot.led == (None if first_suit == "pepper" else first_suit)
            assert pot.spoiled == any(face(code)[0] == "pepper" for code in pot.cards)
        if not game.progress.rounds:
            continue
        current = last_round(game)
        for trick in current.tricks:
            sums = running_sums(trick.cards)
            assert len(trick.cards) >= 2 and sums[-1] >= 10 and all(total < 10 for total in sums[1:-1])
        if current.points is not None:
            assert all(total < 10 for total in running_sums(current.unclaimed)[1:])


@CI
@given(games())
def test_stars_scores_menus_and_winners(sim: Simulation) -> None:
    stars = [STARTING_STARS] * len(sim.players)
    for step in fold(sim):
        assert min(step.game.progress.stars) >= 0
    game = step.game
    state = game.progress
    assert state.phase == "game_over" and game.round_number == ROUNDS
    assert [current.number for current in state.rounds] == list(range(1, ROUNDS + 1))
    for current in state.rounds:
        assert current.points is not None
        for seat in range(len(sim.players)):
            won = [code for trick in current.tricks if trick.winner == seat for code in trick.cards]
            assert current.points[seat] == points(current.choices[seat], won)
            stars[seat] = max(0, stars[seat] + current.points[seat])
        if game.game.rules.menu_reveal == "sequential":
            first = (current.dealer + 1) % len(sim.players)
            dealer_left = set(MENUS) - {later.choices[current.dealer] for later in state.rounds[: current.number - 1]}
            if dealer_left - {current.choices[first]}:
                assert current.choices[current.dealer] != current.choices[first]
    assert state.stars == stars
    for seat in range(len(sim.players)):
        assert sorted(current.choices[seat] for current in state.rounds) == sorted(MENUS)
    assert game.winners() == [seat for seat, got in enumerate(stars) if got == max(stars)]
    assert public_state(game)["winners"] == [sim.players[seat] for seat in game.winners()]


@CI
@given(games())
def test_secret_menus_stay_secret_until_the_reveal(sim: Simulation) -> None:
    for step in fold(sim):
        game = step.game
        current = game.progress.open_round
        if game.game.rules.menu_reveal != "simultaneous" or current is None or current.revealed:
            continue
        shown = public_state(game)["rounds"][-1]
        assert "menus" not in shown
        seats = table_view(game)["players"]
        assert [seat["has_chosen"] for seat in seats] == [seat in current.choices for seat in range(len(seats))]
        assert all(seat["menu"] is None and seat["points"] is None for seat in seats)


def export_and_replay(sim: Simulation, data_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Journal the game with its outcomes, export it through `marmite export`, replay it: (replayed, live)."""
    referee = Referee(GAMES)
    refused: list[dict[str, Any]] = []
    with Journal.open(data_dir) as journal:
        journal.append({"type": "card", "card": "pea-1a"}, False, "no_game")  # before the game: not exported
        for line, event in enumerate(sim.events, start=1):
            outcome = referee.apply(event)
            reason = None if outcome.reason is None else str(outcome.reason)
            journal.append(event, outcome.accepted, reason, "simulation")
            if not outcome.accepted:
                refused.append({"line": line, "reason": reason})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run_export(argparse.Namespace(data=data_dir, game=None, list=False)) == 0
    lines = out.getvalue().splitlines()
    assert [json.loads(line) for line in lines] == sim.events
    live = public_state(referee.state)
    live["refused"] = refused
    return replay(parse_log(lines, GAMES), GAMES), live


def test_export_and_replay_through_the_command_line_give_the_live_state(tmp_path: Path) -> None:
    sim = simulate(random.Random(7), players=5, known_hands=(1, 3), noise=HEAVY_NOISE)
    _, live = export_and_replay(sim, tmp_path)
    assert live["refused"] and live["phase"] == "game_over"
    marmite = [sys.executable, "-m", "marmite.cli"]
    exported = subprocess.run([*marmite, "export", "--data", str(tmp_path)], capture_output=True, text=True,
                              check=True).stdout
    replayed = subprocess.run([*marmite, "replay", "-"], input=exported, capture_output=True, text=True,
                              check=True).stdout
    assert json.loads(replayed) == live


def test_the_simulator_is_deterministic_and_its_noise_is_exercised() -> None:
    first = simulate(random.Random(3), players=4, known_hands=(0,), noise=HEAVY_NOISE)
    again = simulate(random.Random(3), players=4, known_hands=(0,), noise=HEAVY_NOISE)
    assert first == again
    final = final_state(first)
    refusals = Counter(
        str(step.outcome.reason) for step in fold(first) if not step.outcome.accepted
    )
    assert {"already_played", "unknown_card"} <= set(refusals)
    assert any(event["type"] == "undo" for event in first.events)
    assert final.progress.phase == "game_over"
    hidden = simulate(random.Random(5), players=3, noise=Noise(revoke=1.0))
    assert final_state(hidden).progress.revokes, "constant revokes in hidden hands never flagged one"
    known = simulate(random.Random(5), players=3, known_hands=(0, 1, 2), noise=Noise(revoke=1.0))
    assert "must_follow_suit" in {str(step.outcome.reason) for step in fold(known) if not step.outcome.accepted}
