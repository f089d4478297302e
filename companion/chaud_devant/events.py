"""Chaud Devant !'s events, typed: one TypedDict per event type, their constructors, and the
narrowing of an accepted wire event (a plain dict) to its type. The wire form does not change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

from companion.seam import NewGameEvent

EVENT_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hand": {"player": str, "cards": list},
    "menu": {"player": str, "menu": str},
    "card": {"card": str},
}
"""Each event type's fields and their JSON types, as the table checks them (`event_fields`)."""


class MenuEvent(TypedDict):
    """A seat's secret menu card."""

    type: Literal["menu"]
    player: str
    menu: str


class CardEvent(TypedDict):
    """A soup card dropped in the pot (or an unknown tag, `tag:<uid>`, which is refused)."""

    type: Literal["card"]
    card: str


class HandEvent(TypedDict):
    """A seat's hand, as its owner entered it."""

    type: Literal["hand"]
    player: str
    cards: list[str]


class ChaudNewGame(NewGameEvent):
    """A Chaud Devant ! `new_game`: the table's fields and the dealer of round 1."""

    dealer: str


ChaudEvent = MenuEvent | CardEvent | HandEvent


def menu_event(player: str, menu: str) -> MenuEvent:
    return {"type": "menu", "player": player, "menu": menu}


def card_event(code: str) -> CardEvent:
    return {"type": "card", "card": code}


def hand_event(player: str, cards: list[str]) -> HandEvent:
    return {"type": "hand", "player": player, "cards": cards}


def accepted(event: Mapping[str, Any]) -> ChaudEvent:
    """A wire event `decide` has accepted, typed by its `type` (decide has checked its fields)."""
    if event.get("type") not in EVENT_FIELDS:
        raise ValueError(f"not a Chaud Devant ! event: {event.get('type')!r}")
    return cast(ChaudEvent, event)
