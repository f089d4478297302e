"""Wiring a table to its club: the journal's rows go to the hub through a `club.link.TableLink`.

Only this composition root knows both the table service and the club adapter; `companion` imports neither.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, abort, jsonify, redirect, request, session, url_for

from club.broker import write_private
from club.link import LinkStatus, TableLink
from club.mqtt import probe
from club.topics import ClubURL, url_from_join_code
from companion.table import TableService
from marmite.club_confirm import ConfirmAnnouncer, mount_confirm
from web_ui.resources import table_resources

if TYPE_CHECKING:
    from marmite.club_cards import SeatCards

CA_ENV = "MARMITE_CLUB_CA"
"""With an mqtts:// club URL: the certificate (or CA) the hub's broker must present, if not a system CA."""


JOIN_FILE = "club.json"
"""In the table's data dir (0600): the club joined from the setup page, rejoined at the next start."""


@dataclass(slots=True)
class ClubSlots:
    """The table's club side, in the app's attached `club` slot: its link, number and members' cards."""

    link: TableLink | None = None
    table: int | None = None
    cards: SeatCards | None = None


def club_slots(app: Flask) -> ClubSlots:
    """The app's club slots (made empty the first time)."""
    attached = table_resources(app).attached
    if not isinstance(attached.club, ClubSlots):
        attached.club = ClubSlots()
    return attached.club


def attach_club_link(service: TableService, app: Flask, url_text: str, table: int | None,
                     data_dir: Path | None = None) -> TableLink:
    """Start publishing the table's journal to the club; ValueError for a bad URL or table number."""
    mount_club(service, app, data_dir)
    return start_link(service, app, ClubURL.parse(url_text), table)


def start_link(service: TableService, app: Flask, url: ClubURL, table: int | None) -> TableLink:
    """Link the table to the club at `url` (the routes are mounted already); ValueError for a bad number."""
    number = table if table is not None else _table_from_user(url.user)
    if number is None or number < 1:
        raise ValueError("--table N (1 or more) is required with --club")
    if url.user.startswith("table-") and url.user != f"table-{number}":
        raise ValueError(f"the club URL is {url.user}'s, not table {number}'s")
    announcer = LinkAnnouncer(service)
    ca = os.environ.get(CA_ENV)
    link = TableLink(service.journal, url, number, on_status=announcer.changed, ca_file=Path(ca) if ca else None,
                     on_notice=lambda notice: announce_decision(service, notice),
                     readers=lambda: list(service.table_view().get("readers", [])))
    service.add_listener(link.journal_changed)
    service.add_listener(ConfirmAnnouncer(service, link).heard)
    seat_cards(service, app, link)
    slots = club_slots(app)
    slots.link, slots.table = link, number
    return link.start()


def rejoin_saved(service: TableService, app: Flask, data_dir: Path) -> TableLink | None:
    """Mount the club's routes (so the setup page can join) and rejoin the club saved there, if any."""
    mount_club(service, app, data_dir)
    saved = data_dir / JOIN_FILE
    if not saved.exists():
        return None
    body = json.loads(saved.read_text(encoding="utf-8"))
    return start_link(service, app, ClubURL.parse(str(body["url"])), int(body["table"]))


def close_link(app: Flask) -> None:
    """Close the club link, whether given at start or joined later (a server closer)."""
    link = club_slots(app).link
    if link is not None:
        link.close()


def mount_club(service: TableService, app: Flask, data_dir: Path | None) -> None:
    """The club's routes on the table's app: its link state, the director button, joining by code."""
    if "club_table" in app.blueprints:
        return
    assets = Blueprint("club_table", "club", static_folder="static", static_url_path="/club/static")
    app.register_blueprint(assets)

    def context() -> dict[str, Any]:
        linked = club_slots(app).link is not None
        script = url_for("club_table.static", filename="club_table.js") if linked else None
        return {"club_script": script, "club_join": {"table": club_slots(app).table,
                                                      "can_join": data_dir is not None,
                                                      "error": session.pop("club_join_error", None)}}

    app.context_processor(context)
    mount_confirm(service, app)

    from web_ui.auth import authorized, require_pin

    def current() -> TableLink:
        link = club_slots(app).link
        if link is None:
            abort(404)
        return link

    @app.post("/api/club/call")
    @require_pin
    def call_director() -> Any:
        """The table's "call the director" button (the host's PIN or unlocked tablet)."""
        return jsonify(called=current().call_director())

    @app.get("/api/club")
    def club_status() -> Any:
        """Whether this table's results reached the hub, and its next seating (no secret in it)."""
        answer = current().status().as_json()
        answer["table"] = club_slots(app).table
        answer.update(cards_status(app))
        if isinstance(answer.get("seating"), dict):  # the card hashes stay inside the table process
            answer["seating"] = {k: v for k, v in answer["seating"].items() if k != "cards"}
        return jsonify(answer)

    @app.post("/club/join")
    def join_club() -> Any:
        """Join the club from the setup page with the hub's address and this table's join code."""
        ok, why = authorized()
        if not ok:
            abort(401, why)
        if data_dir is None or club_slots(app).link is not None:
            abort(409, "this table is in a club already")
        try:
            url, table = url_from_join_code(str(request.form.get("address", "")), str(request.form.get("code", "")))
        except ValueError:
            session["club_join_error"] = "code"
            return redirect(url_for("pages.setup_page") + "#club-title")
        ca = os.environ.get(CA_ENV)
        if (refused := probe(url, Path(ca) if ca else None)) is not None:  # a wrong code is never kept
            session["club_join_error"] = refused
            return redirect(url_for("pages.setup_page") + "#club-title")
        start_link(service, app, url, table)
        text = json.dumps({"url": url.text(), "table": table})
        write_private(data_dir / JOIN_FILE, text)
        return redirect(url_for("pages.setup_page") + "#club-title")


def seat_cards(service: TableService, app: Flask, link: TableLink) -> None:
    """Members' cards: an unknown tag read between games takes a seat or is asked about at the hub."""
    from marmite.club_cards import SeatCards

    cards = SeatCards(service, link)
    cards.register()
    club_slots(app).cards = cards


def cards_status(app: Flask) -> dict[str, Any]:
    """The seats taken by a member's card, for the setup page (names are the seating's, no card in it)."""
    from marmite.club_cards import SeatCards

    cards = club_slots(app).cards
    return {"confirmed": cards.confirmed() if isinstance(cards, SeatCards) else []}


def announce_decision(service: TableService, notice: dict[str, Any]) -> None:
    """Say at the table what the club's director decided about one of its games."""
    who, why = str(notice.get("who", ""))[:80], str(notice.get("why", ""))[:300]
    if notice.get("kind") == "correct" and type(notice.get("stars")) is int:
        service.notice("club_corrected", player=str(notice.get("player", ""))[:80], stars=notice["stars"],
                       who=who, why=why)
    elif notice.get("kind") == "void":
        service.notice("club_voided", who=who, why=why)
    elif notice.get("kind") == "confirm":
        service.notice("club_confirmed", who=who, why=why)
    elif notice.get("kind") == "withdrawn":
        service.notice("club_withdrawn", who=who)


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
        if status.conflict:
            if self.said != "twice":
                self.said = "twice"
                self.service.notice("club_twice")
        elif status.too_large is not None:
            if self.said != "too_large":
                self.said = "too_large"
                self.service.notice("club_too_large", seq=status.too_large)
        elif not status.reachable and self.said != "waiting":
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
