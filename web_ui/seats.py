"""Seat links: a phone sees its player's own secrets (menu, hand) only through that player's link.

The key is an HMAC of the game and the name under the app's secret, so it changes with each game
and cannot be guessed from the name; the organiser (with the PIN) hands the links out. The first
browser that opens a link claims the seat: the key then shows nothing to any other browser, and the
setup page stops listing that link. The PIN unlocks controls, never secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import secrets
import threading
from typing import Any
from urllib.parse import quote

from flask import current_app, request, session

from web_ui.context import service

SEAT_PARAM = "k"


class SeatClaims:
    """Which browser holds each seat of each game (in memory: after a restart the phones claim again)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders: dict[tuple[int | None, str], str] = {}

    def claim(self, game: int | None, name: str, browser: str) -> bool:
        """True when `browser` holds the seat now (it was free, or already its own)."""
        with self._lock:
            holder = self._holders.setdefault((game, name), browser)
            return holder == browser

    def claimed(self, game: int | None, name: str) -> bool:
        """True once some browser holds the seat."""
        with self._lock:
            return (game, name) in self._holders


def _claims() -> SeatClaims:
    claims: SeatClaims = current_app.extensions["marmite.claims"]
    return claims


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
    return hmac.new(secret, f"seat:{game}:{name}".encode(), hashlib.sha256).hexdigest()[:20]


def owns_seat(name: str) -> bool:
    """True for the player's own phone only: the link's key (remembered in the session) in the browser
    that claimed the seat first. The PIN gives no seat its secrets."""
    if service().robots.is_robot(name):
        return False  # a robot's hand is nobody's to read, not even the host's
    expected = seat_key(name)
    given = request.args.get(SEAT_PARAM)
    remembered = (session.get("seats") or {}).get(name)
    if given is not None and hmac.compare_digest(given.encode(), expected.encode()):
        key_ok = True
    else:
        key_ok = isinstance(remembered, str) and hmac.compare_digest(remembered.encode(), expected.encode())
    if not key_ok or not _claims().claim(service().current_game, name, _browser()):
        return False
    if remembered != expected:
        seats = dict(session.get("seats") or {})
        seats[name] = expected
        session["seats"] = seats
    return True


def visible_seat_view(name: str) -> dict[str, Any] | None:
    """The seat view this request may see: the player's secrets only on their own phone."""
    return service().seat_view(name, owner=owns_seat(name))


def seat_links(base_url: str) -> list[dict[str, str]]:
    """Each unclaimed seat's link with its QR code (inline SVG), for the organiser to hand out."""
    import qrcode
    import qrcode.image.svg

    links = []
    game = service().current_game
    for player in service().table_view()["players"]:
        name = player["name"]
        if _claims().claimed(game, name) or service().robots.is_robot(name):
            continue
        url = f"{base_url.rstrip('/')}/seat/{quote(name, safe='')}?{SEAT_PARAM}={seat_key(name)}"
        image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
        out = io.BytesIO()
        image.save(out)
        svg = out.getvalue().decode("utf-8")
        svg = svg[svg.index("<svg"):]  # drop the XML declaration: the SVG goes inline in the page
        links.append({"name": name, "url": url, "svg": svg})
    return links


def seat_link_for_request(name: str) -> str | None:
    """The current request's own seat link (to keep the key in fragment refreshes), if it owns it."""
    return seat_key(name) if owns_seat(name) else None


def base_url() -> str:
    """The address players' phones use: the one this page was opened with."""
    return request.host_url
