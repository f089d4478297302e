"""Sus au buffet !'s pages: its words (from the catalogs), plate names, the ring drawing.

The generic routes find these pages in the page table under `buffet`; the game's own words (food
names, number words) come from `companion.buffet`, so the pages and the voice say the same.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

from flask_babel import gettext

from companion.buffet import KIND
from companion.buffet.announcer import Words, deciding_food
from companion.buffet.plates import FOODS, MOUSE_CARDS, PLATES
from companion.buffet.state import State as BuffetState
from companion.catalogs import Phrasebook, said, said_plural
from companion.robot_seats import turn_of
from companion.seam import Event, State
from web_ui.fact_keys import FactKey
from web_ui.game_pages import GamePages
from web_ui.games.buffet.practice import choosing, exchanging, own_cards, practice_seat
from web_ui.games.buffet.robots import robot_hands

RING_RADIUS, MOUSE_STEP, MOUSE_SIZE, MOST_MICE = 150, 22, 10, 6
RING_CENTRE = RING_RADIUS + 20 + (MOST_MICE - 1) * MOUSE_STEP + MOUSE_SIZE + 2
"""The picture is wide enough for all six mice stacked outward on one square (a third went outside)."""
SQUARES = 40
SHAPE_SYMBOLS: dict[str, str] = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "star": "★",
                                 "hexagon": "⬢"}

COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")
LABELS = Phrasebook(
    "buffet_page.",
    said("buffet_page.title", "Sus au buffet!"),
    said("buffet_page.round", "Round {n}"),
    said("buffet_page.part", "part {n}"),
    said("buffet_page.laying", "Laying out the buffet: {k} of {n}"),
    said("buffet_page.reveals", "{player} reveals"),
    said_plural("buffet_page.choosing", "{players} chooses", "{players} choose", "n"),
    said("buffet_page.you_choose", "Your turn to choose"),
    said("buffet_page.you_swap", "Your turn to exchange"),
    said("buffet_page.swapping", "{player} may exchange"),
    said("buffet_page.over", "Game over"),
    said("buffet_page.ring", "The track, squares 0 to 39"),
    said("buffet_page.mice", "The mice"),
    said("buffet_page.buffet", "The buffet, best to worst"),
    said("buffet_page.empty", "empty"),
    said("buffet_page.at_stake", "at stake in this part"),
    said('buffet_page.step', "This step's cards"),
    said("buffet_page.no_reveal", "No card turned over yet"),
    said("buffet_page.players", "Players"),
    said("buffet_page.player", "Player"),
    said("buffet_page.square", "Square"),
    said("buffet_page.position", "Position"),
    said("buffet_page.place", "Place"),
    said("buffet_page.plates", "Plates (in the order won)"),
    said("buffet_page.score", "Score"),
    said("buffet_page.left", "out"),
    said("buffet_page.counts", "counts"),
    said("buffet_page.covered", "covered"),
    said("buffet_page.summary", "End of round {n}"),
    said("buffet_page.nothing", "nothing"),
    said("buffet_page.standings", "Final standings"),
    said("buffet_page.winner", "winner"),
    said("buffet_page.tie_break", "Tie broken by the foods; deciding food: {food}."),
    said("buffet_page.shared", "Shared victory: the same foods."),
    said("buffet_page.first", "first player"),
    said("buffet_page.controls", "Controls"),
    said("buffet_page.plate_by_hand", "Plate drawn"),
    said("buffet_page.card_by_hand", "Mouse card turned over"),
    said("buffet_page.undo", "Undo"),
    said("buffet_page.new_game", "New game of Sus au buffet!"),
    said("buffet_page.players_hint", "3 to 6 players, in seating order (clockwise)."),
    said("buffet_page.player_n", "Player {n}"),
    said("buffet_page.first_n", "First player (number)"),
    said("buffet_page.start", "Start the game"),
    said("buffet_page.not_started",
         "The game was not started: 3 to 6 players with different names, the first player among them."),
    said_plural("buffet_page.behind", "Mouse behind: {n} square back", "Mouse behind: {n} squares back", "n"),
    said_plural("buffet_page.ahead", "Mouse ahead: {n} square on", "Mouse ahead: {n} squares on", "n"),
    said("buffet_page.alone_rear", "Nobody behind"),
    said("buffet_page.alone_front", "Nobody ahead"),
    said("buffet_page.your_turn", "Your turn to reveal!"),
    said("buffet_page.step_heading", "step {n}"),
    said("buffet_page.your_choice", "Your move: choose your card for this step."),
    said("buffet_page.your_swap", "Your move: exchange cards, or keep your hand."),
    said("buffet_page.level", "{n} on your square"),
    said("buffet_page.out", "Out of the round"),
    said("buffet_page.history", "Round history"),
    said("buffet_page.laid", "Plates drawn"),
    said("buffet_page.departures", "Departures"),
    said("buffet_page.may_swap", "may exchange cards"),
    said("buffet_page.tie", "tie"),
    said("buffet_page.duel_lost", "leaves with nothing"),
    said("buffet_page.shape", "shape"),
    said("buffet_page.colour", "colour"),
    said("buffet_page.colour.red", "red"),
    said("buffet_page.colour.blue", "blue"),
    said("buffet_page.colour.yellow", "yellow"),
    said("buffet_page.colour.green", "green"),
    said("buffet_page.colour.purple", "purple"),
    said("buffet_page.colour.orange", "orange"),
    said("buffet_page.shape.circle", "circle"),
    said("buffet_page.shape.square", "square"),
    said("buffet_page.shape.triangle", "triangle"),
    said("buffet_page.shape.diamond", "diamond"),
    said("buffet_page.shape.star", "star"),
    said("buffet_page.shape.hexagon", "hexagon"),
)
"""The pages' words by key (contexts `buffet_page.<key>`), colour and shape names; the catalogs translate them."""


def helpers(language: str) -> dict[str, Any]:
    """What the buffet templates call: labels, plate and food names, colour and shape names."""
    words = Words(language)

    def t(key: str, **fields: Any) -> str:
        return LABELS.format(key, language, **fields)

    def step_turn(turn: str | None, player: str | None = None) -> str:
        """Whose move in a step: at a practice without cards, the person who may exchange (the table waits for
        them), else who still chooses face down ("À vous …" on `player`'s own page); else, and once all have
        chosen, who reveals."""
        swapping = exchanging()
        if swapping is not None:
            return t("you_swap") if player == swapping else t("swapping", player=swapping)
        waiting = choosing()
        if waiting:
            if player is not None and player in waiting:
                return t("you_choose")
            return t("choosing", players=words.names(waiting), n=len(waiting))
        return t("reveals", player=turn) if turn else ""

    french = language == "fr"  # French puts a space before : and ; (as the catalogs do), English and Dutch do not
    return {
        "colon": " :" if french else ":", "sep": " ; " if french else "; ",
        "t": t, "points": words.points, "plate_name": words.plate,
        "plate_said": lambda code: words.plate(code, aloud=True),  # the facts are spoken: "moins 1", not "−1"
        "food_name": words.food, "signed": words.signed, "spoken": words.spoken,
        "number_word": words.number, "place_name": words.place, "shape_symbol": SHAPE_SYMBOLS,
        "colour_name": {colour: LABELS.template(f"colour.{colour}", language) for colour in COLOURS},
        "shape_name": {shape: LABELS.template(f"shape.{shape}", language) for shape in SHAPE_SYMBOLS},
        "plate_codes": sorted(PLATES, key=lambda code: (FOODS.index(PLATES[code].food), -PLATES[code].value)),
        "mouse_codes": list(MOUSE_CARDS),
        "practice_seat": practice_seat, "own_cards": own_cards, "step_turn": step_turn,
    }


def ring(players: list[dict[str, Any]]) -> dict[str, Any]:
    """The SVG drawing of the 0–39 ring: square ticks and each mouse's shape, stacked outward when
    several share a square."""
    ticks = []
    for square in range(SQUARES):
        x, y = _point(square, RING_RADIUS)
        lx, ly = _point(square, RING_RADIUS - 22)
        ticks.append({"square": square, "x": x, "y": y, "lx": lx, "ly": ly, "labelled": square % 5 == 0})
    mice = []
    stacked: dict[int, int] = {}
    for player in players:
        level = stacked.get(player["square"], 0)
        stacked[player["square"]] = level + 1
        x, y = _point(player["square"], RING_RADIUS + 20 + level * MOUSE_STEP)
        mice.append({**player, "x": x, "y": y, "path": shape_path(player["shape"], x, y, MOUSE_SIZE)})
    return {"ticks": ticks, "mice": mice, "size": 2 * RING_CENTRE, "centre": RING_CENTRE, "radius": RING_RADIUS}


def _point(square: int, radius: float) -> tuple[float, float]:
    angle = math.radians(square * 360 / SQUARES - 90)
    return round(RING_CENTRE + radius * math.cos(angle), 1), round(RING_CENTRE + radius * math.sin(angle), 1)


def shape_path(shape: str, x: float, y: float, r: float) -> str:
    """An SVG path for a mouse's shape centred on (x, y)."""
    corners = {"triangle": 3, "square": 4, "diamond": 4, "hexagon": 6}
    if shape == "circle":
        return f"M {x - r} {y} a {r} {r} 0 1 0 {2 * r} 0 a {r} {r} 0 1 0 {-2 * r} 0 Z"
    if shape == "star":
        points = [(x + (r if i % 2 == 0 else r / 2.2) * math.cos(math.radians(i * 36 - 90)),
                   y + (r if i % 2 == 0 else r / 2.2) * math.sin(math.radians(i * 36 - 90))) for i in range(10)]
    else:
        count = corners.get(shape, 4)
        offset = 45 if shape == "square" else -90
        points = [(x + r * math.cos(math.radians(i * 360 / count + offset)),
                   y + r * math.sin(math.radians(i * 360 / count + offset))) for i in range(count)]
    return "M " + " L ".join(f"{px:.1f} {py:.1f}" for px, py in points) + " Z"


def table_context(view: dict[str, Any], state: object) -> dict[str, Any]:
    """The ring, the step's stake and the tie-break's deciding food."""
    context: dict[str, Any] = {"ring": ring(view["players"])}
    at_stake = len(view["buffet"]) - 2 if view.get("part") == 1 else len(view["buffet"])
    context["at_stake"] = max(0, len(view["buffet"]) - at_stake)
    context["deciding_food"] = None
    if isinstance(state, BuffetState) and state.phase == "game_over" and state.tie_break:
        context["deciding_food"] = deciding_food(state, tuple(state.winners()))
    return context


DECK_WORDS = Phrasebook(
    "deck_page.",
    said("deck_page.buffet", "Sus au buffet!"),
    said("deck_page.enroll_help_buffet",
        "Sus au buffet!: the mouse cards value by value, copy by copy, then the plates, food by food; "
        "skip those your box does not have."),
)
"""The deck page's words for this game's cards."""


class BuffetPages(GamePages):
    """Sus au buffet !: the ring of mice, the buffet of plates, each step's reveals; a setup page of its own."""

    title = "Sus au buffet !"
    state_class = "state buffet"
    seat_class = "state seat buffet"
    seat_speaks_mine = True  # a phone said everything the tablet said (a seat's own parts name its player)
    speech_keys: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "always": ("game_over", "game_started", "round_opened", "round_ended", "winner", "tie_break", "part_two",
                   "round_buffet"),
        # without cards a step's call to choose names the people still in the round: said on their phones only
        "if_named": ("turn", "refused", "undone", "where_turn", "moved", "duel_won", "duel_lost", "duel_tied", "swap",
                     "rear_tied", "undone_card", "undone_plate", "new_step", "buffet_ready", "buffet_ready_choose",
                     "new_step_choose", "swap_call"),
        # with cards, a step's or round's opening line names who reveals first: her cue, kept even in brief
        "turn": ("turn", "swap", "buffet_ready_choose", "new_step_choose", "new_step", "buffet_ready", "swap_call"),
        "brief_drops": ("turn", "buffet_ready", "new_step", "part_label", "plate_laid", "swap", "new_step_robots"),
        # the log's headings; without cards no plate is said: a round opens with its buffet in one line
        "round_opens": ("round_opened", "round_buffet"),
        "step_opens": ("new_step", "new_step_choose", "new_step_robots"),
    }
    advice_key = "robot.suggest_mouse"
    trick_word_key = "step_heading"  # the log's headings: "Manche 1 · étape 3", never "pli"
    trick_words = LABELS

    def phone_card_event(self, state: State, player: str, card: str) -> Event | None:
        """The step's card, chosen face down whatever the turn (a `robot` choice); the table turns it over."""
        return {"type": "robot", "player": player, "card": card}

    def robot_card_public(self, state: State, player: str) -> bool:
        """A card chosen face down is named only when its reveal comes (the player's turn in the step)."""
        return turn_of(state) == player

    def robot_hands(self) -> dict[str, dict[str, Any]]:
        return robot_hands()

    robot_first_field = "first"

    def robot_setup_words(self) -> dict[str, str]:
        return {"players": str(gettext("3 to 6 for Sus au buffet")),
                "first": str(gettext("first player (Sus au buffet)"))}

    def __init__(self) -> None:
        super().__init__(KIND.name, __name__)

    def helpers(self, language: str) -> dict[str, Any]:
        return helpers(language)

    def table_context(self, view: dict[str, Any], state: object) -> dict[str, Any]:
        return table_context(view, state)

    def table_title(self, language: str) -> str:
        return LABELS.template("title", language)

    def deck_words(self, language: str) -> dict[str, str]:
        return {"name": DECK_WORDS.template("buffet", language),
                "enroll_help": DECK_WORDS.template("enroll_help_buffet", language)}

    def fact_keys(self, page: str, language: str) -> list[FactKey]:
        if page in ("seat", "own-seat"):
            mine = [("cards", "C", gettext("My cards"))] if page == "own-seat" else []  # the phone's own only
            return [("hand", "M", gettext("My plates")), *mine, ("left", "N", gettext("My square")),
                    ("turn", "T", gettext("Whose turn")), ("scores", "S", gettext("My score"))]
        return [("turn", "T", gettext("Whose turn")), ("scores", "S", gettext("Scores")),
                ("pot", "P", gettext("The buffet")), ("last-trick", "D", gettext("This step's cards"))]


PAGES = BuffetPages()
