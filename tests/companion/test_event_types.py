"""Each game's event TypedDicts name exactly the fields its `event_fields` checks at run time, and
the typed constructors build the same wire events as before."""

from __future__ import annotations

from typing import Any

import pytest

from companion.buffet import KIND as BUFFET
from companion.buffet import events as buffet_events
from companion.chaud_devant import KIND as CHAUD
from companion.chaud_devant import events as chaud_events

TYPED: list[tuple[Any, str, Any]] = [
    (CHAUD, "menu", chaud_events.MenuEvent),
    (CHAUD, "card", chaud_events.CardEvent),
    (CHAUD, "hand", chaud_events.HandEvent),
    (BUFFET, "plate", buffet_events.PlateEvent),
    (BUFFET, "card", buffet_events.CardEvent),
]


@pytest.mark.parametrize(("kind", "name", "typed"), TYPED)
def test_typed_fields_match_the_checked_fields(kind: Any, name: str, typed: Any) -> None:
    assert typed.__required_keys__ - {"type"} == set(kind.event_fields[name])
    assert not typed.__optional_keys__


def test_every_event_type_is_typed() -> None:
    for kind in (CHAUD, BUFFET):
        assert {name for game, name, _ in TYPED if game is kind} == set(kind.event_fields)


def test_constructors_build_the_wire_events() -> None:
    assert chaud_events.menu_event("Ana", "soupe") == {"type": "menu", "player": "Ana", "menu": "soupe"}
    assert chaud_events.hand_event("Ana", ["a"]) == {"type": "hand", "player": "Ana", "cards": ["a"]}
    assert buffet_events.plate_event("plate-x") == {"type": "plate", "plate": "plate-x"}
    assert buffet_events.card_event("mouse-3") == {"type": "card", "card": "mouse-3"}


def test_accepted_refuses_another_games_event() -> None:
    with pytest.raises(ValueError, match="plate"):
        chaud_events.accepted({"type": "plate", "plate": "plate-x"})
    assert buffet_events.accepted({"type": "card", "card": "mouse-3"})["type"] == "card"
