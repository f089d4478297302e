"""The JSON API of the contract (state, events, stream) and the table controls."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from companion.events import MAX_EVENT_BYTES, MalformedEvent, parse_event_json
from companion.table import GameNotSwitchable, Message, UnknownGame
from companion.tags import simulated_uid
from web_ui.auth import PIN_HEADER, authorized, csrf_token, pin_matches, require_pin, unlock_session, unlocked
from web_ui.context import client_address, deck_desk, resources, service, settings
from web_ui.deck_api import NotAUid, parse_drop
from web_ui.seats import holds_any_seat, visible_seat_view
from web_ui.settings import parse_settings
from web_ui.stream import event_stream, parse_last_id, rendered

api = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> Any:
    """The request's JSON body; a 400 with a clear message when it is not JSON."""
    data = request.get_json(silent=True, force=True)
    if data is None:
        raise BadRequestBody("the body must be JSON (Content-Type: application/json)")
    return data


class BadRequestBody(ValueError):
    """A request body we cannot use: answered 400 with its message."""


IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,64}")


def event_body() -> Any:
    """The request's body as one JSON value, strictly (finite numbers, valid Unicode, bounded size and
    depth); a 400 with a clear message otherwise."""
    if (request.content_length or 0) > MAX_EVENT_BYTES:
        raise BadRequestBody(f"an event may be at most {MAX_EVENT_BYTES // 1024} KiB long")
    return parse_event_json(request.get_data(cache=True))


def idempotency_key() -> str | None:
    """The request's Idempotency-Key (1 to 64 visible ASCII characters), None without one; 400 if bad."""
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(raw):
        raise BadRequestBody("Idempotency-Key must be 1 to 64 visible ASCII characters")
    return raw


@api.errorhandler(BadRequestBody)
@api.errorhandler(MalformedEvent)
def _bad_body(error: ValueError) -> tuple[Response, int]:
    return jsonify(error=str(error)), 400




@api.get("/state")
def state() -> Response:
    """The contract's state object (as `marmite replay` prints it, without `refused`)."""
    return jsonify(service().state())


@api.get("/table")
def table() -> Response:
    """The table display's public view, with the display settings."""
    view = service().table_view()
    view["settings"] = settings().current.as_json()
    view["last_serial"] = service().last_serial
    return jsonify(view)


@api.get("/seat/<path:name>")
def seat(name: str) -> tuple[Response, int] | Response:
    """One player's view; their secret menu and hand with their seat key (`?k=`); their known hand (scanned
    or dealt by tag over the table's reader) also with the PIN header, never their secret menu."""
    view = visible_seat_view(name)
    if view is None:
        return jsonify(error=f"no player named {name!r} in this game"), 404
    if view.get("hand") is None and "hand" in view and pin_matches(request.headers.get(PIN_HEADER)) \
            and not service().robots.is_robot(name):  # a robot's hand is nobody's to read (seats.owns_seat)
        view["hand"] = (service().seat_view(name, owner=True) or {}).get("hand")
    return jsonify(view)


@api.get("/history")
def history() -> Response:
    """Every round trick by trick."""
    return jsonify(service().history())


GAMES_PAGE = 50


@api.get("/games")
def games() -> Response:
    """Games and their results, oldest first: the newest `limit` (default 50, at most 1,000) of those
    started before game `before` (default: all), so a year of games costs the same as one."""
    try:
        raw_before = request.args.get("before")  # not get(type=int): that turns "abc" into "no bound"
        before = None if raw_before is None else int(raw_before)
        limit = int(request.args.get("limit", GAMES_PAGE))
    except ValueError:
        raise BadRequestBody("limit and before must be whole numbers") from None
    if not 1 <= limit <= 1000:
        raise BadRequestBody("limit must be between 1 and 1000")
    if before is not None and not 0 <= before < 2**63:
        raise BadRequestBody("before must be a game number (0 to 2^63 - 1)")
    return jsonify(service().past_games(before=before, limit=limit))


@api.post("/games/<int:game>/resume")
@require_pin
def resume_game(game: int) -> tuple[Response, int] | Response:
    """Make an earlier, unfinished game the current one again, where it stood."""
    return _switch(service().resume_game, game)


@api.post("/games/<int:game>/close")
@require_pin
def close_game(game: int) -> tuple[Response, int] | Response:
    """Close an earlier, unfinished game: it is listed as abandoned; its log stays whole."""
    return _switch(service().abandon_game, game)


def _switch(action: Callable[[int], Message], game: int) -> tuple[Response, int] | Response:
    """Resume or close `game`: the announcement as the stream sends it; 404/409 naming why, nothing changed."""
    try:
        message = action(game)
    except UnknownGame as error:
        return jsonify(error=str(error)), 404
    except GameNotSwitchable as error:
        return jsonify(error=str(error)), 409
    return jsonify({**rendered(service(), message), "game": game})


@api.post("/events")
@require_pin
def events() -> Response:
    """Submit one contract event; refused events are answered 200 with their reason."""
    key = idempotency_key()
    return jsonify(service().submit(event_body(), source="api", key=key).as_json())


@api.post("/undo")
@require_pin
def undo() -> Response:
    """Take back the last accepted play, menu or hand."""
    return jsonify(service().undo(source="api", key=idempotency_key()).as_json())


@api.post("/drop")
@require_pin
def drop() -> Response:
    """The virtual pot: a card, menu card ({"code"}) or tag ({"uid"}) passes the reader's antenna."""
    key = idempotency_key()
    try:
        uid, code = parse_drop(json_body(), service().tags.codes)
    except NotAUid as error:  # refused before anything is noted, and said
        service().notice("uid_refused", uid=error.uid[:40])
        raise BadRequestBody(str(error)) from None
    except ValueError as error:
        raise BadRequestBody(str(error)) from None
    uid = uid or simulated_uid(code or "")
    if (first := service().recorded(key)) is not None:  # a resent drop is answered as the first time
        return jsonify(first.as_json())
    found = deck_desk()
    taken = found.tag_seen(uid) if found is not None else None  # enrolling, checking or dealing
    if taken is not None:
        return jsonify(deck=taken)
    result = service().tag_seen(uid, source="virtual-pot", key=key)
    if result is None:
        return jsonify(ignored=True)
    return jsonify(result.as_json())


@api.post("/repeat")
def repeat() -> Response:
    """Say the last announcement again (changes nothing, so no PIN)."""
    return jsonify(rendered(service(), service().repeat_last()))


@api.post("/where")
def where() -> Response:
    """Say the whole state (changes nothing, so no PIN)."""
    return jsonify(rendered(service(), service().where_are_we()))


@api.get("/settings")
def get_settings() -> Response:
    """The table's language, voice and speech rate."""
    return jsonify(settings().current.as_json())


@api.post("/settings")
@require_pin
def post_settings() -> tuple[Response, int] | Response:
    """Change the table's language, voice or speech rate."""
    try:
        new = parse_settings(json_body(), settings().current)
    except ValueError as error:
        raise BadRequestBody(str(error)) from None
    try:
        settings().update(new)  # written first: a change that cannot be kept is not applied
    except OSError as error:
        return jsonify(error=f"the settings could not be saved ({error.strerror}): nothing changed"), 503
    service().language = new.language
    return jsonify(new.as_json())


@api.post("/unlock")
def unlock() -> tuple[Response, int] | Response:
    """Type the PIN once: this browser session may then change things (with its CSRF token)."""
    body = json_body()
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, str) or not pin_matches(pin):
        return jsonify(error="wrong PIN"), 401
    unlock_session()
    return jsonify(unlocked=True, csrf=csrf_token())


@api.get("/auth")
def auth() -> Response:
    """Whether this request may change things."""
    ok, why = authorized()
    return jsonify(authorized=ok, reason=why)


def trusted_display() -> bool:
    """The PIN holder (header or unlocked session) or a claimed seat's own phone: their streams always
    find a place, whatever strangers hold."""
    header = request.headers.get(PIN_HEADER)
    if header is not None:
        return pin_matches(header)
    return unlocked() or holds_any_seat()


@api.get("/stream")
def stream() -> tuple[Response, int] | Response:
    """Server-sent events: every message after Last-Event-ID, then live ones, with a heartbeat."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    try:
        last_id = parse_last_id(raw)
    except ValueError:
        return jsonify(error="Last-Event-ID must be a non-negative integer"), 400
    stop = resources().stop
    heartbeat: float = current_app.config["MARMITE_HEARTBEAT"]
    gate = resources().streams
    client = client_address()
    reserved = gate.enter(client, trusted=trusted_display())  # TooMany: 429 with Retry-After
    body = event_stream(service(), last_id, stop, heartbeat=heartbeat)
    response = Response(stream_with_context(body), mimetype="text/event-stream")
    response.call_on_close(lambda: gate.leave(client, reserved=reserved))
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response
