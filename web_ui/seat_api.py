"""A player's own phone acts for its seat: the secret menu is chosen there, never on the shared screen."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from companion.events import MalformedEvent
from web_ui.auth import csrf_ok, own_seat, require_pin
from web_ui.context import service
from web_ui.seats import claim_seat, release_seat

seat_api = Blueprint("seat_api", __name__, url_prefix="/api/seat")


@seat_api.post("/<path:name>/claim")
def claim(name: str) -> tuple[Response, int] | Response:
    """The seat page, loaded in a real browser, claims its seat: needs the link's key and the page's CSRF
    token (so the session cookie came back). A link preview or a bare GET never claims."""
    if service().seat_view(name) is None:
        return jsonify(error=f"no player named {name!r} in this game"), 404
    if not csrf_ok():
        return jsonify(error="a seat is claimed from its page, in a browser that keeps its cookie"), 403
    body = request.get_json(silent=True, force=True)
    claimed = claim_seat(name, body.get("k") if isinstance(body, dict) else None)
    if claimed is None:
        return jsonify(error="this is not the key of this seat's link"), 403
    if not claimed:
        return jsonify(error="another phone holds this seat; the host can release it on the setup page"), 409
    return jsonify(claimed=True)


@seat_api.post("/<path:name>/release")
@require_pin
def release(name: str) -> tuple[Response, int] | Response:
    """The PIN holder frees a seat (a lost phone, a link opened by the wrong person): the seat gets a new
    link, which the host hands out again; the old link and the old phone never claim it back."""
    if service().seat_view(name) is None:
        return jsonify(error=f"no player named {name!r} in this game"), 404
    try:
        released = release_seat(name)
    except OSError as error:
        return jsonify(error=f"the seat's new link could not be kept ({error.strerror}); nothing changed"), 507
    if released:  # said on every display and by voice: the player asks the host for the new link
        service().notice("seat_released_new_link", player=name)
    return jsonify(released=released)


@seat_api.post("/<path:name>/menu")
def choose_menu(name: str) -> tuple[Response, int] | Response:
    """The player chooses their menu on their own phone: needs their seat key and the page's CSRF token."""
    if service().seat_view(name) is None:
        return jsonify(error=f"no player named {name!r} in this game"), 404
    if not own_seat(name):
        return jsonify(error="only this player's own phone (their seat link) chooses their menu"), 403
    body = request.get_json(silent=True, force=True)
    menu = body.get("menu") if isinstance(body, dict) else None
    if not isinstance(menu, str):
        return jsonify(error='the body must be {"menu": M}'), 400
    try:
        answer = service().submit({"type": "menu", "player": name, "menu": menu}, source="seat")
    except MalformedEvent as error:
        return jsonify(error=str(error)), 400
    return jsonify(answer.as_json())
