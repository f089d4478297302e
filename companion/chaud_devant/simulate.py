"""Seeded random whole games as contract events, for property tests, benchmarks and `marmite demo`.

The simulator shuffles and deals real hands (chance) and has each player choose among the
engine's own `legal_actions` (given the true hand, which it always knows even where the engine
does not). Whose turn it is, which menus are left and when a round ends it reads from a `Referee`
folded alongside, so it never re-implements the rules it is used to test; it only checks that the
engine accepts what it sends as legal and refuses the noise it sends as illegal, and raises
`SimulationError` otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from companion.chaud_devant import KIND
from companion.chaud_devant.cards import ALL_CODES
from companion.chaud_devant.game import ROUNDS, Edition, Game, MenuReveal, Rules
from companion.chaud_devant.state import State
from companion.referee import Referee
from companion.seam import Games

NAMES: tuple[str, ...] = ("Virginie", "Bruno", "Valentine", "Nicolas", "Léa")


class SimulationError(AssertionError):
    """The engine disagreed with the simulator: refused a legal event or accepted an illegal one."""


@dataclass(frozen=True, slots=True)
class Noise:
    """How often each table mishap is mixed in: a probability per opportunity, 0 for never.

    * `double_read`: a card event sent again right after it was accepted (refused).
    * `unknown_tag`: a tag that is no card, `{"type": "card", "card": "tag:…"}`, before a play (refused).
    * `undo`: an accepted event taken back with `undo`, then sent again.
    * `revoke`: a player goes off the led suit while holding it. In a hidden hand the engine
      accepts it (a revoke, flagged if the suit comes out later); in a known hand it is
      refused `must_follow_suit` and the player then plays a legal card.
    * `rechoose`: simultaneous reveal, a player who is not the last to choose first picks
      another menu, then changes their mind (the last choice counts).
    """

    double_read: float = 0.0
    unknown_tag: float = 0.0
    undo: float = 0.0
    revoke: float = 0.0
    rechoose: float = 0.0


NO_NOISE = Noise()
TABLE_NOISE = Noise(double_read=0.05, unknown_tag=0.02, undo=0.02, revoke=0.05, rechoose=0.1)
"""A plausible evening at a real table."""


@dataclass(frozen=True, slots=True)
class Simulation:
    """A simulated game: its events, and per round the true deal (cards by seat) and set-aside cards."""

    players: tuple[str, ...]
    events: list[dict[str, Any]]
    deals: list[tuple[tuple[str, ...], ...]]
    set_aside: list[tuple[str, ...]]


def simulate(
    rng: random.Random,
    *,
    players: int = 4,
    edition: Edition = "2005",
    menu_reveal: MenuReveal = "simultaneous",
    known_hands: Collection[int] = (),
    noise: Noise = NO_NOISE,
) -> Simulation:
    """A whole legal 5-round game; `known_hands` are the seats whose deal is sent as `hand` events."""
    return _Simulator(rng, players, Rules(edition, menu_reveal), frozenset(known_hands), noise).run()


def random_game(
    rng: random.Random,
    *,
    players: int = 4,
    edition: Edition = "2005",
    menu_reveal: MenuReveal = "simultaneous",
    known_hands: Collection[int] = (),
    noise: Noise = NO_NOISE,
) -> list[dict[str, Any]]:
    """The events of `simulate(...)`, starting with `new_game` and ending at game over."""
    return simulate(
        rng, players=players, edition=edition, menu_reveal=menu_reveal, known_hands=known_hands, noise=noise
    ).events


class _Simulator:
    """One game being generated: the referee that follows it, the true hands, the events so far."""

    def __init__(self, rng: random.Random, count: int, rules: Rules, known: frozenset[int], noise: Noise) -> None:
        self.rng = rng
        self.names = NAMES[:count]
        self.setup = Game(self.names, rng.randrange(count), rules)
        self.known = known
        self.noise = noise
        self.referee = Referee(Games.of(KIND))
        self.events: list[dict[str, Any]] = []
        self.hands: list[list[str]] = []
        self.deals: list[tuple[tuple[str, ...], ...]] = []
        self.set_aside: list[tuple[str, ...]] = []

    @property
    def state(self) -> State:
        state = self.referee.state
        assert isinstance(state, State)  # new_game is the first event sent
        return state

    def run(self) -> Simulation:
        self._send({"type": "new_game", "players": list(self.names),
                    "dealer": self.names[self.setup.first_dealer], "rules": self.setup.rules.as_json()})
        for number in range(1, ROUNDS + 1):
            self._deal(number)
            self._choose_menus(number)
            while self.state.progress.phase == "play":
                self._play_one()
        if not self.state.is_terminal():
            raise SimulationError(f"no game over after {ROUNDS} rounds: phase {self.state.progress.phase}")
        return Simulation(self.names, self.events, self.deals, self.set_aside)

    def _send(self, event: dict[str, Any], legal: bool = True) -> None:
        """Send one event to the referee and record it; SimulationError if the outcome is unexpected."""
        self.events.append(event)
        outcome = self.referee.apply(event)
        if outcome.accepted != legal:
            raise SimulationError(f"event {len(self.events)} {event} expected {'accepted' if legal else 'refused'},"
                                  f" got {outcome.reason or 'accepted'}")

    def _send_action(self, event: dict[str, Any]) -> None:
        """Send a legal hand, menu or card event, maybe followed by an undo and the same event again."""
        self._send(event)
        if self.rng.random() < self.noise.undo:
            self._send({"type": "undo"})
            self._send(dict(event))

    def _deal(self, number: int) -> None:
        deck = list(ALL_CODES)
        self.rng.shuffle(deck)
        sizes = self.setup.deal_sizes(self.setup.dealer_of(number))
        self.hands = []
        for size in sizes:
            self.hands.append(deck[:size])
            deck = deck[size:]
        self.deals.append(tuple(tuple(hand) for hand in self.hands))
        self.set_aside.append(tuple(deck))
        scanned = sorted(self.known)
        self.rng.shuffle(scanned)
        for seat in scanned:
            self._send_action({"type": "hand", "player": self.names[seat], "cards": list(self.hands[seat])})

    def _choose_menus(self, number: int) -> None:
        """Each player picks one of the menus the engine lists as legal for them; in simultaneous
        mode in a random order, maybe changing their mind once; in sequential mode in turn."""
        count = len(self.names)
        order = list(range(count))
        self.rng.shuffle(order)
        sequential = self.setup.rules.menu_reveal == "sequential"
        for index in range(count):
            if sequential:
                expected = self.state.next_to_reveal()
                if expected is None:
                    raise SimulationError("sequential menus with nobody to reveal")
                seat = expected
            else:
                seat = order[index]
            choices = self._menus_for(seat)
            last = index == count - 1
            if not sequential and not last and self.rng.random() < self.noise.rechoose:
                self._send_action(self.rng.choice(choices))
            self._send_action(self.rng.choice(self._menus_for(seat)))

    def _menus_for(self, seat: int) -> list[dict[str, Any]]:
        """The legal menu events of one player now."""
        choices = [event for event in self.state.legal_actions() if event.get("player") == self.names[seat]]
        if not choices:
            raise SimulationError(f"round menus: no legal menu for {self.names[seat]}")
        return choices

    def _play_one(self) -> None:
        seat = self.state.progress.turn
        if seat is None:
            raise SimulationError("play phase with no turn")
        hand = self.hands[seat]
        if not hand:
            raise SimulationError(f"the turn is at {self.names[seat]}, whose hand is empty, and the round goes on")
        if self.rng.random() < self.noise.unknown_tag:
            self._send({"type": "card", "card": f"tag:{self.rng.getrandbits(32):08x}"}, legal=False)
        legal = [event["card"] for event in self.state.legal_actions(hand=hand)]
        off_suit = [code for code in hand if code not in legal]
        if off_suit and self.rng.random() < self.noise.revoke:
            code = self.rng.choice(off_suit)
            if seat in self.known:
                self._send({"type": "card", "card": code}, legal=False)
                code = self.rng.choice(legal)
        else:
            code = self.rng.choice(legal)
        hand.remove(code)
        self._send_action({"type": "card", "card": code})
        if self.rng.random() < self.noise.double_read:
            self._send({"type": "card", "card": code}, legal=False)


class ChaudDevantDemo:
    """The demo's Chaud Devant (see companion.seam.Demo): 3 to 5 players, every card dropped in the pot."""

    def random_game(self, rng: random.Random, players: int) -> list[dict[str, Any]]:
        return random_game(rng, players=max(3, min(players, 5)))

    def demo_tag(self, event: dict[str, Any], copies: dict[str, int]) -> str | None:
        return str(event["card"]) if event["type"] == "card" else None


DEMO = ChaudDevantDemo()
