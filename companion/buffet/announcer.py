"""Turns Sus au buffet ! outcomes into announcements: parts of public facts, rendered in any language."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.buffet import effects as fx
from companion.buffet.phrases import DEFAULT_LANGUAGE, PLACES, SAID
from companion.buffet.plates import FOODS, MOUSE_CARDS, PLATES, counted
from companion.catalogs import count_of, phrase_format
from companion.seam import GameStarted, Part, Undone

if TYPE_CHECKING:
    from companion.buffet.state import State

@dataclass(frozen=True, slots=True)
class Words:
    """Names and numbers in one language."""

    language: str = DEFAULT_LANGUAGE

    def phrase(self, key: str) -> str:
        return SAID.template(key, self.language)

    def signed(self, value: int) -> str:
        return f"−{-value}" if value < 0 else str(value)

    def spoken(self, value: int) -> str:
        """A signed number as said aloud: its sign in words ("moins 2"), the digits kept."""
        return SAID.format("minus", self.language, value=-value) if value < 0 else str(value)

    def plate(self, code: str, *, aloud: bool = False) -> str:
        shown = PLATES.get(code)
        if shown is None:
            return code
        value = self.spoken(shown.value) if aloud else self.signed(shown.value)
        return SAID.format("plate", self.language, food=self.food(shown.food), value=value)

    def food(self, food: str) -> str:
        return SAID.template(f"food.{food}", self.language) if f"food.{food}" in SAID else food

    def number(self, value: int) -> str:
        return SAID.template(f"number.{value}", self.language) if -1 <= value <= 9 else self.signed(value)

    def place(self, place: int, shared: bool) -> str:
        return SAID.template(f"place.{'shared' if shared else 'alone'}.{max(1, min(place, PLACES))}", self.language)

    def points(self, value: int) -> str:
        return phrase_format(SAID.template("points", self.language, value), self.language,
                             {"value": self.spoken(value)})

    def names(self, items: list[str]) -> str:
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + self.phrase("and") + items[-1]


@dataclass(frozen=True, slots=True)
class BuffetVoice:
    """Sus au buffet !'s voice: renders its parts in any language."""

    def render(self, parts: Iterable[Part], language: str) -> str:
        words = Words(language)
        return " ".join(render_part(part, words) for part in parts)

    def card_name(self, code: str, language: str) -> str:
        """A mouse card's value as said ("cinq"); any other code as it is (see seam.NamesCards)."""
        value = MOUSE_CARDS.get(code)
        return Words(language).number(value) if value is not None else code

    def menu_name(self, menu: str, language: str) -> str:
        return menu  # no menus in this game


def render_part(part: Part, words: Words) -> str:
    """One part's text."""
    f = dict(part.fields)
    key = part.key
    message = SAID.messages[key]
    count = count_of(f[message.count]) if message.count is not None else None
    if "plate" in f:
        f["plate"] = words.plate(f["plate"], aloud=True)  # what is said: signs as words ("pizza à moins 1")
    if "buffet" in f:
        f["buffet"] = words.phrase("list_sep").join(words.plate(code, aloud=True) for code in f["buffet"]) \
            or words.phrase("empty")
    if "value" in f:
        f["value"] = words.number(f["value"])
    if "place" in f:
        f["place"] = words.place(*f["place"])
    if "players" in f:
        f["players"] = words.names(f["players"])
    if "points" in f:
        f["points"] = words.points(f["points"])
    if "food" in f:
        f["food"] = words.food(f["food"])
    if "scores" in f:
        f["scores"] = words.phrase("list_sep").join(f"{name} {words.points(points)}" for name, points in f["scores"])
    if "spread" in f:  # the buffet in one spoken line: signs as words
        f["spread"] = ", ".join(words.plate(code, aloud=True) for code in f["spread"]) or words.phrase("empty")
    if "tally" in f:  # the round's scores, said short: "Ana 4, Bip moins 1"
        f["tally"] = ", ".join(f"{name} {words.spoken(points)}" for name, points in f["tally"])
    if "positions" in f:
        f["positions"] = words.phrase("list_sep").join(
            SAID.format("position", words.language, player=name, square=square) for name, square in f["positions"])
    for name, value in f.items():
        if isinstance(value, Part):
            f[name] = render_part(value, words)
        elif value is None:
            f[name] = ""
    return phrase_format(SAID.template(key, words.language, count), words.language, f)


def describe_effects(state: State, effects: list[Any]) -> list[Part]:
    """Parts for what an accepted event did."""
    names = state.players
    parts: list[Part] = []
    for effect in effects:
        match effect:
            case GameStarted():
                parts.append(Part("game_started", {"players": list(names), "first": names[state.game.first]}))
            case fx.RoundOpened(number):
                parts.append(Part("round_opened", {"round": number}))
            case fx.PlateLaid(code, _, missing):
                parts.append(Part("plate_laid", {"plate": code}))
                if missing:
                    parts.append(Part("missing", {"count": missing}))
            case fx.StepBegins(number, part, first, buffet):
                record = state.current_round
                in_round = [names[seat] for seat in state.in_round]  # who chooses, at a practice without cards
                if record is not None and len(record.steps) == 1:
                    label = Part("part_label", {"part": part}) if part is not None else None
                    parts.append(Part("buffet_ready", {"part": label, "buffet": list(buffet), "player": names[first],
                                                       "round": number, "in_round": in_round}))
                else:
                    parts.append(Part("new_step", {"player": names[first], "in_round": in_round}))
            case fx.MouseMoved(seat, value, position, place, shared):
                parts.append(Part("moved", {"player": names[seat], "value": value, "square": position % 40,
                                            "place": (place, shared)}))
            case fx.TurnPassed(seat):
                parts.append(Part("turn", {"player": names[seat]}))
            case fx.RearTied(seats, _):
                parts.append(Part("rear_tied", {"players": [names[s] for s in seats]}))
            case fx.DuelTied(seats, _):
                parts.append(Part("duel_tied", {"players": [names[s] for s in seats]}))
            case fx.Departure(seat, code, may_swap, won_duel):
                if code is None:
                    parts.append(Part("duel_lost", {"player": names[seat]}))
                else:
                    parts.append(Part("duel_won" if won_duel else "departure", {"player": names[seat], "plate": code}))
                if may_swap:
                    parts.append(Part("swap", {"player": names[seat]}))
            case fx.PartTwo():
                parts.append(Part("part_two"))
            case fx.RoundEnded(number, scores, _):
                parts.append(Part("round_ended", {"round": number, "tally": list(zip(names, scores, strict=True))}))
            case fx.GameOver(winners, tie_break):
                parts.append(Part("game_over", {"winners": _winners(state, winners, tie_break)}))
            case Undone(event):
                parts.append(Part("undone", {"what": _undone_part(event)}))
    return parts


def _winners(state: State, winners: tuple[int, ...], tie_break: bool) -> Part:
    names = state.players
    top = state.scores()[winners[0]] if winners else 0
    return Part("winner", {"players": [names[s] for s in winners], "points": top,
                           "tie": Part("tie_break", {"food": deciding_food(state, winners)}) if tie_break else None})


def deciding_food(state: State, winners: tuple[int, ...]) -> str:
    """The best-ranked food the winners hold that decided the tie-break (for the explanation)."""
    scores = state.scores()
    top = scores[winners[0]]
    losers = [seat for seat, points in enumerate(scores) if points == top and seat not in winners]
    for food in FOODS:
        mine = all(food in counted(state.won[seat]) for seat in winners)
        theirs = any(food not in counted(state.won[seat]) for seat in losers)
        if mine and theirs:
            return food
    return FOODS[0]


def _undone_part(event: dict[str, Any]) -> Part:
    if event.get("type") == "plate":
        return Part("undone_plate", {"plate": event["plate"]})
    code = str(event.get("card", ""))
    return Part("undone_card", {"value": int(code.removeprefix("mouse-").replace("n1", "-1"))})


def describe_refusal(state: State | None, event: dict[str, Any], reason: str) -> Part:
    """The part saying why an event was refused."""
    fields: dict[str, Any] = {}
    code = event.get("plate")
    fields["plate"] = code if isinstance(code, str) else ""
    return Part("refused", {"why": Part(str(reason), fields)})


def describe_where(state: State) -> list[Part]:
    """"Où en est-on ?": round and part, whose turn, every mouse's square, the buffet, the scores."""
    names = state.players
    scores = list(zip(names, state.scores(), strict=True))
    if state.phase == "game_over":
        return [Part("where_over", {"scores": scores,
                                    "winners": _winners(state, tuple(state.winners()), state.tie_break)})]
    if state.phase == "buffet":
        return [Part("where_buffet", {"round": state.round_number, "buffet": list(state.buffet), "scores": scores})]
    turn = state.turn
    return [Part("where", {
        "round": state.round_number,
        "part": Part("part_label", {"part": state.part}) if state.part is not None else None,
        "turn": Part("where_turn", {"player": names[turn]}) if turn is not None else None,
        "positions": [(names[seat], state.positions[seat] % 40) for seat in state.in_round],
        "buffet": list(state.buffet),
        "scores": scores,
    })]
