"""The Flask application factory: pages, JSON API and live stream over one table service."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, get_locale, gettext, ngettext
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from companion.catalogs import LOCALE_DIR
from companion.journal import StorageError
from web_ui.auth import GUESSES_PER_MINUTE
from web_ui.context import client_address
from web_ui.limits import GuessWindow, RateLimit, StreamGate, TooMany
from web_ui.resources import TableResources, TableServices, keep_resources, table_resources
from web_ui.seats import SEAT_RELEASES_FILE, SeatClaims
from web_ui.settings import SETTINGS_FILE, SettingsStore
from web_ui.storage_trouble import storage_answer

SECRET_FILE = "web-secret"
MAX_BODY_BYTES = 64 * 1024
"""The largest request body (the biggest real one, a new game, is well under 1 KiB)."""
MAX_STREAMS = 128
"""Live streams the whole table serves at once (the server keeps a thread for each, plus others)."""
RESERVED_STREAMS = 16
"""Live streams kept for trusted displays (the PIN holder's, claimed seats' phones) beyond MAX_STREAMS."""
STREAMS_PER_CLIENT = 8
"""Live streams one address may hold (a phone with a few tabs)."""
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
RATE_LIMITED = {"api.where": "where", "api.repeat": "repeat", "api.unlock": "unlock", "pages.unlock_page": "unlock",
                "robot_api.hint": "hint"}
"""Endpoints anyone may call without the PIN, limited per address (a token bucket each)."""
HINT_BURST = 4
"""Learning-aid requests one phone may make at once (each is a search of a few hundred milliseconds)."""


def create_app(services: TableServices, *, pin: str, config: dict[str, Any] | None = None) -> Flask:
    """A Flask app serving the table of `services` (handed whole by the composition root); `pin` guards
    every change."""
    service, data_dir = services.service, services.data_dir
    missing = set(service.games.kinds) - set(services.pages)
    if missing:
        raise ValueError(f"no pages for the games {sorted(missing)}")
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=_secret_key(data_dir),
        MARMITE_PIN=pin,
        MARMITE_HEARTBEAT=15.0,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        BABEL_DEFAULT_LOCALE="fr",
        BABEL_TRANSLATION_DIRECTORIES=str(LOCALE_DIR),
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MARMITE_MAX_STREAMS=MAX_STREAMS,
        MARMITE_STREAMS_PER_CLIENT=STREAMS_PER_CLIENT,
        MARMITE_RESERVED_STREAMS=RESERVED_STREAMS,
    )
    app.config.update(config or {})
    store = SettingsStore(data_dir / SETTINGS_FILE if data_dir is not None else None)
    service.language = store.current.language
    keep_resources(app, TableResources(
        table=services,
        settings=store,
        claims=SeatClaims(data_dir / SEAT_RELEASES_FILE if data_dir is not None else None),
        guesses=GuessWindow(GUESSES_PER_MINUTE, 60.0),
        streams=StreamGate(app.config["MARMITE_MAX_STREAMS"], app.config["MARMITE_STREAMS_PER_CLIENT"],
                           app.config["MARMITE_RESERVED_STREAMS"]),
        rates={"where": RateLimit(burst=6, every=5.0), "repeat": RateLimit(burst=6, every=5.0),
               "unlock": RateLimit(burst=5, every=6.0), "hint": RateLimit(burst=HINT_BURST, every=3.0)}))
    Babel(app, locale_selector=_locale_selector(store))
    app.json = BoundedJSONProvider(app)
    app.json.sort_keys = False

    from web_ui.api import api
    from web_ui.deck_api import deck_api
    from web_ui.deck_pages import deck_pages
    from web_ui.pages import pages as generic_pages
    from web_ui.pin_api import pin_api
    from web_ui.reader_pages import reader_pages
    from web_ui.robot_api import robot_api
    from web_ui.robot_pages import robot_pages
    from web_ui.seat_api import seat_api

    app.register_blueprint(api)
    app.register_blueprint(pin_api)
    app.register_blueprint(generic_pages)
    app.register_blueprint(deck_api)
    app.register_blueprint(deck_pages)
    app.register_blueprint(seat_api)
    app.register_blueprint(reader_pages)
    app.register_blueprint(robot_api)
    app.register_blueprint(robot_pages)
    for game_pages in services.pages.values():  # each game's templates/<game>/ and static/<game>/
        app.register_blueprint(game_pages.blueprint)
    from web_ui.game_pages import speech_keys
    from web_ui.page_common import trick_word

    keys = speech_keys(services.pages)
    app.context_processor(lambda: {"speech_keys": keys, "trick_word": trick_word()})  # every page's log and voice
    app.register_error_handler(TooMany, _too_many)
    app.register_error_handler(StorageError, storage_answer)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _internal_error)
    app.before_request(_limit_rates)
    app.after_request(_security_headers)
    return app


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, where a body nested too deep for the parser is bad JSON (a 400), not a crash."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("the JSON body is nested too deeply") from None


PRIVATE_PATHS = ("/seat/", "/fragment/seat/", "/api/seat/", "/setup")
"""Pages and answers that may carry a seat's secrets (hand, menu), or the host's (the PIN, seat links, a
buffet robot's cards on the setup pages): never kept by a cache or a browser's history."""


def _secret_key(data_dir: Path | None) -> str:
    """The session key, kept in the data dir so a restart keeps unlocked tablets unlocked."""
    if data_dir is None:
        return secrets.token_hex(32)
    path = data_dir / SECRET_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    except (OSError, UnicodeDecodeError):
        pass
    key = secrets.token_hex(32)
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key)
    return key


def stop_streams(app: Flask) -> None:
    """End every live stream (server shutdown)."""
    resources = table_resources(app)
    resources.stop.set()
    resources.service.wake_streams()


def _limit_rates() -> None:
    """Spend a token of this address for the unauthenticated endpoints (TooMany becomes a 429)."""
    name = RATE_LIMITED.get(request.endpoint or "")
    if name is None or (request.endpoint == "pages.unlock_page" and request.method != "POST"):
        return
    table_resources().rates[name].take(client_address(), f"too many {name} requests from this device")


def _too_many(error: TooMany) -> Response:
    """429 with Retry-After, in JSON for the API and otherwise as an escaped page in the table's language
    (a person at the unlock page meets it)."""
    if _wants_json():
        response = jsonify(error=error.what, retry_after=error.retry_after)
    else:
        wait = ngettext("Too many tries: wait %(num)d second, then try again.",
                        "Too many tries: wait %(num)d seconds, then try again.", error.retry_after)
        response = _html_error(429, gettext("Too many tries"), wait, lang=str(get_locale() or "fr"))
    response.status_code = 429
    response.headers["Retry-After"] = str(error.retry_after)
    return response


def _locale_selector(store: SettingsStore) -> Callable[[], str]:
    def select() -> str:
        return store.current.language

    return select


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.is_json


def _html_error(code: int, name: str, description: str, *, lang: str = "en") -> Response:
    """A small error page: every text escaped (a URL's words must never become markup)."""
    page = (f"<!doctype html><html lang=\"{escape(lang)}\"><head><meta charset=\"utf-8\">"
            f"<title>{code} {escape(name)}</title></head>"
            f"<body><h1>{code} {escape(name)}</h1><p>{escape(description)}</p>"
            "<p><a href=\"/\">Marmite</a></p></body></html>")
    return Response(page, status=code, mimetype="text/html")


def _page_words(code: int) -> tuple[str, str]:
    """An error page's title and plain sentence in the table's language (a person reads it, not a program)."""
    words = {
        400: (gettext("Request refused"), gettext("This page could not take that request.")),
        403: (gettext("Not allowed"), gettext("This page is not open to this device.")),
        404: (gettext("Page not found"), gettext("There is no such page at this table.")),
        405: (gettext("Not allowed"), gettext("This page does not take that kind of request.")),
        409: (gettext("Not now"), gettext("The table cannot do that in its present state.")),
        413: (gettext("Too large"), gettext("What was sent is too large for this table.")),
    }
    return words.get(code, (gettext("Error"), gettext("Something went wrong; the table log is unchanged.")))


def _http_error(error: HTTPException) -> Response | tuple[Response, int]:
    code = error.code or 500
    if _wants_json():
        return jsonify(error=error.description or error.name), code
    title, sentence = _page_words(code)
    own = error.description if error.description != type(error).description else None  # our abort()'s words
    response = _html_error(code, title, own or sentence, lang=str(get_locale() or "fr"))
    headers = dict(error.get_headers())
    for header in ("Retry-After", "Allow"):
        if header in headers:
            response.headers[header] = headers[header]
    return response


def _internal_error(error: Exception) -> tuple[Response, int] | Response:
    """Never a stack trace: a short message (the log has the details)."""
    current_app.logger.exception("unexpected error")
    if _wants_json():
        return jsonify(error="internal error; the table log is unchanged"), 500
    return _html_error(500, gettext("Error"), gettext("Something went wrong; the table log is unchanged."),
                       lang=str(get_locale() or "fr"))


def _security_headers(response: Response) -> Response:
    """Every answer: no sniffing, no framing, no referrer, and a strict CSP (no inline script or style)."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if request.path.startswith(PRIVATE_PATHS):
        response.headers["Cache-Control"] = "no-store"
    return response
