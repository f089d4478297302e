"""Robot seats through the game seam: a game that seats no robot is refused robots, never silently unplayed."""

from __future__ import annotations

from typing import Any

from companion.referee import Referee
from companion.robot_words import voice_of
from companion.seam import BAD_SETUP, Games, Part, table_seats
from tests.toy_game.rules import KIND as RELAY


class Seatless:
    """Relay's rules without its robot seats: a game that did not opt into robots."""

    def __init__(self) -> None:
        self.name = "seatless"
        self.event_fields = RELAY.event_fields
        self.setup_fields = RELAY.setup_fields
        self.tag_codes = RELAY.tag_codes

    def __getattr__(self, name: str) -> Any:
        if name in ("new_game", "empty_public_state", "voice", "describe_refusal"):
            return getattr(RELAY, name)
        raise AttributeError(name)


def start(robots: dict[str, Any] | None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "new_game", "game": "seatless", "players": ["Ada", "Bo"]}
    if robots is not None:
        event["robots"] = robots
    return event


def test_a_game_without_table_seats_is_refused_robot_seats_but_plays_without_them() -> None:
    kind = Seatless()
    assert table_seats(kind) is None and table_seats(RELAY) is not None
    referee = Referee(Games.of(kind))  # type: ignore[arg-type]
    assert referee.decide(start({"seats": {"Bo": "chef"}})) == BAD_SETUP
    assert referee.decide(start({"seats": {}})) is None
    assert referee.decide(start(None)) is None


def test_a_game_that_names_no_card_has_its_robot_cards_said_by_code() -> None:
    game = RELAY.new_game({"players": ["Ada", "Bo"]})
    assert game is not None
    said = voice_of(game.new_initial_state()).render([Part("robot.plays", {"player": "Bo", "card": "hop-2"})], "en")
    assert said == "Bo plays hop-2: put it in the pot."
