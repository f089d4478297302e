"""The event envelope: JSON objects with a `type`, and the check that one is well formed.

`new_game` and `undo` belong to the table; every other type comes from the games it hosts
(each `GameKind.event_fields`), so a second game adds its events without touching this module.
"""

from __future__ import annotations

import json
from typing import Any, cast

from companion.seam import Games

TABLE_EVENT_TYPES: tuple[str, ...] = ("new_game", "undo", "robot", "confirm")


class MalformedEvent(ValueError):
    """Not one event: not a JSON object, or no known `type` (or, strictly, a field of the wrong type)."""


class EventShapes:
    """The event types and field types of a table hosting these games."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.fields: dict[str, dict[str, type | tuple[type, ...]]] = {
            "new_game": {"players": list}, "undo": {}, "robot": {"player": str},
            "confirm": {"player": str, "verdict": str}}
        for kind in games.kinds.values():
            for name, fields in kind.event_fields.items():
                self.fields.setdefault(name, {}).update(fields)
        self.types: tuple[str, ...] = tuple(self.fields)

    def event_type(self, event: object) -> str:
        """The event's type; MalformedEvent if it is not an object with a known `type`."""
        if not isinstance(event, dict):
            raise MalformedEvent("an event must be a JSON object")
        kind = event.get("type")
        if kind not in self.types:
            raise MalformedEvent(f"unknown event type {kind!r}; expected one of {', '.join(self.types)}")
        return str(kind)

    def check_well_formed(self, event: object) -> dict[str, Any]:
        """The event itself if it has every field its type needs with the right JSON type.

        Used where one well-formed event is required (the HTTP API); a log file replays
        leniently instead, and a missing field there is a refusal.
        """
        kind = self.event_type(event)
        check_storable(event)
        event = cast(dict[str, Any], event)  # event_type has checked it is an object
        needed = dict(self.fields[kind])
        if kind == "new_game":
            name = event.get("game", self.games.default)
            game = self.games.kinds.get(name) if isinstance(name, str) else None
            if game is not None:
                needed.update(game.setup_fields)
        for name, expected in needed.items():
            if name not in event:
                raise MalformedEvent(f"a {kind} event needs a {name!r} field")
            if not isinstance(event[name], expected):
                raise MalformedEvent(f"{kind}.{name} has the wrong type")
        for name, value in event.items():
            strings = not isinstance(value, list) or all(isinstance(item, str) for item in value)
            if kind != "new_game" and name in needed and not strings:
                raise MalformedEvent(f"{kind}.{name} must be a list of strings")
        if kind == "new_game" and not isinstance(event.get("rules", {}), dict | None):
            raise MalformedEvent("new_game.rules must be an object")
        if kind == "new_game" and not isinstance(event.get("robots", {}), dict):
            raise MalformedEvent("new_game.robots must be an object")
        return event


def event_type(event: object, types: tuple[str, ...]) -> str:
    """The event's type among `types`; MalformedEvent if it is not an object with one of them."""
    if not isinstance(event, dict) or event.get("type") not in types:
        raise MalformedEvent(
            "an event must be a JSON object" if not isinstance(event, dict)
            else f"unknown event type {event.get('type')!r}; expected one of {', '.join(types)}"
        )
    return str(event["type"])


MAX_EVENT_BYTES = 16 * 1024
MAX_EVENT_DEPTH = 8


def check_storable(event: object) -> None:
    """MalformedEvent unless `event` is plain JSON the journal can keep and export as it came:
    finite numbers, strings without lone surrogates, at most MAX_EVENT_DEPTH levels deep and
    MAX_EVENT_BYTES long once encoded."""
    size = 0
    stack: list[tuple[object, int]] = [(event, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_EVENT_DEPTH:
            raise MalformedEvent(f"an event may nest at most {MAX_EVENT_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
            stack.extend((name, depth + 1) for name in value)
            size += 2 * len(value) + 2
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
            size += len(value) + 2
        elif isinstance(value, str):
            try:  # as JSON encodes it: quotes and escapes counted, so the limit holds for the encoded event
                size += len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
            except UnicodeEncodeError:
                raise MalformedEvent("a string in the event holds a lone surrogate (not valid Unicode)") from None
        elif isinstance(value, bool) or value is None:
            size += 5
        elif isinstance(value, int):
            size += len(str(value))
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise MalformedEvent("numbers in an event must be finite (no NaN or Infinity)")
            size += 24
        else:
            raise MalformedEvent(f"an event holds a {type(value).__name__}, which is not JSON")
        if size > MAX_EVENT_BYTES:
            raise MalformedEvent(f"an event may be at most {MAX_EVENT_BYTES // 1024} KiB long")


def _no_constant(name: str) -> object:
    raise MalformedEvent(f"{name} is not JSON: numbers must be finite")


def strict_json(data: bytes, limit: int) -> object:
    """One JSON value, strictly (UTF-8, no NaN/Infinity, not nested past what the parser takes, at most
    `limit` bytes); MalformedEvent saying why otherwise. Shared by the table's API and the club hub."""
    if len(data) > limit:
        raise MalformedEvent(f"an event may be at most {limit // 1024} KiB long")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise MalformedEvent("the body must be UTF-8 JSON") from None
    except RecursionError:
        raise MalformedEvent(f"an event may nest at most {MAX_EVENT_DEPTH} levels deep") from None
    except ValueError as error:
        if isinstance(error, MalformedEvent):
            raise
        raise MalformedEvent(f"the body is not JSON: {error}") from None


def parse_event_json(data: bytes) -> object:
    """One JSON value from a request body, strictly: `strict_json`, then `check_storable`."""
    value = strict_json(data, MAX_EVENT_BYTES)
    check_storable(value)
    return value
