"""Per-player statistics over finished games: games, wins, average stars (or points) and, for Chaud Devant,
each menu chosen with how often it succeeded (the round's result above zero). The table keeps them in
memory (`PlayerStatistics`: built once from its journal, then told of every game as it stands), so its
history page never reads the disk for them; the club hub uses `count_menus` on the games it holds."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from companion.journal import Journal
from companion.replay import replay
from companion.seam import Games, State

NEWEST_GAMES = 50  # the statistics cover the table's newest 50 games (those of them that finished)

Tally = dict[str, Any]
"""One finished game's part of the statistics: {"points": {name: n}, "winners": [...], "rounds": [...]}."""


def count_menus(state: dict[str, Any], totals: dict[str, dict[str, Any]]) -> None:
    """Add a finished game's revealed menus to each player's tally in `totals` (player → {"menus": …})."""
    for played in state.get("rounds") or []:
        menus, points = played.get("menus") or {}, played.get("points") or {}
        for name, menu in menus.items():
            if name not in totals or name not in points:
                continue
            tally = totals[name]["menus"].setdefault(str(menu), {"chosen": 0, "succeeded": 0})
            tally["chosen"] += 1
            tally["succeeded"] += int(points[name] > 0)


def game_points(state: dict[str, Any]) -> dict[str, int]:
    """A game's stars (Chaud Devant) or points (Sus au buffet !) per player."""
    values = state.get("stars") or state.get("score") or {}
    return {str(name): int(value) for name, value in values.items()}


def game_tally(state: dict[str, Any]) -> Tally:
    """What the statistics need of a finished game's public state (its points, winners, rounds' menus)."""
    rounds = [{"menus": dict(played.get("menus") or {}), "points": dict(played.get("points") or {})}
              for played in state.get("rounds") or []]
    return {"points": game_points(state), "winners": sorted(state.get("winners") or []), "rounds": rounds}


def fold_tallies(tallies: Iterable[Tally]) -> list[dict[str, Any]]:
    """Per player over these finished games, most wins first."""
    totals: dict[str, dict[str, Any]] = {}
    for tally in tallies:
        winners = set(tally["winners"])
        for name, points in tally["points"].items():
            entry = totals.setdefault(name, {"player": name, "games": 0, "wins": 0, "points": 0, "menus": {}})
            entry["games"] += 1
            entry["wins"] += int(name in winners)
            entry["points"] += points
        count_menus(tally, totals)
    for entry in totals.values():
        entry["average"] = round(entry.pop("points") / entry["games"], 2)
    return sorted(totals.values(), key=lambda e: (-e["wins"], -e["average"], e["player"]))


def journal_tallies(journal: Journal, games: Games, past: list[dict[str, Any]]) -> dict[int, Tally | None]:
    """Each game of `past` (the table's `past_games`): its tally, replayed from the journal, when it
    finished; None when it did not (abandoned, replaced or still under way)."""
    tallies: dict[int, Tally | None] = {}
    for summary in past:
        game = int(summary["game"])
        if summary.get("abandoned") or summary.get("phase") != "game_over":
            tallies[game] = None
            continue
        tallies[game] = game_tally(replay(((r.seq, r.body) for r in journal.records(game=game)), games))
    return tallies


class PlayerStatistics:
    """The table's statistics in memory: `load` them once from the journal (off any page's way), and
    `observe` the current game after each change; `ranking` then reads memory only. Thread-safe."""

    def __init__(self, window: int = NEWEST_GAMES) -> None:
        self._lock = threading.Lock()
        self._window = window
        self._observed: dict[int, Tally | None] = {}
        self._loaded: dict[int, Tally | None] | None = None
        self._loading = False

    def observe(self, game: int | None, state: State | None) -> None:
        """The current game as it stands now: counted while it is over (an undo takes it back out)."""
        if game is None:
            return
        tally = game_tally(state.public_state()) if state is not None and state.is_terminal() else None
        with self._lock:
            self._observed[game] = tally
            for old in sorted(self._observed)[:-self._window]:  # older than the window: never shown again
                del self._observed[old]

    def load(self, read: Callable[[], dict[int, Tally | None]]) -> None:
        """Fill in the games from before this run with `read()` (the journal's), once; when it fails
        (a disk error) nothing is kept and a later call tries again."""
        with self._lock:
            if self._loaded is not None or self._loading:
                return
            self._loading = True
        try:
            loaded = read()
        finally:
            with self._lock:
                self._loading = False
        with self._lock:
            if self._loaded is None:
                self._loaded = loaded

    @property
    def loaded(self) -> bool:
        """True once the journal's games are in."""
        with self._lock:
            return self._loaded is not None

    def ranking(self) -> list[dict[str, Any]] | None:
        """Per player over the finished games among the newest `window` games, most wins first; None
        until `load` has run. Reads memory only."""
        with self._lock:
            if self._loaded is None:
                return None
            games = {**self._loaded, **self._observed}  # what was observed is newer than what was read
        newest = sorted(games)[-self._window:]
        return fold_tallies(tally for game in newest if (tally := games[game]) is not None)
