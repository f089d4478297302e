"""Small builders for readable buffet rule tests: events as the contract writes them, and replay."""

from __future__ import annotations

from typing import Any

from companion.buffet.plates import value_code
from companion.buffet.state import State
from companion.referee import Referee
from companion.replay import replay
from marmite.games import GAMES

FOUR = ("Ana", "Ben", "Cléo", "Dan")
THREE = ("Ana", "Ben", "Cléo")
FIVE = ("Ana", "Ben", "Cléo", "Dan", "Éloïse")
SIX = ("Ana", "Ben", "Cléo", "Dan", "Éloïse", "Farid")
UNDO: dict[str, Any] = {"type": "undo"}


def new_game(players: tuple[str, ...] = FOUR, first: str | None = None) -> dict[str, Any]:
    """A buffet new_game; the first player defaults to the first seat."""
    return {"type": "new_game", "game": "buffet", "players": list(players), "first": first or players[0]}


def plate(code: str) -> dict[str, Any]:
    return {"type": "plate", "plate": code}


def mouse(value: int) -> dict[str, Any]:
    """The card event of a mouse card of this value."""
    return {"type": "card", "card": f"mouse-{value_code(value)}"}


def mice(*values: int) -> list[dict[str, Any]]:
    return [mouse(value) for value in values]


def plates(*codes: str) -> list[dict[str, Any]]:
    return [plate(code) for code in codes]


def run(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The contract's replay object for these events (line numbers from 1)."""
    return replay(enumerate(events, start=1), GAMES)


def referee_after(events: list[dict[str, Any]]) -> Referee:
    """A referee that has folded these events, each of them accepted."""
    referee = Referee(GAMES)
    for number, event in enumerate(events, start=1):
        outcome = referee.apply(event)
        assert outcome.accepted, f"event {number} {event} refused {outcome.reason}"
    return referee


def state_after(events: list[dict[str, Any]]) -> State:
    state = referee_after(events).state
    assert isinstance(state, State)
    return state


def reasons(out: dict[str, Any]) -> list[tuple[int, str]]:
    return [(r["line"], r["reason"]) for r in out["refused"]]


def quick_round(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cards that finish the round under way after `events` with no tie: the k-th mouse to reveal in a
    step plays 9 − k, so the last one in reveal order is always alone at the rear."""
    state = state_after(events)
    cards: list[dict[str, Any]] = []
    while state.phase == "step":
        assert state.step is not None
        event = mouse(9 - len(state.step.reveals))
        assert state.decide(event) is None
        state.apply(event)
        cards.append(event)
    return cards
