"""The night's results from the hub's store: each table's games folded exactly as `marmite replay` folds
that table's `marmite export`, and exports of them (JSON, CSV one row per player-game)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from club.store import Row, Store
from companion.replay import replay
from companion.seam import Games


def table_games(store: Store) -> Iterator[tuple[int, int, list[Row]]]:
    """(table, game, rows in seq order) for every game the store holds."""
    by_game: dict[tuple[int, int], list[Row]] = {}
    for row in store.rows():
        if row.game is not None:
            by_game.setdefault((row.table, row.game), []).append(row)
    for (table, game), rows in sorted(by_game.items()):
        yield table, game, rows


def night(store: Store, games: Games) -> dict[str, Any]:
    """The whole night as JSON: per table, the rows held and each game's folded state."""
    tables: dict[str, Any] = {str(table): {"held": held, "games": {}}
                              for table, held in sorted(store.last_seqs().items())}
    for table, game, rows in table_games(store):
        first = rows[0].event
        tables[str(table)]["games"][str(game)] = {
            "started_at": rows[0].received_at,
            "game": first.get("game", games.default) if first.get("type") == "new_game" else None,
            "players": first.get("players", []),
            "events": len(rows),
            "state": replay(enumerate((row.event for row in rows), start=1), games),
        }
    return {"tables": tables}


CSV_FIELDS = ("table", "game", "started_at", "player", "seat", "stars", "winner", "phase")


def night_csv(store: Store, games: Games) -> str:
    """One row per player and game: table, game id, start, player, seat (1 = first listed), stars, won."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for table, tables in night(store, games)["tables"].items():
        for game, facts in tables["games"].items():
            state = facts["state"]
            stars = state.get("stars", {})
            winners = state.get("winners") or []
            for seat, player in enumerate(facts["players"], start=1):
                writer.writerow((table, game, facts["started_at"], player, seat, stars.get(player, 0),
                                 int(player in winners), state.get("phase", "")))
    return out.getvalue()


SCORING_RULES = ("stars", "placement")
"""How the night ranks players: "stars" adds each game's stars (Chaud Devant) or points (Sus au buffet !);
"placement" gives, at a table of n, n points to the first, n-1 to the next… (ties share the better place)."""


def game_points(state: dict[str, Any]) -> dict[str, int]:
    """A finished game's stars (Chaud Devant) or points (Sus au buffet !) per player."""
    points = state.get("stars") or state.get("score") or {}
    return {str(name): int(value) for name, value in points.items()}


def placement(points: dict[str, int]) -> dict[str, int]:
    """Placement points: at a table of n, n for the best, n-1 for the next; equal scores share the better."""
    n = len(points)
    return {name: n - sum(1 for other in points.values() if other > value) for name, value in points.items()}


def standings(games: list[dict[str, Any]], rule: str) -> list[dict[str, Any]]:
    """Players ranked by the rule over the counted games (`games`: {"points": {...}}), best first, with rank."""
    totals: dict[str, dict[str, Any]] = {}
    for game in games:
        places = placement(game["points"])
        for name, value in game["points"].items():
            entry = totals.setdefault(name, {"player": name, "games": 0, "stars": 0, "placement": 0, "wins": 0})
            entry["games"] += 1
            entry["stars"] += value
            entry["placement"] += places[name]
            entry["wins"] += int(places[name] == len(places))
    ranked = sorted(totals.values(), key=lambda e: (-e[rule], -e["wins"], e["player"]))
    for entry in ranked:
        entry["rank"] = 1 + sum(1 for other in ranked if other[rule] > entry[rule])
    return ranked
