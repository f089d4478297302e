"""Changing the table's PIN (the host, unlocked): kept in the data dir, so it survives restarts."""

from __future__ import annotations

import threading

from flask import Blueprint, Response, current_app, jsonify, request

from web_ui.auth import require_pin, unlock_session
from web_ui.context import resources
from web_ui.pin_store import VALID_PIN, keep_pin

pin_api = Blueprint("pin_api", __name__, url_prefix="/api")
_CHANGING = threading.Lock()
"""One PIN change at a time, so the kept PIN and the PIN in force are always the same one."""


@pin_api.post("/pin")
@require_pin
def change_pin() -> tuple[Response, int] | Response:
    """Set a new PIN (4 to 12 digits): kept, in force at once; this browser stays unlocked, others lock."""
    body = request.get_json(silent=True)
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, str) or not VALID_PIN.fullmatch(pin):
        return jsonify(error="a PIN is 4 to 12 digits"), 400
    if current_app.config.get("MARMITE_PIN_FIXED"):  # a restart would bring that PIN back: say so, change nothing
        return jsonify(error="this table's PIN is set by --pin or MARMITE_PIN: change it there and restart"), 409
    data_dir = resources().data_dir
    if data_dir is None:
        return jsonify(error="this table has no data dir to keep a PIN in"), 409
    with _CHANGING:
        try:
            keep_pin(data_dir, pin)
        except OSError as error:
            return jsonify(error=f"the PIN could not be kept ({error.strerror}); it is unchanged"), 507
        current_app.config["MARMITE_PIN"] = pin
    unlock_session()
    return jsonify(changed=True)
