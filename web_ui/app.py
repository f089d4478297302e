"""The Flask application factory: pages, JSON API and live stream over one table service."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from flask_babel import Babel
from werkzeug.exceptions import HTTPException

from companion.deck_desk import DeckDesk
from companion.table import TableService
from web_ui.auth import Throttle
from web_ui.settings import SETTINGS_FILE, SettingsStore

SECRET_FILE = "web-secret"


def create_app(service: TableService, *, pin: str, data_dir: Path | None = None,
               config: dict[str, Any] | None = None) -> Flask:
    """A Flask app serving `service`; `pin` guards every change."""
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=_secret_key(data_dir),
        MARMITE_PIN=pin,
        MARMITE_HEARTBEAT=15.0,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        BABEL_DEFAULT_LOCALE="fr",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        JSON_SORT_KEYS=False,
    )
    app.config.update(config or {})
    store = SettingsStore(data_dir / SETTINGS_FILE if data_dir is not None else None)
    service.language = store.current.language
    app.extensions["marmite.service"] = service
    app.extensions["marmite.settings"] = store
    app.extensions["marmite.stop"] = threading.Event()
    app.extensions["marmite.throttle"] = Throttle()
    app.extensions["marmite.desk"] = DeckDesk(service, data_dir) if data_dir is not None else None
    Babel(app, locale_selector=_locale_selector(store))
    app.json.sort_keys = False  # type: ignore[attr-defined]

    from web_ui.api import api
    from web_ui.deck_api import deck_api
    from web_ui.deck_pages import deck_pages
    from web_ui.pages import pages

    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.register_blueprint(deck_api)
    app.register_blueprint(deck_pages)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _internal_error)
    app.after_request(_security_headers)
    return app


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
    stop: threading.Event = app.extensions["marmite.stop"]
    stop.set()


def _locale_selector(store: SettingsStore) -> Callable[[], str]:
    def select() -> str:
        return store.current.language

    return select


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.is_json


def _http_error(error: HTTPException) -> Response | tuple[Response | str, int]:
    code = error.code or 500
    if _wants_json():
        return jsonify(error=error.description or error.name), code
    return f"{code} {error.name}: {error.description}", code


def _internal_error(error: Exception) -> tuple[Response | str, int]:
    """Never a stack trace: a short message (the log has the details)."""
    from flask import current_app

    current_app.logger.exception("unexpected error")
    if _wants_json():
        return jsonify(error="internal error; the table log is unchanged"), 500
    return "500 internal error", 500


def _security_headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response
