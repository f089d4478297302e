"""Every tag read exactly once: the double-read policy, atomic under threads, rebuilt after a crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.reads import DOUBLE_READ_SECONDS, RESTART_GRACE_SECONDS
from companion.table import TableService
from companion.tags import simulated_uid
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import started
from tests.companion.clock import Clock

ROOT = Path(__file__).resolve().parents[2]


def open_table(data_dir: Path, clock: Clock | None = None) -> TableService:
    return TableService(Journal.open(data_dir), GAMES, clock=clock or Clock())


def test_a_card_read_twice_at_once_from_many_threads_is_journaled_once(tmp_path: Path) -> None:
    table = open_table(tmp_path)
    for event in started():
        table.submit(event)
    before = table.journal.last_seq
    barrier = threading.Barrier(8)
    answers: list[object] = []

    def read() -> None:
        barrier.wait()
        answers.append(table.tag_seen(simulated_uid("pea-3a")))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert table.journal.last_seq == before + 1
    assert sum(answer is not None for answer in answers) == 1
    assert [r.body for r in table.journal.records(after=before)] == [{"type": "card", "card": "pea-3a"}]


def test_the_window_ends_and_an_undo_frees_the_card(tmp_path: Path) -> None:
    clock = Clock()
    table = open_table(tmp_path, clock)
    for event in started():
        table.submit(event)
    uid = simulated_uid("pea-3a")
    assert table.tag_seen(uid) is not None
    clock.now += DOUBLE_READ_SECONDS - 0.1
    assert table.tag_seen(uid) is None
    clock.now += 0.2
    late = table.tag_seen(uid)
    assert late is not None and late.reason == "already_played"
    table.undo()
    again = table.tag_seen(uid)  # the same card dropped again after an undo is a new play
    assert again is not None and again.accepted


def test_a_card_replayed_in_the_next_round_is_a_new_play_even_within_the_window(tmp_path: Path) -> None:
    table = open_table(tmp_path)
    for event in started(("A", "B", "C")):
        table.submit(event)
    order = [code for code in GAMES.kinds["chaud_devant"].tag_codes if not code.startswith("menu-")]
    last = None
    for code in order:  # hidden hands: any unplayed card is accepted, until the round ends
        if table.state()["phase"] != "play":
            break
        answer = table.tag_seen(simulated_uid(code))
        assert answer is not None and answer.accepted
        last = code
    assert last is not None and table.state()["phase"] == "menu"
    assert table.tag_seen(simulated_uid(last)) is None  # the round's last card, still in the pot
    for name, choice in zip(("A", "B", "C"), ("onion", "pea", "none"), strict=True):
        table.submit({"type": "menu", "player": name, "menu": choice})
    replayed = table.tag_seen(simulated_uid(order[0]))
    assert replayed is not None and replayed.accepted


@pytest.mark.slow
def test_a_card_read_again_after_a_sigkill_and_restart_is_ignored(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from companion.journal import Journal
        from companion.table import TableService
        from companion.tags import simulated_uid
        from marmite.games import GAMES
        from tests.companion.chaud_devant.rulebook import started
        table = TableService(Journal.open(__import__("pathlib").Path({str(tmp_path)!r})), GAMES)
        for event in started():
            table.submit(event)
        answer = table.tag_seen(simulated_uid("pea-3a"), source="reader:usb")
        print("played", answer.seq, flush=True)
        time.sleep(60)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    line = child.stdout.readline()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert line.startswith("played ")
    played = int(line.split()[1])
    clock = Clock()
    table = open_table(tmp_path, clock)
    assert table.journal.last_seq == played
    assert table.tag_seen(simulated_uid("pea-3a"), source="reader:usb") is None  # re-delivered: ignored
    assert table.journal.last_seq == played
    clock.now += RESTART_GRACE_SECONDS
    late = table.tag_seen(simulated_uid("pea-3a"))
    assert late is not None and late.reason == "already_played"


def test_only_the_reads_just_before_the_stop_are_guarded_after_a_restart(tmp_path: Path) -> None:
    table = open_table(tmp_path)
    for event in started():
        table.submit(event)
    table.tag_seen(simulated_uid("pea-3a"))
    table.close()
    with Journal.open(tmp_path) as journal:  # an hour later, another card is played
        journal._db.execute("UPDATE events SET received_at = '2000-01-01T00:00:00.000+00:00'")
        journal.append({"type": "card", "card": "pea-4a"}, True, None, "reader:sim", tag="pea-4a")
    restarted = open_table(tmp_path)
    assert restarted.tag_seen(simulated_uid("pea-4a")) is None
    old = restarted.tag_seen(simulated_uid("pea-3a"))
    assert old is not None and old.reason == "already_played"
