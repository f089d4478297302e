"""Finished games keep their summary in the journal: listing games and starting a table never replay
history, a schema 2 journal gains its summaries once, and what is listed is what replay gives."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.chaud_devant.simulate import TABLE_NOISE, simulate
from companion.journal import JOURNAL_FILE, Journal
from companion.referee import Referee
from companion.table import TableService
from marmite.games import GAMES


def play_games(table: TableService, count: int, seed: int = 3, cut: int | None = None) -> None:
    rng = random.Random(seed)
    for number in range(count):
        events = simulate(rng, players=rng.choice((3, 4, 5)), noise=TABLE_NOISE).events
        for event in events[:cut if number == count - 1 else None]:
            table.submit(event)


def replayed_summaries(journal: Journal) -> list[dict[str, Any]]:
    """What listing the games gave before summaries were kept: every game replayed."""
    out = []
    for game in journal.games():
        referee = Referee(GAMES)
        for record in journal.records(game=game.game):
            referee.apply(record.body)
        facts = referee.state.summary() if referee.state is not None else {}
        out.append({"game": game.game, "started_at": game.started_at, "players": game.players, **facts,
                    "abandoned": game.status == "abandoned", "current": game.game == journal.current_game})
    return out


def test_listed_games_are_the_replayed_ones_without_replaying(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = TableService.open(tmp_path, GAMES)
    play_games(table, 4, cut=30)
    expected = replayed_summaries(table.journal)
    monkeypatch.setattr(Journal, "records", lambda *a, **k: pytest.fail("listing games replayed the journal"))
    assert table.past_games() == expected
    assert len(expected) == 4 and expected[-1]["phase"] != "game_over"
    monkeypatch.undo()
    table.close()


def test_a_schema_2_journal_gains_its_summaries_once(tmp_path: Path) -> None:
    table = TableService.open(tmp_path, GAMES)
    play_games(table, 3, cut=50)
    expected = table.past_games()
    table.close()
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:  # as schema 2 left it
        db.executescript("DROP TABLE summaries; DROP TABLE requests; UPDATE meta SET value = '2' WHERE key = 'schema';")
    db.close()
    table = TableService.open(tmp_path, GAMES)
    assert table.past_games() == expected
    assert table.journal.unsummarised_games() == []
    table.close()


def test_start_up_folds_only_the_recent_events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("companion.table.RESUME_EVENTS", 300)
    table = TableService.open(tmp_path, GAMES)
    play_games(table, 5)
    last, state = table.journal.last_seq, table.state()
    table.close()
    assert last > 4 * 300
    folded: list[int] = []
    records = Journal.records

    def counting(self: Journal, *args: Any, **kwargs: Any) -> Any:
        for record in records(self, *args, **kwargs):
            folded.append(record.seq)
            yield record

    monkeypatch.setattr(Journal, "records", counting)
    table = TableService.open(tmp_path, GAMES)
    assert table.state() == state
    assert min(folded) > last - 300 - 400, "start-up folded history older than the resume window"
    table.close()


def test_games_are_listed_a_page_at_a_time(tmp_path: Path) -> None:
    table = TableService.open(tmp_path, GAMES)
    play_games(table, 4, cut=10)
    every = table.past_games()
    ids = [game["game"] for game in every]
    assert [g["game"] for g in table.past_games(limit=2)] == ids[2:]
    assert [g["game"] for g in table.past_games(limit=2, before=ids[2])] == ids[:2]
    assert [g["game"] for g in table.past_games(before=ids[3])] == ids[:3]
    assert table.past_games(limit=1) == every[-1:]
    table.close()
