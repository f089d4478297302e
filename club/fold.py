"""One fold of a night: each table's games, as folded, judged with the director's decisions (voids,
corrections, confirmations). The board and every export read the same judged games, so they agree."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from club.store import Store


@dataclass(frozen=True)
class Played:
    """A table's game as folded: live by the hub, or replayed from the store for an export."""

    table: int
    game: int  # the table's journal seq of its new_game
    kind: str
    players: list[str]
    started_at: str
    state: dict[str, Any]
    verdict: tuple[str, str] | None = None  # a seat's standing (confirmed or disputed, by whom)
    disagrees: str | None = None  # why the hub's referee does not fold it as the table did
    lead: str | None = None  # who leads the first trick or plate
    events: int = 0  # the rows of its log the hub holds
    robots: bool = False  # robot seats (a practice or a robot at the table): shown, never counted


@dataclass(frozen=True)
class Decisions:
    """The director's standing decisions (withdrawn ones left out), by (table, game)."""

    voided: set[tuple[int, int]] = field(default_factory=set)
    corrected: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)
    vouched: set[tuple[int, int]] = field(default_factory=set)

    @classmethod
    def of(cls, store: Store) -> Decisions:
        decided = cls(vouched={(d["table"], d["game"]) for d in store.vouches()})
        for d in store.decisions():
            key = (d["table"], d["game"])
            if d["kind"] == "void":
                decided.voided.add(key)
            elif d["kind"] == "correct":
                decided.corrected.setdefault(key, {})[d["player"]] = d["stars"]
        return decided


def night_of(table: int, game: int, starts: dict[int, dict[int, int]]) -> int:
    """The night a table's game belongs to: the last night that started before it at that table."""
    night = 1
    for number in sorted(starts):
        if game > starts[number].get(table, 0):
            night = number
    return night


PointsOf = Callable[[str, dict[str, Any]], dict[str, int]]
"""A game's points per player from its kind and folded state (`club.games.ClubGames.points`)."""


def ranks(points: dict[str, int]) -> dict[str, int]:
    """1 for the best score, equal scores sharing the better rank."""
    return {name: 1 + sum(1 for other in points.values() if other > value) for name, value in points.items()}


def judge(played: list[Played], decisions: Decisions, confirming: bool, points_of: PointsOf) -> list[dict[str, Any]]:
    """Each game with its status (void, disagrees, robots, over, playing, awaiting, disputed), its points (`points_of`)
    after corrections, winners and ranks, and whether it counts; numbered per table in the night's order
    ("partie N" on the console)."""
    judged: list[dict[str, Any]] = []
    numbers: dict[int, int] = {}
    for game in sorted(played, key=lambda g: (g.table, g.game)):
        key = (game.table, game.game)
        numbers[game.table] = numbers.get(game.table, 0) + 1
        corrected = decisions.corrected.get(key, {})
        points = {**points_of(game.kind, game.state), **{p: s for p, s in corrected.items() if p in game.players}}
        over = game.state.get("phase") == "game_over"
        vouched = key in decisions.vouched
        status = ("void" if key in decisions.voided else "disagrees" if game.disagrees
                  else "robots" if game.robots else "over" if over else "playing")
        if status == "over" and confirming and not vouched and (game.verdict is None
                                                                 or game.verdict[0] != "confirmed"):
            status = "disputed" if game.verdict is not None else "awaiting"  # not counted yet
        winners = [str(w) for w in game.state.get("winners") or []]
        if corrected and over:
            best = max(points.values(), default=0)
            winners = [name for name in game.players if points.get(name) == best]
        seat_verdict = game.verdict if status in ("over", "disputed") and not vouched else None
        judged.append({"table": game.table, "game": game.game, "number": numbers[game.table], "kind": game.kind,
                       "players": game.players, "started_at": game.started_at, "round": game.state.get("round"),
                       "status": status, "counted": status == "over", "points": points,
                       "winners": winners if over else [], "ranks": ranks(points) if over else {},
                       "corrected": bool(corrected), "disagrees": game.disagrees, "lead": game.lead,
                       "verdict": None if seat_verdict is None else seat_verdict[0],
                       "confirmed_by": None if seat_verdict is None else seat_verdict[1],
                       "vouched": vouched and status == "over", "seat_verdict": game.verdict, "state": game.state,
                       "events": game.events})
    return judged


def has_robots(first_event: dict[str, Any]) -> bool:
    """True for a game whose new_game seats robots: a club's standings rank people's games only."""
    robots = first_event.get("robots")
    return isinstance(robots, dict) and bool(robots.get("seats"))


def lead_of(first_event: dict[str, Any]) -> str | None:
    """Who leads a game's first trick or plate, from its new_game event: Sus au buffet !'s first player,
    Chaud Devant's player after the dealer."""
    given = first_event.get("players")
    players = [str(name) for name in given] if isinstance(given, list) else []  # a table may send anything
    if isinstance(first_event.get("first"), str):
        return str(first_event["first"])
    dealer = first_event.get("dealer")
    if dealer in players:
        return players[(players.index(dealer) + 1) % len(players)]
    return None
