"""Per-player statistics over finished games: games, wins, average stars (or points) and, for Chaud Devant,
each menu chosen with how often it succeeded (the round's result above zero). The table's history page
folds its own journal; the club hub uses `count_menus` on the games it holds."""

from __future__ import annotations

from typing import Any

from companion.journal import Journal
from companion.replay import replay
from companion.seam import Games

NEWEST_GAMES = 50  # the history page folds at most this many finished games (replayed on each view)


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


def table_statistics(journal: Journal, games: Games, past: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player over the finished games among `past` (the table's `past_games`), most wins first."""
    totals: dict[str, dict[str, Any]] = {}
    for summary in past:
        if summary.get("abandoned") or summary.get("phase") != "game_over":
            continue
        state = replay(((r.seq, r.body) for r in journal.records(game=int(summary["game"]))), games)
        points = game_points(state)
        winners = set(state.get("winners") or [])
        for name in points:
            entry = totals.setdefault(name, {"player": name, "games": 0, "wins": 0, "points": 0, "menus": {}})
            entry["games"] += 1
            entry["wins"] += int(name in winners)
            entry["points"] += points[name]
        count_menus(state, totals)
    for entry in totals.values():
        entry["average"] = round(entry.pop("points") / entry["games"], 2)
    return sorted(totals.values(), key=lambda e: (-e["wins"], -e["average"], e["player"]))
