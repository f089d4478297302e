"""Properties over random whole buffet games: plates conserved, one plate per departure, rounds ending
exactly with their last plate, scores; the export replayed through the command line."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.buffet import effects as fx
from companion.buffet.plates import PLATES
from companion.buffet.simulate import NO_NOISE, TABLE_NOISE, Noise, random_game
from companion.buffet.state import State
from companion.journal import Journal
from companion.referee import Referee
from companion.replay import parse_log, replay
from marmite.contract_commands import run_export
from marmite.games import GAMES

HEAVY_NOISE = Noise(unknown_tag=0.1, undo=0.15, stray=0.2)
# Not derandomized (a failure prints its example); the seam-level properties are in tests/conformance.
CI = settings(max_examples=40, database=None, deadline=None, print_blob=True, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A simulated whole buffet game: 3 to 6 players, with or without table noise."""
    return random_game(random.Random(draw(st.integers(0, 2**32 - 1))), players=draw(st.integers(3, 6)),
                       noise=draw(st.sampled_from([NO_NOISE, TABLE_NOISE, HEAVY_NOISE])))


@dataclass(frozen=True)
class Snapshot:
    """What these properties look at, copied out of a state."""

    phase: str
    buffet: list[str]
    won: list[list[str]]
    laid: set[str]
    in_round: list[int]
    plates_left: int

    @classmethod
    def of(cls, state: State) -> Snapshot:
        return cls(state.phase, list(state.buffet), [list(w) for w in state.won], set(state.laid),
                   list(state.in_round), state.plates_left)


def folded(events: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Snapshot, Snapshot, list[Any]]]:
    """Each accepted plate or card with snapshots of the state before and after, and its effects."""
    referee = Referee(GAMES)
    steps = []
    for event in events:
        before = referee.state
        snapshot = Snapshot.of(before) if isinstance(before, State) else None
        outcome = referee.apply(event)
        if outcome.accepted and event["type"] in ("plate", "card") and snapshot is not None:
            after = referee.state
            assert isinstance(after, State)
            steps.append((event, snapshot, Snapshot.of(after), outcome.effects))
    return steps


@settings(CI)
@given(games())
def test_every_plate_laid_is_on_the_buffet_or_won_exactly_once(events: list[dict[str, Any]]) -> None:
    for _, _, after, _ in folded(events):
        won = [code for stack in after.won for code in stack]
        assert sorted(after.buffet + won) == sorted(after.laid)
        assert len(set(won)) == len(won) and not set(won) & set(after.buffet)
        assert after.plates_left == 36 - len(after.laid) >= 0


@settings(CI)
@given(games())
def test_each_departure_takes_one_plate_from_the_buffet_but_the_duel_loser(events: list[dict[str, Any]]) -> None:
    for _, before, after, effects in folded(events):
        departures = [e for e in effects if isinstance(e, fx.Departure)]
        taken = [d.plate for d in departures if d.plate is not None]
        assert sorted(taken) == sorted(set(before.buffet) - set(after.buffet))
        for departure in departures:
            assert departure.seat in before.in_round
            assert (departure.plate is None) == (not departure.won_duel and any(
                d.won_duel for d in departures))
        gained = sum(len(a) - len(b) for a, b in zip(after.won, before.won, strict=True))
        assert gained == len(taken)


@settings(CI)
@given(games())
def test_a_round_ends_exactly_when_its_last_plate_is_taken(events: list[dict[str, Any]]) -> None:
    for event, before, after, effects in folded(events):
        ended = any(isinstance(e, fx.RoundEnded) for e in effects)
        if event["type"] == "card":
            assert before.buffet and before.phase == "step"
            assert ended == (not after.buffet)
            assert ended == (after.phase != "step")
        else:
            assert not ended and after.buffet


@settings(CI)
@given(games())
def test_scores_are_the_sum_of_the_last_plate_of_each_food(events: list[dict[str, Any]]) -> None:
    out = replay(enumerate(events, start=1), GAMES)
    for name, won in out["plates"].items():
        last: dict[str, int] = {}
        for code in won:
            last[PLATES[code].food] = PLATES[code].value
        assert out["score"][name] == sum(last.values())
    assert out["phase"] == "game_over" and out["winners"]
    top = max(out["score"].values())
    assert all(out["score"][name] == top for name in out["winners"])


def export_and_replay(events: list[dict[str, Any]], data_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Journal the game with its outcomes, export it with `marmite export`, replay it: (replayed, live)."""
    referee = Referee(GAMES)
    refused: list[dict[str, Any]] = []
    with Journal.open(data_dir) as journal:
        for line, event in enumerate(events, start=1):
            outcome = referee.apply(event)
            reason = None if outcome.reason is None else str(outcome.reason)
            journal.append(event, outcome.accepted, reason, "simulation")
            if not outcome.accepted:
                refused.append({"line": line, "reason": reason})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run_export(argparse.Namespace(data=data_dir, game=None, list=False)) == 0
    lines = out.getvalue().splitlines()
    assert [json.loads(line) for line in lines] == events
    live = referee.public_state
    live["refused"] = refused
    return replay(parse_log(lines, GAMES), GAMES), live


def test_export_and_replay_through_the_command_line_give_the_live_state(tmp_path: Path) -> None:
    events = random_game(random.Random(11), players=3, noise=HEAVY_NOISE)
    _, live = export_and_replay(events, tmp_path)
    assert live["refused"] and live["phase"] == "game_over" and live["game"] == "buffet"
    marmite = [sys.executable, "-m", "marmite.cli"]
    exported = subprocess.run([*marmite, "export", "--data", str(tmp_path)], capture_output=True, text=True,
                              check=True).stdout
    replayed = subprocess.run([*marmite, "replay", "-"], input=exported, capture_output=True, text=True,
                              check=True).stdout
    assert json.loads(replayed) == live


def test_the_simulator_is_deterministic_and_its_noise_is_exercised() -> None:
    first = random_game(random.Random(3), players=5, noise=HEAVY_NOISE)
    assert first == random_game(random.Random(3), players=5, noise=HEAVY_NOISE)
    out = replay(enumerate(first, start=1), GAMES)
    assert {r["reason"] for r in out["refused"]} == {"unknown_card", "wrong_phase", "already_played"}
    assert any(event["type"] == "undo" for event in first)
