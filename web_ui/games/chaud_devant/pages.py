"""Chaud Devant !'s pages: card and menu names of the setup's edition, the stars chart, the host's controls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flask_babel import gettext

from companion.catalogs import Phrasebook, said
from companion.chaud_devant import KIND
from companion.chaud_devant.announcer import Theme, render
from companion.chaud_devant.cards import ALL_CODES, DECK, MENUS
from companion.chaud_devant.state import State
from companion.seam import Part
from web_ui.fact_keys import SUIT_KEYS, FactKey
from web_ui.game_pages import GamePages
from web_ui.guide_text import COLOURS, CROSS, guide

DECK_WORDS = Phrasebook("deck_page.", said("deck_page.chaud_devant", "Chaud Devant!"))
"""The deck page's words for this game's cards."""

HAND_SUITS = ("pea", "onion", "mushroom", "pepper")
"""The suits keys 1 to 4 answer for (`_facts.html` renders them in this order)."""

SUIT_SYMBOLS = {"pea": "●", "onion": "◆", "mushroom": "▲", "pepper": "✱", "none": "∅"}


class ChaudDevantPages(GamePages):
    """Chaud Devant !: the table with its pot, tricks and stars chart; the phones with hand and menu."""

    title = "Chaud Devant !"
    seat_speaks_mine = True
    speech_keys: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "always": ("trick_won", "round_scored", "unclaimed", "game_over", "game_started", "round_opened",
                   "menus_revealed", "winner"),
        "if_named": ("turn", "play_begins", "last_card", "revoke", "refused", "undone", "where_turn", "where_reveal",
                     "menu_revealed", "undone_card"),
        "turn": ("turn", "play_begins", "last_card"),
        "brief_drops": ("turn", "play_begins", "pot_empty", "hand_recorded", "menu_chosen", "spoils"),
        "round_opens": ("round_opened",),  # the log's headings, a round each
    }
    seat_host_links = False

    def __init__(self) -> None:
        super().__init__(KIND.name, __name__)

    def helpers(self, language: str) -> dict[str, Any]:
        return helpers(language, self._edition())

    def _edition(self) -> str:
        from web_ui.context import service

        state = service().game_state
        return state.game.rules.edition if isinstance(state, State) else "2005"

    def table_context(self, view: dict[str, Any], state: object) -> dict[str, Any]:
        return {"chart": chart(view["stars_by_round"], view["stars"]), "host": host(view)}

    def table_title(self, language: str) -> str:
        return str(gettext("Table"))

    def table_heading(self, language: str) -> str:
        return str(gettext("Table display"))

    robot_first_field = "dealer"

    def robot_setup_words(self) -> dict[str, str]:
        return {"players": str(gettext("3 to 5 for Chaud Devant")), "first": str(gettext("Dealer (Chaud Devant)"))}

    def deck_words(self, language: str) -> dict[str, str]:
        return {"name": DECK_WORDS.template("chaud_devant", language)}

    def checklist(self, language: str, known: set[str]) -> list[dict[str, Any]]:
        return checklist(language, known)

    def fact_keys(self, page: str, language: str) -> list[FactKey]:
        keys = [("pot", "P", gettext("Pot")), ("led", "C", gettext("Led suit")), ("turn", "T", gettext("Whose turn")),
                ("scores", "S", gettext("Scores")), ("last-trick", "D", gettext("Last trick")),
                ("left", "N", gettext("Cards left"))]
        if page != "own-seat":  # a hand and a menu are the seat link's owner's only
            return keys
        theme = Theme(language, self._edition())
        by_suit = [(f"hand-{key}", key, gettext("My hand: %(suit)s", suit=theme.suit(suit)))
                   for key, suit in zip(SUIT_KEYS, HAND_SUITS, strict=True)]
        return [("hand", "M", gettext("My hand")), *by_suit, *keys, ("menu", "E", gettext("My menu"))]


def helpers(language: str, edition: str) -> dict[str, Any]:
    """Card, suit and menu names in the table's language and the setup's edition; revokes worded; the spoiled
    soup as its lines say it."""
    theme = Theme(language, edition)

    def card_name(code: str) -> str:
        return theme.card(code)

    def revoke_text(revoke: dict[str, Any]) -> str:
        fields = {key: revoke[key] for key in ("player", "suit", "void_trick", "proof_trick")}
        return render([Part("revoke", fields)], theme)

    def card_suit(code: str) -> str:
        played = DECK.get(code)
        return str(played.suit) if played is not None else ""

    return {"card_name": card_name, "card_face": theme.face, "card_suit": card_suit, "suit_name": theme.suit,
            "menu_name": theme.menu, "symbol": SUIT_SYMBOLS, "all_codes": ALL_CODES, "menus": MENUS,
            "revoke_text": revoke_text, "spoiled_heard": theme.phrase("spoils").strip(" ,")}


def chart(series: list[dict[str, int]], players: list[str]) -> dict[str, Any]:
    """Polyline points of stars per player over the rounds, for an inline SVG."""
    top = max([5, *(v for point in series for v in point.values())])
    width, height = 500, 200
    step = width / 5
    lines = []
    for index, name in enumerate(players):
        points = " ".join(
            f"{40 + i * step:.0f},{20 + height - point.get(name, 0) * height / top:.0f}"
            for i, point in enumerate(series))
        lines.append({"name": name, "points": points, "index": index})
    values = sorted({0, top // 2, top})
    return {"lines": lines, "top": top, "rounds": len(series), "levels": values}


def host(view: dict[str, Any]) -> dict[str, Any]:
    """What the host's controls need from the view: cards played this round, round 5's forced menus."""
    played: list[str] = []
    current = view["rounds"][-1] if view.get("rounds") else None
    if current is not None and view.get("phase") == "play":
        played = [code for trick in current["tricks"] for code in trick["cards"]] + list(view["pot"]["cards"])
    forced: list[str] = []
    left: dict[str, list[str]] = {}  # each player's menus not used yet (the used ones were revealed)
    if view.get("phase") == "menu":
        scored = [past for past in view["rounds"] if "points" in past]
        seats = list(view["players"])
        first = next((i for i, p in enumerate(seats) if p["name"] == view.get("next_to_reveal")), 0)
        for player in seats[first:] + seats[:first]:  # menus revealed one after another go in their order
            used = {past.get("menus", {}).get(player["name"]) for past in scored}
            left[player["name"]] = [menu for menu in MENUS if menu not in used]
            if view.get("round") == 5 and not player["has_chosen"] and len(left[player["name"]]) == 1:
                forced.append(f"{player['name']}={left[player['name']][0]}")
    return {"played": played, "forced": forced, "left": left}


def checklist(language: str, known: set[str]) -> list[dict[str, Any]]:
    """One row per physical card of Chaud Devant, in box order, with its marks."""
    colours = COLOURS.get(language, COLOURS["fr"])
    none = str(guide(language)["none"])
    rows = []
    for code in KIND.tag_codes:
        card = DECK.get(code)
        if card is None:  # a menu card: centred colour sticker only
            menu = code[len("menu-"):].partition("@")[0]
            marks = {"hole": False, "colour": colours[menu], "dots": none}
        else:
            dots = CROSS.get(language, "croix") if card.is_overflow else (str(card.value) if card.value else none)
            marks = {"hole": True, "colour": colours[str(card.suit)], "dots": dots}
        rows.append({"code": code, "name": KIND.tag_name(code, language) or code, "enrolled": code in known,
                     **marks})
    return rows


PAGES = ChaudDevantPages()
