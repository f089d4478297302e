"""The seam between the table and a game: what a game must provide for the table to host it.

Names follow OpenSpiel: a *Game* is the fixed setup of one match (players, edition, …), parsed
from a `new_game` event; a *State* is what changes as events are applied. A *GameKind* is the
rules as a whole (Chaud Devant !, Sus au buffet !): it parses setups, checks its events' shapes,
names its tags and words its announcements. The table service, the referee, the journal, the
replay and the readers know only these protocols; each game lives in its own subpackage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Any, Literal, NotRequired, Protocol, TypedDict, cast, runtime_checkable

if TYPE_CHECKING:
    from companion.robot_seats import RobotLedger
    from companion.sides import SideLedger

BAD_SETUP = "bad_setup"
NO_GAME = "no_game"
NOTHING_TO_UNDO = "nothing_to_undo"
"""The refusal reasons the referee gives itself; every other reason comes from the game."""

Event = dict[str, Any]
"""An event as it travels (HTTP, journal, referee): a JSON object with a `type`. The seam keeps this
wire form; the TypedDicts below, and each game's own, type one event type where code builds or reads it."""


class NewGameEvent(TypedDict):
    """`new_game`: the seats, and the game's own setup fields (`dealer`, `first`, …) beside these."""

    type: Literal["new_game"]
    players: list[str]
    game: NotRequired[str]
    rules: NotRequired[dict[str, Any] | None]
    robots: NotRequired[dict[str, Any]]


class UndoEvent(TypedDict):
    """`undo`: take back the last action."""

    type: Literal["undo"]


class RobotEvent(TypedDict):
    """`robot`: a note beside the game from a robot seat (its play, or its known hand)."""

    type: Literal["robot"]
    player: str
    card: NotRequired[str | None]
    hand: NotRequired[list[str]]
    swap: NotRequired[list[str]]


def wire(event: Mapping[str, Any]) -> Event:
    """A typed event in its wire form: a TypedDict is a plain dict at run time, so nothing is copied."""
    return cast(Event, event)


@dataclass(frozen=True, slots=True)
class Part:
    """One phrase of an announcement: its key in a phrasebook and its fields (names, codes, numbers)."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)


class Voice(Protocol):
    """Words announcements in a language; a game's voice may depend on its setup (an edition's names)."""

    def render(self, parts: Iterable[Part], language: str) -> str: ...


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Effect of an accepted `new_game` (the game describes it)."""


@dataclass(frozen=True, slots=True)
class Undone:
    """Effect of an accepted `undo`: the event taken back, and the state it was applied to."""

    event: dict[str, Any]
    before: State


class State(Protocol):
    """One match as it stands. `decide` never changes anything; `apply` takes an event that
    `decide` has just accepted and returns effects (values the game's voice can describe)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    def decide(self, event: dict[str, Any]) -> str | None: ...

    def apply(self, event: dict[str, Any]) -> list[Any]: ...

    def legal_actions(self) -> list[dict[str, Any]]: ...

    def is_terminal(self) -> bool: ...

    # observers: the only way state leaves (secrets stay with their owner)
    def public_state(self) -> dict[str, Any]: ...

    def table_view(self) -> dict[str, Any]: ...

    def seat_view(self, player: str, *, owner: bool) -> dict[str, Any] | None: ...

    def history(self) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]: ...

    # words
    def voice(self) -> Voice: ...

    def describe(self, effects: list[Any]) -> list[Part]: ...

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part: ...

    def describe_where(self) -> list[Part]: ...

    # tags: what a physical card read by the pot reader means now
    def tag_event(self, code: str) -> dict[str, Any]: ...

    def repeats_read(self, code: str) -> bool:
        """True when a read of this physical card now would repeat a play that stands (the same card
        still in this round, this step…): within the table's window such a read is a double read."""
        ...


@runtime_checkable
class Snapshots(Protocol):
    """Optional for a State: `snapshot()`, an independent copy, lets the referee undo from a mark
    instead of replaying the whole game."""

    def snapshot(self) -> State: ...


@dataclass(frozen=True, slots=True)
class FaceDown:
    """A step whose cards are chosen face down: its players in the order their cards are turned over, and
    whose card is turned over next (None when no card is due)."""

    players: tuple[str, ...]
    next: str | None

    @property
    def shown(self) -> int:
        """How many cards of the step are turned over already."""
        return self.players.index(self.next) if self.next in self.players else 0

    def still_to_show(self) -> tuple[str, ...]:
        """The players whose card is still face down, in order (none when no card is due)."""
        return self.players[self.shown:] if self.next in self.players else ()


@runtime_checkable
class FaceDownStep(Protocol):
    """Optional for a State: a game whose cards are chosen face down for a whole step, then turned over in
    order (OpenSpiel's simultaneous node). Its robot seats choose ahead of their turn, and the table keeps
    their hands in `robot` notes (its log has no `hand` event)."""

    def face_down_step(self) -> FaceDown | None:
        """The step under way, None outside one."""
        ...


@runtime_checkable
class NamesCards(Protocol):
    """Optional for a Voice: a card's and a menu's spoken name in a language, as the voice says them (a
    match's voice: its edition's names); without it the table says a robot's card by its code."""

    def card_name(self, code: str, language: str) -> str: ...

    def menu_name(self, menu: str, language: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Due:
    """A decision a robot seat owes now: `kind` "menu", "card" (chosen for the card due next) or
    "step" (face down for the step under way); `log_len` is how much of the log it may see."""

    player: str
    kind: str
    log_len: int


@dataclass(frozen=True, slots=True)
class PracticeTalk:
    """The parts of a game's voice a practice table spares: a robot's choice its own line says right after
    (`own_choice`), the hands a table without cards deals itself (`dealt`), and a trick won (`won`: the robot
    that won it is not told it leads)."""

    own_choice: tuple[str, ...] = ()
    dealt: tuple[str, ...] = ()
    won: tuple[str, ...] = ()


class TableSeats(Protocol):
    """A game's robot seats at a table (`companion/robot_table.py`): what each seat holds and owes, the
    hands a practice table deals, and what the table says of a robot's card from public facts only."""

    @property
    def practice_talk(self) -> PracticeTalk:
        """The parts of its voice a practice table spares (`companion/robot_talk.py`)."""
        ...

    def practice_words(self, parts: tuple[Part, ...], robots: Iterable[str],
                       held: tuple[Part, ...]) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
        """At a practice table without cards: what an announcement of the table's own moves says now, and the
        parts it holds back for a later one (`held`: those held so far). A game whose steps are chosen face
        down calls the people to choose first; any other says the parts as they are and holds none."""
        ...

    def hand_of(self, state: State, ledger: RobotLedger, player: str) -> tuple[str, ...] | None:
        """The cards `player` holds now; None when no hand was dealt to it."""
        ...

    def due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> Due | None:
        """What robot seat `player` must decide now, if anything."""
        ...

    def missing_hands(self, state: State, ledger: RobotLedger, virtual: bool) -> list[str]:
        """The seats a practice table deals virtually now (everyone's in the fully `virtual` variant)."""
        ...

    def deal_virtually(self, state: State, ledger: RobotLedger, players: list[str], seed: int) -> list[Event]:
        """The events that deal `players` their hands from the cards left."""
        ...

    def table_lays(self, state: State, ledger: RobotLedger, seed: int) -> Event | None:
        """At a practice table without cards, the table's own next move (a virtual plate), if one is due."""
        ...

    def tag_deal_bases(self, state: State, ledger: RobotLedger) -> dict[str, tuple[tuple[str, ...], int]]:
        """For a deal by tag of known hands now: seat → (the cards it keeps, how many it is dealt)."""
        ...

    def swap_due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> bool:
        """True when `player` may exchange cards now and has not yet."""
        ...

    def swap_hand(self, hand: tuple[str, ...], given: list[str], seed: int) -> list[str] | None:
        """A practice hand after giving up `given` and drawing as many; None if `given` is not in `hand`."""
        ...

    def person_exchanging(self, state: State, ledger: RobotLedger, actions: int) -> bool:
        """True while a person at a practice table without cards may still make an exchange."""
        ...

    def draws_up(self, state: State, ledger: RobotLedger) -> dict[str, int]:
        """At a real table, each robot short of cards now and how many it must be dealt."""
        ...

    def public_why(self, state: State, player: str, card: str) -> Part | None:
        """The reason said to the table for a robot's card as it is chosen, from public facts only."""
        ...

    def reveal_why(self, state: State, player: str, card: str) -> Part | None:
        """The reason said for a robot's face-down card as it is turned over, from public facts only."""
        ...


@runtime_checkable
class SeatsRobots(Protocol):
    """Optional for a GameKind: robot seats at its table; a game without it is offered no robots."""

    @property
    def table_seats(self) -> TableSeats: ...


def table_seats(kind: object) -> TableSeats | None:
    """The game's robot seats at a table, None for a game (or no game) that seats no robot."""
    return kind.table_seats if isinstance(kind, SeatsRobots) else None


class Game(Protocol):
    """The fixed facts of one match."""

    @property
    def players(self) -> tuple[str, ...]: ...

    def new_initial_state(self) -> State: ...


class GameKind(Protocol):
    """A game the table can host: one module-level value per game subpackage."""

    @property
    def name(self) -> str:
        """The `game` key of its `new_game` events."""
        ...

    @property
    def event_fields(self) -> Mapping[str, Mapping[str, type | tuple[type, ...]]]:
        """Event types this game plays (besides `new_game` and `undo`) and their fields' JSON types."""
        ...

    @property
    def setup_fields(self) -> Mapping[str, type | tuple[type, ...]]:
        """Fields a well-formed `new_game` of this game has, and their JSON types."""
        ...

    @property
    def tag_codes(self) -> tuple[str, ...]:
        """Every physical card a tag can name in this game's decks."""
        ...

    def new_game(self, event: dict[str, Any]) -> Game | None: ...

    def empty_public_state(self) -> dict[str, Any]: ...

    def voice(self) -> Voice:
        """The game's voice before any setup (refusals made before the first `new_game`)."""
        ...

    def describe_refusal(self, event: dict[str, Any], reason: str) -> Part:
        """A refusal made before any match of this game exists (`no_game`, `bad_setup`)."""
        ...


class Demo(Protocol):
    """A game's demo: whole random legal games, and the physical card the demo drops for each event."""

    def random_game(self, rng: Random, players: int) -> list[dict[str, Any]]:
        """The contract events of a whole random legal game (`players` bounded to the game's own range)."""
        ...

    def demo_tag(self, event: dict[str, Any], copies: dict[str, int]) -> str | None:
        """The tag code the simulated reader reads for `event`, None for an event the demo submits;
        `copies` is the demo's own memory (which copy of a card comes next)."""
        ...


@runtime_checkable
class EmptyTableView(Protocol):
    """Optional for the default GameKind: the table view's fields before any match, beyond its empty
    public state (what its table page reads before the first `new_game`)."""

    def empty_table_view(self) -> dict[str, Any]: ...


@runtime_checkable
class ContractOrder(Protocol):
    """Optional for a GameKind: fields of its public state the contract lists after `refused`."""

    @property
    def after_refused(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class ClubFacts:
    """What a club night needs of a game: players at one of its tables, its name on the board in each
    language, the setup rules a director may choose, and where its public state keeps each player's points."""

    players: tuple[int, int]
    """Fewest and most players at one table."""
    titles: Mapping[str, str]
    """Its name by language ("fr", "en", "nl"); the first is said in any other language."""
    rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each setup rule a club may choose for its tables, and the values it takes."""
    points_field: str = "score"
    """The public state's field holding each player's points (a game's stars, its score)."""
    points_names: Mapping[str, str] = field(default_factory=dict)
    """What its points are called, by language (stars, points…), for the ranking's rule on the board."""
    rule_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """By language, the names of its setup rules and of their values as the director's console shows them."""

    def title(self, language: str) -> str:
        """The game's name in `language`."""
        return self.titles.get(language) or next(iter(self.titles.values()))

    def points_name(self, language: str) -> str:
        """What its points are called in `language` (empty when the game does not say)."""
        return self.points_names.get(language) or next(iter(self.points_names.values()), "")

    def rule_word(self, key: str, language: str) -> str:
        """A setup rule's or value's name in `language` (the key itself when the game does not name it)."""
        return (self.rule_words.get(language) or {}).get(key, key)

    def points(self, public: Mapping[str, Any]) -> dict[str, int]:
        """Each player's points in a folded public state (none before its first)."""
        given = public.get(self.points_field) or {}
        return {str(name): int(value) for name, value in given.items()}


@runtime_checkable
class PlaysInClubs(Protocol):
    """Optional for a GameKind: it can be seated, scored and named on a club night (see `ClubFacts`)."""

    @property
    def club(self) -> ClubFacts: ...


@dataclass(frozen=True, slots=True)
class Games:
    """The games a table hosts, by name; a `new_game` without `game` is the default (the first). `sides`:
    the side ledgers (companion/sides.py) each referee of these games keeps, one factory each."""

    kinds: Mapping[str, GameKind]
    default: str
    sides: tuple[Callable[[], SideLedger], ...] = ()

    @classmethod
    def of(cls, *kinds: GameKind, sides: tuple[Callable[[], SideLedger], ...] = ()) -> Games:
        """These games, the first one being the default, with these side ledgers."""
        return cls({kind.name: kind for kind in kinds}, kinds[0].name, sides)

    def tag_codes(self) -> tuple[str, ...]:
        """Every physical card any of these games names, each once."""
        return tuple(dict.fromkeys(code for kind in self.kinds.values() for code in kind.tag_codes))
