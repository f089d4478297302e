"""`marmite import` as the contract states it: all or nothing, judged as replay judges, beside a run refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from companion.chaud_devant.simulate import TABLE_NOISE, simulate
from companion.journal import Journal
from companion.table import TableService
from companion.writer_lock import WriterLock
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import card, menu, new_game, started

MARMITE = [sys.executable, "-m", "marmite.cli"]


def marmite(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MARMITE, *args], input=stdin, capture_output=True, text=True, check=False)


def lines_of(events: list[dict[str, object]]) -> str:
    return "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events)


def played_game(seed: int) -> list[dict[str, object]]:
    return list(simulate(random.Random(seed), players=4, noise=TABLE_NOISE).events)


def test_export_import_export_gives_the_same_log(tmp_path: Path) -> None:
    source, copy = tmp_path / "table", tmp_path / "copy"
    with _table(source) as table:
        for event in played_game(5):
            table.submit(event)
    exported = marmite("export", "--data", str(source))
    assert exported.returncode == 0, exported.stderr
    imported = marmite("import", "-", "--data", str(copy), stdin=exported.stdout)
    assert (imported.returncode, imported.stdout) == (0, ""), imported.stderr
    again = marmite("export", "--data", str(copy))
    assert again.stdout == exported.stdout
    assert json.loads(marmite("replay", "-", stdin=again.stdout).stdout) == \
        json.loads(marmite("replay", "-", stdin=exported.stdout).stdout)


class _table:
    """A table service on a data dir, closed on exit."""

    def __init__(self, data: Path) -> None:
        self.service = TableService.open(data, GAMES)

    def __enter__(self) -> TableService:
        return self.service

    def __exit__(self, *exc: object) -> None:
        self.service.close()


def test_each_event_is_judged_as_replay_judges_it_and_games_follow_the_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _table(data) as table:  # the table already has a game under way
        for event in started():
            table.submit(event)
    log = [card("pea-1a"), new_game(("A", "B")), *started(), card("pea-1a"), menu("Zoé", "pea"), card("pea-2a")]
    file = tmp_path / "log.jsonl"
    file.write_text(lines_of(log), encoding="utf-8")
    assert marmite("import", str(file), "--data", str(data)).returncode == 0
    replayed = json.loads(marmite("replay", str(file)).stdout)
    with Journal.open(data) as journal:
        records = [record for record in journal.records() if record.source == "import"]
        games = journal.games()
    refused = [{"line": number, "reason": record.reason}
               for number, record in enumerate(records, start=1) if not record.accepted]
    assert refused == replayed["refused"]
    assert [record.body for record in records] == log
    assert len(games) == 2 and games[-1].game == records[2].seq
    with _table(data) as table:  # the imported game is now the table's, and the journal agrees with itself
        assert table.state()["pot"] == replayed["pot"]
        assert [game["game"] for game in table.past_games()] == [game.game for game in games]


def test_a_malformed_file_changes_nothing_and_names_the_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _table(data) as table:
        table.submit(new_game())
    before = marmite("export", "--data", str(data)).stdout
    for bad in ("{not json", '{"type": "shout"}', '{"type": "card", "card": NaN}',
                '{"type": "card", "card": "\\ud800"}'):
        file = tmp_path / "bad.jsonl"
        file.write_text(lines_of([new_game(), menu("Bruno", "pea")]) + "\n" + bad + "\n", encoding="utf-8")
        done = marmite("import", str(file), "--data", str(data))
        assert done.returncode == 2, bad
        assert done.stdout == "" and "line 4" in done.stderr and done.stderr.count("\n") == 1, done.stderr
        assert marmite("export", "--data", str(data)).stdout == before


def test_import_refuses_while_a_run_serves_the_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    file = tmp_path / "log.jsonl"
    file.write_text(lines_of([new_game()]), encoding="utf-8")
    data.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path;"
                               "from companion.writer_lock import WriterLock;"
                               f"lock = WriterLock.acquire(Path({str(data)!r})); print('held', flush=True);"
                               "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        done = marmite("import", str(file), "--data", str(data))
        assert done.returncode == 1 and done.stdout == ""
        assert str(data) in done.stderr and f"pid {holder.pid}" in done.stderr
    finally:
        holder.kill()
        holder.wait()
    assert marmite("import", str(file), "--data", str(data)).returncode == 0, "the lock died with its process"
    with WriterLock.acquire(data):
        pass
