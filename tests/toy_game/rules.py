"""Relay's rules: in turn, each player plays a hop card (1, 2 or 3); the first to reach square 10 wins."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.seam import ClubFacts, GameStarted, Part, Undone, Voice

GOAL = 10
HOPS = {"hop-1": 1, "hop-2": 2, "hop-3": 3}
COPIES = 4
WORDS = {
    "fr": {"moved": "{player} avance de {hops} : case {square}.", "won": "{player} gagne le relais !",
           "started": "Relais : {players}.", "where": "{player} joue ; case {square}.", "over": "Partie finie.",
           "refused": "Refusé : {reason}.", "undone": "Annulé : {card}."},
    "en": {"moved": "{player} hops {hops}: square {square}.", "won": "{player} wins the relay!",
           "started": "Relay: {players}.", "where": "{player} to play; square {square}.", "over": "Game over.",
           "refused": "Refused: {reason}.", "undone": "Undone: {card}."},
    "nl": {"moved": "{player} springt {hops}: vak {square}.", "won": "{player} wint de estafette!",
           "started": "Estafette: {players}.", "where": "{player} is aan de beurt; vak {square}.",
           "over": "Spel voorbij.", "refused": "Geweigerd: {reason}.", "undone": "Ongedaan: {card}."},
}


class RelayVoice:
    """Words Relay's parts from its own small table (fr, en, nl)."""

    def render(self, parts: Iterable[Part], language: str) -> str:
        words = WORDS.get(language, WORDS["fr"])
        return " ".join(words[part.key].format(**part.fields) for part in parts)


@dataclass(frozen=True)
class Hopped:
    player: str
    hops: int
    square: int


@dataclass(frozen=True)
class Won:
    player: str


@dataclass
class RelayState:
    """One race: every player's square, whose turn it is, the hops so far."""

    players: tuple[str, ...]
    squares: list[int] = field(default_factory=list)
    turn: int = 0
    moves: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.squares = self.squares or [0] * len(self.players)

    def winner(self) -> str | None:
        return next((p for p, s in zip(self.players, self.squares, strict=True) if s >= GOAL), None)

    def decide(self, event: dict[str, Any]) -> str | None:
        if event.get("type") != "card" or event.get("card") not in HOPS:
            return "unknown_card"
        return "game_over" if self.is_terminal() else None

    def apply(self, event: dict[str, Any]) -> list[Any]:
        player, hops = self.players[self.turn], HOPS[event["card"]]
        self.squares[self.turn] += hops
        self.moves.append({"player": player, "card": event["card"], "square": self.squares[self.turn]})
        effects: list[Any] = [Hopped(player, hops, self.squares[self.turn])]
        if self.is_terminal():
            effects.append(Won(player))
        else:
            self.turn = (self.turn + 1) % len(self.players)
        return effects

    def legal_actions(self) -> list[dict[str, Any]]:
        return [] if self.is_terminal() else [{"type": "card", "card": code} for code in HOPS]

    def is_terminal(self) -> bool:
        return self.winner() is not None

    def public_state(self) -> dict[str, Any]:
        winner = self.winner()
        return {"game": "relay", "players": list(self.players), "squares": dict(zip(self.players, self.squares,
                strict=True)), "phase": "game_over" if winner else "play", "turn": None if winner else
                self.players[self.turn], "winners": [winner] if winner else []}

    def table_view(self) -> dict[str, Any]:
        return {**self.public_state(), "moves": list(self.moves)}

    def seat_view(self, player: str, *, owner: bool) -> dict[str, Any] | None:
        if player not in self.players:
            return None
        public = self.public_state()
        return {"seat": player, "square": public["squares"][player], "my_turn": public["turn"] == player,
                "phase": public["phase"], "players": list(self.players)}

    def history(self) -> dict[str, Any]:
        return {"rounds": [], "moves": list(self.moves)}

    def summary(self) -> dict[str, Any]:
        public = self.public_state()
        return {"phase": public["phase"], "round": 1, "score": public["squares"], "winners": public["winners"]}

    def voice(self) -> Voice:
        return RelayVoice()

    def describe(self, effects: list[Any]) -> list[Part]:
        parts = []
        for effect in effects:
            if isinstance(effect, Hopped):
                parts.append(Part("moved", {"player": effect.player, "hops": effect.hops, "square": effect.square}))
            elif isinstance(effect, Won):
                parts.append(Part("won", {"player": effect.player}))
            elif isinstance(effect, GameStarted):
                parts.append(Part("started", {"players": ", ".join(self.players)}))
            elif isinstance(effect, Undone):
                parts.append(Part("undone", {"card": effect.event.get("card", "?")}))
        return parts

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        return Part("refused", {"reason": reason})

    def describe_where(self) -> list[Part]:
        if self.is_terminal():
            return [Part("over")]
        return [Part("where", {"player": self.players[self.turn], "square": self.squares[self.turn]})]

    def tag_event(self, code: str) -> dict[str, Any]:
        return {"type": "card", "card": code.partition("@")[0]}

    def repeats_read(self, code: str) -> bool:
        return False


@dataclass(frozen=True)
class RelayGame:
    players: tuple[str, ...]

    def new_initial_state(self) -> RelayState:
        return RelayState(self.players)


class Relay:
    """The game kind (see companion.seam.GameKind)."""

    def __init__(self) -> None:
        self.name = "relay"
        self.event_fields: dict[str, dict[str, type | tuple[type, ...]]] = {"card": {"card": str}}
        self.setup_fields: dict[str, type | tuple[type, ...]] = {"players": list}
        self.tag_codes = tuple(f"{code}@{copy}" for code in HOPS for copy in range(1, COPIES + 1))
        self.club = ClubFacts(players=(2, 6), titles={"fr": "Relais", "en": "Relay", "nl": "Estafette"},
                              points_field="squares", points_names={"fr": "cases", "en": "squares", "nl": "vakken"})
        """On a club night (see companion.seam.PlaysInClubs): 2 to 6 at a table, each scoring its squares."""

    def new_game(self, event: dict[str, Any]) -> RelayGame | None:
        players = event.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 6 or len(set(players)) != len(players) \
                or not all(isinstance(p, str) and p.strip() for p in players):
            return None
        return RelayGame(tuple(players))

    def empty_public_state(self) -> dict[str, Any]:
        return {"game": None, "players": [], "phase": None, "winners": []}

    def voice(self) -> Voice:
        return RelayVoice()

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        return Part("refused", {"reason": reason})

    def robot_position(self, state: Any, actions: list[dict[str, Any]], ask: Any) -> Any:
        """Its robot's view of a turn (companion.robots.PlaysRobots)."""
        from tests.toy_game.robots import robot_position

        return robot_position(state, actions, ask)

    @property
    def table_seats(self) -> Any:
        """Its robot seats at a table (companion.seam.SeatsRobots)."""
        from tests.toy_game.robots import SEATS

        return SEATS


class RelayDemo:
    """The demo (see companion.seam.Demo): random hop cards, each a copy in turn on the reader."""

    def random_game(self, rng: random.Random, players: int) -> list[dict[str, Any]]:
        names = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:max(2, min(players, 6))]
        events: list[dict[str, Any]] = [{"type": "new_game", "game": "relay", "players": names}]
        state = RelayState(tuple(names))
        while not state.is_terminal():
            event = {"type": "card", "card": rng.choice(sorted(HOPS))}
            state.apply(event)
            events.append(event)
        return events

    def demo_tag(self, event: dict[str, Any], copies: dict[str, int]) -> str | None:
        if event["type"] != "card":
            return None
        code = str(event["card"])
        copies[code] = copies.get(code, 0) % COPIES + 1
        return f"{code}@{copies[code]}"


KIND = Relay()
DEMO = RelayDemo()
