"""Robot seats in the table log: who is a robot, what each robot chose, and the hands robots hold.

A `new_game` may carry `"robots": {"seats": {NAME: LEVEL}, "practice": "" | "cards" | "virtual",
"aids": bool, "pace_ms": MS}`; a `robot` event records a robot's choice before its card is played
(`{"type": "robot", "player": P, "card": C}`) or a robot's known hand in a game whose log has no
`hand` event (`{"player": P, "hand": [...]}`). The referee keeps a `RobotLedger` so that replaying a
log gives the same choices, and while a robot's choice stands, any other card for that robot is
refused `not_robot_card`. Game-agnostic: it reads a State through `public_state()` and the optional
`FaceDownStep` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.seam import FaceDownStep, Part, PracticeTalk, State, table_seats

LEVELS: tuple[str, ...] = ("debutant", "cuisinier", "chef")
PRACTICE_MODES: tuple[str, ...] = ("", "cards", "virtual")
MAX_PACE_MS = 20_000
DEFAULT_PACE_MS = 2_500
NOTED = "noted"

NOT_A_ROBOT = "not_a_robot"
ROBOT_NOT_DUE = "robot_not_due"
NOT_ROBOT_CARD = "not_robot_card"
ROBOT_NOT_READY = "robot_not_ready"
ROBOT_CHOOSES_MENU = "robot_chooses_menu"
ROBOT_REASONS = (NOT_A_ROBOT, ROBOT_NOT_DUE, NOT_ROBOT_CARD, ROBOT_NOT_READY, ROBOT_CHOOSES_MENU)
"""The refusals robot seats add; the table words them (`companion/robot_words.py`)."""


@dataclass(frozen=True, slots=True)
class RobotSetup:
    """The robots of one game: seat → level, the practice mode ("" at a real table), learning aids, pace."""

    seats: dict[str, str] = field(default_factory=dict)
    practice: str = ""
    aids: bool = False
    pace_ms: int = DEFAULT_PACE_MS
    menus_noted: bool = False
    """Whether this game's robots note each menu before choosing it (`"menus": "noted"`, stamped by the
    table on every new game with robot seats); only then is another menu for a robot seat refused."""

    @property
    def any(self) -> bool:
        return bool(self.seats)

    def as_json(self) -> dict[str, Any]:
        noted = {"menus": NOTED} if self.menus_noted else {}
        return {"seats": dict(self.seats), "practice": self.practice, "aids": self.aids, "pace_ms": self.pace_ms,
                **noted}


def parse_setup(event: dict[str, Any], kind: object = None) -> RobotSetup | None:
    """The robots a `new_game` seats (none without a `robots` key); None when its `robots` is invalid:
    an unknown seat or level, no human left, an unknown practice mode, a pace out of 0–20 s,
    learning aids without a practice table (aids are practice only, and need robots). In a Sus au buffet !
    practice without cards every seat's hand is a `robot` hand and the people choose their face-down
    cards (`robot` choices) and their exchange from their phones. Given the game's `kind`, robot seats
    in a game that seats no robot (no `TableSeats`) are invalid too."""
    raw = event.get("robots")
    if raw is None:
        return RobotSetup()
    if kind is not None and table_seats(kind) is None and isinstance(raw, dict) and raw.get("seats"):
        return None
    players = event.get("players")
    if not isinstance(raw, dict) or not set(raw) <= {"seats", "practice", "aids", "pace_ms", "menus"}:
        return None
    if raw.get("menus", NOTED) != NOTED:
        return None
    if not isinstance(players, list):
        return None
    seats, practice = raw.get("seats", {}), raw.get("practice", "")
    aids, pace = raw.get("aids", False), raw.get("pace_ms", DEFAULT_PACE_MS)
    if not isinstance(seats, dict) or not all(name in players and level in LEVELS for name, level in seats.items()):
        return None
    if len(seats) >= len(players) or practice not in PRACTICE_MODES or not isinstance(aids, bool):
        return None
    if not isinstance(pace, int) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE_MS:
        return None
    if (aids or practice) and not seats:
        return None
    if aids and not practice:
        return None
    return RobotSetup(dict(seats), practice, aids, pace, raw.get("menus") == NOTED)


def stamped(new_game: dict[str, Any]) -> dict[str, Any]:
    """A live `new_game` with robot seats, marked `"menus": "noted"`: its robots note their menus, so a menu
    for a robot seat that no note precedes is refused. Logs written before the mark replay as they were."""
    raw = new_game.get("robots")
    if not isinstance(raw, dict) or not raw.get("seats") or "menus" in raw:
        return new_game
    return {**new_game, "robots": {**raw, "menus": NOTED}}


@dataclass(frozen=True, slots=True)
class Choice:
    """A robot's card, chosen after `position` accepted actions."""

    position: int
    player: str
    card: str


@dataclass(frozen=True, slots=True)
class RobotChose:
    """Effect of an accepted `robot` choice."""

    player: str
    card: str
    face_down: bool


@dataclass(frozen=True, slots=True)
class RobotMenuNoted:
    """Effect of an accepted `robot` menu: the robot's secret menu, noted before it plays it (never said)."""

    player: str


@dataclass(frozen=True, slots=True)
class RobotHandKnown:
    """Effect of an accepted `robot` hand."""

    player: str
    size: int
    swapped: int | None


def turn_of(state: State) -> str | None:
    """The player whose card is due now (the next card read), from the game's public state."""
    public = state.public_state()
    turn = public.get("turn")
    return turn if isinstance(turn, str) else None


def face_down(state: State) -> bool:
    """True for a game whose cards are chosen face down for a whole step (see seam.FaceDownStep)."""
    return isinstance(state, FaceDownStep)


class RobotLedger:
    """Robot choices and hands folded from the log, positioned by the count of accepted actions."""

    def __init__(self, setup: RobotSetup | None = None) -> None:
        self.setup = setup or RobotSetup()
        self.choices: list[Choice] = []
        self.plays: list[tuple[int, str, str]] = []  # (action index, player, card) of every robot seat's card
        self.hands: list[tuple[int, str, tuple[str, ...]]] = []  # (position, player, cards) of `robot` hands
        self.swaps: list[tuple[int, str, tuple[str, ...], int]] = []  # (position, player, cards given, index of
        # its hand in `hands`) of every exchange
        self.menus: list[tuple[int, str, str]] = []  # (position, player, menu) of every menu a robot noted

    def is_robot(self, name: object) -> bool:
        return isinstance(name, str) and name in self.setup.seats

    def virtual_seat(self, name: object, state: State) -> bool:
        """A seat whose hand and face-down cards the table keeps: a robot, or anyone at a practice without
        cards of a face-down game (people choose from their phone; the table turns the cards over)."""
        return self.is_robot(name) or (self.setup.practice == "virtual" and face_down(state)
                                       and isinstance(name, str) and name in state.players)

    def known_hand_seat(self, name: object, state: State) -> bool:
        """A seat whose `robot` hand the table may keep: a virtual seat, or a person at a practice with cards
        of a face-down game whose real hand was dealt by tag (so robots draw from the cards left)."""
        return self.virtual_seat(name, state) or (self.setup.practice == "cards" and face_down(state)
                                                  and isinstance(name, str) and name in state.players)

    def pending(self, player: str, actions: int) -> Choice | None:
        """The robot's choice still waiting for its card: its latest, if no card of it came after."""
        mine = [choice for choice in self.choices if choice.player == player and choice.position <= actions]
        if not mine:
            return None
        latest = mine[-1]
        if any(index >= latest.position and who == player for index, who, _ in self.plays):
            return None
        return latest

    def swapped_since(self, player: str, position: int) -> bool:
        """True when `player` exchanged cards (a `robot` hand with `swap`) at or after `position`."""
        return any(who == player and at >= position for at, who, _, _ in self.swaps)

    def discards(self, player: str) -> tuple[str, ...]:
        """The cards a robot gave up in its latest exchange, while no hand was entered for it since (a real
        table's tray still holds them): for the host's robots page only, never said (they are not public)."""
        given = [(index, cards) for _, who, cards, index in self.swaps if who == player]
        if not given:
            return ()
        index, cards = given[-1]
        return () if any(who == player for _, who, _ in self.hands[index + 1:]) else cards

    def hand(self, player: str) -> tuple[str, ...] | None:
        """A robot's hand from its latest `robot` hand, less the cards it played since; None if never given."""
        given = [(position, cards) for position, who, cards in self.hands if who == player]
        if not given:
            return None
        position, cards = given[-1]
        left = list(cards)
        for index, who, card in self.plays:
            if who == player and index >= position and card in left:
                left.remove(card)
        return tuple(left)

    # ------------------------------------------------------------------ deciding

    def decide(self, event: dict[str, Any], state: State, actions: int) -> str | None:
        """Why this `robot` event would be refused now (a game reason or one of ROBOT_REASONS), or None."""
        player = event.get("player")
        if "hand" in event and self.known_hand_seat(player, state):
            return self._decide_hand(event, state)
        if "menu" in event:  # a robot's menu, noted before its `menu` action (which must match it)
            if not self.is_robot(player):
                return NOT_A_ROBOT
            reason = state.decide({"type": "menu", "player": player, "menu": event.get("menu")})
            return None if reason is None else str(reason)
        if not self.virtual_seat(player, state):
            return NOT_A_ROBOT
        assert isinstance(player, str)
        card = event.get("card")
        if not isinstance(card, str):
            return ROBOT_NOT_DUE
        if self.pending(player, actions) is not None:
            return ROBOT_NOT_DUE  # chosen once: a restart asks for the same card
        if isinstance(state, FaceDownStep):
            step = state.face_down_step()
            if step is None or player not in step.players:
                return ROBOT_NOT_DUE
            if step.players.index(player) < step.shown:
                return ROBOT_NOT_DUE  # its card of this step is already turned over
            reason = state.decide({"type": "card", "card": card})
            if reason is not None:
                return str(reason)
            hand = self.hand(player)
            return None if hand is None or card in hand else ROBOT_NOT_DUE
        if turn_of(state) != player:
            return ROBOT_NOT_DUE
        reason = state.decide({"type": "card", "card": card})
        return None if reason is None else str(reason)

    def _decide_hand(self, event: dict[str, Any], state: State) -> str | None:
        cards, swap = event.get("hand"), event.get("swap")
        if not face_down(state) or not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return ROBOT_NOT_DUE  # Chaud Devant's robots get the contract's `hand` event
        if swap is not None and not (isinstance(swap, list) and all(isinstance(c, str) for c in swap)):
            return ROBOT_NOT_DUE
        for card in [*cards, *(swap or [])]:  # a face-down game names an unknown card first, in any phase
            reason = state.decide({"type": "card", "card": card})
            if reason is not None and str(reason) == "unknown_card":
                return "unknown_card"
        return None

    def gate_menu(self, event: dict[str, Any], actions: int) -> str | None:
        """For a `menu` of a robot seat: refused unless it is the menu the robot noted (a person, even the host
        through the API, never chooses a robot's menu for it)."""
        player = event.get("player")
        if not self.setup.menus_noted or not self.is_robot(player):
            return None
        noted = [(position, menu) for position, who, menu in self.menus if who == player and position <= actions]
        return None if noted and noted[-1] == (actions, event.get("menu")) else ROBOT_CHOOSES_MENU

    def gate(self, event: dict[str, Any], state: State, actions: int) -> str | None:
        """For a `card` due from a robot seat: refused unless it is the card the robot chose."""
        player = turn_of(state)
        if player is None or not self.virtual_seat(player, state):
            return None
        choice = self.pending(player, actions)
        if choice is None:
            return ROBOT_NOT_READY
        return None if event.get("card") == choice.card else NOT_ROBOT_CARD

    # ------------------------------------------------------------------ applying

    def apply(self, event: dict[str, Any], state: State, actions: int) -> list[Any]:
        """Record an accepted `robot` event; its effects for the announcement."""
        player = str(event["player"])
        if "menu" in event:
            self.menus.append((actions, player, str(event["menu"])))
            return [RobotMenuNoted(player)]
        if "hand" in event:
            cards = tuple(str(card) for card in event["hand"])
            self.hands.append((actions, player, cards))
            swap = event.get("swap")
            if isinstance(swap, list):
                self.swaps.append((actions, player, tuple(str(card) for card in swap), len(self.hands) - 1))
            return [RobotHandKnown(player, len(cards), len(swap) if isinstance(swap, list) else None)]
        card = str(event["card"])
        self.choices.append(Choice(actions, player, card))
        return [RobotChose(player, card, face_down(state))]

    def played(self, index: int, player: str | None, card: object) -> None:
        """An accepted card at action `index`; kept when a robot seat played it."""
        if player is not None and (self.is_robot(player) or self.setup.practice == "virtual"
                                   or any(who == player for _, who, _ in self.hands)) and isinstance(card, str):
            self.plays.append((index, player, card))

    def truncate(self, actions: int) -> None:
        """Forget what depended on actions taken back by undo (kept: what came before them)."""
        self.choices = [choice for choice in self.choices if choice.position <= actions]
        self.plays = [play for play in self.plays if play[0] < actions]
        self.hands = [hand for hand in self.hands if hand[0] <= actions]
        self.swaps = [swap for swap in self.swaps if swap[0] <= actions]
        self.menus = [menu for menu in self.menus if menu[0] <= actions]


class PlainSeats:
    """The parts of `companion.seam.TableSeats` a game without plates, exchanges, draw-up or face-down steps
    answers alike (Chaud Devant !, Relay): a game's seats subclass it and give the rest."""

    practice_talk = PracticeTalk()  # a practice table spares none of its parts

    def practice_words(self, parts: tuple[Part, ...], robots: Iterable[str],
                       held: tuple[Part, ...]) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
        """No step where everyone chooses face down: the parts as they are."""
        return parts, held

    def table_lays(self, state: State, ledger: RobotLedger, seed: int) -> dict[str, Any] | None:
        return None

    def tag_deal_bases(self, state: State, ledger: RobotLedger) -> dict[str, tuple[tuple[str, ...], int]]:
        return {}  # its hands are the contract's `hand` events (or none), never robot notes

    def swap_due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> bool:
        return False

    def swap_hand(self, hand: tuple[str, ...], given: list[str], seed: int) -> list[str] | None:
        return None

    def person_exchanging(self, state: State, ledger: RobotLedger, actions: int) -> bool:
        return False

    def draws_up(self, state: State, ledger: RobotLedger) -> dict[str, int]:
        return {}
