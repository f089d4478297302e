"""Every kind of damaged journal that loses acknowledged events is refused loudly, with what to do;
never served as a shorter game. The marks of a sound journal never refuse it."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.journal import JOURNAL_FILE, MARK_FILE, Journal, JournalError
from tests.companion.test_crash import finish, make_script, start_writer, write_then_kill
from tests.drill.server import Server

WAL = f"{JOURNAL_FILE}-wal"
Damage = Callable[[Path], None]


def zero_bytes(data: Path) -> None:
    (data / JOURNAL_FILE).write_bytes(b"")


def missing_file(data: Path) -> None:
    (data / JOURNAL_FILE).unlink()


def truncated_in_half(data: Path) -> None:
    path = data / JOURNAL_FILE
    os.truncate(path, path.stat().st_size // 2)


def last_page_torn(data: Path) -> None:
    path = data / JOURNAL_FILE
    with path.open("r+b") as handle:
        handle.seek(path.stat().st_size - 4096 + 512)
        handle.write(random.Random(1).randbytes(3584))


def event_deleted(data: Path) -> None:
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        db.execute("DELETE FROM events WHERE seq = 42")
    db.close()


def last_events_deleted(data: Path) -> None:
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        db.execute("DELETE FROM events WHERE seq > 130")
    db.close()


def last_event_rewritten(data: Path) -> None:
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        db.execute("UPDATE events SET accepted = 1 - accepted WHERE seq = (SELECT MAX(seq) FROM events)")
    db.close()


def mark_garbage(data: Path) -> None:
    (data / MARK_FILE).write_bytes(random.Random(2).randbytes(128))


def wal_deleted(data: Path) -> None:
    (data / WAL).unlink()


def wal_header_damaged(data: Path) -> None:
    with (data / WAL).open("r+b") as handle:
        handle.write(b"\0" * 32)


def wal_truncated(data: Path) -> None:
    os.truncate(data / WAL, (data / WAL).stat().st_size - 2000)


CHECKPOINTED: dict[str, Damage] = {
    "zero-byte file": zero_bytes, "missing file": missing_file, "truncated in half": truncated_in_half,
    "last page torn": last_page_torn, "an event deleted": event_deleted, "last events deleted": last_events_deleted,
    "last event rewritten": last_event_rewritten, "mark garbage": mark_garbage,
}
IN_WAL: dict[str, Damage] = {
    "WAL deleted": wal_deleted, "WAL header damaged": wal_header_damaged, "WAL truncated": wal_truncated,
}


@pytest.fixture(scope="module")
def clean_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with 150 events, written and checkpointed by a clean close."""
    root = tmp_path_factory.mktemp("clean")
    script = root / "script.json"
    script.write_text(json.dumps(make_script(games=1)), encoding="utf-8")
    finish(start_writer(root / "data", script, stop_after=150), kill=False)
    return root / "data"


@pytest.fixture(scope="module")
def wal_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with 100 checkpointed events and 40 more acknowledged in the WAL of a killed writer."""
    root = tmp_path_factory.mktemp("wal")
    script = root / "script.json"
    script.write_text(json.dumps(make_script(games=1)), encoding="utf-8")
    write_then_kill(root / "data", script, clean=100, more=40)
    return root / "data"


def damaged_copy(source: Path, into: Path, damage: Damage) -> Path:
    shutil.copytree(source, into)
    with Journal.open(into, writer=False) as journal:  # sound before the damage
        assert journal.last_seq in (140, 150)
    shutil.rmtree(into)
    shutil.copytree(source, into)
    damage(into)
    return into


@pytest.mark.parametrize("name", sorted(CHECKPOINTED))
def test_a_damaged_journal_is_refused_with_what_to_do(clean_journal: Path, tmp_path: Path, name: str) -> None:
    data = damaged_copy(clean_journal, tmp_path / "data", CHECKPOINTED[name])
    with pytest.raises(JournalError) as refused:
        Journal.open(data)
    assert "marmite import" in str(refused.value) or "malformed" in str(refused.value), str(refused.value)


@pytest.mark.parametrize("name", sorted(IN_WAL))
def test_a_damaged_wal_is_refused_with_what_to_do(wal_journal: Path, tmp_path: Path, name: str) -> None:
    data = damaged_copy(wal_journal, tmp_path / "data", IN_WAL[name])
    with pytest.raises(JournalError, match="marmite import"):
        Journal.open(data)


def test_run_refuses_a_zero_byte_journal_in_one_line(clean_journal: Path, tmp_path: Path) -> None:
    data = damaged_copy(clean_journal, tmp_path / "data", zero_bytes)
    server = Server(data)
    assert not server.wait_ready()
    err = server.process.communicate(timeout=10)[1]
    assert server.process.returncode == 2
    assert "150 events were acknowledged" in err and "marmite import" in err and err.count("\n") == 1, err
    assert (data / JOURNAL_FILE).stat().st_size == 0, "the refused file is left as it was"


def test_garbage_after_the_end_of_the_file_loses_nothing_and_is_served(clean_journal: Path, tmp_path: Path) -> None:
    data = damaged_copy(clean_journal, tmp_path / "data",
                        lambda d: (d / JOURNAL_FILE).open("ab").write(random.Random(3).randbytes(5000)) and None)
    with Journal.open(data) as journal:
        assert journal.last_seq == 150
