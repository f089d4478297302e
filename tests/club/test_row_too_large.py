"""A table whose old journal holds a row larger than the hub and the broker take (an older size check counted
raw bytes): its link never sends it (the broker would drop the connection for it, at every reconnection),
stops there, and the table says so; nothing after it is sent in its place."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from club.link import LinkStatus, TableLink
from club.store import MAX_ROW_BYTES
from club.table import LinkAnnouncer
from companion.journal import Journal
from tests.club.inproc import WAIT_SECONDS, Broker, WatchedHub


def _old_journal(directory: Path) -> None:
    """Rows 1 to 3, row 2 made larger than a row may be, as an older table could journal it."""
    with Journal.open(directory) as journal:
        journal.append({"type": "new_game", "players": ["Ana", "Bob", "Cléo"]}, True, None)
        journal.append({"type": "undo"}, True, None)
        journal.append({"type": "undo"}, True, None)
    (file,) = [path for path in directory.iterdir() if path.suffix == ".sqlite3"]
    with contextlib.closing(sqlite3.connect(file)) as db, db:
        db.execute("UPDATE events SET body = ? WHERE seq = 2",
                   (json.dumps({"type": "undo", "note": "é" * MAX_ROW_BYTES}, ensure_ascii=False),))


def test_a_row_too_large_stops_the_link_there_and_the_table_says_so(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "hub")
    hub = WatchedHub(broker, tmp_path / "hub")
    _old_journal(tmp_path / "table")
    try:
        with Journal.open(tmp_path / "table") as journal:
            link = TableLink(journal, broker.url(1), 1).start()
            try:
                deadline = time.monotonic() + WAIT_SECONDS
                while link.status().too_large is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                hub.wait_held(1, 1)
                link.journal_changed()
                time.sleep(1.0)  # a pump round more: row 2 is not tried again, row 3 not sent in its place
                status = link.status()
                assert status.too_large == 2 and status.acked == 1 and not status.sent
                assert status.connected, "the broker dropped the table for the row"
                assert hub.hub.held(1) == 1
            finally:
                link.close()
    finally:
        hub.close()
        broker.close()


def test_the_table_says_a_row_is_too_large() -> None:
    said: list[tuple[str, dict[str, Any]]] = []

    class Service:
        def notice(self, key: str, **fields: Any) -> None:
            said.append((key, fields))

    announcer = LinkAnnouncer(Service(), settle=0.0)  # type: ignore[arg-type]
    announcer.changed(LinkStatus(True, True, acked=1, last_seq=3, seating=None, too_large=2))
    deadline = time.monotonic() + 5
    while not said and time.monotonic() < deadline:
        time.sleep(0.01)
    announcer.close()
    assert said == [("club_too_large", {"seq": 2})]
