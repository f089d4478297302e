"""Seeded random whole Sus au buffet ! games as contract events, for property tests, benchmarks and the demo.

The simulator shuffles real decks (chance): the stand-in set of 36 plates and the 110 mouse cards,
deals hands of 9 and keeps the draw and discard piles. Which plate comes next, whose card is read
and when a round or the game ends it reads from a `Referee` folded alongside, and each player plays
a card of their true hand that the engine lists among its `legal_actions`, so it never
re-implements the rules it tests; it raises `SimulationError` when the engine disagrees.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.buffet import KIND
from companion.buffet import effects as fx
from companion.buffet.plates import COPIES, MOUSE_CARDS, STAND_IN_SET
from companion.buffet.state import State
from companion.referee import Referee
from companion.seam import Games

NAMES: tuple[str, ...] = ("Ana", "Ben", "Cléo", "Dan", "Éloïse", "Farid")
HAND = 9


class SimulationError(AssertionError):
    """The engine disagreed with the simulator: refused a legal event or accepted an illegal one."""


@dataclass(frozen=True, slots=True)
class Noise:
    """How often each table mishap is mixed in (a probability per opportunity, 0 for never).

    * `unknown_tag`: a tag that is no card before a reveal (refused `unknown_card`).
    * `undo`: an accepted plate or card taken back with `undo`, then sent again.
    * `stray`: a plate read again (`already_played`) or a mouse card read while the buffet is laid
      out (`wrong_phase`).
    """

    unknown_tag: float = 0.0
    undo: float = 0.0
    stray: float = 0.0


NO_NOISE = Noise()
TABLE_NOISE = Noise(unknown_tag=0.02, undo=0.03, stray=0.03)


def random_game(rng: random.Random, *, players: int = 4, noise: Noise = NO_NOISE) -> list[dict[str, Any]]:
    """The events of a whole legal game, from `new_game` to game over."""
    return _Simulator(rng, players, noise).run()


class _Simulator:
    """One game being generated: the referee that follows it, the true hands and piles, the events."""

    def __init__(self, rng: random.Random, count: int, noise: Noise) -> None:
        self.rng = rng
        self.names = NAMES[:count]
        self.noise = noise
        self.referee = Referee(Games.of(KIND))
        self.events: list[dict[str, Any]] = []
        self.plates = list(STAND_IN_SET)
        rng.shuffle(self.plates)
        self.draw = [code for code in MOUSE_CARDS for _ in range(COPIES)]
        rng.shuffle(self.draw)
        self.discard: list[str] = []
        self.hands = [self._take(HAND) for _ in range(count)]

    @property
    def state(self) -> State:
        state = self.referee.state
        assert isinstance(state, State)  # new_game is the first event sent
        return state

    def run(self) -> list[dict[str, Any]]:
        first = self.rng.choice(self.names)
        self._send({"type": "new_game", "game": "buffet", "players": list(self.names), "first": first})
        guard = 0
        while not self.state.is_terminal():
            guard += 1
            if guard > 20_000:
                raise SimulationError("no game over after 20,000 events")
            if self.state.phase == "buffet":
                self._lay()
            else:
                self._reveal()
        return self.events

    def _take(self, count: int) -> list[str]:
        """Cards from the draw pile; the discard pile is shuffled in when it runs out."""
        taken: list[str] = []
        while len(taken) < count:
            if not self.draw:
                self.draw, self.discard = self.discard, []
                self.rng.shuffle(self.draw)
                if not self.draw:
                    break
            taken.append(self.draw.pop())
        return taken

    def _send(self, event: dict[str, Any], legal: bool = True) -> list[Any]:
        """Send one event and record it; SimulationError if the outcome is unexpected."""
        self.events.append(event)
        outcome = self.referee.apply(event)
        if outcome.accepted != legal:
            raise SimulationError(f"event {len(self.events)} {event} expected {'accepted' if legal else 'refused'},"
                                  f" got {outcome.reason or 'accepted'}")
        return outcome.effects

    def _send_action(self, event: dict[str, Any]) -> list[Any]:
        """A legal plate or card, listed by the engine, maybe undone and sent again."""
        if event not in self.state.legal_actions():
            raise SimulationError(f"{event} is not among the engine's legal actions")
        effects = self._send(event)
        if self.rng.random() < self.noise.undo:
            self._send({"type": "undo"})
            effects = self._send(dict(event))
        return effects

    def _lay(self) -> None:
        if self.rng.random() < self.noise.stray:
            self._send({"type": "card", "card": self.rng.choice(list(MOUSE_CARDS))}, legal=False)
        code = self.plates.pop()
        self._send_action({"type": "plate", "plate": code})
        if self.rng.random() < self.noise.stray:
            self._send({"type": "plate", "plate": code}, legal=False)

    def _reveal(self) -> None:
        seat = self.state.turn
        if seat is None:
            raise SimulationError("a step with nobody to reveal")
        if self.rng.random() < self.noise.unknown_tag:
            self._send({"type": "card", "card": f"tag:{self.rng.getrandbits(32):08x}"}, legal=False)
        hand = self.hands[seat]
        if not hand:
            hand.extend(self._take(HAND))
        code = hand.pop(self.rng.randrange(len(hand)))
        self.discard.append(code)
        for effect in self._send_action({"type": "card", "card": code}):
            if isinstance(effect, fx.Departure) and effect.may_swap:
                self._swap(effect.seat)
            elif isinstance(effect, fx.RoundEnded):
                for cards in self.hands:
                    cards.extend(self._take(HAND - len(cards)))

    def _swap(self, seat: int) -> None:
        """The first mouse to leave exchanges some of its cards (the lowest ones) for new ones."""
        hand = sorted(self.hands[seat], key=MOUSE_CARDS.__getitem__)
        given = hand[: self.rng.randrange(len(hand) + 1)]
        self.hands[seat] = hand[len(given):] + self._take(len(given))
        self.discard.extend(given)


class BuffetDemo:
    """The demo's Sus au buffet ! (see companion.seam.Demo): plates and mouse cards dropped on the reader."""

    def random_game(self, rng: random.Random, players: int) -> list[dict[str, Any]]:
        return random_game(rng, players=max(3, min(players, 6)))

    def demo_tag(self, event: dict[str, Any], copies: dict[str, int]) -> str | None:
        """A plate its tag; a mouse card one of its ten copies in turn (two equal values in one step are
        two cards, and a copy comes back only after nine other reads of its value, long after the
        double-read window at any real pace)."""
        if event["type"] == "plate":
            return str(event["plate"])
        if event["type"] != "card":
            return None
        code = str(event["card"])
        copies[code] = copies.get(code, 0) % COPIES + 1
        return f"{code}@{copies[code]}"


DEMO = BuffetDemo()
