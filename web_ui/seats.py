"""Seat links: a phone sees its player's own secrets (menu, hand) only through that player's link.

The key is an HMAC of the game and the name under the app's secret, so it changes with each game
and cannot be guessed from the name; the organiser (with the PIN) hands the links out. Opening a link
claims nothing: the seat page, once loaded in a real browser, claims the seat with a POST carrying its
session cookie and CSRF token (`POST /api/seat/<name>/claim`), so a chat app's link preview, a QR
scanner's peek or a `curl` never does. The key then shows nothing to any other browser, and the setup
page shows the seat as held, with a control for the PIN holder to release it. A release gives the seat
a new key: the old link and the old phone's cookie never claim it back; the host hands out the new link
(the setup page shows it). The PIN unlocks controls, never secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import secrets
import tempfile
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import current_app, request, session

from web_ui.context import resources, service

SEAT_PARAM = "k"


SEAT_RELEASES_FILE = "seat-releases.json"
"""How many times each seat was released, kept in the data dir: a restart must not revive a released key."""


class SeatClaims:
    """Which browser holds each seat of each game (in memory: after a restart the phones claim again), and
    how many times each seat was released (its key's generation, kept in `releases_path` when given)."""

    def __init__(self, releases_path: Path | None = None) -> None:
        self._lock = threading.Lock()
        self._releasing = threading.Lock()
        """One release at a time (each writes the release file)."""
        self._holders: dict[tuple[int | None, str], str] = {}
        self._path = releases_path
        self._releases = _read_releases(releases_path)

    def release(self, game: int | None, name: str) -> bool:
        """Free the seat and give it a new key (kept first: OSError changes nothing); True when some
        browser held it. The old link and cookie no longer match."""
        with self._releasing:  # the file is written outside `_lock`: a slow disk never holds a page's key
            with self._lock:
                if (game, name) not in self._holders:
                    return False
                releases = dict(self._releases)
            releases[(game, name)] = releases.get((game, name), 0) + 1
            if self._path is not None:
                _write_releases(self._path, releases)
            with self._lock:
                self._releases = releases
                self._holders.pop((game, name), None)
            return True

    def generation(self, game: int | None, name: str) -> int:
        """How many times the seat was released: part of its key, so each release makes a new link."""
        with self._lock:
            return self._releases.get((game, name), 0)

    def claim(self, game: int | None, name: str, browser: str) -> bool:
        """True when `browser` holds the seat now (it was free, or already its own)."""
        with self._lock:
            holder = self._holders.setdefault((game, name), browser)
            return holder == browser

    def holder(self, game: int | None, name: str) -> str | None:
        """The browser holding the seat, None while it is free."""
        with self._lock:
            return self._holders.get((game, name))

    def claimed(self, game: int | None, name: str) -> bool:
        """True once some browser holds the seat."""
        with self._lock:
            return (game, name) in self._holders


def _read_releases(path: Path | None) -> dict[tuple[int | None, str], int]:
    """The kept release counts; none for a missing or unreadable file (a restart keeps working)."""
    if path is None:
        return {}
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(rows, list):
        return {}
    return {(game, name): count for game, name, count in (row for row in rows if _release_row(row))}


def _release_row(row: object) -> bool:
    return (isinstance(row, list) and len(row) == 3 and (row[0] is None or isinstance(row[0], int))
            and isinstance(row[1], str) and isinstance(row[2], int))


def _write_releases(path: Path, releases: dict[tuple[int | None, str], int]) -> None:
    """Replace the release file atomically and durably (its own temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump([[game, seat, count] for (game, seat), count in releases.items()], handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def _claims() -> SeatClaims:
    return resources().claims


def _browser() -> str:
    """This browser's random id, kept in its session cookie."""
    browser = session.get("browser")
    if not isinstance(browser, str):
        browser = secrets.token_urlsafe(16)
        session["browser"] = browser
    return browser


def seat_key(name: str) -> str:
    """The key in `name`'s seat link for the current game."""
    game = service().current_game
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    released = _claims().generation(game, name)
    message = f"seat:{game}:{name}" + (f":{released}" if released else "")  # a never-released seat: as before
    return hmac.new(secret, message.encode(), hashlib.sha256).hexdigest()[:20]


def _key_matches(name: str, given: object) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode(), seat_key(name).encode())


def owns_seat(name: str) -> bool:
    """True for the player's own phone only: the link's key (given, or remembered in the session) in the
    browser that claimed the seat. Claims nothing (see `claim_seat`). The PIN never gives a seat's secret
    menu; it may read a known hand (`GET /api/seat`, api.py)."""
    if service().robots.is_robot(name):
        return False  # a robot's hand is nobody's to read, not even the host's
    remembered = (session.get("seats") or {}).get(name)
    if not (_key_matches(name, request.args.get(SEAT_PARAM)) or _key_matches(name, remembered)):
        return False
    browser = session.get("browser")
    return isinstance(browser, str) and _claims().holder(service().current_game, name) == browser


def claim_seat(name: str, key: object) -> bool | None:
    """Claim the seat for this browser (a POST from its seat page, its session proven by the caller's
    CSRF check): True when it holds the seat now, False when another browser does, None for a wrong key."""
    if not _key_matches(name, key):
        return None
    if not _claims().claim(service().current_game, name, _browser()):
        return False
    seats = dict(session.get("seats") or {})
    seats[name] = seat_key(name)
    session["seats"] = seats
    return True


def release_seat(name: str) -> bool:
    """The PIN holder frees a seat and gives it a new link; True when a browser held it (OSError: the
    new key could not be kept, nothing changed)."""
    return _claims().release(service().current_game, name)


def claim_to_make(name: str) -> str | None:
    """The key the seat page should claim with (its JS POSTs it): the link's valid key for a seat no
    browser holds yet, else None."""
    given = request.args.get(SEAT_PARAM)
    if not _key_matches(name, given) or _claims().claimed(service().current_game, name):
        return None
    return given


def held_elsewhere(name: str) -> bool:
    """True when this browser opened the seat's valid link but another browser holds the seat: its page shows
    only what everyone sees, and says why."""
    return (_key_matches(name, request.args.get(SEAT_PARAM)) and _claims().claimed(service().current_game, name)
            and not owns_seat(name))


def holds_any_seat() -> bool:
    """True in a browser that holds some seat of the current game (claims nothing)."""
    browser = session.get("browser")
    remembered = session.get("seats") or {}
    if not isinstance(browser, str) or not isinstance(remembered, dict):
        return False
    game = service().current_game
    return any(isinstance(key, str) and hmac.compare_digest(key.encode(), seat_key(str(name)).encode())
               and _claims().holder(game, str(name)) == browser for name, key in remembered.items())


def visible_seat_view(name: str) -> dict[str, Any] | None:
    """The seat view this request may see: the player's secrets only on their own phone."""
    return service().seat_view(name, owner=owns_seat(name))


def seat_links(base_url: str) -> list[dict[str, Any]]:
    """Each seat's link with its QR code (inline SVG), for the organiser to hand out; a seat a phone
    holds is listed as held (no link: the PIN holder may release it)."""
    import qrcode
    import qrcode.image.svg

    links = []
    game = service().current_game
    for player in service().table_view()["players"]:
        name = player["name"]
        if service().robots.is_robot(name):
            continue
        if _claims().claimed(game, name):
            links.append({"name": name, "held": True})
            continue
        url = f"{base_url.rstrip('/')}/seat/{quote(name, safe='')}?{SEAT_PARAM}={seat_key(name)}"
        image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
        out = io.BytesIO()
        image.save(out)
        svg = out.getvalue().decode("utf-8")
        svg = svg[svg.index("<svg"):]  # drop the XML declaration: the SVG goes inline in the page
        links.append({"name": name, "url": url, "svg": svg, "held": False})
    return links


def seat_link_for_request(name: str) -> str | None:
    """The current request's own seat link (to keep the key in fragment refreshes), if it owns it."""
    return seat_key(name) if owns_seat(name) else None


def base_url() -> str:
    """The address players' phones use: the one this page was opened with."""
    return request.host_url
