"""The journal: WAL, full sync, every event with its outcome and time, several games, reopened intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.journal import Journal
from tests.companion.chaud_devant.rulebook import card, menu, new_game


def test_journal_is_wal_with_full_synchronous(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_every_event_is_recorded_with_outcome_reason_time_and_source(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        assert journal.append(new_game(), True, None, "api") == 1
        assert journal.append(card("pea-1a"), False, "wrong_phase", "reader:rc522") == 2
        records = list(journal.records())
    assert [r.seq for r in records] == [1, 2]
    assert records[1].accepted is False and records[1].reason == "wrong_phase"
    assert records[1].source == "reader:rc522" and records[1].received_at.endswith("+00:00")
    assert records[1].body == card("pea-1a")


def test_seq_keeps_increasing_across_reopen_and_games_are_attributed(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append(card("pea-1a"), False, "no_game")
        journal.append(new_game(), True, None)
        journal.append(menu("Bruno", "pea"), True, None)
    with Journal.open(tmp_path) as journal:
        assert journal.last_seq == 3 and journal.current_game == 2
        journal.append(new_game(("A", "B")), False, "bad_setup")
        journal.append(new_game(("A", "B", "C")), True, None)
        games = journal.games()
        assert [g.game for g in games] == [2, 5]
        assert [r.seq for r in journal.records(game=2)] == [2, 3, 4]
        assert [r.seq for r in journal.records(after=3)] == [4, 5]


def test_a_duplicate_seq_fails_loudly(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append(new_game(), True, None)
        try:
            journal._db.execute("INSERT INTO events (seq, game, received_at, type, body, accepted, source)"
                                " VALUES (1, 1, 'now', 'card', '{}', 1, 'x')")
        except sqlite3.IntegrityError:
            pass
        else:
            raise AssertionError("a duplicate seq was accepted")


def test_two_writers_on_one_data_dir_never_share_a_seq(tmp_path: Path) -> None:
    first, second = Journal.open(tmp_path), Journal.open(tmp_path)
    assert first.append(new_game(), True, None) == 1
    assert second.append(card("pea-1a"), False, "wrong_phase") == 2
    assert first.append(new_game(("A", "B", "C")), True, None) == 3
    assert second.append(menu("A", "pea"), True, None) == 4
    assert [(r.seq, r.game) for r in first.records()] == [(1, 1), (2, 1), (3, 3), (4, 3)]
    first.close()
    second.close()
