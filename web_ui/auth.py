"""The table PIN (constant-time, header or session) and CSRF tokens for session requests."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, jsonify, request, session

PIN_HEADER = "X-Table-Pin"
CSRF_HEADER = "X-CSRF-Token"

F = TypeVar("F", bound=Callable[..., Any])


MAX_FAILURES = 10
LOCKOUT_SECONDS = 60.0


class Throttle:
    """Wrong PINs per client address: after MAX_FAILURES in a row, every PIN is refused for a while."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}

    def blocked(self, client: str) -> bool:
        """True while this client is locked out."""
        with self._lock:
            count, since = self._failures.get(client, (0, 0.0))
            if count >= MAX_FAILURES and time.monotonic() - since < LOCKOUT_SECONDS:
                return True
            if count >= MAX_FAILURES:
                del self._failures[client]
            return False

    def record(self, client: str, ok: bool) -> None:
        """Count a wrong PIN, forget the count on a right one."""
        with self._lock:
            if ok:
                self._failures.pop(client, None)
            else:
                count, _ = self._failures.get(client, (0, 0.0))
                self._failures[client] = (count + 1, time.monotonic())


def pin_matches(given: str | None) -> bool:
    """True when `given` is the table PIN, compared in constant time (wrong guesses are throttled)."""
    if given is None:
        return False
    throttle: Throttle = current_app.extensions["marmite.throttle"]
    client = request.remote_addr or "?"
    if throttle.blocked(client):
        return False
    expected: str = current_app.config["MARMITE_PIN"]
    ok = hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
    throttle.record(client, ok)
    return ok


def locked_out() -> bool:
    """True while this client is refused for too many wrong PINs."""
    throttle: Throttle = current_app.extensions["marmite.throttle"]
    return throttle.blocked(request.remote_addr or "?")


def csrf_token() -> str:
    """This session's CSRF token, created on first use."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def unlocked() -> bool:
    """True when this browser session typed the PIN."""
    return session.get("unlocked") is True


def authorized() -> tuple[bool, str]:
    """Whether this request may change something, and why not: PIN header, or session + CSRF token."""
    header = request.headers.get(PIN_HEADER)
    if header is not None:
        if pin_matches(header):
            return True, ""
        return False, "too many wrong PINs: wait a minute" if locked_out() else "wrong PIN"
    if not unlocked():
        return False, f"this needs the table PIN (header {PIN_HEADER}, or type it once on /unlock)"
    sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf_token")
    token = session.get("csrf")
    if not sent or not isinstance(token, str) or not hmac.compare_digest(sent.encode(), token.encode()):
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
