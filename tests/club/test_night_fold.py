"""One fold of the night: the board and every export (CSV, JSON, BG Stats, players' statistics) read the
same games judged with the director's decisions, so they agree; a voided game counts nowhere, a correction
everywhere. In process: a store filled with the rows tables would send, and the hub's own fold of them."""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club.hub import ClubHub
from club.results import bg_stats, night, night_csv, player_statistics
from club.store import Row, Store
from club.topics import ClubURL
from companion.referee import Referee
from marmite.games import GAMES
from tests.club.helpers import game_events

URL = ClubURL.parse("mqtt://hub:secret@127.0.0.1:1/testclub")


def rows_of(table: int, events: list[dict[str, Any]], start: int = 1) -> list[Row]:
    """A table's journal rows for these events (one game from seq `start`), verdicts as its referee gives."""
    referee = Referee(GAMES)
    rows = []
    for seq, event in enumerate(events, start=start):
        outcome = referee.apply(event)
        rows.append(Row(table, seq, start, f"2026-11-27T19:{seq // 60:02d}:{seq % 60:02d}+00:00", event,
                        outcome.accepted, outcome.reason if not outcome.accepted else None, "api"))
    return rows


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path)
    yield opened
    opened.close()


def board_of(store: Store) -> dict[str, Any]:
    hub = ClubHub(store, URL, GAMES, tables=3, console=lambda line: None)
    board = hub.board()
    hub.cards.close()
    return board


def csv_totals(text: str) -> dict[str, tuple[int, int]]:
    """Per player, (games, stars or points) over the CSV's counted rows."""
    totals: dict[str, tuple[int, int]] = {}
    for line in csv.DictReader(io.StringIO(text)):
        if line["counted"] == "1":
            games, points = totals.get(line["player"], (0, 0))
            totals[line["player"]] = (games + 1, points + int(line["stars"]))
    return totals


def assert_exports_equal_the_board(store: Store) -> dict[str, Any]:
    board = board_of(store)
    standings = {e["player"]: (e["games"], e["stars"]) for e in board["standings"]}
    assert csv_totals(night_csv(store, GAMES)) == standings
    counted = {(g["table"], g["game"]): g["points"] for g in board["games"] if g["counted"]}
    exported = night(store, GAMES)
    assert {(int(t), int(g)): facts["points"] for t, table in exported["tables"].items()
            for g, facts in table["games"].items() if facts["counted"]} == counted
    assert {(int(t), int(g)): facts["status"] for t, table in exported["tables"].items()
            for g, facts in table["games"].items()} == {(g["table"], g["game"]): g["status"] for g in board["games"]}
    plays = bg_stats(store, GAMES)
    names = {p["id"]: p["name"] for p in plays["players"]}
    assert sorted(sorted((names[s["playerRefId"]], int(s["score"])) for s in play["playerScores"])
                  for play in plays["plays"]) == sorted(sorted(points.items()) for points in counted.values())
    stats = {e["player"]: (e["games"], e["wins"]) for e in player_statistics(store, GAMES)}
    assert stats == {e["player"]: (e["games"], e["wins"]) for e in board["standings"]}
    return board


def test_a_buffet_game_exports_its_points_in_the_csv(store: Store) -> None:
    events = game_events(5, kind="buffet", players=3)
    store.add(rows_of(1, events))
    board = assert_exports_equal_the_board(store)
    points = board["games"][0]["points"]
    assert board["games"][0]["status"] == "over" and any(points.values())
    rows = list(csv.DictReader(io.StringIO(night_csv(store, GAMES))))
    assert {line["player"]: int(line["stars"]) for line in rows} == points
    assert {line["number"] for line in rows} == {"1"}, "the game's number on the console (its 'partie 1')"


def test_voids_and_corrections_reach_every_export(store: Store) -> None:
    store.add(rows_of(1, game_events(5, kind="buffet", players=3)))
    store.add(rows_of(2, game_events(21)))
    store.add(rows_of(3, game_events(22)))
    before = assert_exports_equal_the_board(store)
    assert [g["status"] for g in before["games"]] == ["over"] * 3
    chaud = next(g for g in before["games"] if g["table"] == 2)
    loser = min(chaud["points"], key=lambda name: chaud["points"][name])
    store.decide(2, 1, "correct", "Claire", "carte mal lue", player=loser, stars=99)
    store.decide(3, 1, "void", "Claire", "donne faussée")
    after = assert_exports_equal_the_board(store)
    games_played: dict[str, int] = {}
    for g in before["games"][:2]:
        for name in g["players"]:
            games_played[name] = games_played.get(name, 0) + 1
    assert {e["player"]: e["games"] for e in after["standings"]} == games_played  # table 3 counts nowhere
    assert next(g for g in after["games"] if g["table"] == 2)["points"][loser] == 99
    assert loser in next(g for g in after["games"] if g["table"] == 2)["winners"]
    voided = store.decisions()[-1]
    assert store.withdraw("decision", voided["id"]) and not store.withdraw("decision", voided["id"])
    withdrawn = assert_exports_equal_the_board(store)
    assert {e["player"]: e["games"] for e in withdrawn["standings"]} == \
        {e["player"]: e["games"] for e in before["standings"]}  # the void withdrawn: table 3 counts again


def test_bg_stats_follows_its_import_format(store: Store) -> None:
    store.add(rows_of(1, game_events(5, kind="buffet", players=3)))
    store.add(rows_of(2, game_events(21)))
    made = bg_stats(store, GAMES)
    for kind in ("players", "games", "locations", "plays"):
        assert all(uuid.UUID(entry["uuid"]) for entry in made[kind])
    assert len({play["uuid"] for play in made["plays"]}) == 2
    board = board_of(store)
    for play, game in zip(made["plays"], [g for g in board["games"] if g["counted"]], strict=True):
        names = {p["id"]: p["name"] for p in made["players"]}
        starters = [names[s["playerRefId"]] for s in play["playerScores"] if s["startPlayer"]]
        assert starters == [game["lead"]]
        assert {names[s["playerRefId"]]: s["rank"] for s in play["playerScores"]} == game["ranks"]
        assert min(s["rank"] for s in play["playerScores"]) == 1
    events = game_events(21)
    assert board["games"][1]["lead"] == events[0]["players"][(events[0]["players"].index(events[0]["dealer"]) + 1)
                                                             % len(events[0]["players"])]


def test_bg_stats_plays_are_unique_across_hubs_and_dated_in_local_time(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        made = []
        for hub in ("a", "b"):
            store = Store.open(tmp_path / hub)
            store.add(rows_of(1, game_events(5, kind="buffet", players=3)))
            made.append(bg_stats(store, GAMES))
            assert bg_stats(store, GAMES)["plays"][0]["uuid"] == made[-1]["plays"][0]["uuid"]  # stable
            store.close()
        assert made[0]["plays"][0]["uuid"] != made[1]["plays"][0]["uuid"]
        assert made[0]["games"][0]["uuid"] == made[1]["games"][0]["uuid"]  # one game, whichever hub
        assert made[0]["plays"][0]["playDate"] == "2026-11-27 20:00:01"  # 19:00:01 UTC, in Paris in November
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_game_with_robot_seats_is_shown_but_never_counted(store: Store) -> None:
    """A practice with robots (or a robot at the table) finished during the night: its robots are no club
    members, so neither they nor the game reach the standings or any export's counted rows."""
    people = game_events(21)
    robots = [dict(e) for e in game_events(22)]
    robots[0]["robots"] = {"seats": {robots[0]["players"][1]: "chef"}, "practice": "virtual"}
    store.add(rows_of(1, people))
    store.add(rows_of(2, robots))
    board = assert_exports_equal_the_board(store)
    status = {g["table"]: (g["status"], g["counted"]) for g in board["games"]}
    assert status == {1: ("over", True), 2: ("robots", False)}
    assert {e["player"]: e["games"] for e in board["standings"]} == dict.fromkeys(people[0]["players"], 1)
