"""Wiring a table to its club: the journal's rows go to the hub through a `club.link.TableLink`.

Only this composition root knows both the table service and the club adapter; `companion` imports neither.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, jsonify, url_for

from club.link import LinkStatus, TableLink
from club.topics import ClubURL
from companion.table import TableService

CLUB_ENV = "MARMITE_CLUB"
"""The club URL may come from the environment, so its password is not on the command line."""
CA_ENV = "MARMITE_CLUB_CA"
"""With an mqtts:// club URL: the certificate (or CA) the hub's broker must present, if not a system CA."""


def club_url(given: str | None) -> str | None:
    """The club URL from --club, else $MARMITE_CLUB, else None (no club)."""
    return given or os.environ.get(CLUB_ENV) or None


def attach_club_link(service: TableService, app: Flask, url_text: str, table: int | None) -> TableLink:
    """Start publishing the table's journal to the club; ValueError for a bad URL or table number."""
    url = ClubURL.parse(url_text)
    number = table if table is not None else _table_from_user(url.user)
    if number is None or number < 1:
        raise ValueError("--table N (1 or more) is required with --club")
    if url.user.startswith("table-") and url.user != f"table-{number}":
        raise ValueError(f"the club URL is {url.user}'s, not table {number}'s")

    announcer = LinkAnnouncer(service)
    ca = os.environ.get(CA_ENV)
    link = TableLink(service.journal, url, number, on_status=announcer.changed, ca_file=Path(ca) if ca else None,
                     on_notice=lambda notice: announce_decision(service, notice))
    service.add_listener(link.journal_changed)
    app.extensions["marmite.club.link"] = link

    assets = Blueprint("club_table", "club", static_folder="static", static_url_path="/club/static")
    app.register_blueprint(assets)
    app.context_processor(lambda: {"club_script": url_for("club_table.static", filename="club_table.js")})

    from web_ui.auth import require_pin

    @app.post("/api/club/call")
    @require_pin
    def call_director() -> Any:
        """The table's "call the director" button (the host's PIN or unlocked tablet)."""
        return jsonify(called=link.call_director())

    @app.get("/api/club")
    def club_status() -> Any:
        """Whether this table's results reached the hub, and its next seating (no secret in it)."""
        answer = link.status().as_json()
        answer["table"] = number
        return jsonify(answer)

    return link.start()


def announce_decision(service: TableService, notice: dict[str, Any]) -> None:
    """Say at the table what the club's director decided about one of its games."""
    who, why = str(notice.get("who", ""))[:80], str(notice.get("why", ""))[:300]
    if notice.get("kind") == "correct" and type(notice.get("stars")) is int:
        service.notice("club_corrected", player=str(notice.get("player", ""))[:80], stars=notice["stars"],
                       who=who, why=why)
    elif notice.get("kind") == "void":
        service.notice("club_voided", who=who, why=why)


SETTLE_SECONDS = 3.0
"""A link state is announced once it has held this long: a Wi-Fi that flickers is not a stream of notices."""


class LinkAnnouncer:
    """Says (and shows) when the club goes out of reach with events waiting, and when results are sent again."""

    def __init__(self, service: TableService, settle: float = SETTLE_SECONDS) -> None:
        self.service = service
        self.settle = settle
        self.said = "sent"  # silence while all is well from the start
        self._status: LinkStatus | None = None
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def changed(self, status: LinkStatus) -> None:
        """A link-status listener: (re)start the settling timer."""
        with self._lock:
            self._status = status
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.settle, self._settled)
            self._timer.daemon = True
            self._timer.start()

    def _settled(self) -> None:
        with self._lock:
            status = self._status
        if status is None:
            return
        if not status.reachable and self.said != "waiting":
            self.said = "waiting"
            self.service.notice("club_waiting", count=status.pending)
        elif status.reachable and status.sent and self.said != "sent":
            self.said = "sent"
            self.service.notice("club_sent")

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()


def _table_from_user(user: str) -> int | None:
    suffix = user.removeprefix("table-")
    return int(suffix) if user.startswith("table-") and suffix.isdigit() else None
