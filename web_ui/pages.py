"""HTML pages: table display, setup, seat view, round history, unlock. They name no game: each page is
the current game's, looked up in the page table (`web_ui.game_pages`) the composition root hands in."""

from __future__ import annotations

import json
import re
import threading
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any
from urllib.parse import quote

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    send_from_directory,
    session,
    url_for,
)
from flask_babel import gettext
from werkzeug.wrappers import Response as WerkzeugResponse

from companion.journal import StorageError
from companion.table import TableService
from web_ui.auth import csrf_ok, pin_matches, unlock_session, unlocked
from web_ui.context import robot_driver, service
from web_ui.game_pages import GamePages, page_table
from web_ui.page_common import common_context, game_in_progress
from web_ui.seats import base_url, claim_to_make, held_elsewhere, seat_links, visible_seat_view

pages = Blueprint("pages", __name__)


def _current() -> GamePages:
    """The pages of the game the table plays (the default game's before any)."""
    return page_table()[service().game_name]


@pages.get("/")
def table_display() -> str:
    """The table display for the tablet."""
    return _current().render_table(service().table_view(), service().game_state, service().language,
                                   fragment=False)


def _with_voices(html: str) -> Response:
    """A fragment, with the voices that speak for a practice table (`X-Table-Voices`, URL-encoded, spaces
    between): a practice player's phone and the tablet then do not both say the same lines; and its robot
    seats (`X-Practice-Robots`, URL-encoded JSON): a person's turn there is a cue every profile says."""
    response = make_response(html)
    driver = robot_driver()
    voices = driver.practice_voices() if driver is not None else None
    if voices is not None:
        response.headers["X-Table-Voices"] = quote(" ".join(voices))
        robots = sorted(service().robots.setup.seats)  # whose turn is no person's cue (the brief profile)
        response.headers["X-Practice-Robots"] = quote(json.dumps(robots))
    return response


@pages.get("/fragment/table")
def table_fragment() -> Response:
    """The state part of the table display, re-fetched after each event."""
    return _with_voices(_current().render_table(service().table_view(), service().game_state,
                                                service().language, fragment=True))


@pages.get("/seat/<path:name>")
def seat_page(name: str) -> str:
    """A player's phone view."""
    return _render_seat(name, fragment=False)


@pages.get("/fragment/seat/<path:name>")
def seat_fragment(name: str) -> Response:
    """The state part of a seat view."""
    return _with_voices(_render_seat(name, fragment=True))


def _render_seat(name: str, *, fragment: bool) -> str:
    view = visible_seat_view(name)
    if view is None:
        abort(404, gettext("No player named %(name)s in this game.", name=name))
    claim = None if fragment else claim_to_make(name)  # the page's script claims it (a POST)
    elsewhere = not fragment and held_elsewhere(name)
    return _current().render_seat(view, name, service().language, fragment=fragment, claim=claim,
                                  held_elsewhere=elsewhere)


@pages.get("/favicon.ico")
def favicon() -> WerkzeugResponse:
    """The tab icon browsers ask for on every page (an SVG pot)."""
    return send_from_directory(pages.root_path + "/static", "favicon.svg", mimetype="image/svg+xml", max_age=86400)


@pages.get("/history")
def history_page() -> str:
    """Round history, trick by trick (for Sus au buffet !, step by step)."""
    table = service()
    return _current().render_history(table.history(), table.language, player_stats=_player_stats(table))


STATS_WAIT_S = 1.0
"""How long the first history page waits for the games from before this run to be read into the players'
statistics: a disk stall must never hold up a view (it shows the game without them; they come once read)."""
_STATS_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history-stats")
_STATS_LOADS: weakref.WeakKeyDictionary[TableService, Future[None]] = weakref.WeakKeyDictionary()
"""The load under way for each table: views during a stall wait on it rather than queue more."""
_STATS_LOADS_LOCK = threading.Lock()


def _player_stats(table: TableService) -> list[dict[str, Any]] | None:
    """The table's per-player statistics, from memory (kept up to date as games end); None while the
    journal's games are not read yet and the journal does not answer within STATS_WAIT_S."""
    if not table.player_stats.loaded:
        with _STATS_LOADS_LOCK:
            loading = _STATS_LOADS.get(table)
            if loading is None or loading.done():
                loading = _STATS_LOADS[table] = _STATS_READER.submit(table.load_player_stats)
        try:
            loading.result(timeout=STATS_WAIT_S)
        except (FutureTimeout, StorageError):
            return None
    return table.player_stats.ranking()


SETUP_GAMES = 20  # the setup page lists the newest games only; /api/games?before= pages through the rest


@pages.get("/setup")
def setup_page() -> str:
    """New game (the games' forms, links to the games with a setup page of their own), settings, past games."""
    links = seat_links(base_url()) if unlocked() else []
    running = game_in_progress()
    games = list(page_table().values())
    return render_template("setup.html", games=service().past_games(limit=SETUP_GAMES), seat_links=links,
                           running=running, forms=[g for g in games if g.setup_form() is not None],
                           setup_pages=[g for g in games if g.has_setup_page()],
                           table_pin=current_app.config["MARMITE_PIN"] if unlocked() else None, **common_context())


@pages.get("/setup/<game>")
def game_setup_page(game: str) -> str:
    """A new game of a game with a setup page of its own (Sus au buffet !)."""
    found = page_table().get(game)
    if found is None or not found.has_setup_page():
        abort(404, gettext("No setup page for the game %(game)s.", game=game))
    return found.render_setup(service().language)


OWN_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9/_.~%-]*")
"""A path on this site: a slash not followed by another or a backslash, then only plain URL characters."""


def own_path(target: str) -> str:
    """`target` when it is a path on this site, else "/" (no scheme, host, backslash, tab or space)."""
    return target if OWN_PATH.fullmatch(target) else "/"


@pages.route("/unlock", methods=["GET", "POST"])
def unlock_page() -> str | WerkzeugResponse:
    """Type the table PIN once for this browser."""
    error = False
    target = own_path(request.values.get("next", "/"))
    if request.method == "POST":
        if not csrf_ok():
            abort(400, gettext("This page has expired: reload it, then try again."))
        if pin_matches(request.form.get("pin")):
            unlock_session()
            return redirect(target)
        error = True
    return render_template("unlock.html", error=error, target=target, **common_context())


@pages.post("/lock")
def lock_page() -> WerkzeugResponse:
    """Forget the PIN in this browser."""
    if not csrf_ok():
        abort(400, gettext("This page has expired: reload it, then try again."))
    session.pop("unlocked", None)
    return redirect(url_for("pages.table_display"))
