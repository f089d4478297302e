"""Sus au buffet ! (Schlacht am Buffet), as a game the table can host: `KIND` is what the table takes."""

from __future__ import annotations

from typing import Any

from companion.buffet.announcer import BuffetVoice, describe_refusal
from companion.buffet.events import EVENT_FIELDS
from companion.buffet.game import Game, parse_game
from companion.buffet.plates import PLATES, TAG_CODES, TOTAL_PLATES
from companion.seam import ClubFacts, Part, Voice
from companion.tag_deal import DealPlan


class Buffet:
    """The game kind: parses setups, names its events and tags (see companion.seam.GameKind)."""

    def __init__(self) -> None:
        self.name = "buffet"
        self.event_fields: dict[str, dict[str, type | tuple[type, ...]]] = {
            name: dict(fields) for name, fields in EVENT_FIELDS.items()}  # the typed events beside them
        self.setup_fields: dict[str, type | tuple[type, ...]] = {"players": list, "first": str}
        self.tag_codes: tuple[str, ...] = TAG_CODES
        self.optional_tags: frozenset[str] = frozenset(PLATES)
        self.optional_in_box = TOTAL_PLATES
        """A box holds 36 of the 42 possible plates (which ones, the rules leave open): enrollment
        counts 110 + 36 cards, and a deck check expects only the plates its deck learned."""
        self.club = ClubFacts(  # no setup rules: its players and first player are all (see seam.PlaysInClubs)
            players=(3, 6), titles={"fr": "Sus au buffet !", "en": "Sus au buffet !", "nl": "Sus au buffet !"},
            points_field="score", points_names={"fr": "points", "en": "points", "nl": "punten"})

    def new_game(self, event: dict[str, Any]) -> Game | None:
        return parse_game(event.get("players"), event.get("first"))

    def empty_public_state(self) -> dict[str, Any]:
        from companion.buffet.views import public_state

        return public_state(None)

    def voice(self) -> Voice:
        return BuffetVoice()

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        return describe_refusal(None, event, reason)

    def tag_name(self, code: str, language: str) -> str | None:
        """A physical card's spoken name for enrolling and checking a deck: "Souris sept, exemplaire 3"."""
        from companion.buffet.announcer import Words
        from companion.buffet.phrases import SAID
        from companion.buffet.plates import MOUSE_CARDS, PLATES

        words = Words(language)
        if code in PLATES:
            name = words.plate(code)
            return name[:1].upper() + name[1:]
        card, _, copy = code.partition("@")
        if card not in MOUSE_CARDS or not copy.isdigit():
            return None
        return SAID.format("mouse_copy", language, value=words.number(MOUSE_CARDS[card]), copy=copy)

    def deal_plan(self, state: object) -> DealPlan | None:
        """Nine mouse cards each, for dealing by tag (known hands); the table says whose and how many."""
        from companion.buffet.deck_deal import deal_plan
        from companion.buffet.state import State

        return deal_plan(state) if isinstance(state, State) else None

    def robot_position(self, state: Any, actions: list[dict[str, Any]], ask: Any) -> Any:
        """The robot's view of a seat's decision (companion.robots), built from the table's state."""
        from companion.buffet.robot import robot_position
        from companion.buffet.state import State

        if not isinstance(state, State):
            raise TypeError("not a state of this game")
        return robot_position(state, actions, ask)

    def coach_outcome(self, world: Any, choice: int, rng: Any) -> str | None:
        """What the advised answer leads to in one sampled world (see companion.coach.Coaches)."""
        from companion.buffet.coach import outcome

        return outcome(world, choice, rng)

    @property
    def table_seats(self) -> Any:
        """Its robot seats at a table (see companion.seam.SeatsRobots)."""
        from companion.buffet.table_seats import SEATS

        return SEATS


KIND = Buffet()
