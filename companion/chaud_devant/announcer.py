"""Turns the referee's outcomes into announcements: structured parts, rendered in any language.

Parts carry only public facts (a secret menu never becomes a part before its reveal),
so a message can be re-rendered in another language or repeated at any time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.chaud_devant import effects as fx
from companion.chaud_devant.cards import DECK
from companion.chaud_devant.phrases import DEFAULT_LANGUAGE, SAID, menu_name, suit_name
from companion.chaud_devant.reasons import Reason
from companion.chaud_devant.records import Revoke
from companion.chaud_devant.views import revealed_menus
from companion.seam import GameStarted, Part, Undone

if TYPE_CHECKING:
    from companion.chaud_devant.state import State


@dataclass(frozen=True, slots=True)
class Theme:
    """How names are spoken: language and edition (the 2023 edition renames the suits)."""

    language: str = DEFAULT_LANGUAGE
    edition: str = "2005"

    def phrase(self, key: str) -> str:
        return SAID.template(key, self.language)

    def format(self, key: str, **fields: Any) -> str:
        """The phrase `key` filled with `fields`, with this language's plurals and elision."""
        return SAID.format(key, self.language, **fields)

    def suit(self, suit: str) -> str:
        return suit_name(suit, self.language, self.edition)

    def menu(self, menu: str) -> str:
        return menu_name(menu, self.language, self.edition)

    def card(self, code: str) -> str:
        """A card's spoken name: "Pois 3", "Oignon 10", "Débordement de Pois" (a noun: never read as a verb); unknown
        codes as given."""
        played = DECK.get(code)
        if played is None:
            return code
        suit = self.suit(str(played.suit))
        if played.is_overflow:
            return self.format("overflow_name", suit=suit)
        if played.is_bouillon:
            return self.format("bouillon_name", suit=suit)
        return self.format("value", suit=suit, value=played.value)

    def face(self, code: str) -> str:
        """A card's name within its suit, where the suit is already said: "5", "bouillon", "carte débordement"."""
        played = DECK.get(code)
        if played is None:
            return code
        if played.is_overflow:
            return self.phrase("tag.overflow")
        if played.is_bouillon:
            return self.phrase("tag.bouillon")
        return str(played.value)

    def names(self, items: list[str]) -> str:
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + self.phrase("and") + items[-1]


@dataclass(frozen=True, slots=True)
class EditionVoice:
    """Chaud Devant's voice for one edition: renders parts in any language with its suit names."""

    edition: str = "2005"

    def render(self, parts: Iterable[Part], language: str) -> str:
        return render(list(parts), Theme(language, self.edition))

    def card_name(self, code: str, language: str) -> str:
        """A card's name in this edition: "Pois 5" (see seam.NamesCards)."""
        return Theme(language, self.edition).card(code)

    def menu_name(self, menu: str, language: str) -> str:
        return menu_name(menu, language, self.edition)


def render(parts: list[Part], theme: Theme) -> str:
    """The announcement text for these parts."""
    return " ".join(_render_part(part, theme) for part in parts)


def _render_part(part: Part, theme: Theme) -> str:
    f = dict(part.fields)
    for key in ("card",):
        if key in f:
            f[key] = theme.card(f[key])
    for key in ("suit", "led_suit"):
        if key in f and f[key] is not None:
            f[key] = theme.suit(f[key])
    if "menu" in f:
        f["menu"] = theme.menu(f["menu"])
    if "menus" in f:
        f["menus"] = theme.phrase("list_sep").join(f"{name}, {theme.menu(menu)}" for name, menu in f["menus"])
    if "players" in f and isinstance(f["players"], list):
        f["players"] = theme.names(f["players"])
    if "cards" in f and isinstance(f["cards"], list):
        f["cards"] = ", ".join(theme.card(code) for code in f["cards"])
    for key, value in f.items():
        if isinstance(value, Part):
            f[key] = _render_part(value, theme)
        elif value is None:
            f[key] = ""
    if "scores" in f:
        f["scores"] = theme.phrase("list_sep").join(
            theme.format("round_score", player=p, points=pts, stars=s) for p, pts, s in f["scores"]
        )
    if "winners" in f:
        f["winners"] = theme.format("winner", players=theme.names(f["winners"]),
                                    stars=theme.format("stars", stars=f["stars"]), count=len(f["winners"]))
    return theme.format(part.key, **f)


# ------------------------------------------------------------------ describing outcomes


def describe_effects(state: State | None, effects: list[Any]) -> list[Part]:
    """Parts for what an accepted event did."""
    if state is None:
        return []
    names = state.players
    parts: list[Part] = []
    for effect in effects:
        match effect:
            case GameStarted():
                dealer = names[state.game.first_dealer]
                parts.append(Part("game_started", {"players": list(names), "dealer": dealer}))
            case fx.RoundOpened(number, dealer):
                parts.append(Part("round_opened", {"round": number, "dealer": names[dealer]}))
            case fx.HandRecorded(seat, size):
                parts.append(Part("hand_recorded", {"player": names[seat], "size": size}))
            case fx.MenuChosen(seat):
                parts.append(Part("menu_chosen", {"player": names[seat]}))
            case fx.MenuRevealed(seat, menu):
                parts.append(Part("menu_revealed", {"player": names[seat], "menu": menu}))
            case fx.MenusRevealed(menus):
                pairs = [(names[seat], menu) for seat, menu in sorted(menus.items())]
                parts.append(Part("menus_revealed", {"menus": pairs}))
            case fx.PlayBegins(_, first):
                parts.append(Part("play_begins", {"player": names[first]}))
            case fx.CardPlayed(_, code, total, _, _, spoils):
                told = spoils and not _turn_follows(effects)  # else the next player's turn says it (on their phone too)
                parts.append(_card_part(code, total, told, won=any(isinstance(e, fx.TrickWon) for e in effects)))
            case fx.LastCard(seat):
                parts.append(Part("last_card", {"player": names[seat]}))
            case fx.TrickWon(seat, _, _, total):
                parts.append(Part("trick_won", {"player": names[seat], "sum": total}))
            case fx.TurnPassed(seat):
                parts.append(Part("turn", {"player": names[seat], "bound": _binding(state)}))
            case Revoke():
                parts.append(Part("revoke", {
                    "player": names[effect.seat], "suit": str(effect.suit),
                    "void_trick": effect.void_trick, "proof_trick": effect.proof_trick,
                }))
            case fx.RoundScored(number, unclaimed, points, stars):
                if unclaimed:
                    parts.append(Part("unclaimed"))
                scores = [(names[seat], points[seat], stars[seat]) for seat in range(len(names))]
                parts.append(Part("round_scored", {"round": number, "scores": scores}))
            case fx.GameOver(winners):
                top = state.progress.stars[winners[0]] if winners else 0
                parts.append(Part("game_over", {"winners": [names[s] for s in winners], "stars": top}))
            case Undone(event, before):
                parts.append(Part("undone", {"what": _undone_part(event, before)}))
                parts.extend(_standing(state))
    return parts


def _card_part(code: str, total: int, spoils: bool, *, won: bool) -> Part:
    """A card and the pot's sum after it ("Pois 4 — 9."), the sum said once: not when it is the card's own
    value ("Pois 3.", a trick's first card) nor when the trick's winner line says it right after; an
    overflow card is named as a noun like any card ("Débordement de Pois — 0.")."""
    played = DECK[code]
    fields: dict[str, Any] = {"card": code, "sum": total, "spoils": Part("spoils") if spoils else None}
    if not played.is_overflow and (won or total == played.value):
        return Part("card_alone", {"card": code, "spoils": fields["spoils"]})
    return Part("card", fields)


def _turn_follows(effects: list[Any]) -> bool:
    """Whether the trick goes on to a next player, whose turn line says what binds them (the spoiled soup)."""
    return any(isinstance(effect, fx.TurnPassed) for effect in effects)


def _binding(state: State) -> Part | None:
    """What binds the player to play now: the led suit, or the spoiled soup that frees them."""
    pot = state.progress.pot
    if not pot.cards:
        return None
    if pot.spoiled:
        return Part("where_spoiled")
    if pot.led is not None:
        return Part("where_led", {"suit": str(pot.led)})
    return None


def _undone_part(event: dict[str, Any], before: Any) -> Part:
    kind = event.get("type")
    if kind == "card":
        code = event["card"]
        rounds = getattr(getattr(before, "progress", None), "rounds", [])
        plays = [play for current in rounds[-1:] for play in current.plays if play.card == code]
        players: tuple[str, ...] = getattr(before, "players", ())
        if plays and plays[-1].seat < len(players):
            return Part("undone_card_of", {"card": code, "player": players[plays[-1].seat]})
        return Part("undone_card", {"card": code})
    if kind == "menu":
        return Part("undone_menu", {"player": event["player"]})
    return Part("undone_hand", {"player": event["player"]})


def _standing(state: State) -> list[Part]:
    """After an undo: the pot and whose turn it is again (or the menus still awaited)."""
    progress = state.progress
    if progress.phase == "play" and progress.turn is not None:
        return [_pot_part(state), Part("where_turn", {"player": state.players[progress.turn]})]
    if progress.phase == "menu":
        return _menu_parts(state)
    return []


def describe_refusal(state: State | None, event: dict[str, Any], reason: Reason | str) -> Part:
    """The part saying why an event was refused, with the facts that explain it."""
    reason = str(reason)
    fields: dict[str, Any] = {}
    player = event.get("player")
    if isinstance(player, str):
        fields["player"] = player
    code = event.get("card")
    if isinstance(code, str):
        fields["card"] = code
    if state is not None:
        progress = state.progress
        if progress.turn is not None:
            fields.setdefault("player", state.players[progress.turn])
            if reason in ("out_of_turn", "not_in_hand", "must_follow_suit"):
                fields["player"] = state.players[progress.turn]
        if reason == "must_follow_suit" and progress.pot.led is not None:
            fields["suit"] = str(progress.pot.led)
        if reason == "out_of_turn" and isinstance(code, str):
            holder = state.holder_of(code)
            fields["holder"] = state.players[holder] if holder is not None else ""
        if reason == "not_your_turn":
            expected = state.next_to_reveal()
            if expected is not None:
                fields["player"] = state.players[expected]
    fields.setdefault("player", "")
    fields.setdefault("card", "")
    key = _wrong_phase_key(state, event, fields) if reason == "wrong_phase" and state is not None else reason
    return Part("refused", {"why": Part(key, fields)})


def _wrong_phase_key(state: State, event: dict[str, Any], fields: dict[str, Any]) -> str:
    """Why now is not the moment: menus still awaited, a round under way, or the game over."""
    progress = state.progress
    current = progress.open_round
    if progress.phase == "game_over":
        return "wrong_phase_over"
    if progress.phase == "menu" and current is not None and event.get("type") == "card":
        waiting = [name for seat, name in enumerate(state.players) if seat not in current.choices]
        if waiting:
            fields["players"] = waiting
            return "wrong_phase_menus"
        reveal = state.next_to_reveal()
        if reveal is not None:
            fields["player"] = state.players[reveal]
            return "wrong_phase_reveal"
    if progress.phase == "play" and event.get("type") == "menu":
        return "wrong_phase_play"
    return "wrong_phase"


def _pot_part(state: State) -> Part:
    pot = state.progress.pot
    if not pot.cards:
        return Part("pot_empty")
    return Part("where_pot", {
        "sum": pot.sum,
        "led": Part("where_led", {"suit": str(pot.led)}) if pot.led else None,
        "spoiled": Part("where_spoiled") if pot.spoiled else None,
    })


def _menu_parts(state: State) -> list[Part]:
    """In the menu phase: who has chosen, who still has to (or who reveals next)."""
    current = state.progress.open_round
    if current is None:
        return [Part("where_menu")]
    reveal = state.next_to_reveal()
    if reveal is not None:
        return [Part("where_reveal", {"player": state.players[reveal]})]
    chosen = [name for seat, name in enumerate(state.players) if seat in current.choices]
    waiting = [name for seat, name in enumerate(state.players) if seat not in current.choices]
    parts = [Part("where_menu")]
    if chosen:
        parts.append(Part("where_chosen", {"players": chosen, "count": len(chosen)}))
    if waiting:
        parts.append(Part("where_waiting", {"players": waiting, "count": len(waiting)}))
    return parts


def describe_where(state: State) -> list[Part]:
    """"Where are we", complete for the phase: round, pot, turn, menus, cards left, last trick, stars."""
    progress = state.progress
    names = state.players
    parts = [Part("where_round", {"round": state.round_number})]
    current = progress.rounds[-1] if progress.rounds else None
    if progress.phase == "play" and progress.turn is not None and current is not None:
        parts.append(_pot_part(state))
        parts.append(Part("where_turn", {"player": names[progress.turn]}))
        menus = revealed_menus(state, current)
        if menus:
            parts.append(Part("where_menus", {"menus": list(menus.items())}))
        left = ", ".join(f"{name} {current.left[seat]}" for seat, name in enumerate(names))
        parts.append(Part("where_left", {"left": left}))
        if current.tricks:
            trick = current.tricks[-1]
            parts.append(Part("where_last_trick", {"number": len(current.tricks), "player": names[trick.winner],
                                                   "cards": list(trick.cards)}))
    elif progress.phase == "menu":
        parts.extend(_menu_parts(state))
    else:
        parts.append(Part("where_over"))
    stars = ", ".join(f"{name} {progress.stars[seat]}" for seat, name in enumerate(names))
    parts.append(Part("where_stars", {"stars": stars}))
    return parts
