"""The night's results from the hub's store: each table's games folded exactly as `marmite replay` folds
that table's `marmite export`, and exports of them (JSON, CSV one row per player-game)."""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Collection, Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from club.fold import Decisions, Played, has_robots, judge, lead_of, night_of
from club.games import ClubGames
from club.store import Row, Store
from companion.confirmation import CONFIRM, standing_verdict
from companion.events import EventShapes
from companion.player_stats import count_menus
from companion.replay import replay
from companion.seam import Games
from companion.sides import note_types


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


def confirmation(rows: list[Row], notes: Collection[str]) -> tuple[str, str] | None:
    """(verdict, player) of the confirmation standing for a game's rows (`notes`: the event types that are
    no action), None when none stands."""
    return standing_verdict(((row.event, row.accepted, row.source) for row in rows), notes)


def confirm_night(store: Store) -> bool:
    """True on a night where a second seat confirms each game's final scores before they count."""
    return store.setting("confirm", "") == "yes"


def played_games(store: Store, games: Games, night: int | None = None) -> list[Played]:
    """A night's games (the current one by default), each replayed from the store as `marmite replay`
    folds that table's `marmite export` of it."""
    wanted = store.night() if night is None else night
    starts = store.night_starts()
    played = []
    known, notes = EventShapes(games).types, note_types(games)
    for table, game, all_rows in table_games(store):
        if night_of(table, game, starts) != wanted:
            continue
        rows = [row for row in game_log(all_rows) if row.event.get("type") in known]  # an older hub kept any
        if not rows:
            continue
        first = rows[0].event
        disagrees = None
        try:
            state = replay(enumerate((row.event for row in rows), start=1), games)
            refused = {entry["line"] for entry in state.get("refused", [])}
            wrong = [line for line, row in enumerate(rows, start=1) if (line in refused) == row.accepted]
            if wrong:
                disagrees = f"row {rows[wrong[0] - 1].seq} does not fold as the table said"
        except Exception as error:  # a malformed event inside a well-formed row: set aside, never a crash
            state, disagrees = {}, f"does not fold: {error}"
        is_new, players = first.get("type") == "new_game", first.get("players")
        played.append(Played(table, game, str(first.get("game", games.default)) if is_new else "",
                             [str(name) for name in players] if is_new and isinstance(players, list) else [],
                             rows[0].received_at, state, confirmation(all_rows, notes), disagrees,
                             lead_of(first) if is_new else None, events=len(rows),
                             robots=is_new and has_robots(first)))
    return played


def night_games(store: Store, games: Games, night: int | None = None) -> list[dict[str, Any]]:
    """A night's games judged with the director's decisions: what the board shows, for the exports."""
    return judge(played_games(store, games, night), Decisions.of(store), confirm_night(store),
                 ClubGames(games).points)


def night(store: Store, games: Games, number: int | None = None) -> dict[str, Any]:
    """A night as JSON: per table, the rows held and each game's folded state, its points after the
    director's corrections, its status and whether it counts."""
    tables: dict[str, Any] = {str(table): {"held": held, "games": {}}
                              for table, held in sorted(store.last_seqs().items())}
    for g in night_games(store, games, number):
        tables[str(g["table"])]["games"][str(g["game"])] = {
            "started_at": g["started_at"], "game": g["kind"] or None, "players": g["players"],
            "number": g["number"], "events": g["events"], "state": g["state"], "status": g["status"],
            "points": g["points"],
            "winners": g["winners"], "corrected": g["corrected"],
            "confirmation": None if g["seat_verdict"] is None else {"verdict": g["seat_verdict"][0],
                                                                    "player": g["seat_verdict"][1]},
            "vouched": g["vouched"], "counted": g["counted"]}
    return {"night": store.night() if number is None else number, "tables": tables}


CSV_FIELDS = ("table", "game", "started_at", "player", "seat", "stars", "winner", "phase", "counted", "number")
"""`game` is the table's journal id of the game; `number` the "partie N" the console and its forms use."""


def night_csv(store: Store, games: Games, number: int | None = None) -> str:
    """One row per player and game: table, game id, start, player, seat (1 = first listed), stars or points
    after the director's corrections, won, whether the game counts, and its number on the console."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for g in night_games(store, games, number):
        for seat, player in enumerate(g["players"], start=1):
            writer.writerow((g["table"], g["game"], g["started_at"], player, seat, g["points"].get(player, 0),
                             int(player in g["winners"]), g["state"].get("phase", ""), int(g["counted"]), g["number"]))
    return out.getvalue()


SCORING_RULES = ("stars", "placement")
"""How the night ranks players: "stars" adds each game's points (its `ClubFacts.points`: stars, a score…);
"placement" gives, at a table of n, n points to the first, n-1 to the next… (ties share the better place)."""


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


def player_statistics(store: Store, games: Games, number: int | None = None) -> list[dict[str, Any]]:
    """Per player over a night's counted games (the current night by default): games, wins, average stars
    or points after the director's corrections, and the menus chosen with their success (Chaud Devant)."""
    totals: dict[str, dict[str, Any]] = {}
    for g in night_games(store, games, number):
        if not g["counted"]:  # unfinished, voided, or on a confirming night not confirmed
            continue
        for name in g["players"]:
            entry = totals.setdefault(name, {"player": name, "games": 0, "wins": 0, "points": 0, "menus": {}})
            entry["games"] += 1
            entry["wins"] += int(name in g["winners"])
            entry["points"] += g["points"].get(name, 0)
        count_menus(g["state"], totals)
    for entry in totals.values():
        entry["average"] = round(entry.pop("points") / entry["games"], 2)
    return sorted(totals.values(), key=lambda e: (-e["wins"], -e["average"], e["player"]))


BG_STATS_NAMESPACE = uuid.UUID("6f1c2d4e-9a7b-5c3d-8e2f-4a6b8c0d1e2f")
"""Marmite's namespace for BG Stats uuids: a game's uuid is the same from every hub (BG Stats then files
plays of one game together); plays and players are named within the hub's own random id."""


def hub_id(store: Store) -> uuid.UUID:
    """The hub's own random id, made once and kept: play uuids from two hubs never collide."""
    kept = store.setting("hub_id", "")
    if not kept:
        kept = str(uuid.uuid4())
        store.set_setting("hub_id", kept)
    return uuid.UUID(kept)


def local_time(at: str) -> str:
    """An ISO time (UTC, from a table's journal) as the hub's local "YYYY-MM-DD HH:MM:SS", as BG Stats
    reads playDate; the text as it is when it is not a time."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at[:19].replace("T", " ")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def bg_stats(store: Store, games: Games, number: int | None = None, location: str = "Club") -> dict[str, Any]:
    """A night's counted games as a BG Stats import file (its JSON: players, games, locations and plays,
    each with a uuid; a play's scores after the director's corrections, its winners and ranks)."""
    hub = hub_id(store)
    players: dict[str, int] = {}
    kinds: dict[str, int] = {}
    plays = []
    for g in night_games(store, games, number):
        if not g["counted"]:  # unfinished, voided, or on a confirming night not confirmed
            continue
        kind = str(g["kind"] or games.default)
        scores = []
        for seat, name in enumerate(g["players"], start=1):
            ref = players.setdefault(name, len(players) + 1)
            scores.append({"playerRefId": ref, "score": str(g["points"].get(name, 0)),
                           "winner": name in g["winners"], "newPlayer": False, "startPlayer": name == g["lead"],
                           "seatOrder": seat, "rank": g["ranks"].get(name, 0)})
        plays.append({"uuid": str(uuid.uuid5(hub, f"play/{g['table']}/{g['game']}")),
                      "gameRefId": kinds.setdefault(kind, len(kinds) + 1), "locationRefId": 1,
                      "playDate": local_time(str(g["started_at"])), "durationMin": 0,
                      "ignored": False, "manualWinner": False, "rounds": int(g["round"] or 0),
                      "usesTeams": False, "board": f"table {g['table']}", "playerScores": scores})
    return {"about": "Marmite club night: a file for Board Game Stats (import it with BG Stats).",
            "players": [{"uuid": str(uuid.uuid5(hub, f"player/{name}")), "id": ref, "name": name,
                         "isAnonymous": False} for name, ref in players.items()],
            "games": [{"uuid": str(uuid.uuid5(BG_STATS_NAMESPACE, f"game/{kind}")), "id": ref,
                       "name": _game_name(games, kind), "highestWins": True, "cooperative": False,
                       "noPoints": False, "usesTeams": False} for kind, ref in kinds.items()],
            "locations": [{"uuid": str(uuid.uuid5(hub, f"location/{location}")), "id": 1, "name": location}],
            "plays": plays}


BG_STATS_PLAY_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' one-play link: the app opens it and offers the play, filled in, to be saved."""


def _game_name(games: Games, kind: str) -> str:
    """A game's name in BG Stats: its club title in French (its `game` key for a game not in clubs)."""
    facts = ClubGames(games).facts.get(kind)
    return facts.title("fr") if facts is not None else kind


def bg_stats_play_link(store: Store, games: Games, game: dict[str, Any], location: str = "Club") -> str:
    """One judged game as BG Stats' one-play link (its `data`: the play's source id, local date, game and
    players with score, winner, start player and rank; the same uuids as the BG Stats file)."""
    hub = hub_id(store)
    kind = str(game["kind"])
    data = {"sourceName": "Marmite", "sourcePlayId": str(uuid.uuid5(hub, f"play/{game['table']}/{game['game']}")),
            "playDate": local_time(str(game["started_at"])), "location": location,
            "game": {"name": _game_name(games, kind), "sourceGameId": str(uuid.uuid5(BG_STATS_NAMESPACE,
                                                                                          f"game/{kind}")),
                     "highestWins": True, "noPoints": False},
            "players": [{"name": name, "sourcePlayerId": str(uuid.uuid5(hub, f"player/{name}")),
                         "score": game["points"].get(name, 0), "winner": name in game["winners"],
                         "startPlayer": name == game["lead"], "rank": game["ranks"].get(name, 0)}
                        for name in game["players"]]}
    return BG_STATS_PLAY_LINK + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
