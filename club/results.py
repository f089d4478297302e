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
