"""A full disk at a deal's last card: nothing recorded, the 52 scans kept, the deal recorded whole once
the disk writes again (tests/companion/test_deal_crash.py kills the table around that card)."""

from __future__ import annotations

import json
import threading
import time

from flask.testing import FlaskClient

from companion.journal import StorageError
from tests.companion.deal_writer import CODES, PLAYERS, uid
from tests.web_ui.conftest import HEADERS
from web_ui.resources import table_resources


def test_a_full_disk_at_the_last_card_keeps_the_deal_until_the_disk_writes_again(client: FlaskClient) -> None:
    service = table_resources(client.application).service
    client.post("/api/deck/import", data="uid,card\n" + "".join(f"{uid(i)},{c}\n" for i, c in enumerate(CODES)),
                headers=HEADERS, content_type="text/csv")
    client.post("/api/events", headers=HEADERS,
                json={"type": "new_game", "players": PLAYERS, "dealer": "Eva", "rules": {"edition": "2005"}})
    client.post("/api/deck/deal", headers=HEADERS, json={"action": "start"})
    for index in range(51):
        client.post("/api/drop", headers=HEADERS, json={"uid": uid(index)})
    journal = service.journal
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")
    try:  # fill the last page too: the next write needs a page the disk does not have
        for number in range(10_000):
            journal.append({"type": "card", "card": f"tag:{number:040x}"}, False, "unknown_card", "filler")
    except StorageError:
        pass
    before = json.dumps(service.state())
    last = client.post("/api/drop", headers=HEADERS, json={"uid": uid(51)})
    assert last.status_code == 200
    kept = last.get_json()["deck"]
    assert kept["outcome"] == "kept" and "le disque ne peut pas enregistrer" in kept["text"]
    assert kept["activity"]["kind"] == "deal" and kept["activity"]["count"] == 52  # the 52 scans are kept
    assert json.dumps(service.state()) == before and service.table_view()["storage"]["trouble"] == "full"
    assert [r for r in journal.records() if r.body["type"] == "hand"] == []
    journal._db.execute("PRAGMA max_page_count=1073741823")  # space returns
    recorded = threading.Event()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not recorded.is_set():
        if client.get("/api/deck").get_json()["activity"] is None:
            recorded.set()
        time.sleep(0.1)
    assert recorded.is_set(), "the kept deal was not recorded once the disk wrote again"
    hands = [r for r in journal.records() if r.body["type"] == "hand"]
    assert len(hands) == len(PLAYERS) and all(r.accepted for r in hands)
    assert len({r.seq for r in hands}) == 5 and service.table_view()["storage"]["ok"] is True
    assert sum(len(r.body["cards"]) for r in hands) == 52
