"""The night's results from the hub's store: each table's games folded exactly as `marmite replay` folds
that table's `marmite export`, and exports of them (JSON, CSV one row per player-game)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from club.store import Row, Store
from companion.confirmation import CONFIRM, standing_verdict
from companion.events import EventShapes
from companion.player_stats import count_menus
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


def game_log(rows: list[Row]) -> list[Row]:
    """A game's rows as `marmite export` writes them: without the confirmations beside it."""
    return [row for row in rows if row.event.get("type") != CONFIRM]


def confirmation(rows: list[Row]) -> tuple[str, str] | None:
    """(verdict, player) of the confirmation standing for a game's rows, None when none stands."""
    return standing_verdict((row.event, row.accepted, row.source) for row in rows)


def confirm_night(store: Store) -> bool:
    """True on a night where a second seat confirms each game's final scores before they count."""
    return store.setting("confirm", "") == "yes"


def counts(state: dict[str, Any], verdict: tuple[str, str] | None, needed: bool, vouched: bool = False) -> bool:
    """A game counts once over, and on a confirming night once confirmed too (by a seat, or by the director
    for a table without phones or after a dispute)."""
    over = state.get("phase") == "game_over"
    return over and (not needed or vouched or (verdict is not None and verdict[0] == "confirmed"))


def director_confirmed(decisions: list[dict[str, Any]]) -> set[tuple[int, int]]:
    """The (table, game) whose scores the director confirmed on the console."""
    return {(d["table"], d["game"]) for d in decisions if d["kind"] == "confirm"}


def night(store: Store, games: Games) -> dict[str, Any]:
    """The whole night as JSON: per table, the rows held and each game's folded state."""
    tables: dict[str, Any] = {str(table): {"held": held, "games": {}}
                              for table, held in sorted(store.last_seqs().items())}
    needed = confirm_night(store)
    vouched = director_confirmed(store.vouches())
    known = EventShapes(games).types
    for table, game, all_rows in table_games(store):
        rows = [row for row in game_log(all_rows) if row.event.get("type") in known]  # an older hub kept any
        if not rows:
            continue
        first = rows[0].event
        state = replay(enumerate((row.event for row in rows), start=1), games)
        verdict = confirmation(all_rows)
        tables[str(table)]["games"][str(game)] = {
            "started_at": rows[0].received_at,
            "game": first.get("game", games.default) if first.get("type") == "new_game" else None,
            "players": first.get("players", []),
            "events": len(rows),
            "state": state,
            "confirmation": None if verdict is None else {"verdict": verdict[0], "player": verdict[1]},
            "counted": counts(state, verdict, needed, (table, game) in vouched),
        }
    return {"tables": tables}


CSV_FIELDS = ("table", "game", "started_at", "player", "seat", "stars", "winner", "phase", "counted")


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
                                 int(player in winners), state.get("phase", ""), int(facts["counted"])))
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


def player_statistics(store: Store, games: Games) -> list[dict[str, Any]]:
    """Per player over every night the hub holds: games finished, wins, average stars or points, and the
    menus chosen with their success (Chaud Devant)."""
    totals: dict[str, dict[str, Any]] = {}
    for tables in night(store, games)["tables"].values():
        for facts in tables["games"].values():
            state = facts["state"]
            if not facts["counted"]:  # unfinished, or on a confirming night not confirmed
                continue
            points = game_points(state)
            winners = set(state.get("winners") or [])
            for name in facts["players"]:
                entry = totals.setdefault(name, {"player": name, "games": 0, "wins": 0, "points": 0, "menus": {}})
                entry["games"] += 1
                entry["wins"] += int(name in winners)
                entry["points"] += points.get(name, 0)
            count_menus(state, totals)
    for entry in totals.values():
        entry["average"] = round(entry.pop("points") / entry["games"], 2)
    return sorted(totals.values(), key=lambda e: (-e["wins"], -e["average"], e["player"]))


GAME_NAMES = {"chaud_devant": "Chaud Devant !", "buffet": "Sus au buffet !"}


def bg_stats(store: Store, games: Games, location: str = "Club") -> dict[str, Any]:
    """The finished games as a BG Stats import file (its JSON: games, players, locations, plays)."""
    players: dict[str, int] = {}
    kinds: dict[str, int] = {}
    plays = []
    for table, tables in night(store, games)["tables"].items():
        for game, facts in tables["games"].items():
            state = facts["state"]
            if not facts["counted"]:  # unfinished, or on a confirming night not confirmed
                continue
            kind = str(facts["game"] or games.default)
            points, winners = game_points(state), set(state.get("winners") or [])
            scores = []
            for seat, name in enumerate(facts["players"], start=1):
                ref = players.setdefault(name, len(players) + 1)
                scores.append({"playerRefId": ref, "score": str(points.get(name, 0)), "winner": name in winners,
                               "newPlayer": False, "startPlayer": seat == 1, "seatOrder": seat, "rank": 0})
            plays.append({"uuid": f"marmite-{store.path.stem}-{table}-{game}",
                          "gameRefId": kinds.setdefault(kind, len(kinds) + 1), "locationRefId": 1,
                          "playDate": str(facts["started_at"])[:19].replace("T", " "), "durationMin": 0,
                          "ignored": False, "manualWinner": False, "rounds": int(state.get("round") or 0),
                          "usesTeams": False, "board": f"table {table}", "playerScores": scores})
    return {"about": "Marmite club night", "players": [{"id": ref, "name": name, "isAnonymous": False}
                                                       for name, ref in players.items()],
            "games": [{"id": ref, "name": GAME_NAMES.get(kind, kind), "highestWins": True, "cooperative": False,
                       "noPoints": False} for kind, ref in kinds.items()],
            "locations": [{"id": 1, "name": location}], "plays": plays}
