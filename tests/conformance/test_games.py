"""One conformance suite for every registered game (the two real ones and Relay, the toy), in the
spirit of OpenSpiel's random_sim_test: random whole games from each game's own demo simulator, with
undos and refused probes mixed in, checked only through the seam.

Hypothesis is not derandomized: each run tries new games. A failure prints its falsifying example
(the simulator's seed and the probe seed) and `@reproduce_failure`, so it replays exactly.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.journal import Journal
from companion.referee import Referee
from companion.replay import parse_log, replay
from companion.seam import State
from marmite.contract_commands import run_export
from tests.conformance.registry import DEMOS, GAMES

SUITE = settings(max_examples=12, database=None, deadline=None, print_blob=True, derandomize=False,
                 suppress_health_check=[HealthCheck.too_slow])
NAMES = sorted(GAMES.kinds)
LANGUAGES = ("fr", "en", "nl")
SEEDS = st.integers(0, 2**32 - 1)
SAMPLED = 0.05
"""The share of a game's points where the costlier checks look (a Chaud Devant game has ~300)."""


def simulated(name: str, seed: int, players: int) -> list[dict[str, Any]]:
    """A whole random legal game of `name` from its own demo simulator."""
    return DEMOS[name].random_game(random.Random(seed), players)


def vocabulary(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every distinct play event of a game, plus events no game accepts: the probes at each point."""
    seen = {json.dumps(e, sort_keys=True): e for e in events if e["type"] not in ("new_game", "undo")}
    strange = [{"type": "card", "card": "no-such-card"}]  # well-formed (the envelope refuses the rest first)
    return [*seen.values(), *strange]


def observed(state: State) -> Any:
    """Everything the state shows through its observers (a refusal must change none of it)."""
    return json.dumps([state.public_state(), state.table_view(), state.history(), state.summary(),
                       [state.seat_view(p, owner=o) for p in state.players for o in (False, True)],
                       state.legal_actions(), state.is_terminal()], sort_keys=True, default=str)


def fold(events: list[dict[str, Any]]) -> Iterator[tuple[Referee, dict[str, Any]]]:
    """The referee before each event, then the event (which the caller applies)."""
    referee = Referee(GAMES)
    for event in events:
        yield referee, event
        referee.apply(event)


@pytest.mark.parametrize("name", NAMES)
@SUITE
@given(seed=SEEDS, players=st.integers(2, 6), probe=SEEDS)
def test_legal_actions_are_exactly_the_accepted_ones(name: str, seed: int, players: int, probe: int) -> None:
    events = simulated(name, seed, players)
    probes, rng = vocabulary(events), random.Random(probe)
    for referee, event in fold(events):
        state = referee.state
        if state is None or rng.random() > SAMPLED:
            continue
        legal = state.legal_actions()
        assert all(referee.decide(action) is None for action in legal), "a legal action is refused"
        for candidate in probes:
            assert (candidate in legal) == (referee.decide(candidate) is None), candidate
        assert referee.decide(event) is None or event not in legal


@pytest.mark.parametrize("name", NAMES)
@SUITE
@given(seed=SEEDS, players=st.integers(2, 6), probe=SEEDS)
def test_refusals_change_nothing(name: str, seed: int, players: int, probe: int) -> None:
    events = simulated(name, seed, players)
    probes, rng = vocabulary(events), random.Random(probe)
    for referee, _event in fold(events):
        state = referee.state
        if state is None or rng.random() > 0.2:
            continue
        candidate = rng.choice(probes)
        if referee.decide(candidate) is None:
            continue
        before = observed(state)
        outcome = referee.apply(candidate)
        assert not outcome.accepted and outcome.reason and referee.state is state
        assert observed(state) == before, f"refused {candidate} changed the state"


@pytest.mark.parametrize("name", NAMES)
@SUITE
@given(seed=SEEDS, players=st.integers(2, 6), probe=SEEDS)
def test_undo_equals_replay_without_the_undone_event(name: str, seed: int, players: int, probe: int) -> None:
    events = simulated(name, seed, players)
    rng = random.Random(probe)
    live = Referee(GAMES)
    kept: list[dict[str, Any]] = []
    for event in events:
        outcome = live.apply(event)
        assert outcome.accepted, event  # the simulators play legal games
        kept.append(event)
        if event["type"] != "new_game" and rng.random() < 0.1:
            assert live.apply({"type": "undo"}).accepted
            kept.pop()
            again = Referee(GAMES)
            for earlier in kept:
                again.apply(earlier)
            assert live.state is not None and again.state is not None
            assert observed(live.state) == observed(again.state)
            assert live.apply(event).accepted  # and the game goes on as simulated
            kept.append(event)


@pytest.mark.parametrize("name", NAMES)
@settings(SUITE, max_examples=4)
@given(seed=SEEDS, players=st.integers(2, 6), probe=SEEDS)
def test_replay_of_the_journal_equals_the_live_state(name: str, seed: int, players: int, probe: int,
                                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    events = simulated(name, seed, players)
    probes, rng = vocabulary(events), random.Random(probe)
    noisy = [e for event in events for e in ([event, rng.choice(probes)] if rng.random() < 0.1 else [event])]
    data_dir = tmp_path_factory.mktemp("journal")
    referee = Referee(GAMES)
    refused: list[dict[str, Any]] = []
    with Journal.open(data_dir) as journal:
        for line, event in enumerate(noisy, start=1):
            outcome = referee.apply(event)
            journal.append(event, outcome.accepted, outcome.reason, "conformance")
            if not outcome.accepted:
                refused.append({"line": line, "reason": outcome.reason})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run_export(argparse.Namespace(data=data_dir, game=None, list=False)) == 0
    lines = out.getvalue().splitlines()
    assert [json.loads(line) for line in lines] == noisy
    live = referee.public_state
    live["refused"] = refused
    assert replay(parse_log(lines, GAMES), GAMES) == live


def leaves(value: Any, key: str = "") -> set[tuple[str, str]]:
    """Every string of a view with the field it sits in (list items take their list's field)."""
    if isinstance(value, dict):
        return {leaf for k, v in value.items() for leaf in leaves(v, str(k))}
    if isinstance(value, list | tuple | set | frozenset):
        return {leaf for v in value for leaf in leaves(v, key)}
    return {(key, value)} if isinstance(value, str) else set()


def leaks(state: Any) -> list[str]:
    """What only a seat's owner sees (its own phone: a field and its value) and shows elsewhere: on
    the table, in the replay object or the history, in another seat's view, or without its key."""
    found = []
    owned = {p: leaves(state.seat_view(p, owner=True)) - leaves(state.seat_view(p, owner=False))
             for p in state.players}
    shown = leaves([state.table_view(), state.public_state(), state.history()])
    for player, secret in owned.items():
        found += [f"{player}'s {leak} on the table" for leak in secret & shown]
        for other in state.players:
            if other != player:
                seen = leaves(state.seat_view(other, owner=False)) | (
                    leaves(state.seat_view(other, owner=True)) - owned[other])
                found += [f"{player}'s {leak} on {other}'s phone" for leak in secret & seen]
    return found


@pytest.mark.parametrize("name", NAMES)
@SUITE
@given(seed=SEEDS, players=st.integers(2, 6), probe=SEEDS)
def test_observers_leak_no_hidden_field_to_any_seat(name: str, seed: int, players: int, probe: int) -> None:
    rng = random.Random(probe)
    for referee, _event in fold(simulated(name, seed, players)):
        if referee.state is not None and rng.random() <= SAMPLED:
            assert leaks(referee.state) == []


def test_the_leak_check_can_fail() -> None:
    """A seat view that shows another player's secret menu, and a table that shows one, are caught."""

    class Leaky:
        players = ("A", "B")

        def seat_view(self, player: str, *, owner: bool) -> dict[str, Any]:
            mine = {"my_menu": f"menu-of-{player}"} if owner else {}
            return {"seat": player, **mine, "menus": ["menu-of-B"] if player == "A" and not owner else []}

        def table_view(self) -> dict[str, Any]:
            return {"my_menu": "menu-of-A"}

        def public_state(self) -> dict[str, Any]:
            return {}

        def history(self) -> dict[str, Any]:
            return {}

    found = leaks(Leaky())
    assert "A's ('my_menu', 'menu-of-A') on the table" in found and len(found) == 1
    Leaky.table_view = lambda self: {}  # type: ignore[method-assign]
    Leaky.seat_view = lambda self, player, *, owner: {  # type: ignore[method-assign]
        "my_menu": f"menu-of-{player}" if owner else None, "peek": "x",
        **({"my_menu": "menu-of-B"} if player == "A" and not owner else {})}
    assert leaks(Leaky()) == ["B's ('my_menu', 'menu-of-B') on A's phone"]


def _said(state: State, parts: list[Any]) -> None:
    for language in LANGUAGES:
        text = state.voice().render(parts, language)
        assert text.strip() and "{" not in text and "}" not in text, (language, parts, text)


@pytest.mark.parametrize("name", NAMES)
@SUITE
@given(seed=SEEDS, players=st.integers(2, 6), probe=SEEDS)
def test_every_effect_and_refusal_has_a_phrase_in_every_language(name: str, seed: int, players: int,
                                                                  probe: int) -> None:
    events = simulated(name, seed, players)
    probes, rng = vocabulary(events), random.Random(probe)
    referee = Referee(GAMES)
    for event in events:
        state = referee.state
        if state is not None and rng.random() < 0.1:
            candidate = rng.choice(probes)
            reason = referee.decide(candidate)
            if reason is not None:
                _said(state, [state.describe_refusal(candidate, reason)])
        outcome = referee.apply(event)
        state = referee.state
        assert outcome.accepted and state is not None
        for effect in outcome.effects:
            parts = state.describe([effect])
            assert parts, f"{effect} has no phrase"
            _said(state, parts)
        if rng.random() < 0.1:
            _said(state, state.describe_where())


def test_the_suite_runs_over_every_hosted_game() -> None:
    from marmite.games import GAMES as HOSTED_GAMES

    assert set(HOSTED_GAMES.kinds) <= set(NAMES)
    assert not SUITE.derandomize and SUITE.database is None


def test_the_undo_check_can_fail() -> None:
    """A broken undo (one that keeps the undone event) is caught by the comparison the suite makes."""
    events = simulated("buffet", 3, 3)
    live, again = Referee(GAMES), Referee(GAMES)
    for event in events[:8]:
        live.apply(event)
        again.apply(event)
    broken = copy.deepcopy(live.state)
    live.apply({"type": "undo"})
    assert broken is not None and live.state is not None and observed(broken) != observed(live.state)
