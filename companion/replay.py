"""`marmite replay`: fold a JSON Lines table log into the contract's state object."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from companion.events import EventShapes, MalformedEvent
from companion.referee import Referee
from companion.seam import ContractOrder, Games


class MalformedLog(ValueError):
    """A line that is not a JSON object with a known type; names the 1-based line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class _NotJson(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, but they are not JSON."""


def _not_json(name: str) -> object:
    raise _NotJson(f"{name} is not a JSON number")


def parse_log(lines: Iterable[str | bytes], games: Games) -> list[tuple[int, dict[str, Any]]]:
    """The events of a log with their line numbers; blank lines skipped; MalformedLog if any is bad."""
    shapes = EventShapes(games)
    events: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise MalformedLog(number, "not UTF-8 text") from None
        if not text.strip():
            continue
        try:
            event = json.loads(text, parse_constant=_not_json)
        except json.JSONDecodeError as error:
            raise MalformedLog(number, f"not JSON ({error.msg})") from None
        except _NotJson as error:
            raise MalformedLog(number, f"not JSON ({error})") from None
        except RecursionError:
            raise MalformedLog(number, "nested too deeply to read") from None
        try:
            shapes.event_type(event)
        except MalformedEvent as error:
            raise MalformedLog(number, str(error)) from None
        events.append((number, event))
    return events


def replay(events: Iterable[tuple[int, dict[str, Any]]], games: Games) -> dict[str, Any]:
    """The contract's state object after folding these numbered events, with `refused`."""
    referee = Referee(games)
    refused: list[dict[str, Any]] = []
    for number, event in events:
        outcome = referee.apply(event)
        if not outcome.accepted:
            refused.append({"line": number, "reason": str(outcome.reason)})
    state = referee.public_state
    state["refused"] = refused
    kind = referee.kind or games.kinds[games.default]
    for key in kind.after_refused if isinstance(kind, ContractOrder) else ():  # e.g. Chaud Devant's revokes
        if key in state:
            state[key] = state.pop(key)
    return state
