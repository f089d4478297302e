"""`marmite replay` and `marmite export` as outside tools call them: real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.journal import Journal
from companion.referee import Referee
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import card, menu, new_game, started

MARMITE = [sys.executable, "-m", "marmite.cli"]


def write_log(path: Path, events: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def test_replay_prints_the_state_and_exits_zero_with_refusals(tmp_path: Path) -> None:
    log = write_log(tmp_path / "game.jsonl", [*started(), card("pea-3a"), card("pea-3a")])
    done = subprocess.run([*MARMITE, "replay", str(log)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert set(state) == {"phase", "round", "turn", "stars", "rounds", "pot", "winners", "refused", "revokes"}
    assert state["refused"] == [{"line": 7, "reason": "already_played"}]


def test_replay_reads_standard_input_and_skips_blank_lines() -> None:
    text = json.dumps(new_game()) + "\n\n   \n" + json.dumps(menu("Bruno", "x")) + "\n"
    done = subprocess.run([*MARMITE, "replay", "-"], input=text, capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert json.loads(done.stdout)["refused"] == [{"line": 4, "reason": "unknown_card"}]


def test_a_malformed_line_exits_2_naming_the_line_with_nothing_on_stdout(tmp_path: Path) -> None:
    for bad in ("[1, 2]", '{"type": "shout"}', "{not json", '"card"', '{"card": "pea-1a"}'):
        log = tmp_path / "bad.jsonl"
        log.write_text(json.dumps(new_game()) + "\n\n" + bad + "\n", encoding="utf-8")
        done = subprocess.run([*MARMITE, "replay", str(log)], capture_output=True, text=True, check=False)
        assert done.returncode == 2, bad
        assert done.stdout == ""
        assert "line 3" in done.stderr and done.stderr.count("\n") == 1


def test_a_line_too_deep_to_read_or_with_nan_is_malformed_for_replay_and_import(tmp_path: Path) -> None:
    deep = '{"type": "undo", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"  # JSON, but past any parser's stack
    for bad in (deep, '{"type": "undo", "x": NaN}', '{"type": "undo", "x": -Infinity}'):
        log = tmp_path / "bad.jsonl"
        log.write_text(json.dumps(new_game()) + "\n" + bad + "\n", encoding="utf-8")
        for command in (["replay", str(log)], ["import", str(log), "--data", str(tmp_path / "data")]):
            done = subprocess.run([*MARMITE, *command], capture_output=True, text=True, check=False)
            assert done.returncode == 2, (command[0], bad[:40], done.stderr[-300:])
            assert done.stdout == ""
            assert "line 2" in done.stderr and done.stderr.count("\n") == 1


def test_export_then_replay_gives_the_live_state(tmp_path: Path) -> None:
    events = [new_game(("A", "B")), *started(), card("pea-1a"), menu("Zoé", "pea"), card("pea-2a")]
    referee = Referee(GAMES)
    with Journal.open(tmp_path) as journal:
        for event in events:
            reason = referee.decide(event)
            journal.append(event, reason is None, None if reason is None else str(reason))
            referee.apply(event)
    exported = subprocess.run([*MARMITE, "export", "--data", str(tmp_path)], capture_output=True, text=True,
                              check=True).stdout
    lines = exported.splitlines()
    assert json.loads(lines[0])["type"] == "new_game" and len(lines) == len(events) - 1
    replayed = subprocess.run([*MARMITE, "replay", "-"], input=exported, capture_output=True, text=True,
                              check=True).stdout
    state = json.loads(replayed)
    assert state["pot"]["cards"] == ["pea-1a", "pea-2a"]
    assert state["refused"] == [{"line": 7, "reason": "unknown_player"}]


def test_export_chooses_a_game_and_lists_them(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.append(new_game(("A", "B", "C")), True, None)
        journal.append(menu("A", "pea"), True, None)
        journal.append(new_game(("X", "Y", "Z")), True, None)
    listing = subprocess.run([*MARMITE, "export", "--data", str(tmp_path), "--list"], capture_output=True,
                             text=True, check=True).stdout
    assert [line.split("\t")[0] for line in listing.splitlines()] == ["1", "3"]
    assert [line.split("\t")[2] for line in listing.splitlines()] == ["2 events", "1 event"]
    assert [line.split("\t")[4] for line in listing.splitlines()] == ["unfinished", "current"]
    first = subprocess.run([*MARMITE, "export", "--data", str(tmp_path), "--game", "1"], capture_output=True,
                           text=True, check=True).stdout
    assert len(first.splitlines()) == 2
    missing = subprocess.run([*MARMITE, "export", "--data", str(tmp_path), "--game", "2"], capture_output=True,
                             text=True, check=False)
    assert missing.returncode == 1 and "no game 2" in missing.stderr and missing.stdout == ""


def test_export_list_keeps_five_columns_whatever_the_names(tmp_path: Path) -> None:
    """The contract allows any name: a tab or a newline in one is written escaped, never a new column or line."""
    with Journal.open(tmp_path) as journal:
        journal.append(new_game(("Ana\tBé", "Jo\nJo", "Cléo")), True, None)
    listing = subprocess.run([*MARMITE, "export", "--data", str(tmp_path), "--list"], capture_output=True,
                             text=True, check=True).stdout
    assert [line.split("\t") for line in listing.splitlines()][0][3] == "Ana\\tBé, Jo\\nJo, Cléo"
    assert len(listing.splitlines()) == 1 and len(listing.splitlines()[0].split("\t")) == 5


def test_export_of_a_corrupt_journal_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "marmite.sqlite3").write_bytes(b"this is not a database" * 100)
    done = subprocess.run([*MARMITE, "export", "--data", str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "marmite.sqlite3" in done.stderr and "Traceback" not in done.stderr
    assert (tmp_path / "marmite.sqlite3").read_bytes() == b"this is not a database" * 100


def test_export_by_default_writes_the_tables_current_game_even_when_resumed(tmp_path: Path) -> None:
    """Found in review: after a resume, a bare export wrote the newer, replaced game."""
    table = TableService.open(tmp_path, GAMES)
    for event in (new_game(("A", "B", "C")), menu("A", "pea"), new_game(("X", "Y", "Z"))):
        table.submit(event)
    table.resume_game(1)
    live = table.state()
    table.close()
    exported = subprocess.run([*MARMITE, "export", "--data", str(tmp_path)], capture_output=True, text=True,
                              check=True).stdout
    assert json.loads(exported.splitlines()[0])["players"] == ["A", "B", "C"]
    replayed = json.loads(subprocess.run([*MARMITE, "replay", "-"], input=exported, capture_output=True,
                                         text=True, check=True).stdout)
    replayed.pop("refused")
    assert replayed == {key: value for key, value in live.items() if key in replayed}
