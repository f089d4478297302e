"""Two tables on one join line, and the hub's judgement of a table's presence: a table whose first rows the hub
holds from another table never says "sent"; a hub restarted during play does not cry "twice" over a presence
older than the rows it holds, and says a real one each time it comes back."""

from __future__ import annotations

import json
import time
from pathlib import Path

from club.link import TableLink
from companion.journal import Journal
from tests.club.inproc import WAIT_SECONDS, Broker, TableClient, WatchedHub, card_row, row


def _until(check: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if callable(check) and check():
            return
        time.sleep(0.05)
    raise AssertionError(what)


def test_the_longer_table_second_on_a_join_line_is_never_sent(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "hub")
    hub = WatchedHub(broker, tmp_path / "hub")
    try:
        other = TableClient(broker, 1)  # another table on table 1's join line sends its 2 rows first
        assert other.publish(json.dumps(row(1, 1, {"type": "new_game", "players": ["Zoé", "Yann", "Xavier"]}))
                             .encode())
        assert other.publish(json.dumps(row(1, 2, {"type": "undo"})).encode())
        hub.wait_held(1, 2)
        other.close()
        with Journal.open(tmp_path / "real") as journal:  # the real table 1: 5 rows of its own game
            journal.append({"type": "new_game", "players": ["Ana", "Bob", "Cléo"]}, True, None)
            for _ in range(4):
                journal.append({"type": "undo"}, True, None)
            link = TableLink(journal, broker.url(1), 1).start()
            try:
                _until(lambda: link.status().conflict, f"no conflict: {link.status()}")
                assert not link.status().sent
                _until(lambda: any(": twice: " in line for line in hub.lines), f"not named: {hub.lines}")
                assert hub.hub.held(1) == 2, "the real table's rows were stored after the other table's"
                assert [r.event["type"] for r in hub.hub.store.rows(1)] == ["new_game", "undo"]
            finally:
                link.close()
        assert hub.violations == []
    finally:
        hub.close()
        broker.close()


def test_an_honest_table_resumes_and_is_sent(tmp_path: Path) -> None:
    """The fingerprint in the ack matches a table's own row: it resumes and says sent, no conflict."""
    broker = Broker(tmp_path / "hub")
    hub = WatchedHub(broker, tmp_path / "hub")
    try:
        with Journal.open(tmp_path / "real") as journal:
            journal.append({"type": "new_game", "players": ["Ana", "Bob", "Cléo"]}, True, None)
            journal.append({"type": "undo"}, True, None)
            link = TableLink(journal, broker.url(1), 1).start()
            try:
                _until(lambda: link.status().acked == 2, f"not sent: {link.status()}")
            finally:
                link.close()
            journal.append({"type": "undo"}, True, None)
            link = TableLink(journal, broker.url(1), 1).start()
            try:
                _until(lambda: link.status().acked == 3, f"not resumed: {link.status()}")
                assert link.status().sent and not link.status().conflict
            finally:
                link.close()
        assert not any(": twice: " in line for line in hub.lines), hub.lines
    finally:
        hub.close()
        broker.close()


def _presence(table: TableClient, last_seq: int, *, retain: bool) -> None:
    body = json.dumps({"state": "online", "last_seq": last_seq}).encode()
    table.client.publish(table.topics.status, body, qos=1, retain=retain).wait_for_publish(5)


def test_a_restarted_hub_judges_only_live_presences(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "hub")
    hub = WatchedHub(broker, tmp_path / "hub")
    table = TableClient(broker, 1)
    try:
        _presence(table, 1, retain=True)  # the table's presence is throttled; its rows go out at once
        for seq in (1, 2, 3):
            assert table.publish(card_row(1, seq))
        hub.wait_held(1, 3)
        hub.close()
        hub = WatchedHub(broker, tmp_path / "hub")  # restarted during play: the retained presence says 1
        _until(lambda: hub.hub.tables[1].last_seq == 1, "the retained presence never came")
        assert not any(": twice: " in line for line in hub.lines), hub.lines
        _presence(table, 1, retain=False)  # a live presence shorter than the rows held: two tables
        _until(lambda: sum(": twice: " in line for line in hub.lines) == 1, f"not said: {hub.lines}")
        _presence(table, 3, retain=False)  # resolved
        _until(lambda: hub.hub.tables[1].last_seq == 3, "the presence never came")
        _presence(table, 2, retain=False)  # and a real one again later is said again
        _until(lambda: sum(": twice: " in line for line in hub.lines) == 2, f"not said again: {hub.lines}")
    finally:
        table.close()
        hub.close()
        broker.close()
