"""Crash safety of the journal: a writer process killed (SIGKILL) at random instants loses no
acknowledged event and leaves nothing half-written; a torn or corrupt WAL tail, or garbage after
the database, never corrupts earlier history; a file that is not a journal is refused untouched.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.chaud_devant.simulate import TABLE_NOISE, simulate
from companion.journal import JOURNAL_FILE, MARK_FILE, Journal, JournalError
from companion.referee import Referee
from marmite.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
KILLS = 100
Script = list[tuple[dict[str, Any], bool, str | None]]


def make_script(games: int, seed: int = 2026) -> Script:
    """Simulated games back to back, each event with the referee's outcome (the writer repeats them)."""
    rng = random.Random(seed)
    referee = Referee(GAMES)
    script: Script = []
    for _ in range(games):
        for event in simulate(rng, players=rng.choice((3, 4, 5)), noise=TABLE_NOISE).events:
            outcome = referee.apply(event)
            script.append((event, outcome.accepted, None if outcome.reason is None else str(outcome.reason)))
    return script


def start_writer(data_dir: Path, script_file: Path, stop_after: int | None = None,
                 hold: bool = False) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "tests.companion.crash_writer", str(data_dir), str(script_file)]
    if stop_after is not None:
        args.append(str(stop_after))
        if hold:
            args.append("hold")
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def finish(writer: subprocess.Popen[str], kill: bool) -> list[str]:
    """SIGKILL the writer (or let it end), then every line it printed."""
    if kill:
        writer.send_signal(signal.SIGKILL)
    assert writer.stdout is not None
    lines = writer.stdout.read().splitlines()
    writer.wait(timeout=30)
    writer.stdout.close()
    return lines


def acknowledged(lines: list[str]) -> list[int]:
    return [int(line) for line in lines if line.isdigit()]


def check_journal(data_dir: Path, script: Script, acked: list[int]) -> int:
    """Every acknowledged event present and identical, seqs 1..n in order, every body whole; n."""
    with sqlite3.connect(data_dir / JOURNAL_FILE) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = raw.execute("SELECT seq, body FROM events ORDER BY rowid").fetchall()
    raw.close()
    for _, body in rows:
        json.loads(body)  # nothing half-written
    with Journal.open(data_dir) as journal:
        records = list(journal.records())
    seqs = [record.seq for record in records]
    assert seqs == list(range(1, len(records) + 1)) == [seq for seq, _ in rows]
    for record in records:
        event, accepted, reason = script[(record.seq - 1) % len(script)]
        assert (record.body, record.accepted, record.reason, record.source) == (event, accepted, reason,
                                                                                "crash-writer")
    assert all(1 <= seq <= len(records) for seq in acked), "an acknowledged event is missing"
    return len(records)


def test_sigkill_at_random_instants_loses_no_acknowledged_event(tmp_path: Path) -> None:
    script = make_script(games=3)
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script), encoding="utf-8")
    data_dir = tmp_path / "data"
    rng = random.Random(11)
    acked: list[int] = []
    writing_kills = 0
    for _ in range(KILLS):
        writer = start_writer(data_dir, script_file)
        lines: list[str] = []
        if rng.random() < 0.2:
            time.sleep(rng.uniform(0, 0.1))  # maybe while Python starts or the journal opens
        else:
            assert writer.stdout is not None
            lines.append(writer.stdout.readline().strip())  # "ready n"
            lines.append(writer.stdout.readline().strip())  # its first acknowledgement: writing is under way
            writing_kills += 1
            time.sleep(rng.uniform(0, 0.02))
        lines += finish(writer, kill=True)
        run = acknowledged(lines)
        if lines and lines[0].startswith("ready "):
            held = int(lines[0].split()[1])
            assert held >= max(acked, default=0), "the restarted writer found fewer events than acknowledged"
            assert run == list(range(held + 1, held + 1 + len(run)))
        else:
            assert not run
        acked += run
        check_journal(data_dir, script, acked)
    assert len(acked) >= writing_kills > 0, "the writer never got to write"
    held = check_journal(data_dir, script, acked)
    lines = finish(start_writer(data_dir, script_file, stop_after=held + 100), kill=False)
    assert acknowledged(lines) == list(range(held + 1, held + 101)), "a restart after the last kill goes on"
    assert check_journal(data_dir, script, acked + acknowledged(lines)) == held + 100


def write_then_kill(data_dir: Path, script_file: Path, clean: int, more: int) -> None:
    """`clean` events written and checkpointed by a clean close, then `more` committed to the WAL by
    a writer killed with the journal open (so the WAL ends on a committed frame, not a torn one)."""
    assert finish(start_writer(data_dir, script_file, stop_after=clean), kill=False)[-1] == str(clean)
    assert not (data_dir / f"{JOURNAL_FILE}-wal").exists(), "a clean close checkpoints the WAL"
    writer = start_writer(data_dir, script_file, stop_after=clean + more, hold=True)
    assert writer.stdout is not None
    while (line := writer.stdout.readline().strip()) != "held":
        assert line, "the writer died"
    lines = finish(writer, kill=True)
    assert not lines


def held_by_copy(data_dir: Path, into: Path) -> int:
    """How many events a copy of the data dir (database, WAL and index) holds once opened."""
    into.mkdir()
    for path in data_dir.iterdir():
        shutil.copyfile(path, into / path.name)
    with Journal.open(into) as journal:
        return journal.last_seq


@pytest.mark.parametrize("damage", ["truncate mid-frame", "garbage over the tail"])
def test_a_torn_wal_tail_that_loses_acknowledged_events_is_refused(tmp_path: Path, damage: str) -> None:
    script = make_script(games=1)
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script), encoding="utf-8")
    data_dir = tmp_path / "data"
    write_then_kill(data_dir, script_file, clean=100, more=40)
    wal = data_dir / f"{JOURNAL_FILE}-wal"
    size = wal.stat().st_size
    held = held_by_copy(data_dir, tmp_path / "undamaged")
    assert held >= 140 and size > 4096, "the killed writer left its events in the WAL"
    if damage == "truncate mid-frame":
        os.truncate(wal, size - 2000)
    else:
        with wal.open("r+b") as handle:
            handle.seek(size - 3000)
            handle.write(random.Random(3).randbytes(3000))
    with pytest.raises(JournalError, match="acknowledged") as refused:
        Journal.open(data_dir)
    assert "marmite import" in str(refused.value), "the refusal says what to do"
    (data_dir / MARK_FILE).unlink()  # the operator accepts the loss: the events before the damage remain
    kept = check_journal(data_dir, script, [])
    assert 100 <= kept < held, "the damaged frames must be dropped, the checkpointed events kept"
    lines = finish(start_writer(data_dir, script_file, stop_after=kept + 10), kill=False)
    assert acknowledged(lines) == list(range(kept + 1, kept + 11)), "appending goes on after the damage"
    assert check_journal(data_dir, script, []) == kept + 10


def test_garbage_after_the_database_keeps_the_history(tmp_path: Path) -> None:
    script = make_script(games=1)
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script), encoding="utf-8")
    data_dir = tmp_path / "data"
    finish(start_writer(data_dir, script_file, stop_after=150), kill=False)
    with (data_dir / JOURNAL_FILE).open("ab") as handle:
        handle.write(random.Random(4).randbytes(5000))
    assert check_journal(data_dir, script, []) == 150
    finish(start_writer(data_dir, script_file, stop_after=160), kill=False)
    assert check_journal(data_dir, script, []) == 160


def test_a_file_that_is_not_a_journal_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    content = b"Chaud Devant ! scores\n" * 300
    path.write_bytes(content)
    with pytest.raises(JournalError) as raised:
        Journal.open(tmp_path)
    assert str(path) in str(raised.value)
    assert path.read_bytes() == content
    assert sorted(os.listdir(tmp_path)) == [JOURNAL_FILE]
