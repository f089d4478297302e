"""The deck desk's JSON API: decks, deck files, enrollment, deck check and dealing by tag (PIN for changes)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.deck_desk import DeckDesk, ReaderBusy
from companion.decks import DEFAULT_EDITION, UID_RULE, DeckError, is_uid
from web_ui.auth import require_pin
from web_ui.context import deck_desk

deck_api = Blueprint("deck_api", __name__, url_prefix="/api/deck")



class NotAUid(ValueError):
    """A drop's `uid` that no tag can have (the one rule: decks.is_uid); `uid` is what was sent."""

    def __init__(self, uid: str) -> None:
        super().__init__(f"drop needs {{\"uid\": HEX}} with HEX a tag's UID: {UID_RULE}")
        self.uid = uid


def desk() -> DeckDesk:
    """The app's deck desk; 503 when the app has no data dir to keep decks in."""
    found = deck_desk()
    if found is None:
        raise DeckError("this table keeps no decks (no data dir)")
    return found


def parse_drop(body: Any, codes: frozenset[str]) -> tuple[str, str | None]:
    """`POST /api/drop`'s body → (uid, card code or None); ValueError with the contract's wording."""
    if isinstance(body, dict) and set(body) == {"uid"} and isinstance(body["uid"], str):
        if not is_uid(body["uid"].lower()):
            raise NotAUid(body["uid"])
        return body["uid"].lower(), None
    if isinstance(body, dict) and set(body) == {"code"} and isinstance(body["code"], str) and body["code"] in codes:
        return "", str(body["code"])
    raise ValueError("drop needs {\"code\": C} with C a card code or menu-<menu>@<set>, or {\"uid\": HEX}")


@deck_api.errorhandler(DeckError)
def _refused(error: DeckError) -> tuple[Response, int]:
    if isinstance(error, ReaderBusy):  # said on every display and by voice, in the table's language
        return jsonify(error=str(error), busy=error.kind), 409
    return jsonify(error=str(error)), 409 if "under way" in str(error) or "while" in str(error) else 400


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True, force=True)
    if not isinstance(data, dict):
        raise DeckError("the body must be a JSON object")
    return data


def _game(body: dict[str, Any]) -> str | None:
    """The optional `game` whose box to enroll or check (the default game's when absent)."""
    game = body.get("game")
    if game is not None and not isinstance(game, str):
        raise DeckError("game must be the name of a hosted game")
    return game


@deck_api.get("")
def decks() -> Response:
    """Every deck, the active one, and the activity under way (counts only: no card of a deal)."""
    return jsonify(desk().decks())


@deck_api.get("/export")
@require_pin
def export() -> Response:
    """The active deck as a deck file."""
    response = Response(desk().export_text(), mimetype="text/csv")
    response.headers["Content-Disposition"] = "attachment; filename=deck.csv"
    return response


@deck_api.post("/import")
@require_pin
def import_deck() -> Response:
    """A deck file (the body as text/csv, or {"csv": TEXT}) becomes the active deck; refused whole if bad."""
    if request.mimetype == "application/json":
        text = _body().get("csv")
        if not isinstance(text, str):
            raise DeckError("send the deck file as text/csv, or {\"csv\": TEXT}")
    else:
        text = request.get_data(as_text=True)
    return jsonify(imported=desk().import_text(text), decks=desk().decks())


@deck_api.post("/new")
@require_pin
def new_deck() -> Response:
    """{"name": NAME, "edition": "2005" | "2023" (default 2005)}: a new empty deck, made active."""
    body = _body()
    desk().create(str(body.get("name", "")), str(body.get("edition", DEFAULT_EDITION)))
    return jsonify(desk().decks())


@deck_api.post("/edition")
@require_pin
def edition() -> Response:
    """{"edition": "2005" | "2023"}: the active deck's edition, whose card names it uses."""
    desk().set_edition(str(_body().get("edition", "")))
    return jsonify(desk().decks())


@deck_api.post("/use")
@require_pin
def use_deck() -> Response:
    desk().activate(str(_body().get("name", "")))
    return jsonify(desk().decks())


@deck_api.post("/adopt")
@require_pin
def adopt() -> Response:
    """{"uid": HEX}: add the self-describing card this tag offered to the active deck."""
    return jsonify(desk().adopt(str(_body().get("uid", ""))))


@deck_api.post("/self_describing")
@require_pin
def self_describing() -> Response:
    """{"on": bool}: enrolling the active deck also writes each card's code on its tag."""
    on = _body().get("on")
    if not isinstance(on, bool):
        raise DeckError("send {\"on\": true} or {\"on\": false}")
    desk().set_self_describing(on)
    return jsonify(desk().decks())


@deck_api.post("/enroll")
@require_pin
def enroll() -> Response:
    """{"action": "start" | "again" | "skip" | "back" | "redo" | "stop", "card": code for redo,
    "game": whose box for start and again}."""
    body = _body()
    action = body.get("action")
    if action == "start":
        chosen = body.get("edition")
        return jsonify(desk().enroll_start(_game(body), edition=chosen if isinstance(chosen, str) else None))
    if action == "again":
        return jsonify(desk().enroll_start(_game(body), again=True))
    card = body.get("card")
    return jsonify(desk().enroll_control(str(action), card if isinstance(card, str) else None))


@deck_api.post("/check")
@require_pin
def check() -> Response:
    """{"action": "start" | "finish", "game": whose box for start}: pass the whole deck over the
    reader, then the report."""
    body = _body()
    action = body.get("action")
    if action == "start":
        return jsonify(desk().check_start(_game(body)))
    if action == "finish":
        return jsonify(desk().check_finish())
    raise DeckError("action must be start or finish")


@deck_api.post("/deal")
@require_pin
def deal() -> Response:
    """{"action": "start" | "undo" | "cancel"}: deal the coming round card by card over the reader."""
    body = _body()
    action = body.get("action")
    if action == "start":
        every_round = body.get("every_round")
        return jsonify(desk().deal_start(every_round=every_round if isinstance(every_round, bool) else None))
    if action == "undo":
        return jsonify(desk().deal_undo())
    if action == "cancel":
        return jsonify(desk().deal_cancel())
    raise DeckError("action must be start, undo or cancel")
