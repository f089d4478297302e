"""A disk that refuses writes: nothing half-recorded, the table told, the reader not blamed, and no
start on a read-only data dir."""

from __future__ import annotations

import queue
import stat
import subprocess
import time
from pathlib import Path

import pytest

from companion.journal import Journal, StorageError
from companion.reads import TagSeen
from companion.table import TableService
from companion.tags import simulated_uid
from marmite.games import GAMES
from marmite.wiring import ReaderPump
from tests.companion.chaud_devant.rulebook import new_game
from tests.drill.server import MARMITE, PIN, ROOT, free_port


def fill_the_disk(journal: Journal) -> None:
    """SQLite's max_page_count: the database may not grow by one page more (works as root too)."""
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")


def test_a_full_disk_records_nothing_and_appending_resumes_after(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append(new_game(), True, None)
        fill_the_disk(journal)
        acknowledged = 1
        with pytest.raises(StorageError) as full:
            for number in range(1000):
                journal.append({"type": "card", "card": f"tag:{number:040x}"}, False, "unknown_card")
                acknowledged += 1
        assert full.value.kind == "full" and not journal._db.in_transaction
        assert journal.last_seq == acknowledged
        journal._db.execute("PRAGMA max_page_count=1073741823")
        assert journal.append(new_game(), True, None) == acknowledged + 1
    with Journal.open(tmp_path) as journal:
        assert [r.seq for r in journal.records()] == list(range(1, acknowledged + 2))


class ListReader:
    """A reader that only puts what the test hands it on the queue."""

    name = "test"

    def start(self, out: queue.Queue[object]) -> None:
        self.out = out

    def close(self) -> None:
        pass


def test_the_reader_path_reports_storage_trouble_not_a_broken_reader(tmp_path: Path) -> None:
    table = TableService.open(tmp_path, GAMES)
    table.submit(new_game())
    fill_the_disk(table.journal)
    reader = ListReader()
    pump = ReaderPump(table, reader).start()  # type: ignore[arg-type]
    done: list[str] = []
    try:
        for number in range(300):
            reader.out.put(TagSeen(reader.name, f"{number:08x}", done=lambda n=number: done.append(str(n))))
        deadline = time.monotonic() + 30
        while table.storage_trouble is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.storage_trouble == "full"
        view = table.table_view()
        assert all(reader["ok"] for reader in view["readers"]), "the reader was blamed for the disk"
        assert len(done) < 300, "a read that was not recorded must not be acknowledged to the reader"
        table.journal._db.execute("PRAGMA max_page_count=1073741823")
        reader.out.put(TagSeen(reader.name, simulated_uid("menu-pea@2"), done=lambda: done.append("menu")))
        while "menu" not in done and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "menu" in done and table.storage_trouble is None
    finally:
        pump.close()
        table.close()


def refuses_writes(folder: Path) -> bool:
    try:
        (folder / ".probe").touch()
    except OSError:
        return True
    (folder / ".probe").unlink()
    return False


def test_run_refuses_a_read_only_data_dir_with_the_fix_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if not refuses_writes(folder):  # root writes through chmod: sysfs refuses even root
        folder = Path("/sys/kernel")
        if not refuses_writes(folder):
            pytest.skip("no folder here refuses writes to this user")
    try:
        done = subprocess.run([*MARMITE, "run", "--host", "127.0.0.1", "--port", str(free_port()), "--data",
                               str(folder), "--pin", PIN], cwd=ROOT, capture_output=True, text=True,
                              timeout=60, check=False)
    finally:
        (tmp_path / "read-only").chmod(0o700)
    assert done.returncode == 2
    assert str(folder) in done.stderr and "fix:" in done.stderr and done.stderr.count("\n") == 1, done.stderr
