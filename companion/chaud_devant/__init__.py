"""Chaud Devant ! (Too Many Cooks), as a game the table can host: `KIND` is what the table takes."""

from __future__ import annotations

from typing import Any

from companion.chaud_devant import deck_names
from companion.chaud_devant.announcer import EditionVoice, describe_refusal
from companion.chaud_devant.cards import ALL_CODES, MENUS
from companion.chaud_devant.events import EVENT_FIELDS
from companion.chaud_devant.game import EDITIONS, MENU_REVEALS, Game, parse_game
from companion.seam import ClubFacts, Part, Voice
from companion.tag_deal import DealPlan

CLUB_RULE_WORDS = {
    "fr": {"edition": "Édition", "menu_reveal": "Révélation des menus", "simultaneous": "simultanée",
           "sequential": "l'un après l'autre"},
    "en": {"edition": "Edition", "menu_reveal": "Menu reveal", "simultaneous": "simultaneous",
           "sequential": "one after another"},
    "nl": {"edition": "Editie", "menu_reveal": "Menu's onthullen", "simultaneous": "tegelijk",
           "sequential": "na elkaar"},
}
"""Its setup rules and their values as a club director's console names them (the setup form's words)."""


class ChaudDevant:
    """The game kind: parses setups, names its events and tags (see companion.seam.GameKind)."""

    def __init__(self) -> None:
        self.name = "chaud_devant"
        self.event_fields: dict[str, dict[str, type | tuple[type, ...]]] = {
            name: dict(fields) for name, fields in EVENT_FIELDS.items()}  # the typed events beside them
        self.setup_fields: dict[str, type | tuple[type, ...]] = {"players": list, "dealer": str}
        self.editions: tuple[str, ...] = EDITIONS  # a deck is of one edition: its cards' names
        self.tag_codes: tuple[str, ...] = ALL_CODES + tuple(
            f"menu-{menu}@{copy}" for copy in range(1, 6) for menu in MENUS
        )
        self.club = ClubFacts(  # see seam.PlaysInClubs
            players=(3, 5), titles={"fr": "Chaud Devant !", "en": "Chaud Devant !", "nl": "Chaud Devant !"},
            rules={"edition": EDITIONS, "menu_reveal": MENU_REVEALS}, points_field="stars",
            points_names={"fr": "étoiles", "en": "stars", "nl": "sterren"}, rule_words=CLUB_RULE_WORDS)

    def new_game(self, event: dict[str, Any]) -> Game | None:
        return parse_game(event.get("players"), event.get("dealer"), event.get("rules"))

    def empty_public_state(self) -> dict[str, Any]:
        from companion.chaud_devant.views import public_state

        return public_state(None)

    def empty_table_view(self) -> dict[str, Any]:
        """The table view's fields before any match, beyond the empty public state (see seam.EmptyTableView)."""
        return {"pot_plays": [], "last_trick": None, "pot_overflowed": False, "stars_by_round": [],
                "next_to_reveal": None, "rules": None}

    @property
    def after_refused(self) -> tuple[str, ...]:
        """The contract lists `revokes` after `refused` (see seam.ContractOrder)."""
        return ("revokes",)

    def voice(self) -> Voice:
        return EditionVoice()

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        return describe_refusal(None, event, reason)

    def tag_name(self, code: str, language: str, edition: str = "2005") -> str | None:
        """A physical card's name in `edition` for enrolling and checking a deck (see companion.decks)."""
        return deck_names.tag_name(code, language, edition if edition in EDITIONS else "2005")

    def deal_plan(self, state: object) -> DealPlan | None:
        """How the round about to be played is dealt, for dealing by tag; None when it cannot be now."""
        from companion.chaud_devant.state import State

        return deck_names.deal_plan(state) if isinstance(state, State) else None

    def robot_position(self, state: Any, actions: list[dict[str, Any]], ask: Any) -> Any:
        """The robot's view of a seat's decision (companion.robots), built from the table's state."""
        from companion.chaud_devant.robot import robot_position
        from companion.chaud_devant.state import State

        if not isinstance(state, State):
            raise TypeError("not a state of this game")
        return robot_position(state, actions, ask)

    def coach_outcome(self, world: Any, choice: int, rng: Any) -> str | None:
        """What the advised answer leads to in one sampled world (see companion.coach.Coaches)."""
        from companion.chaud_devant.coach import outcome

        return outcome(world, choice, rng)

    @property
    def table_seats(self) -> Any:
        """Its robot seats at a table (see companion.seam.SeatsRobots)."""
        from companion.chaud_devant.table_seats import SEATS

        return SEATS


KIND = ChaudDevant()
