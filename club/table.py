"""A club table's room: the journal's rows go to the hub through a `club.link.TableLink`, and the table's
club routes (its link state, the director button, joining by code, the seats' confirmations) are one
blueprint. The composition root parses the URL and the environment and calls `attach` once; the guards of
the table's pages (its PIN, a seat's own phone) are handed in, so this adapter imports none of `web_ui`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, abort, current_app, jsonify, redirect, request, session, url_for

from club.broker import write_private
from club.confirm import ConfirmAnnouncer, mount_confirm
from club.link import LinkStatus, TableLink
from club.mqtt import probe
from club.topics import ClubURL, url_from_join_code
from companion.table import TableService

if TYPE_CHECKING:
    from club.seat_cards import SeatCards  # imported with the first link

JOIN_FILE = "club.json"
"""In the table's data dir (0600): the club joined from the setup page, rejoined at the next start."""


@dataclass(frozen=True, slots=True)
class Guards:
    """The table's own checks, handed in by the composition root (they are the table pages')."""

    authorized: Callable[[], tuple[bool, str]]
    """Whether this request may change something (the table's PIN, or an unlocked session and its CSRF
    token), and why not."""
    own_seat: Callable[[str], bool]
    """True when this request comes from that player's own phone, with its session's CSRF token."""


@dataclass
class ClubTable:
    """The table's club side, kept on the app: the service, the guards, and the link once joined."""

    service: TableService
    guards: Guards
    data_dir: Path | None
    ca_file: Path | None = None
    link: TableLink | None = None
    number: int | None = None
    cards: SeatCards | None = None


EXTENSION = "club.table"


def attach(service: TableService, app: Flask, guards: Guards, *, data_dir: Path | None, url: ClubURL | None = None,
           table: int | None = None, ca_file: Path | None = None) -> TableLink | None:
    """The club's routes on the table's app, and its link: to `url` when given (ValueError for a bad table
    number), else to the club joined on the setup page and saved in `data_dir`, if any."""
    mount_club(service, app, data_dir, guards, ca_file)
    if url is not None:
        return start_link(service, app, url, table)
    return rejoin_saved(service, app, data_dir) if data_dir is not None else None


def club_of(app: Flask) -> ClubTable:
    """The table's club side (`attach` made it)."""
    club: ClubTable = app.extensions[EXTENSION]
    return club


def start_link(service: TableService, app: Flask, url: ClubURL, table: int | None) -> TableLink:
    """Link the table to the club at `url` (the routes are mounted already); ValueError for a bad number."""
    number = table if table is not None else _table_from_user(url.user)
    if number is None or number < 1:
        raise ValueError("--table N (1 or more) is required with --club")
    if url.user.startswith("table-") and url.user != f"table-{number}":
        raise ValueError(f"the club URL is {url.user}'s, not table {number}'s")
    announcer = LinkAnnouncer(service)
    club = club_of(app)
    link = TableLink(service.journal, url, number, on_status=announcer.changed, ca_file=club.ca_file,
                     on_notice=lambda notice: announce_decision(service, notice),
                     readers=lambda: list(service.table_view().get("readers", [])))
    service.add_listener(link.journal_changed)
    service.add_listener(ConfirmAnnouncer(service, link).heard)
    seat_cards(service, app, link)
    club.link, club.number = link, number
    return link.start()


def rejoin_saved(service: TableService, app: Flask, data_dir: Path) -> TableLink | None:
    """Rejoin the club saved in the data dir (joined on the setup page), if any."""
    saved = data_dir / JOIN_FILE
    if not saved.exists():
        return None
    body = json.loads(saved.read_text(encoding="utf-8"))
    return start_link(service, app, ClubURL.parse(str(body["url"])), int(body["table"]))


def close_link(app: Flask) -> None:
    """Close the club link, whether given at start or joined later (a server closer)."""
    club = app.extensions.get(EXTENSION)
    if isinstance(club, ClubTable) and club.link is not None:
        club.link.close()


table_side = Blueprint("club_table", __name__, static_folder="static", static_url_path="/club/static")
"""The table's club routes and files (`club_table.js`), registered on a table's app by `attach`."""


def mount_club(service: TableService, app: Flask, data_dir: Path | None, guards: Guards,
               ca_file: Path | None) -> None:
    """The club's room on the table's app, once: its state and its routes."""
    if EXTENSION in app.extensions:
        return
    app.extensions[EXTENSION] = ClubTable(service, guards, data_dir, ca_file)
    app.register_blueprint(table_side)


def _club() -> ClubTable:
    return club_of(current_app)


def _routes(assets: Blueprint) -> None:
    """The club's routes on the table: its link state, the director button, joining by code, confirming."""

    def context() -> dict[str, Any]:
        linked = _club().link is not None
        script = url_for("club_table.static", filename="club_table.js") if linked else None
        return {"club_script": script, "club_join": {"table": _club().number,
                                                      "can_join": _club().data_dir is not None,
                                                      "error": session.pop("club_join_error", None)}}

    assets.app_context_processor(context)

    def current() -> TableLink:
        link = _club().link
        if link is None:
            abort(404)
        return link

    mount_confirm(assets, lambda: _club().service, current, lambda player: _club().guards.own_seat(player))

    @assets.post("/api/club/call")
    def call_director() -> Any:
        """The table's "call the director" button (the host's PIN or unlocked tablet)."""
        ok, why = _club().guards.authorized()
        if not ok:
            return jsonify(error=why), 401
        return jsonify(called=current().call_director())

    @assets.get("/api/club")
    def club_status() -> Any:
        """Whether this table's results reached the hub, and its next seating (no secret in it)."""
        answer = current().status().as_json()
        answer["table"] = _club().number
        answer.update(cards_status(current_app))
        if isinstance(answer.get("seating"), dict):  # the card hashes stay inside the table process
            answer["seating"] = {k: v for k, v in answer["seating"].items() if k != "cards"}
        return jsonify(answer)

    @assets.post("/club/join")
    def join_club() -> Any:
        """Join the club from the setup page with the hub's address and this table's join code."""
        ok, why = _club().guards.authorized()
        if not ok:
            abort(401, why)
        data_dir = _club().data_dir
        if data_dir is None or _club().link is not None:
            abort(409, "this table is in a club already")
        try:
            url, table = url_from_join_code(str(request.form.get("address", "")), str(request.form.get("code", "")))
        except ValueError:
            session["club_join_error"] = "code"
            return redirect(url_for("pages.setup_page") + "#club-title")
        if (refused := probe(url, _club().ca_file)) is not None:  # a wrong code is never kept
            session["club_join_error"] = refused
            return redirect(url_for("pages.setup_page") + "#club-title")
        start_link(_club().service, current_app, url, table)
        text = json.dumps({"url": url.text(), "table": table})
        write_private(data_dir / JOIN_FILE, text)
        return redirect(url_for("pages.setup_page") + "#club-title")


_routes(table_side)


def seat_cards(service: TableService, app: Flask, link: TableLink) -> None:
    """Members' cards: an unknown tag read between games takes a seat or is asked about at the hub."""
    from club.seat_cards import SeatCards  # the card reader's paho callbacks, only once a club is joined

    cards = SeatCards(service, link)
    cards.register()
    club_of(app).cards = cards


def cards_status(app: Flask) -> dict[str, Any]:
    """The seats taken by a member's card, for the setup page (names are the seating's, no card in it)."""
    cards = club_of(app).cards
    return {"confirmed": cards.confirmed() if cards is not None else []}


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
