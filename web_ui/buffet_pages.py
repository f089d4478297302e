"""The Sus au buffet ! pages' helpers: its words in three languages, plate names, the ring drawing.

The pages dispatch here when the table view's `game_kind` is `buffet`; the game's own words (food
names, number words) come from `companion.buffet`, so the pages and the voice say the same.
"""

from __future__ import annotations

import math
from typing import Any

from flask import render_template

from companion.buffet.announcer import Words, deciding_food
from companion.buffet.plates import FOODS, MOUSE_CARDS, PLATES
from companion.buffet.state import State as BuffetState
from companion.phrases import DEFAULT_LANGUAGE

RING_CENTRE, RING_RADIUS, MOUSE_STEP = 210, 150, 26
SQUARES = 40
SHAPE_SYMBOLS: dict[str, str] = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "star": "★",
                                 "hexagon": "⬢"}

LABELS: dict[str, dict[str, str]] = {
    "fr": {
        "title": "Sus au buffet !", "round": "Manche {n}", "part": "partie {n}",
        "laying": "On dresse le buffet : {k} sur {n}",
        "reveals": "À {player} de dévoiler", "over": "Partie terminée", "ring": "La piste, cases 0 à 39",
        "mice": "Les souris", "buffet": "Le buffet, de la meilleure à la pire", "empty": "vide",
        "at_stake": "en jeu dans cette partie", "step": "Cartes de l'étape", "no_reveal": "Aucune carte retournée",
        "players": "Joueurs", "player": "Joueur", "square": "Case", "position": "Position", "place": "Place",
        "plates": "Assiettes (dans l'ordre gagné)", "score": "Score", "left": "sorti", "counts": "compte",
        "covered": "recouverte", "summary": "Fin de la manche {n}", "nothing": "rien", "standings": "Classement final",
        "winner": "vainqueur", "tie_break": "Égalité départagée par les plats : {food} fait la différence.",
        "shared": "Victoire partagée : mêmes plats.", "first": "premier joueur", "controls": "Commandes",
        "plate_by_hand": "Assiette tirée", "card_by_hand": "Carte souris retournée", "undo": "Annuler",
        "new_game": "Nouvelle partie de Sus au buffet !", "players_hint": "3 à 6 joueurs, dans l'ordre (sens horaire).",
        "player_n": "Joueur {n}", "first_n": "Premier joueur (numéro)", "start": "Commencer la partie",
        "behind": "Souris derrière : à {n} cases", "ahead": "Souris devant : à {n} cases",
        "alone_rear": "Personne derrière",
        "alone_front": "Personne devant", "your_turn": "À toi de dévoiler !", "level": "{n} sur la même case",
        "out": "Sorti de la manche", "history": "Historique des manches", "laid": "Assiettes tirées",
        "departures": "Départs", "may_swap": "peut échanger des cartes", "tie": "égalité",
        "duel_lost": "repart sans rien",
        "shape": "forme", "colour": "couleur",
    },
    "en": {
        "title": "Sus au buffet!", "round": "Round {n}", "part": "part {n}",
        "laying": "Laying out the buffet: {k} of {n}",
        "reveals": "{player} reveals", "over": "Game over", "ring": "The track, squares 0 to 39",
        "mice": "The mice", "buffet": "The buffet, best to worst", "empty": "empty",
        "at_stake": "at stake in this part", "step": "This step's cards", "no_reveal": "No card turned over yet",
        "players": "Players", "player": "Player", "square": "Square", "position": "Position", "place": "Place",
        "plates": "Plates (in the order won)", "score": "Score", "left": "out", "counts": "counts",
        "covered": "covered", "summary": "End of round {n}", "nothing": "nothing", "standings": "Final standings",
        "winner": "winner", "tie_break": "Tie broken by the foods: {food} decides.",
        "shared": "Shared victory: the same foods.", "first": "first player", "controls": "Controls",
        "plate_by_hand": "Plate drawn", "card_by_hand": "Mouse card turned over", "undo": "Undo",
        "new_game": "New game of Sus au buffet!", "players_hint": "3 to 6 players, in seating order (clockwise).",
        "player_n": "Player {n}", "first_n": "First player (number)", "start": "Start the game",
        "behind": "Mouse behind: {n} squares back", "ahead": "Mouse ahead: {n} squares on",
        "alone_rear": "Nobody behind",
        "alone_front": "Nobody ahead", "your_turn": "Your turn to reveal!", "level": "{n} on your square",
        "out": "Out of the round", "history": "Round history", "laid": "Plates drawn",
        "departures": "Departures", "may_swap": "may exchange cards", "tie": "tie", "duel_lost": "leaves with nothing",
        "shape": "shape", "colour": "colour",
    },
    "nl": {
        "title": "Sus au buffet!", "round": "Ronde {n}", "part": "deel {n}",
        "laying": "Het buffet wordt gedekt: {k} van {n}",
        "reveals": "{player} draait om", "over": "Spel voorbij", "ring": "Het parcours, vakken 0 tot 39",
        "mice": "De muizen", "buffet": "Het buffet, van best naar slechtst", "empty": "leeg",
        "at_stake": "in dit deel te winnen", "step": "Kaarten van deze stap", "no_reveal": "Nog geen kaart omgedraaid",
        "players": "Spelers", "player": "Speler", "square": "Vak", "position": "Positie", "place": "Plaats",
        "plates": "Borden (in volgorde gewonnen)", "score": "Score", "left": "uit", "counts": "telt",
        "covered": "bedekt", "summary": "Einde van ronde {n}", "nothing": "niets", "standings": "Eindstand",
        "winner": "winnaar", "tie_break": "Gelijkspel beslist door de gerechten: {food} maakt het verschil.",
        "shared": "Gedeelde overwinning: dezelfde gerechten.", "first": "startspeler", "controls": "Bediening",
        "plate_by_hand": "Getrokken bord", "card_by_hand": "Omgedraaide muiskaart", "undo": "Ongedaan maken",
        "new_game": "Nieuw spel Sus au buffet!", "players_hint": "3 tot 6 spelers, in zitvolgorde (met de klok mee).",
        "player_n": "Speler {n}", "first_n": "Startspeler (nummer)", "start": "Start het spel",
        "behind": "Muis achter je: {n} vakken terug", "ahead": "Muis voor je: {n} vakken verder",
        "alone_rear": "Niemand achter je", "alone_front": "Niemand voor je", "your_turn": "Jij draait om!",
        "level": "{n} op jouw vak", "out": "Uit de ronde", "history": "Verloop van de rondes",
        "laid": "Getrokken borden",
        "departures": "Vertrekken", "may_swap": "mag kaarten ruilen", "tie": "gelijk",
        "duel_lost": "gaat met lege handen weg",
        "shape": "vorm", "colour": "kleur",
    },
}

COLOUR_NAMES: dict[str, dict[str, str]] = {
    "fr": {"red": "rouge", "blue": "bleu", "yellow": "jaune", "green": "vert", "purple": "violet", "orange": "orange"},
    "en": {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green", "purple": "purple", "orange": "orange"},
    "nl": {"red": "rood", "blue": "blauw", "yellow": "geel", "green": "groen", "purple": "paars", "orange": "oranje"},
}
SHAPE_NAMES: dict[str, dict[str, str]] = {
    "fr": {"circle": "rond", "square": "carré", "triangle": "triangle", "diamond": "losange", "star": "étoile",
           "hexagon": "hexagone"},
    "en": {"circle": "circle", "square": "square", "triangle": "triangle", "diamond": "diamond", "star": "star",
           "hexagon": "hexagon"},
    "nl": {"circle": "cirkel", "square": "vierkant", "triangle": "driehoek", "diamond": "ruit", "star": "ster",
           "hexagon": "zeshoek"},
}


def helpers(language: str) -> dict[str, Any]:
    """What the buffet templates call: labels, plate and food names, colour and shape names."""
    words = Words(language)
    labels = LABELS.get(language, LABELS[DEFAULT_LANGUAGE])

    def t(key: str, **fields: Any) -> str:
        return labels[key].format(**fields)

    return {
        "t": t, "plate_name": words.plate, "food_name": words.food, "signed": words.signed,
        "number_word": words.number, "place_name": words.place, "shape_symbol": SHAPE_SYMBOLS,
        "colour_name": COLOUR_NAMES.get(language, COLOUR_NAMES[DEFAULT_LANGUAGE]),
        "shape_name": SHAPE_NAMES.get(language, SHAPE_NAMES[DEFAULT_LANGUAGE]),
        "plate_codes": sorted(PLATES, key=lambda code: (FOODS.index(PLATES[code].food), -PLATES[code].value)),
        "mouse_codes": list(MOUSE_CARDS),
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
        mice.append({**player, "x": x, "y": y, "path": shape_path(player["shape"], x, y, 10)})
    return {"ticks": ticks, "mice": mice, "size": 2 * RING_CENTRE}


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
    """The table view plus the ring, the step's stake and the tie-break's deciding food."""
    context: dict[str, Any] = {"view": view, "ring": ring(view["players"])}
    at_stake = len(view["buffet"]) - 2 if view.get("part") == 1 else len(view["buffet"])
    context["at_stake"] = max(0, len(view["buffet"]) - at_stake)
    context["deciding_food"] = None
    if isinstance(state, BuffetState) and state.phase == "game_over" and state.tie_break:
        context["deciding_food"] = deciding_food(state, tuple(state.winners()))
    return context


def render_table(template: str, view: dict[str, Any], state: object, language: str, **common: Any) -> str:
    """A buffet table page or fragment."""
    return render_template(template, **common, **helpers(language), **table_context(view, state))


def render_seat(template: str, view: dict[str, Any], name: str, language: str, **common: Any) -> str:
    """A buffet seat page or fragment."""
    return render_template(template, **common, **helpers(language), view=view, name=name)


def render_page(template: str, language: str, **context: Any) -> str:
    """Any other buffet page (setup, history)."""
    return render_template(template, **context, **helpers(language))
