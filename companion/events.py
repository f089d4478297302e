"""Table events as the contract writes them (JSON objects), and the check that one is well formed."""

from __future__ import annotations

from typing import Any, cast

EVENT_TYPES: tuple[str, ...] = ("new_game", "hand", "menu", "card", "undo")

# Fields each event type needs, with the JSON type a well-formed event gives them.
_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "new_game": {"players": list, "dealer": str},
    "hand": {"player": str, "cards": list},
    "menu": {"player": str, "menu": str},
    "card": {"card": str},
    "undo": {},
}


class MalformedEvent(ValueError):
    """Not one event: not a JSON object, or no known `type` (or, strictly, a field of the wrong type)."""


def event_type(event: object) -> str:
    """The event's type; MalformedEvent if it is not an object with a known `type`."""
    if not isinstance(event, dict):
        raise MalformedEvent("an event must be a JSON object")
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise MalformedEvent(
            f"unknown event type {kind!r}; expected one of {', '.join(EVENT_TYPES)}"
        )
    return str(kind)


def check_well_formed(event: object) -> dict[str, Any]:
    """The event itself if it has every field its type needs with the right JSON type.

    Used where one well-formed event is required (the HTTP API); a log file replays
    leniently instead, and a missing field there is a refusal.
    """
    kind = event_type(event)
    event = cast(dict[str, Any], event)  # event_type has checked it is an object
    for name, expected in _FIELDS[kind].items():
        if name not in event:
            raise MalformedEvent(f"a {kind} event needs a {name!r} field")
        if not isinstance(event[name], expected):
            raise MalformedEvent(f"{kind}.{name} has the wrong type")
    if kind == "hand" and not all(isinstance(code, str) for code in event["cards"]):
        raise MalformedEvent("hand.cards must be a list of card codes")
    if kind == "new_game" and not isinstance(event.get("rules", {}), dict | None):
        raise MalformedEvent("new_game.rules must be an object")
    return event
