"""Seat links: a phone sees its player's own secrets (menu, hand) only through that player's link.

The key is an HMAC of the game and the name under the app's secret, so it changes with each game
and cannot be guessed from the name; the organiser (with the PIN) hands the links out.
"""

from __future__ import annotations

import hashlib
import hmac
import io
from typing import Any

from flask import current_app, request, session

from web_ui.auth import PIN_HEADER, pin_matches
from web_ui.context import service

SEAT_PARAM = "k"


def seat_key(name: str) -> str:
    """The key in `name`'s seat link for the current game."""
    game = service().current_game
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    return hmac.new(secret, f"seat:{game}:{name}".encode(), hashlib.sha256).hexdigest()[:20]


def owns_seat(name: str) -> bool:
    """True for the player's own phone: the link's key (remembered in the session) or the PIN header."""
    expected = seat_key(name)
    given = request.args.get(SEAT_PARAM)
    if given is not None and hmac.compare_digest(given.encode(), expected.encode()):
        seats = dict(session.get("seats") or {})
        seats[name] = expected
        session["seats"] = seats
        return True
    remembered = (session.get("seats") or {}).get(name)
    if isinstance(remembered, str) and hmac.compare_digest(remembered.encode(), expected.encode()):
        return True
    header = request.headers.get(PIN_HEADER)
    return header is not None and pin_matches(header)


def visible_seat_view(name: str) -> dict[str, Any] | None:
    """The seat view this request may see: the player's secrets only on their own phone."""
    return service().seat_view(name, owner=owns_seat(name))


def seat_links(base_url: str) -> list[dict[str, str]]:
    """Each player's seat link with its QR code (inline SVG), for the organiser to hand out."""
    import qrcode
    import qrcode.image.svg

    links = []
    for player in service().table_view()["players"]:
        name = player["name"]
        url = f"{base_url.rstrip('/')}/seat/{name}?{SEAT_PARAM}={seat_key(name)}"
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
