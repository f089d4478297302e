"""A table joins the club from its setup page with the hub's address and its join code, without restarting
`marmite run`, and rejoins at its next start; a wrong code changes nothing. Real hub, Mosquitto, table."""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from club.topics import url_from_join_code
from tests.club.helpers import Hub, game_events, play, wait_caught_up
from tests.drill.helpers import Running


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    running = Hub(tmp_path / "hub", tables=2).start()
    yield running
    running.stop()


class Joining(Running):
    """`marmite run` with no --club: it joins from its setup page."""

    table = 2

    def last_seq(self) -> int:
        from companion.journal import Journal

        with Journal.open(self.data, writer=False) as journal:
            return journal.last_seq

    def join(self, address: str, code: str) -> tuple[int, str]:
        """POST the setup page's join form (with the PIN); the status and where it sends the browser."""
        form = urllib.parse.urlencode({"address": address, "code": code}).encode()
        status, headers, _ = self.request("POST", "/club/join", form, {
            "X-Table-Pin": self.pin, "Content-Type": "application/x-www-form-urlencoded"})
        return status, headers.get("location", "")

    def joined(self) -> dict[str, object] | None:
        status, _, raw = self.request("GET", "/api/club")
        return json.loads(raw) if status == 200 else None


def test_a_table_joins_by_code_from_its_setup_page_and_rejoins_after_a_restart(tmp_path: Path, hub: Hub) -> None:
    found = re.search(r"Table 2 : code (2(?:-[0-9A-Z]{4}){4}) — (\S+)", hub.console())
    assert found is not None, hub.console()
    code, address = found.groups()
    assert url_from_join_code(address, code.lower())[0].text() == hub.urls[2]  # typed in lower case too
    table = Joining(tmp_path / "table2").start()
    try:
        status, _, page = table.request("GET", "/setup")
        assert status == 200 and b'id="club-address"' not in page  # locked: no form for a stranger
        assert table.request("POST", "/club/join", b"address=x&code=y", {
            "Content-Type": "application/x-www-form-urlencoded"})[0] == 401
        assert table.joined() is None
        for wrong in ("2-AAAA-AAAA-AAAA-AAAA", "2-!!", "ABCD", f"1-{code[2:]}"):
            assert table.join(address, wrong)[0] == 302
            assert table.joined() is None and not (table.data / "club.json").exists()
        assert table.join("127.0.0.1:1/testclub", code)[0] == 302  # no broker there
        assert table.joined() is None
        status, location = table.join(address, code)
        assert status == 302 and location.endswith("/setup#club-title")
        assert table.joined() is not None and table.join(address, code)[0] == 409  # one club per table
        play(table, game_events(51)[:20])  # type: ignore[arg-type]
        wait_caught_up(hub, table)  # type: ignore[arg-type]
        assert (table.data / "club.json").stat().st_mode & 0o077 == 0
        table.stop()
        table.start()  # the next start rejoins on its own
        play(table, game_events(52)[:10])  # type: ignore[arg-type]
        wait_caught_up(hub, table)  # type: ignore[arg-type]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (table.joined() or {}).get("sent"):
            time.sleep(0.1)
        assert (table.joined() or {}).get("table") == 2
    finally:
        table.stop()
