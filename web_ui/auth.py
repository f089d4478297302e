"""The table PIN (constant-time, header or session, throttled table-wide), CSRF tokens for session requests,
and the one CSRF check and "own seat" guard every seat, robot and club endpoint shares."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, jsonify, request, session

from web_ui.context import resources, service
from web_ui.limits import GuessWindow
from web_ui.seats import owns_seat

PIN_HEADER = "X-Table-Pin"
CSRF_HEADER = "X-CSRF-Token"

F = TypeVar("F", bound=Callable[..., Any])


GUESSES_PER_MINUTE = 10
"""Wrong PINs the whole table evaluates in any minute, from every address together."""


def _guesses() -> GuessWindow:
    return resources().guesses


def pin_matches(given: str | None) -> bool:
    """True when `given` is the table PIN, compared in constant time; raises TooMany (429) while the
    table has had GUESSES_PER_MINUTE wrong PINs in the last minute, and then warns the table."""
    if given is None:
        return False
    window = _guesses()
    window.check()
    expected: str = current_app.config["MARMITE_PIN"]
    if hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
        return True
    if window.wrong():
        table = service()
        table.notice("pin_guessing")
    return False


def pin_fingerprint() -> str:
    """A short keyed hash of the current PIN: a session unlocked with another PIN is not unlocked."""
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    pin = str(current_app.config["MARMITE_PIN"]).encode("utf-8")
    return hmac.new(secret, b"pin:" + pin, hashlib.sha256).hexdigest()[:32]


def unlock_session() -> None:
    """Remember in this browser's session that it typed the current PIN."""
    session["unlocked"] = pin_fingerprint()


def csrf_token() -> str:
    """This session's CSRF token, created on first use."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def csrf_ok() -> bool:
    """True when the request carries this session's CSRF token (the X-CSRF-Token header, or a form's
    `csrf_token` field), compared in constant time; never true for a session without a token."""
    sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf_token")
    token = session.get("csrf")
    return bool(sent) and isinstance(token, str) and hmac.compare_digest(str(sent).encode(), token.encode())


def own_seat(name: str) -> bool:
    """True on `name`'s own phone only: the seat key in the browser that claimed the seat (`owns_seat`),
    and the page's CSRF token (so the session cookie came back from that page). The PIN opens no seat."""
    return csrf_ok() and owns_seat(name)


def unlocked() -> bool:
    """True when this browser session typed the current PIN (not an older one)."""
    given = session.get("unlocked")
    return isinstance(given, str) and hmac.compare_digest(given.encode(), pin_fingerprint().encode())


def authorized() -> tuple[bool, str]:
    """Whether this request may change something, and why not: PIN header, or session + CSRF token."""
    header = request.headers.get(PIN_HEADER)
    if header is not None:
        if pin_matches(header):
            return True, ""
        return False, "wrong PIN"
    if not unlocked():
        return False, f"this needs the table PIN (header {PIN_HEADER}, or type it once on /unlock)"
    if not csrf_ok():
        return False, "missing or wrong CSRF token"
    return True, ""


def require_pin(view: F) -> F:
    """Answer 401 (JSON) unless the request carries the PIN or an unlocked session with its CSRF token."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ok, why = authorized()
        if not ok:
            return jsonify(error=why), 401
        return view(*args, **kwargs)

    return cast(F, wrapper)
