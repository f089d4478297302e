"""HTML pages: table display, setup, seat view, round history, unlock. They render the service's views."""

from __future__ import annotations

import hmac
import re
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    session,
    url_for,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from companion.chaud_devant.announcer import Theme, render
from companion.chaud_devant.cards import ALL_CODES, DECK, MENUS
from companion.chaud_devant.state import State as ChaudDevantState
from companion.phrases import LANGUAGES
from companion.seam import Part
from web_ui import buffet_pages
from web_ui.auth import csrf_token, pin_matches, unlock_session, unlocked
from web_ui.context import service, settings
from web_ui.fact_keys import fact_keys
from web_ui.seats import base_url, seat_links, visible_seat_view

pages = Blueprint("pages", __name__)

SUIT_SYMBOLS = {"pea": "●", "onion": "◆", "mushroom": "▲", "pepper": "✱", "none": "∅"}


def _helpers() -> dict[str, Any]:
    state = service().game_state
    edition = state.game.rules.edition if isinstance(state, ChaudDevantState) else "2005"
    theme = Theme(service().language, edition)

    def card_name(code: str) -> str:
        return theme.card(code)

    def revoke_text(revoke: dict[str, Any]) -> str:
        fields = {key: revoke[key] for key in ("player", "suit", "void_trick", "proof_trick")}
        return render([Part("revoke", fields)], theme)

    def card_suit(code: str) -> str:
        played = DECK.get(code)
        return str(played.suit) if played is not None else ""

    return {
        "card_name": card_name, "card_suit": card_suit, "suit_name": theme.suit, "menu_name": theme.menu,
        "symbol": SUIT_SYMBOLS, "unlocked": unlocked(), "csrf": csrf_token(), "settings": settings().current,
        "lang": service().language, "languages": LANGUAGES, "all_codes": ALL_CODES, "menus": MENUS,
        "log_seed": _log_seed, "fact_keys_for": lambda game, page: fact_keys(game, page, theme.suit),
        "revoke_text": revoke_text, "last_seq": _last_seq(),
    }


LOG_SEED = 1000
"""Announcements of the current game a page's log starts from (it shows the last 200; the older ones
only count the rounds and tricks for its headings)."""


def _log_seed() -> list[dict[str, Any]]:
    """The current game's announcements, oldest first, as the stream sends them: a page opened
    mid-game is not blank, and a new game's log does not carry the previous game's."""
    table = service()
    start = table.current_game or 0
    events = [m for m in table.messages_after(0) if m.is_event and m.seq >= start]
    return [table.render(m) for m in events[-LOG_SEED:]]


def _last_seq() -> int:
    """The journal seq of the newest announcement the page shows; its stream resumes after it."""
    events = [m for m in service().messages_after(0) if m.is_event and m.stream_id is not None]
    return int(events[-1].stream_id or 0) if events else 0


def _chart(series: list[dict[str, int]], players: list[str]) -> dict[str, Any]:
    """Polyline points of stars per player over the rounds, for an inline SVG."""
    top = max([5, *(v for point in series for v in point.values())])
    width, height = 500, 200
    step = width / 5
    lines = []
    for index, name in enumerate(players):
        points = " ".join(
            f"{40 + i * step:.0f},{20 + height - point.get(name, 0) * height / top:.0f}"
            for i, point in enumerate(series))
        lines.append({"name": name, "points": points, "index": index})
    values = sorted({0, top // 2, top})
    return {"lines": lines, "top": top, "rounds": len(series), "levels": values}


def _host(view: dict[str, Any]) -> dict[str, Any]:
    """What the host's controls need from the view: cards played this round, round 5's forced menus."""
    played: list[str] = []
    current = view["rounds"][-1] if view.get("rounds") else None
    if current is not None and view.get("phase") == "play":
        played = [code for trick in current["tricks"] for code in trick["cards"]] + list(view["pot"]["cards"])
    forced: list[str] = []
    left: dict[str, list[str]] = {}  # each player's menus not used yet (the used ones were revealed)
    if view.get("phase") == "menu":
        scored = [past for past in view["rounds"] if "points" in past]
        seats = list(view["players"])
        first = next((i for i, p in enumerate(seats) if p["name"] == view.get("next_to_reveal")), 0)
        for player in seats[first:] + seats[:first]:  # menus revealed one after another go in their order
            used = {past.get("menus", {}).get(player["name"]) for past in scored}
            left[player["name"]] = [menu for menu in MENUS if menu not in used]
            if view.get("round") == 5 and not player["has_chosen"] and len(left[player["name"]]) == 1:
                forced.append(f"{player['name']}={left[player['name']][0]}")
    return {"played": played, "forced": forced, "left": left}


def _table(template: str, view: dict[str, Any]) -> str:
    return render_template(template, view=view, chart=_chart(view["stars_by_round"], view["stars"]),
                           host=_host(view), **_helpers())


@pages.get("/")
def table_display() -> str:
    """The table display for the tablet."""
    view = service().table_view()
    if view["game_kind"] == "buffet":
        return _buffet_table("buffet_table.html", view)
    return _table("table.html", view)


@pages.get("/fragment/table")
def table_fragment() -> str:
    """The state part of the table display, re-fetched after each event."""
    view = service().table_view()
    if view["game_kind"] == "buffet":
        return _buffet_table("_buffet_table_state.html", view)
    return _table("_table_state.html", view)


@pages.get("/seat/<name>")
def seat_page(name: str) -> str:
    """A player's phone view."""
    return _render_seat("seat.html", name)


@pages.get("/fragment/seat/<name>")
def seat_fragment(name: str) -> str:
    """The state part of a seat view."""
    return _render_seat("_seat_state.html", name)


def _render_seat(template: str, name: str) -> str:
    view = visible_seat_view(name)
    if view is None:
        abort(404, f"no player named {name} in this game")
    if view.get("game_kind") == "buffet":
        buffet_template = "buffet_seat.html" if template == "seat.html" else "_buffet_seat_state.html"
        return buffet_pages.render_seat(buffet_template, view, name, service().language, **_helpers())
    return render_template(template, view=view, name=name, **_helpers())


@pages.get("/favicon.ico")
def favicon() -> WerkzeugResponse:
    """The tab icon browsers ask for on every page (an SVG pot)."""
    return send_from_directory(pages.root_path + "/static", "favicon.svg", mimetype="image/svg+xml", max_age=86400)


@pages.get("/history")
def history_page() -> str:
    """Round history, trick by trick (for Sus au buffet !, step by step)."""
    if service().game_name == "buffet":
        return buffet_pages.render_page("buffet_history.html", service().language, history=service().history(),
                                        **_helpers())
    return render_template("history.html", history=service().history(), **_helpers())


SETUP_GAMES = 20  # the setup page lists the newest games only; /api/games?before= pages through the rest


@pages.get("/setup")
def setup_page() -> str:
    """New game, display settings, past games."""
    links = seat_links(base_url()) if unlocked() else []
    view = service().table_view()
    running = bool(view["players"]) and view["phase"] != "game_over"
    return render_template("setup.html", games=service().past_games(limit=SETUP_GAMES), seat_links=links,
                           running=running, table_pin=current_app.config["MARMITE_PIN"] if unlocked() else None,
                           **_helpers())


@pages.get("/setup/buffet")
def buffet_setup_page() -> str:
    """A new game of Sus au buffet !."""
    return buffet_pages.render_page("buffet_setup.html", service().language, **_helpers())


def _buffet_table(template: str, view: dict[str, Any]) -> str:
    return buffet_pages.render_table(template, view, service().game_state, service().language, **_helpers())


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
        sent = request.form.get("csrf_token", "")
        if not hmac.compare_digest(sent.encode(), csrf_token().encode()):
            abort(400, "missing or wrong CSRF token; reload the page")
        if pin_matches(request.form.get("pin")):
            unlock_session()
            return redirect(target)
        error = True
    return render_template("unlock.html", error=error, target=target, **_helpers())


@pages.post("/lock")
def lock_page() -> WerkzeugResponse:
    """Forget the PIN in this browser."""
    if not hmac.compare_digest(request.form.get("csrf_token", "").encode(), csrf_token().encode()):
        abort(400, "missing or wrong CSRF token; reload the page")
    session.pop("unlocked", None)
    return redirect(url_for("pages.table_display"))
