"""Robot seats over HTTP: what the robots are asking for, a human's card and the chef's advice on their
own phone (practice tables), a robot's hand entered by the host, the robots' pause after an undo, and the
table's voice saying what it has finished speaking (the practice robots wait for it)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, make_response, request

from companion import coach
from companion.events import MalformedEvent
from companion.robot_games import table_seats, visible_log
from companion.robot_seats import turn_of
from companion.robot_words import voice_of
from companion.robots import RobotAsk, RobotRefusal, decide
from companion.seam import Part
from web_ui.auth import authorized, own_seat, require_pin
from web_ui.context import robot_driver, service
from web_ui.game_pages import GamePages, page_table

robot_api = Blueprint("robot_api", __name__, url_prefix="/api")

HINT_THINK_MS = 300


def _own_seat(name: str, does: str) -> dict[str, Any]:
    """The JSON body (an object, else empty) of a request that only `name`'s own phone may make; the answer
    ends here for a player not in the game (404) or any other browser (403, saying the phone `does` it)."""
    if service().seat_view(name) is None:
        abort(make_response(jsonify(error=f"no player named {name!r} in this game"), 404))
    if not own_seat(name):
        abort(make_response(jsonify(error=f"only this player's own phone (their seat link) {does}"), 403))
    body = request.get_json(silent=True, force=True)
    return body if isinstance(body, dict) else {}


def _pages() -> GamePages:
    """The current game's pages: what its robot seats do that the game decides."""
    return page_table()[service().game_name]


@robot_api.get("/robots")
def robots() -> Response:
    """The robot seats of the current game and the card each robot is asking for (public: it was announced)."""
    table = service()
    with table.lock:
        state, ledger = table.game_state, table.robots
        asks: list[dict[str, Any]] = []
        if state is not None and ledger.setup.any:
            count, pages = len(table.standing_actions()) - 1, _pages()
            for player in ledger.setup.seats:
                choice = ledger.pending(player, count)
                if choice is None or not pages.robot_card_public(state, player):
                    continue  # e.g. a face-down card, named only when its reveal comes
                part = Part("robot.plays_virtual", {"player": player, "card": choice.card})
                asks.append({"player": player, "card": choice.card,
                             "text": voice_of(state).render([part], table.language)})
        return jsonify(setup=ledger.setup.as_json(), asks=asks)


@robot_api.post("/robots/resume")
@require_pin
def resume() -> Response:
    """Practice robots play again after an undo paused them."""
    driver = robot_driver()
    if driver is not None:
        driver.resume()
    return jsonify(resumed=True)


@robot_api.post("/robots/<path:name>/hand")
@require_pin
def robot_hand(name: str) -> tuple[Response, int] | Response:
    """The host enters a Sus au buffet ! robot's cards (`{"cards": ["mouse-3", …]}`), journaled as its hand;
    or only the cards dealt to it since (`{"drawn": [...]}`: after an exchange, or drawing back up to nine),
    added to the hand the table already knows, so the fewest values are typed."""
    body = request.get_json(silent=True, force=True)
    key = "drawn" if isinstance(body, dict) and "drawn" in body else "cards"
    cards = body.get(key) if isinstance(body, dict) else None
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards) or len(cards) > 20:
        return jsonify(error='the body must be {"cards": [CODE, …]} or {"drawn": [CODE, …]} (at most 20)'), 400
    table = service()
    with table.lock:
        known = table.robots.hand(name) if table.robots.is_robot(name) else None
    if key == "drawn":
        if known is None:
            return jsonify(error=f"no hand of {name!r} is known yet: enter its whole hand"), 409
        cards = sorted([*known, *cards])
    try:
        answer = table.submit_if({"type": "robot", "player": name, "hand": cards}, "api",
                                 lambda: (table.robots.hand(name) if table.robots.is_robot(name) else None) == known)
    except MalformedEvent as error:
        return jsonify(error=str(error)), 400
    if answer is None:
        return jsonify(error=f"{name}'s hand changed meanwhile: look again and enter it"), 409
    return jsonify(answer.as_json())


@robot_api.post("/seat/<path:name>/play")
def play(name: str) -> tuple[Response, int] | Response:
    """A human's card from their own phone at a fully virtual practice table (no deck, no reader)."""
    card = _own_seat(name, "plays their cards").get("card")
    if not isinstance(card, str):
        return jsonify(error='the body must be {"card": C}'), 400
    table = service()
    with table.lock:
        state, ledger = table.game_state, table.robots
        if state is None or ledger.setup.practice != "virtual":
            return jsonify(error="cards are played from the phone only at a practice table without cards"), 409
        event = _pages().phone_card_event(state, name, card)  # the card itself, or a choice made face down
        if event is None:  # said on the phone in the table's language (`text`); `error` stays the API's words
            turn = turn_of(state)
            part = Part("robot.not_your_turn", {"player": turn}) if turn else Part("robot.nothing_to_play", {})
            return jsonify(error=f"it is not {name}'s turn",
                           text=voice_of(state).render([part], table.language)), 409
    try:
        answer = table.submit(event, source="seat")
    except MalformedEvent as error:  # too long or not valid Unicode: a clear 400, nothing recorded
        return jsonify(error=str(error)), 400
    result = answer.as_json()
    if not answer.accepted and answer.message is not None:  # the rule that refused it, said on the player's phone
        result["text"] = table.render(answer.message)["text"]
    return jsonify(result)


@robot_api.post("/seat/<path:name>/swap")
def swap(name: str) -> tuple[Response, int] | Response:
    """Sus au buffet ! practice without cards: the first mouse out gives up `{"cards": [...]}` (none: keeps
    its hand) from its own phone and draws as many virtually."""
    given = _own_seat(name, "exchanges their cards").get("cards")
    if not isinstance(given, list) or not all(isinstance(card, str) for card in given) or len(given) > 20:
        return jsonify(error='the body must be {"cards": [CODE, …]} (at most 20; none keeps the hand)'), 400
    table = service()
    with table.lock:
        state, ledger = table.game_state, table.robots
        count = len(table.standing_actions()) - 1
        seats = table_seats(table.games.kinds.get(table.game_name))
        if state is None or seats is None or ledger.setup.practice != "virtual" or not seats.swap_due(
                state, ledger, name, count):
            return jsonify(error=f"{name} has no exchange to make now"), 409
        held = seats.hand_of(state, ledger, name) or ()
        new = seats.swap_hand(held, given, (table.current_game or 0) * 1009 + count)
    if new is None:
        return jsonify(error="those cards are not all in your hand"), 409
    answer = table.submit_if({"type": "robot", "player": name, "hand": new, "swap": list(given)}, "seat",
                             lambda: len(table.standing_actions()) - 1 == count)
    if answer is None:
        return jsonify(error="the table moved on meanwhile: try again"), 409
    return jsonify(answer.as_json())


@robot_api.post("/seat/<path:name>/hint")
def hint(name: str) -> tuple[Response, int] | Response:
    """"What would the chef play?" on the player's own phone: practice tables with learning aids only."""
    _own_seat(name, "asks for advice")
    table = service()
    with table.lock:
        state, ledger = table.game_state, table.robots
        if state is None or not ledger.setup.aids:
            return jsonify(error="learning aids are off: they exist only at a practice table with robots, "
                                 "when chosen at setup"), 403
        seats = table_seats(table.games.kinds.get(table.game_name))
        hand = seats.hand_of(state, ledger, name) if seats is not None else None
        if not hand or seats is None:
            return jsonify(error="your hand is not known: it must be scanned or dealt first"), 409
        exchange = "swap" if seats.swap_due(state, ledger, name, len(table.standing_actions()) - 1) else None
        ask = RobotAsk(visible_log(table.standing_actions(), name, state), name, hand, exchange)
        voice, language, game = voice_of(state), table.language, table.current_game or 0
        advice_key = _pages().advice_key
    try:  # thought over without the table's lock: the table goes on meanwhile
        decision = decide(table.games, ask, level="chef", seed=game, think_ms=HINT_THINK_MS)
    except RobotRefusal as refusal:
        return jsonify(error=f"nothing to advise now ({refusal.reason})"), 409
    event = decision.event
    if event.get("type") == "menu":
        part = Part("robot.suggest_menu", {"menu": event["menu"]})
    elif exchange is not None:
        given = [str(card) for card in event.get("cards", [])]
        part = Part("robot.suggest_swap", {"count": len(given), "cards": given}) if given else \
            Part("robot.suggest_keep", {})
    else:
        part = Part(advice_key, {"card": event.get("card")})
        coached = coach.reason(table.games, ask, event, seed=game)
        if coached is not None:  # the reason counted over the worlds the player may imagine, said to them
            text = f"{voice.render([part], language)} {coach.say(coached, voice, language)}"
            return jsonify(event=event, text=text, lang=language)
    parts = [part] if decision.why is None else [part, Part("robot.why", {"why": decision.why})]
    return jsonify(event=event, text=voice.render(parts, language), lang=language)


def parse_spoken(body: object, last_serial: int) -> tuple[int, str | None, bool]:
    """`{"serial": N, "seat": NAME?, "leaving": BOOL?}` as (serial, seat, leaving); ValueError when it is not
    that, or names an announcement the table has not made (0 ≤ N ≤ the table's last serial)."""
    if not isinstance(body, dict) or not set(body) <= {"serial", "seat", "leaving"}:
        raise ValueError('the body must be {"serial": N} with optional "seat" and "leaving"')
    serial, seat, leaving = body.get("serial"), body.get("seat"), body.get("leaving", False)
    if not isinstance(serial, int) or isinstance(serial, bool) or not 0 <= serial <= last_serial:
        raise ValueError(f"serial must be an announcement the table made (0 to {last_serial})")
    if seat is not None and (not isinstance(seat, str) or not 0 < len(seat) <= 40):
        raise ValueError("seat must be a player's name")
    if not isinstance(leaving, bool):
        raise ValueError("leaving must be true or false")
    return serial, seat, leaving


@robot_api.post("/spoken")
def spoken() -> tuple[Response, int] | Response:
    """The table's voice has finished saying every announcement up to `serial` (or stops speaking:
    `leaving`). Only the PIN holder's tablet, or a person's own phone at a practice table, speaks for the
    table: any other page is refused, so a stranger cannot pace the robots."""
    table = service()
    try:
        serial, seat, leaving = parse_spoken(request.get_json(silent=True, force=True), table.last_serial)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    if seat is None:
        ok, why = authorized()
        if not ok:
            return jsonify(error=why), 401
        voice = "table"
    else:
        with table.lock:
            practice = table.game_state is not None and bool(table.robots.setup.practice)
        if not practice or not own_seat(seat):
            return jsonify(error="only the table's tablet, or a player's own phone at a practice table, "
                                 "speaks for the table"), 403
        voice = "seat:" + seat
    driver = robot_driver()
    if driver is None:
        return jsonify(voices=[])
    if leaving:
        driver.pace.leave(voice)
    else:
        driver.pace.spoken(voice, serial)
    return jsonify(voices=driver.pace.voices())
