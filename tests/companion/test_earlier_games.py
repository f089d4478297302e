"""Earlier games: a game replaced by another can be resumed exactly where it stood, or closed as
abandoned; each game's log stays whole (its export replays to its live state), across restarts, from
a journal of the previous schema, for Chaud Devant and Sus au buffet !."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.buffet.simulate import random_game as buffet_game
from companion.chaud_devant.simulate import TABLE_NOISE
from companion.chaud_devant.simulate import random_game as chaud_devant_game
from companion.journal import JOURNAL_FILE, Journal
from companion.replay import replay
from companion.table import GameNotSwitchable, TableService, UnknownGame
from marmite.games import GAMES


def exported_state(journal: Journal, game: int) -> dict[str, Any]:
    """`marmite replay` of `marmite export --game` (what the contract promises), without `refused`."""
    lines = [(number, record.body) for number, record in enumerate(journal.records(game=game), start=1)]
    state = replay(lines, GAMES)
    state.pop("refused")
    return state


def play(table: TableService, events: list[dict[str, Any]]) -> None:
    for event in events:
        table.submit(event)


def test_a_replaced_game_resumes_where_it_stood_and_its_export_is_whole(tmp_path: Path) -> None:
    rng = random.Random(12)
    game_a = chaud_devant_game(rng, players=4, noise=TABLE_NOISE)
    game_b = buffet_game(rng, players=4)
    table = TableService.open(tmp_path, GAMES)
    play(table, game_a[:40])
    a = table.current_game
    assert a is not None
    state_a = table.state()
    play(table, game_b[:15])
    b = table.current_game
    assert b is not None and b != a and table.game_name == "buffet"

    message = table.resume_game(a)
    assert table.current_game == a and table.game_name == "chaud_devant"
    assert table.state() == state_a  # same state, same turn
    assert message.kind == "resumed" and "reprise" in message.text("fr")
    turn = state_a["turn"] or ""
    assert turn in message.text("fr") and turn in message.text("en") and turn in message.text("nl")

    undone = table.undo()  # the undo history came back with the game
    assert undone.accepted
    play(table, game_a[40:])  # the script goes on (one play short): accepted or refused, it is A's log
    assert table.journal.records(game=a).__next__().body == game_a[0]
    assert exported_state(table.journal, a) == table.state()
    listed = {game["game"]: game for game in table.past_games()}
    assert listed[b]["phase"] != "game_over" and not listed[b]["abandoned"] and not listed[b]["current"]
    assert listed[a]["current"]
    table.close()


def test_a_closed_game_shows_abandoned_keeps_its_log_and_can_be_resumed(tmp_path: Path) -> None:
    rng = random.Random(5)
    table = TableService.open(tmp_path, GAMES)
    play(table, buffet_game(rng, players=3)[:12])
    b = table.current_game
    assert b is not None
    log_before = [record.line for record in table.journal.records(game=b)]
    round_b = table.state()["round"]
    play(table, chaud_devant_game(rng, players=3)[:5])
    message = table.abandon_game(b)
    assert message.text("fr").startswith("Partie du ") and f"manche {round_b}." in message.text("fr")
    assert [record.line for record in table.journal.records(game=b)] == log_before
    listed = {game["game"]: game for game in table.past_games()}
    assert listed[b]["abandoned"] and listed[b]["round"] == round_b
    assert {game.game: game.status for game in table.journal.games()}[b] == "abandoned"
    table.close()

    table = TableService.open(tmp_path, GAMES)  # it stays abandoned after a restart
    assert {game["game"]: game for game in table.past_games()}[b]["abandoned"]
    table.resume_game(b)
    assert table.current_game == b and not {g["game"]: g for g in table.past_games()}[b]["abandoned"]
    table.close()


def test_bad_choices_are_refused_and_change_nothing(tmp_path: Path) -> None:
    rng = random.Random(8)
    table = TableService.open(tmp_path, GAMES)
    finished = chaud_devant_game(rng, players=3)
    play(table, finished)
    over = table.current_game
    play(table, chaud_devant_game(rng, players=3)[:9])
    current = table.current_game
    assert over is not None and current is not None
    before = (table.state(), table.past_games(), table.journal.last_seq)
    with pytest.raises(UnknownGame):
        table.resume_game(current + 1)
    with pytest.raises(UnknownGame):
        table.abandon_game(over + 1)  # an event of a game, not a game
    with pytest.raises(GameNotSwitchable, match="current"):
        table.resume_game(current)
    with pytest.raises(GameNotSwitchable, match="current"):
        table.abandon_game(current)
    with pytest.raises(GameNotSwitchable, match="over"):
        table.resume_game(over)
    with pytest.raises(GameNotSwitchable, match="over"):
        table.abandon_game(over)
    assert (table.state(), table.past_games(), table.journal.last_seq) == before
    table.close()


def test_a_resume_survives_a_restart_with_no_event_after_it(tmp_path: Path) -> None:
    rng = random.Random(3)
    table = TableService.open(tmp_path, GAMES)
    play(table, chaud_devant_game(rng, players=5)[:30])
    a = table.current_game
    assert a is not None
    state_a = table.state()
    play(table, chaud_devant_game(rng, players=3)[:4])
    table.resume_game(a)
    table.close()
    table = TableService.open(tmp_path, GAMES)
    assert table.current_game == a and table.state() == state_a
    assert table.undo().accepted  # the undo history was rebuilt too
    table.close()


def test_a_journal_of_schema_3_is_migrated_and_its_games_resume(tmp_path: Path) -> None:
    rng = random.Random(21)
    table = TableService.open(tmp_path, GAMES)
    play(table, chaud_devant_game(rng, players=4)[:25])
    a = table.current_game
    assert a is not None
    state_a = table.state()
    play(table, buffet_game(rng, players=5)[:6])
    table.close()
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:  # as schema 3 left it
        db.executescript("DROP TABLE resumptions; DROP TABLE abandoned;"
                         " UPDATE meta SET value = '3' WHERE key = 'schema';")
    db.close()
    with Journal.open(tmp_path, writer=False) as reader:  # reading leaves it as it is
        assert [game.status for game in reader.games()] == ["unfinished", "current"]
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "3"
    db.close()
    table = TableService.open(tmp_path, GAMES)
    assert table.journal._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "4"
    table.resume_game(a)
    table.close()
    table = TableService.open(tmp_path, GAMES)
    assert table.current_game == a and table.state() == state_a
    table.close()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), switches=st.lists(st.integers(0, 2), min_size=1, max_size=6))
def test_interleaved_games_each_replay_to_what_the_table_showed(tmp_path_factory: pytest.TempPathFactory,
                                                                 seed: int, switches: list[int]) -> None:
    """Games played in turns (start one, resume another, play some of it…): after every step, and after
    a restart, each game's own log replays to the state the table showed for it when it was last current."""
    rng = random.Random(seed)
    scripts = [chaud_devant_game(rng, players=rng.choice((3, 4, 5)), noise=TABLE_NOISE),
               buffet_game(rng, players=rng.choice((3, 4, 5, 6))),
               chaud_devant_game(rng, players=3, noise=TABLE_NOISE)]
    ids: dict[int, int] = {}
    played = [0, 0, 0]
    shown: dict[int, dict[str, Any]] = {}
    data = tmp_path_factory.mktemp("interleaved")
    table = TableService.open(data, GAMES)
    for which in switches:
        if which in ids and ids[which] != table.current_game:
            try:
                table.resume_game(ids[which])
            except GameNotSwitchable:  # that game is over
                continue
        step = rng.randint(1, 40)
        for event in scripts[which][played[which]:played[which] + step]:
            table.submit(event)
            if event["type"] == "new_game":
                ids[which] = table.current_game or 0
        played[which] += step
        if which in ids:
            shown[ids[which]] = table.state()
    for game, state in shown.items():
        assert exported_state(table.journal, game) == state
    current = table.current_game
    current_state = table.state()
    table.close()
    for kept in (1_000, 3):  # a restart folds from the games of the messages it keeps (few, or many)
        with patch.object(TableService, "_hub_capacity", staticmethod(lambda kept=kept: kept)):
            table = TableService.open(data, GAMES)
        assert table.current_game == current and table.state() == current_state
        table.close()


def test_past_games_stay_oldest_first_and_pageable_after_a_resume(tmp_path: Path) -> None:
    """Found in review: a resumed (older) game was listed last and took a page slot, hiding newer games."""
    rng = random.Random(21)
    table = TableService.open(tmp_path, GAMES)
    started = []
    for _ in range(3):
        play(table, chaud_devant_game(rng, players=3)[:6])
        game = table.current_game
        assert game is not None
        started.append(game)
    table.resume_game(started[0])
    assert [game["game"] for game in table.past_games()] == started
    pages, before = [], None
    while page := table.past_games(before=before, limit=1):
        pages.append(page[0]["game"])
        before = page[0]["game"]
    assert pages == started[::-1]  # every game reachable by the documented paging
    assert [game["game"] for game in table.past_games(limit=2)] == started[1:]
    assert table.past_games(limit=0) == []
    table.close()
