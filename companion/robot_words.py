"""What the table says about robot seats, in the catalogs' words (context `robot.<key>`).

`RobotVoice` wraps a game's voice: it renders `robot.` parts itself, naming cards as the game does
("Pois 5", "souris cinq"), and hands every other part (a robot's reason, a game phrase) to the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.catalogs import Phrasebook, said, said_plural
from companion.seam import NamesCards, Part, State, Voice

SAID = Phrasebook(
    "robot.",
    said("robot.plays", "{player} plays {card}: put it in the pot."),
    said("robot.plays_virtual", "{player} plays {card}."),
    said("robot.plays_mouse", "{player} plays mouse card {card}: put it in the pot."),
    said("robot.plays_mouse_virtual", "{player} plays mouse card {card}."),
    said("robot.chose_face_down", "{player} has chosen a card, face down."),
    said("robot.menu_chosen", "{player} has chosen a menu."),
    said_plural("robot.hand_known", "{player}'s hand is known: {size} card.",
                "{player}'s hand is known: {size} cards.", "size"),
    said_plural("robot.swapped", "{player} exchanges {count} card.", "{player} exchanges {count} cards.", "count"),
    said("robot.keeps", "{player} keeps its cards."),
    said_plural("robot.swapped_tray",
                "{player} exchanges {count} card: take it from its tray as the robots page shows, discard it face "
                "down, deal {player} a new card and pass only that one over the reader or type it on the robots "
                "page.",
                "{player} exchanges {count} cards: take them from its tray as the robots page shows, discard them "
                "face down, deal {player} {count} new cards and pass only those over the reader or type them on "
                "the robots page.",
                "count"),
    said_plural("robot.draws_up",
                "{player} draws back up to nine: deal {player} {count} card and pass it over the reader or type it on"
                " the robots page.",
                "{player} draws back up to nine: deal {player} {count} cards and pass them over the reader or type"
                " them on the robots page.",
                "count"),
    said("robot.no_hand", "{player} has no cards: deal {player}'s hand and pass it over the reader."),
    said("robot.no_hand_face_down", "{player} has no cards: deal {player}'s cards and pass them over the reader or"
                                 " type them on the robots page."),
    said("robot.not_robot_card", "That is not {player}'s card: {card} is asked for."),
    said("robot.robot_not_ready", "{player} is still choosing: wait for {player}'s card to be named."),
    said("robot.not_a_robot", "Refused: {player} is not a robot."),
    said("robot.robot_chooses_menu", "Refused: {player} is a robot and chooses its own menu; nothing was changed."),
    said("robot.robot_not_due", "Refused: {player} has nothing to choose now."),
    said("robot.suggest", "The chef would play {card}."),
    said("robot.suggest_menu", "The chef would choose the menu {menu}."),
    said("robot.suggest_mouse", "The chef would play mouse card {card}."),
    said_plural("robot.suggest_swap", "The chef would exchange {count} card: {cards}.",
                "The chef would exchange {count} cards: {cards}.", "count"),
    said("robot.suggest_keep", "The chef would keep this hand."),
    # how often the advised card leads to what the coach says (companion/coach.py)
    said_plural("robot.often_ratio", "in {hits} deal out of {worlds}", "in {hits} deals out of {worlds}", "hits"),
    said("robot.often_almost", "in almost every deal"),
    said("robot.often_always", "in every deal"),
    said("robot.dealt", "Practice table: the robots' hands are dealt."),
    said("robot.still_choosing", "Still to choose a card face down: {players}."),
    said("robot.why", "Why: {why}."),
    said("robot.not_your_turn", "Not your turn: {player} plays now."),
    said("robot.nothing_to_play", "No card to play now."),
    said("robot.played", "{player}: {play}, {why}."),
    said("robot.played_plain", "{player}: {play}."),
    said("robot.played_named", "{play}, {why}."),
)


def card_name(names: NamesCards | None, code: str, language: str) -> str:
    """A card's spoken name as its match says it ("Pois 5", "cinq"); its code for a game that names none."""
    return names.card_name(code, language) if names is not None else code


def menu_name(names: NamesCards | None, menu: str, language: str) -> str:
    """A menu's spoken name as its match says it; its code for a game that names none."""
    return names.menu_name(menu, language) if names is not None else menu


@dataclass(frozen=True, slots=True)
class RobotVoice:
    """A game's voice that also says robot parts; other parts go to the game's voice."""

    inner: Voice
    names: NamesCards | None = None

    def render(self, parts: Iterable[Part], language: str) -> str:
        said_parts: list[str] = []
        for part in parts:
            if part.key.startswith("robot.") and part.key[6:] in SAID:
                fields: dict[str, Any] = dict(part.fields)
                if isinstance(fields.get("card"), str):
                    fields["card"] = card_name(self.names, fields["card"], language)
                if isinstance(fields.get("cards"), list):
                    fields["cards"] = ", ".join(card_name(self.names, str(card), language)
                                                for card in fields["cards"])
                if isinstance(fields.get("menu"), str):
                    fields["menu"] = menu_name(self.names, fields["menu"], language)
                if isinstance(fields.get("why"), Part):
                    fields["why"] = self._inner(fields["why"], language)
                    if not fields["why"]:
                        continue  # a reason this game cannot word: the sentence is left out
                if isinstance(fields.get("play"), Part):  # the game's own sentence, its full stop left for ours
                    fields["play"] = self._inner(fields["play"], language).rstrip(" .")
                said_parts.append(SAID.format(part.key[6:], language, **fields))
            else:
                said_parts.append(self._inner(part, language))
        return " ".join(text for text in said_parts if text)

    def _inner(self, part: Part, language: str) -> str:
        """A part in the game's own words; empty for a key the game's phrasebook lacks (a learning aid's
        reason from a newer robot), so an optional sentence never breaks an announcement."""
        try:
            return self.inner.render([part], language)
        except KeyError:
            return ""


def voice_of(state: State) -> RobotVoice:
    """The robot voice around this match's own voice, naming cards as that voice does (seam.NamesCards)."""
    inner = state.voice()
    return RobotVoice(inner, inner if isinstance(inner, NamesCards) else None)
