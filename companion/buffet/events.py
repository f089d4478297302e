"""Sus au buffet !'s events, typed: one TypedDict per event type, their constructors, and the
narrowing of an accepted wire event (a plain dict) to its type. The wire form does not change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

from companion.seam import NewGameEvent

EVENT_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "plate": {"plate": str},
    "card": {"card": str},
}
"""Each event type's fields and their JSON types, as the table checks them (`event_fields`)."""


class PlateEvent(TypedDict):
    """A plate laid out on the buffet."""

    type: Literal["plate"]
    plate: str


class CardEvent(TypedDict):
    """A mouse card revealed during a step (`mouse-<v>`, the copy dropped)."""

    type: Literal["card"]
    card: str


class BuffetNewGame(NewGameEvent):
    """A Sus au buffet ! `new_game`: the table's fields and the first player."""

    first: str


BuffetEvent = PlateEvent | CardEvent


def plate_event(code: str) -> PlateEvent:
    return {"type": "plate", "plate": code}


def card_event(code: str) -> CardEvent:
    return {"type": "card", "card": code}


def accepted(event: Mapping[str, Any]) -> BuffetEvent:
    """A wire event `decide` has accepted, typed by its `type` (decide has checked its fields)."""
    if event.get("type") not in EVENT_FIELDS:
        raise ValueError(f"not a Sus au buffet ! event: {event.get('type')!r}")
    return cast(BuffetEvent, event)
