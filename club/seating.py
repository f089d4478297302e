"""Seating a club night: each game (round) puts the players present at tables of an allowed size,
so that few pairs meet twice over the night and the first-player (dealer) role goes round.

One round at a time, from what happened before (`History`): late arrivals and drop-outs between games
are just a different list of players for the next round. A greedy deal then a local search of swaps
between tables, in the spirit of the VEKN seating rules (fewest repeated opponents first).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

DEFAULT_SIZES = (3, 5)
"""Players per table when none is given; each game states its own (`companion.seam.ClubFacts.players`)."""

SWAPS_PER_PLAYER = 400


class SeatingError(ValueError):
    """The players cannot be seated (too few, or a name given twice): `kind` and `fields` let the console
    say it in its own language."""

    def __init__(self, message: str, kind: str = "", **fields: object) -> None:
        super().__init__(message)
        self.kind = kind
        self.fields = fields


def table_sizes(players: int, low: int, high: int) -> list[int]:
    """As few tables as the largest size allows, sizes as even as possible (largest first)."""
    if players < low:
        raise SeatingError(f"{players} players: a table needs at least {low}", "too_few", players=players, low=low)
    tables = math.ceil(players / high)
    base, extra = divmod(players, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if sizes[-1] < low:
        raise SeatingError(f"{players} players cannot sit at tables of {low} to {high}", "sizes", players=players,
                           low=low, high=high)
    return sizes


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    """Who sat together and who dealt, over the night's games so far."""

    met: Counter[tuple[str, str]] = field(default_factory=Counter)
    dealt: Counter[str] = field(default_factory=Counter)

    def record(self, tables: Sequence[Sequence[str]], dealers: Sequence[str]) -> None:
        for table in tables:
            for a, b in combinations(table, 2):
                self.met[pair(a, b)] += 1
        self.dealt.update(dealers)

    def repeated_pairs(self) -> int:
        """Pairs that met more than once (each extra meeting counted)."""
        return sum(count - 1 for count in self.met.values() if count > 1)


@dataclass(frozen=True, slots=True)
class Round:
    """One game of the night: tables (players in seat order, clockwise) and each table's dealer."""

    tables: list[list[str]]
    dealers: list[str]


PAIR_WEIGHT = 1_000
"""Repeated pairs come first; the first deal going round only breaks ties between equal pairings."""


def _cost(table: Sequence[str], history: History) -> int:
    """A table's cost: the square of each pair's previous meetings (two repeats weigh more than one), then
    how many deals its least-dealt player already had (so each table has someone whose turn it is)."""
    pairs = sum(history.met[pair(a, b)] ** 2 for a, b in combinations(table, 2))
    return PAIR_WEIGHT * pairs + min(history.dealt[name] for name in table)


def seat_round(players: Sequence[str], history: History, rng: random.Random, *,
               sizes: tuple[int, int] = DEFAULT_SIZES, swaps: int | None = None) -> Round:
    """The next round's tables for the players present, fewest repeated pairs first, then dealers that have
    dealt least, at tables of `sizes` (fewest, most) players (SeatingError for a name given twice or too few
    players)."""
    if len(set(players)) != len(players):
        twice = next(name for name in players if players.count(name) > 1)
        raise SeatingError(f"a player is listed twice ({twice})", "twice", player=twice)
    low, high = sizes
    counts = table_sizes(len(players), low, high)
    order = list(players)
    rng.shuffle(order)
    tables: list[list[str]] = []
    at = 0
    for size in counts:
        tables.append(order[at:at + size])
        at += size
    costs = [_cost(table, history) for table in tables]
    budget = swaps if swaps is not None else SWAPS_PER_PLAYER * len(players)
    if len(tables) > 1:
        for _ in range(budget):
            if not any(costs):
                break
            t1, t2 = rng.sample(range(len(tables)), 2)
            i, j = rng.randrange(len(tables[t1])), rng.randrange(len(tables[t2]))
            a, b = tables[t1][i], tables[t2][j]
            tables[t1][i], tables[t2][j] = b, a
            new1, new2 = _cost(tables[t1], history), _cost(tables[t2], history)
            if new1 + new2 <= costs[t1] + costs[t2]:
                costs[t1], costs[t2] = new1, new2
            else:
                tables[t1][i], tables[t2][j] = a, b
    dealers = []
    for table in tables:
        rng.shuffle(table)
        fewest = min(history.dealt[name] for name in table)
        dealers.append(rng.choice([name for name in table if history.dealt[name] == fewest]))
    return Round(tables, dealers)


def seat_night(players: Sequence[str], rounds: int, *, sizes: tuple[int, int] = DEFAULT_SIZES,
               seed: int | None = None, history: History | None = None) -> list[Round]:
    """Every round of a night with the same players (call `seat_round` per round when they change)."""
    rng = random.Random(seed)
    history = history or History()
    night = []
    for _ in range(rounds):
        seated = seat_round(players, history, rng, sizes=sizes)
        history.record(seated.tables, seated.dealers)
        night.append(seated)
    return night


def random_night(players: Sequence[str], rounds: int, *, sizes: tuple[int, int] = DEFAULT_SIZES,
                 seed: int | None = None) -> History:
    """The baseline: each round a random draw at the same table sizes, random dealers."""
    rng = random.Random(seed)
    history = History()
    for _ in range(rounds):
        seated = seat_round(players, History(), rng, sizes=sizes, swaps=0)
        history.record(seated.tables, [rng.choice(table) for table in seated.tables])
    return history
