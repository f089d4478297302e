"""The journal: WAL, full sync, every event with its outcome and time, several games, reopened intact."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.journal import JOURNAL_FILE, Journal, JournalError
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


def test_a_second_writer_that_slips_through_fails_loudly_and_appends_nothing(tmp_path: Path) -> None:
    first, second = Journal.open(tmp_path), Journal.open(tmp_path)
    assert first.append(new_game(), True, None) == 1
    with pytest.raises(JournalError, match="another process wrote"):
        second.append(card("pea-1a"), False, "wrong_phase")
    assert first.append(menu("Bruno", "pea"), True, None) == 2
    assert [record.seq for record in first.records()] == [1, 2]
    first.close()
    second.close()


def test_an_event_that_cannot_be_stored_rolls_back_and_the_next_one_is_recorded(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append(new_game(), True, None)
        with pytest.raises(JournalError):
            journal.append({"type": "card", "card": "\ud800"}, False, "unknown_card")
        with pytest.raises(JournalError):
            journal.append({"type": "card", "card": float("nan")}, False, "unknown_card")
        assert not journal._db.in_transaction
        assert journal.append(card("pea-1a"), False, "wrong_phase") == 2


def test_a_failure_inside_the_transaction_rolls_back(tmp_path: Path) -> None:
    class Odd:
        """A value the JSON encoder takes but SQLite cannot bind (after BEGIN)."""

    with Journal.open(tmp_path) as journal:
        journal.append(new_game(), True, None)
        with pytest.raises(JournalError):
            journal.append(card("pea-1a"), False, "wrong_phase", Odd())  # type: ignore[arg-type]
        assert not journal._db.in_transaction
        assert journal.append(card("pea-1a"), False, "wrong_phase") == 2


def test_wal_and_full_sync_are_read_back_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(JournalError, match="journal_mode=memory"):  # SQLite cannot give WAL here
        Journal(Path(":memory:"))


def test_a_schema_2_journal_is_migrated_in_place(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / JOURNAL_FILE)
    db.executescript(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, game INTEGER, received_at TEXT NOT NULL, type TEXT NOT NULL,"
        " body TEXT NOT NULL, accepted INTEGER NOT NULL, reason TEXT, source TEXT NOT NULL, tag TEXT);"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES ('schema', '2');"
    )
    db.execute("INSERT INTO events VALUES (1, 1, '2025-01-01T00:00:00.000+00:00', 'new_game', ?, 1, NULL, 'api',"
               " NULL)", (json.dumps(new_game()),))
    db.commit()
    db.close()
    with Journal.open(tmp_path) as journal:
        assert journal._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "4"
        assert journal.last_seq == 1 and journal.summaries() == []
        assert journal.append(card("pea-1a"), False, "wrong_phase", key="k-1") == 2
        assert journal.answer_for("k-1") is not None
