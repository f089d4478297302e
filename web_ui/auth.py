"""The table PIN (constant-time, header or session) and CSRF tokens for session requests."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, jsonify, request, session

PIN_HEADER = "X-Table-Pin"
CSRF_HEADER = "X-CSRF-Token"

F = TypeVar("F", bound=Callable[..., Any])


def pin_matches(given: str | None) -> bool:
    """True when `given` is the table PIN, compared in constant time."""
    if given is None:
        return False
    expected: str = current_app.config["MARMITE_PIN"]
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


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
        return (True, "") if pin_matches(header) else (False, "wrong PIN")
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
