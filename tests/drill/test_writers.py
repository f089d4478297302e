"""One writer per data dir, and a journal that disagrees with itself is never served."""

from __future__ import annotations

import subprocess
from pathlib import Path

from companion.journal import Journal
from tests.companion.chaud_devant.rulebook import card, new_game, started
from tests.drill.server import MARMITE, ROOT, Server


def test_a_second_run_is_refused_while_export_and_replay_still_work(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Server(data)
    try:
        assert first.wait_ready()
        for event in started():
            assert first.post("/api/events", event)[0] == 200
        second = Server(data)
        assert not second.wait_ready(), "a second marmite run served a data dir in use"
        _, err = second.process.communicate(timeout=10)
        assert second.process.returncode == 1
        assert str(data) in err and f"pid {first.process.pid}" in err and err.count("\n") == 1, err
        exported = subprocess.run([*MARMITE, "export", "--data", str(data)], cwd=ROOT, capture_output=True,
                                  text=True, check=False)
        assert exported.returncode == 0 and len(exported.stdout.splitlines()) == len(started())
        replayed = subprocess.run([*MARMITE, "replay", "-"], input=exported.stdout, cwd=ROOT, capture_output=True,
                                  text=True, check=False)
        assert replayed.returncode == 0
        assert first.post("/api/events", card("pea-1a"))[0] == 200, "the first run still serves"
    finally:
        first.kill()
    again = Server(data)  # the lock died with the killed process
    try:
        assert again.wait_ready()
    finally:
        again.kill()


def test_run_refuses_a_journal_that_disagrees_with_itself(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append(new_game(), True, None)
        journal.append(card("pea-1a"), True, None)  # replay says wrong_phase (the menus are not chosen)
    server = Server(tmp_path)
    assert not server.wait_ready()
    err = server.process.communicate(timeout=10)[1]
    assert server.process.returncode == 2
    assert "disagrees" in err and "event 2" in err and "wrong_phase" in err, err
