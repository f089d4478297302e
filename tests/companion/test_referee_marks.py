"""Undo from the referee's marks equals undo by replaying every accepted action from the start.

A stale or shared mark would show here: undos across a round boundary, after refused events, many
in a row, and random bursts in random games of both games, each compared with a fresh replay.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.buffet import simulate as buffet_sim
from companion.chaud_devant import simulate as chaud_sim
from companion.referee import Referee
from companion.seam import State
from marmite.games import GAMES


def observe(state: State | None) -> Any:
    assert state is not None
    return state.public_state(), state.table_view(), state.history()


def from_scratch(referee: Referee) -> Any:
    """The state the accepted actions make, replayed on a fresh state (the reference undo)."""
    assert referee.game is not None
    state = referee.game.new_initial_state()
    for action in referee.actions:
        state.apply(action)
    return observe(state)


def buffet_game(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return buffet_sim.random_game(rng, players=rng.choice((3, 4, 5, 6)), noise=buffet_sim.TABLE_NOISE)


def chaud_game(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return chaud_sim.random_game(rng, players=rng.choice((3, 4, 5)), edition=rng.choice(("2005", "2023")),
                                 noise=chaud_sim.TABLE_NOISE)


def undo_checked(referee: Referee, times: int) -> None:
    for _ in range(times):
        if not referee.actions:
            return
        assert referee.apply({"type": "undo"}).accepted
        assert observe(referee.state) == from_scratch(referee)


def test_undo_across_a_round_boundary_then_on_to_the_end() -> None:
    events = buffet_game(3)
    referee = Referee(GAMES)
    boundary = None
    for index, event in enumerate(events):
        before = getattr(referee.state, "round_number", None)
        referee.apply(event)
        if before == 1 and getattr(referee.state, "round_number", None) == 2:
            boundary = index
            break
    assert boundary is not None
    undo_checked(referee, 1)  # back into round 1 (a mark at the boundary's last action)
    assert getattr(referee.state, "round_number", None) == 1
    undo_checked(referee, 3)
    for event in events[boundary - 3:]:  # the same plays again, to the end
        referee.apply(event)
    undo_checked(referee, 2)
    assert referee.state is not None


def test_undo_after_refused_events_and_many_in_a_row() -> None:
    for events in (buffet_game(5), chaud_game(5)):
        referee = Referee(GAMES)
        for event in events[: len(events) * 2 // 3]:
            referee.apply(event)
        undo_checked(referee, 1)
        refused = referee.apply({"type": "card", "card": "not-a-card"})
        assert not refused.accepted
        undo_checked(referee, 1)  # from the mark the previous undo left, past a refusal
        undo_checked(referee, 12)  # many in a row: every mark but older ones goes stale
        for event in events[len(events) * 2 // 3 - 14:]:
            referee.apply(event)
        assert observe(referee.state) == from_scratch(referee)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.booleans(), st.lists(st.tuples(st.floats(0, 1), st.integers(1, 5)), max_size=12))
def test_undo_from_marks_equals_undo_by_replay(seed: int, buffet: bool, bursts: list[tuple[float, int]]) -> None:
    events = buffet_game(seed) if buffet else chaud_game(seed)
    at = {int(where * len(events)): times for where, times in bursts}
    referee = Referee(GAMES)
    for index, event in enumerate(events):
        outcome = referee.apply(event)
        if event["type"] == "undo" and outcome.accepted:
            assert observe(referee.state) == from_scratch(referee)
        if index in at:
            undo_checked(referee, at[index])
            for again in events[max(1, index - at[index] + 1): index + 1]:
                referee.apply(again)  # resent: the game goes on (refusals change nothing)
    assert observe(referee.state) == from_scratch(referee)
