"""The hub's pages: the board for the wall screen (public, read-only, live) and the director's console
(its own PIN). Same limits as a table: strict CSP, bounded streams and connections, PIN guesses bounded."""

from __future__ import annotations

import contextlib
import hmac
import io
import ipaddress
import json
import secrets
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, redirect, render_template, request, session, url_for
from flask_babel import Babel
from werkzeug.wrappers import Response as WerkzeugResponse

from club.broker import write_private
from club.cards import CardError, masked
from club.hub import ClubHub
from club.results import SCORING_RULES, bg_stats, bg_stats_play_link, night, night_csv, player_statistics
from club.rules import RuleError, rules_from_form
from club.seating import SeatingError
from companion.catalogs import LOCALE_DIR
from web_ui.app import CONTENT_SECURITY_POLICY
from web_ui.limits import GuessWindow, GuessWindows, RateLimit, StreamGate, TooMany

MAX_STREAMS = 64
RESERVED_STREAMS = 8  # kept for the wall board: the hub's own screen, or a browser where the console was unlocked
STREAMS_PER_CLIENT = 4
ALL_GUESSES = 30  # wrong director PINs a minute from all other devices together: three devices' own limit
HEARTBEAT_SECONDS = 15.0
LANGUAGES = ("fr", "en", "nl")

board = Blueprint("board", __name__, template_folder="templates", static_folder="static",
                  static_url_path="/static/club")


CONSOLE_DIR = "director"
SECRET_FILE = "console-secret"


def console_secret(data_dir: Path) -> str:
    """The key that signs the director's session, kept (owner-only) in the hub's data dir: a hub restarted
    mid-evening keeps the director's console unlocked."""
    path = data_dir / CONSOLE_DIR / SECRET_FILE
    with contextlib.suppress(OSError, UnicodeDecodeError):
        kept = path.read_text(encoding="ascii").strip()
        if len(kept) == 64:
            return kept
    path.parent.mkdir(parents=True, exist_ok=True)
    made = secrets.token_hex(32)
    write_private(path, made + "\n")
    return made


def create_club_app(hub: ClubHub, *, pin: str, secret_key: str | None = None) -> Flask:
    """The hub's Flask app; `pin` guards the director's console, `secret_key` signs its session (a random
    one when not given: the session then ends with the process)."""
    app = Flask(__name__, static_folder=None)
    # Its own cookie name: cookies ignore ports, and a table served by the same machine has its own session.
    app.config.update(SECRET_KEY=secret_key or secrets.token_hex(32), SESSION_COOKIE_NAME="marmite_club",
                      SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_HTTPONLY=True, BABEL_DEFAULT_LOCALE="fr",
                      BABEL_TRANSLATION_DIRECTORIES=str(LOCALE_DIR), MAX_CONTENT_LENGTH=64 * 1024,
                      MARMITE_MAX_STREAMS=MAX_STREAMS, CLUB_PIN=pin)
    app.extensions["club.hub"] = hub
    app.extensions["club.stop"] = threading.Event()
    app.extensions["club.streams"] = StreamGate(MAX_STREAMS - RESERVED_STREAMS, STREAMS_PER_CLIENT,
                                                reserved=RESERVED_STREAMS)
    app.extensions["club.guesses"] = GuessWindows(10, 60.0)  # per address: a guesser never locks the director out
    # Club-wide, from other devices: many addresses (one guesser's, or several) each under its own limit are
    # still bounded; the hub's own screen never counts nor waits, so the director can always get in there.
    app.extensions["club.all_guesses"] = GuessWindow(ALL_GUESSES, 60.0)
    app.extensions["club.unlock_rate"] = RateLimit(burst=5, every=6.0)
    Babel(app, locale_selector=lambda: _language())
    app.register_blueprint(board)
    app.add_template_filter(local_time, "local_time")
    app.register_error_handler(TooMany, _too_many)
    app.after_request(_security_headers)
    return app


def local_time(at: str | None) -> str:
    """A stored UTC time as the hub's local "YYYY-MM-DD HH:MM" (today's as "HH:MM"): the director reads
    the clock of the room."""
    if not at:
        return ""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    local = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()
    today = datetime.now(UTC).astimezone().date()
    return local.strftime("%H:%M") if local.date() == today else local.strftime("%Y-%m-%d %H:%M")


def _hub() -> ClubHub:
    hub: ClubHub = current_app.extensions["club.hub"]
    return hub


def _language() -> str:
    wanted = _hub().store.setting("language", "fr")
    return wanted if wanted in LANGUAGES else "fr"


def _security_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.path.startswith("/director") or request.path.startswith("/api"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _too_many(error: TooMany) -> Response:
    response = Response(error.what, status=429, mimetype="text/plain")
    response.headers["Retry-After"] = str(error.retry_after)
    return response


def _unlocked() -> bool:
    return session.get("director") == _pin_tag()


def is_loopback(address: str) -> bool:
    """True for this machine's own address (the hub's own screen; "localhost" too)."""
    if address == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(address).is_loopback
    return False


def _in_clear() -> bool:
    """True when a PIN typed here crosses the network unencrypted (plain HTTP from another device)."""
    return request.scheme != "https" and not is_loopback(request.remote_addr or "")


def _pin_tag() -> str:
    return hmac.new(current_app.config["SECRET_KEY"].encode(), current_app.config["CLUB_PIN"].encode(),
                    "sha256").hexdigest()[:16]


def _csrf() -> str:
    token = session.get("csrf")
    if not isinstance(token, str):
        token = session["csrf"] = secrets.token_urlsafe(16)
    return token


def _director_post() -> None:
    """A console action: the director's session and its CSRF token, else 403."""
    if not _unlocked() or not hmac.compare_digest(str(request.form.get("csrf_token", "")), _csrf()):
        abort(403)


def _context(**extra: Any) -> dict[str, Any]:
    data = _hub().board()
    return {"board": data, "lang": _language(), "rules": SCORING_RULES, **extra}


@board.context_processor
def _game_words() -> dict[str, Any]:
    """Each game's name and what its points are called, in the club's language, from the game itself."""
    def game_title(kind: str) -> str:
        return _hub().club_games.title(kind, _language())

    def rule_word(kind: str, key: str) -> str:
        return _hub().club_games.rule_word(kind, key, _language())

    return {"game_title": game_title, "rule_word": rule_word,
            "points_names": lambda: _hub().club_games.points_names(_language())}


@board.get("/")
def board_page() -> str:
    """The wall screen: standings, the rule they follow, each table's game."""
    finished_only = request.args.get("finished") == "1"
    return render_template("club_board.html", finished_only=finished_only, **_context())


@board.get("/board/part")
def board_part() -> str:
    """The board's live part, re-rendered for the page's script after each change."""
    return render_template("_club_board.html", finished_only=request.args.get("finished") == "1", **_context())


@board.get("/standings")
def printable_standings() -> str:
    """The standings alone, for printing."""
    return render_template("club_standings.html", **_context())


@board.get("/api/board")
def board_json() -> Response:
    return Response(json.dumps(_hub().board(), ensure_ascii=False), mimetype="application/json")


@board.get("/api/board/stream")
def board_stream() -> Response:
    """Server-sent events: one message (the hub's version) after each change, a comment as heartbeat."""
    gate: StreamGate = current_app.extensions["club.streams"]
    client = request.remote_addr or "?"
    reserved = gate.enter(client, trusted=_unlocked() or is_loopback(client))
    hub = _hub()
    stop: threading.Event = current_app.extensions["club.stop"]

    def events() -> Iterator[str]:
        try:
            version = hub.version
            yield f"retry: 2000\nid: {version}\ndata: {json.dumps(hub.held_all())}\n\n"
            while not stop.is_set():
                now = hub.wait_change(version, HEARTBEAT_SECONDS)
                if stop.is_set():
                    return
                if now == version:
                    yield ": heartbeat\n\n"
                    continue
                version = now
                yield f"id: {version}\ndata: {json.dumps(hub.held_all())}\n\n"
        finally:
            gate.leave(client, reserved=reserved)

    return Response(events(), mimetype="text/event-stream", headers={"Cache-Control": "no-store",
                                                                      "X-Accel-Buffering": "no"})


MAX_PLAYER_NUMBER = 99_999


def _player_context() -> dict[str, Any]:
    """The player page's facts for `?number=N`: the number asked, the player's name and next seat."""
    text = str(request.args.get("number", "")).strip()
    if not text:
        return {"number": None, "player": None, "seat": None, "lang": _language()}
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_PLAYER_NUMBER:  # "²" is a digit
        abort(400)
    number = int(text)
    name = _hub().store.player(number)
    seat = _hub().next_seat(name) if name is not None else None
    return {"number": number, "player": name, "seat": seat, "lang": _language(), "last": _last_game(name)}


def _last_game(player: str | None) -> dict[str, Any] | None:
    """A player's last counted game tonight, with its BG Stats one-play link and that link's QR code."""
    import qrcode
    import qrcode.image.svg

    if player is None:
        return None
    played = [g for g in _hub().night_games() if g["counted"] and player in g["players"]]
    if not played:
        return None
    game = max(played, key=lambda g: str(g["started_at"]))  # the latest by time (night_games goes by table)
    link = bg_stats_play_link(_hub().store, _hub().games, game)
    out = io.BytesIO()
    qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, box_size=4).save(out)
    svg = out.getvalue().decode("utf-8")
    return {"table": game["table"], "number": game["number"], "points": game["points"].get(player, 0),
            "rank": game["ranks"].get(player, 0), "link": link, "svg": svg[svg.index("<svg"):]}


@board.get("/player")
def player_page() -> str:
    """A player's phone: their next table and seat by their club number, live, read aloud on demand."""
    return render_template("club_player.html", **_player_context())


@board.get("/player/part")
def player_part() -> str:
    """The player page's live part, re-rendered for the page's script after each change."""
    return render_template("_club_player.html", **_player_context())


@board.get("/director")
def director_page() -> str:
    """The director's console (or its unlock form)."""
    if not _unlocked():
        return render_template("club_unlock.html", lang=_language(), csrf=_csrf(), wrong=False, clear=_in_clear())
    context = _context(message=session.pop("message", None))
    numbers = {(g["table"], g["game"]): g["number"] for g in context["board"]["games"]}
    decisions = [{**d, "number": numbers[(d["table"], d["game"])]}  # the night's, numbered as the console shows
                 for d in sorted(_hub().store.decisions() + _hub().store.vouches(), key=lambda d: d["at"])
                 if (d["table"], d["game"]) in numbers]
    rounds = _hub().store.rounds()
    return render_template("club_director.html", csrf=_csrf(), players=_hub().store.players(),
                           numbered=_hub().store.numbered_players(), rounds=rounds,
                           problems=_hub().store.problems(20), decisions=decisions, games=_hub().club_games.names(),
                           last_game=rounds[-1]["game"] if rounds else _hub().club_games.default,
                           nights=_hub().store.nights(), rule_choices=_hub().club_games.rule_choices(), **context)


@board.post("/director/unlock")
def director_unlock() -> str | WerkzeugResponse:
    rate: RateLimit = current_app.extensions["club.unlock_rate"]
    rate.take(request.remote_addr or "?", "too many PIN attempts from this device")
    guesses: GuessWindow = current_app.extensions["club.guesses"].of(request.remote_addr or "?")
    given = str(request.form.get("pin", ""))
    if not hmac.compare_digest(str(request.form.get("csrf_token", "")), _csrf()):
        abort(403)
    everyone: GuessWindow | None = None if is_loopback(request.remote_addr or "") else \
        current_app.extensions["club.all_guesses"]
    guesses.check()  # TooMany while the window is full: no PIN is even compared
    if everyone is not None:
        everyone.check()
    if not hmac.compare_digest(given.encode(), current_app.config["CLUB_PIN"].encode()):
        if (everyone is not None and everyone.wrong()) | guesses.wrong():
            _hub().loud(None, "pin", "someone is trying to guess the director's PIN")
        return render_template("club_unlock.html", lang=_language(), csrf=_csrf(), wrong=True, clear=_in_clear())
    session["director"] = _pin_tag()
    return redirect(url_for("board.director_page"))


@board.post("/director/seat")
def director_seat() -> WerkzeugResponse:
    _director_post()
    names = [line.strip() for line in str(request.form.get("players", "")).splitlines() if line.strip()]
    game = str(request.form.get("game", _hub().club_games.default))
    if game not in _hub().club_games.facts:
        abort(400)
    try:
        rules = rules_from_form(game, {k: str(v) for k, v in request.form.items()}, _hub().games)
    except RuleError as error:
        session["message"] = ["rules", str(error)]
        return redirect(url_for("board.director_page"))
    try:
        seated = _hub().seat_next_round(names, game, rules=rules)
    except SeatingError as error:  # refused: no name is added to the club's players
        session["message"] = ["refused", error.kind, error.fields, str(error)]
        return redirect(url_for("board.director_page"))
    _hub().store.add_players(names)
    session["message"] = ["seated", seated["round"], len(seated["tables"])]
    return redirect(url_for("board.director_page"))


def _night_game() -> dict[str, Any]:
    """The game a decision is about, by its table and its number in the night at that table ("partie N" on
    the console): one the hub has folded, else 400 (nothing journaled)."""
    try:
        table, number = int(request.form["table"]), int(request.form["game"])
    except (KeyError, ValueError):
        abort(400)
    found = next((g for g in _hub().night_games() if (g["table"], g["number"]) == (table, number)), None)
    if found is None:
        abort(400)
    return found


def _who_why() -> tuple[str, str]:
    who, why = str(request.form.get("who", "")).strip(), str(request.form.get("why", "")).strip()
    if not who or not why or len(who) > 80 or len(why) > 300:
        abort(400)
    return who, why


@board.post("/director/void")
def director_void() -> WerkzeugResponse:
    """Void a game (it then counts nowhere), once the director ticked that they mean it."""
    _director_post()
    found = _night_game()
    who, why = _who_why()
    if request.form.get("sure") != "yes":
        session["message"] = ["not_voided"]
        return redirect(url_for("board.director_page") + "#decide-title")
    table, game = found["table"], found["game"]
    _hub().store.decide(table, game, "void", who, why)
    _hub().tell_table(table, {"kind": "void", "game": game, "number": found["number"], "who": who, "why": why})
    _hub().touch()
    return redirect(url_for("board.director_page") + "#decide-title")


@board.post("/director/correct")
def director_correct() -> WerkzeugResponse:
    """Correct a player's stars or points in a game; refused, nothing journaled, for a name not in it."""
    _director_post()
    found = _night_game()
    who, why = _who_why()
    player = str(request.form.get("player", "")).strip()
    try:
        stars = int(request.form["stars"])
    except (KeyError, ValueError):
        abort(400)
    if not player or not -1000 <= stars <= 1000:
        abort(400)
    if player not in found["players"]:
        session["message"] = ["not_a_player", player[:80], found["table"], found["number"],
                              ", ".join(found["players"])]
        return redirect(url_for("board.director_page") + "#decide-title")
    table, game = found["table"], found["game"]
    _hub().store.decide(table, game, "correct", who, why, player=player, stars=stars)
    _hub().tell_table(table, {"kind": "correct", "game": game, "number": found["number"], "player": player,
                              "stars": stars, "who": who, "why": why})
    _hub().touch()
    return redirect(url_for("board.director_page") + "#decide-title")


@board.post("/director/confirm")
def director_confirm() -> WerkzeugResponse:
    """The director confirms a game's final scores (a table without phones, or after a dispute), with who
    and why: on a confirming night the game then counts, and its table is told."""
    _director_post()
    found = _night_game()
    who, why = _who_why()
    table, game = found["table"], found["game"]
    _hub().store.vouch(table, game, who, why)
    _hub().tell_table(table, {"kind": "confirm", "game": game, "number": found["number"], "who": who, "why": why})
    _hub().touch()
    return redirect(url_for("board.director_page") + "#decide-title")


@board.post("/director/withdraw")
def director_withdraw() -> WerkzeugResponse:
    """Withdraw one of the director's decisions or confirmations (kept, marked withdrawn); its table is told."""
    _director_post()
    kind = "vouch" if request.form.get("kind") == "confirm" else "decision"
    try:
        number = int(request.form["id"])
    except (KeyError, ValueError):
        abort(400)
    standing = _hub().store.vouches() if kind == "vouch" else _hub().store.decisions()
    decision = next((d for d in standing if d["id"] == number), None)
    if decision is None or not _hub().store.withdraw(kind, number):
        abort(400)
    _hub().tell_table(decision["table"], {"kind": "withdrawn", "decision": decision["kind"],
                                          "game": decision["game"], "who": decision["who"]})
    _hub().touch()
    return redirect(url_for("board.director_page") + "#decide-title")


@board.post("/director/answer")
def director_answer() -> WerkzeugResponse:
    _director_post()
    table = _table_number()
    _hub().answer_call(table)
    return redirect(url_for("board.director_page"))


def _table_number() -> int:
    try:
        return int(request.form["table"])
    except (KeyError, ValueError):
        abort(400)


@board.post("/director/settings")
def director_settings() -> WerkzeugResponse:
    _director_post()
    rule, language = request.form.get("rule"), request.form.get("language")
    if rule in SCORING_RULES:
        _hub().store.set_setting("scoring", str(rule))
    if language in LANGUAGES:
        _hub().store.set_setting("language", str(language))
    confirm = request.form.get("confirm") == "yes"
    if confirm != (_hub().store.setting("confirm", "") == "yes"):
        _hub().set_confirm_night(confirm)
    _hub().touch()
    return redirect(url_for("board.director_page"))


@board.post("/director/close")
def director_close() -> WerkzeugResponse:
    _director_post()
    if request.form.get("sure") != "yes":  # one press by mistake closes no night
        session["message"] = ["not_closed"]
        return redirect(url_for("board.director_page"))
    _hub().store.set_setting("closed", "yes")
    _hub().touch()
    return redirect(url_for("board.director_page"))


@board.post("/director/next-night")
def director_next_night() -> WerkzeugResponse:
    """Open the next night, empty (the closed one stays exportable)."""
    _director_post()
    if _hub().store.setting("closed", "") != "yes":  # the night is closed first: its final standings shown
        abort(400)
    if request.form.get("sure") != "yes":  # a double tap on close must not open the next night too
        session["message"] = ["not_opened"]
        return redirect(url_for("board.director_page"))
    _hub().open_next_night()
    return redirect(url_for("board.director_page"))


@board.get("/director/night.<kind>")
def director_export(kind: str) -> Response:
    """A night (the current one, or `?night=N`) as CSV (one row per player and game), JSON (every table's
    games folded and judged), a BG Stats file or the players' statistics."""
    if not _unlocked():
        abort(403)
    hub = _hub()
    wanted = request.args.get("night")
    number = None
    if wanted is not None:
        if not wanted.isascii() or not wanted.isdigit() or \
                int(wanted) not in [n["night"] for n in hub.store.nights()]:
            abort(404)
        number = int(wanted)
    name = f"night-{number or hub.store.night()}"
    if kind == "csv":
        return Response(night_csv(hub.store, hub.games, number), mimetype="text/csv",
                        headers={"Content-Disposition": f"attachment; filename={name}.csv"})
    made = {"json": night, "bgstats.json": bg_stats, "players.json": player_statistics}.get(kind)
    if made is None:
        abort(404)
    return Response(json.dumps(made(hub.store, hub.games, number), ensure_ascii=False),
                    mimetype="application/json", headers={"Content-Disposition": f"attachment; filename={name}.{kind}"})


def stop_board_streams(app: Flask) -> None:
    """End every live stream (shutdown)."""
    app.extensions["club.stop"].set()
    _hub_of(app).touch()


def _hub_of(app: Flask) -> ClubHub:
    hub: ClubHub = app.extensions["club.hub"]
    return hub


# ---------------------------------------------------------------------- members' cards (the director's console)

@board.context_processor
def _member_cards() -> dict[str, Any]:
    """The console's card section: each player's card (its last digits only) and the taps awaited."""
    def book() -> dict[str, Any]:
        cards = _hub().cards.cards()
        return {"cards": {player: masked(uid) for player, uid in cards.items()},
                "waiting": _hub().cards.waiting(), "message": session.pop("card_message", None)}
    return {"member_cards": book}


def _card_player() -> str:
    player = str(request.form.get("player", "")).strip()
    if not player or len(player) > 80:
        abort(400)
    return player


@board.post("/director/card")
def director_card() -> WerkzeugResponse:
    """Bind a member's card by its typed UID (refused, nothing changed: not a UID, no such player, taken)."""
    _director_post()
    player, uid = _card_player(), str(request.form.get("uid", ""))[:64]
    try:
        _hub().bind_card(player, uid)
        session["card_message"] = ["bound", player]
    except CardError as error:
        session["card_message"] = [error.kind, player, error.owner or "", uid[:40]]
    return redirect(url_for("board.director_page") + "#cards-title")


@board.post("/director/card/tap")
def director_card_tap() -> WerkzeugResponse:
    """Wait for the next unknown card tapped at a table, to bind it to a player."""
    _director_post()
    player, table = _card_player(), _table_number()
    if not 1 <= table <= 999:
        abort(400)
    try:
        _hub().cards.wait_for_tap(table, player, _hub().store.players())
        session["card_message"] = ["waiting", player, str(table)]
    except CardError as error:
        session["card_message"] = [error.kind, player, "", ""]
    return redirect(url_for("board.director_page") + "#cards-title")


@board.post("/director/card/forget")
def director_card_forget() -> WerkzeugResponse:
    """Forget a player's card (lost, or given to someone else)."""
    _director_post()
    player = _card_player()
    if _hub().cards.unbind(player):
        _hub().reseat_player(player)
        _hub().console(f"marmite club: {player}'s member card is forgotten")
        session["card_message"] = ["forgotten", player]
    return redirect(url_for("board.director_page") + "#cards-title")
