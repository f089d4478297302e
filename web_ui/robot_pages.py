"""The robot pages: a new game with robot seats (a real table or a practice table), and what a seat's
phone adds at a practice table (its cards to play, the chef's advice). No game logic here."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from companion.robot_games import BUFFET_HAND, swap_due
from companion.robot_seats import DEFAULT_PACE_MS, LEVELS, is_buffet
from web_ui.context import service
from web_ui.page_common import common_context

robot_pages = Blueprint("robot_pages", __name__)


@robot_pages.app_context_processor
def robot_helpers() -> dict[str, Any]:
    """`robot_setup()` in every template: the current game's robot seats, practice mode and aids."""

    def robot_setup() -> dict[str, Any]:
        return service().robots.setup.as_json()

    return {"robot_setup": robot_setup, "practice_seat": practice_seat}


def practice_seat(name: str) -> dict[str, Any]:
    """A person's seat at a Sus au buffet ! practice without cards, for their own phone: their virtual hand
    (code and spoken name, one entry per value), the card they chose face down, and what they may do now."""
    from companion.buffet.announcer import Words
    from companion.buffet.plates import MOUSE_CARDS

    table = service()
    with table.lock:
        state, ledger = table.game_state, table.robots
        if state is None or ledger.setup.practice != "virtual" or not is_buffet(state):
            return {"hand": [], "chosen": None, "may_choose": False, "may_swap": False}
        count = len(table.standing_actions()) - 1
        hand = ledger.hand(name) or ()
        choice = ledger.pending(name, count)
        may_choose = choice is None and bool(hand) and ledger.decide(
            {"type": "robot", "player": name, "card": hand[0]}, state, count) is None
        may_swap = swap_due(state, ledger, name, count)
    words = Words(table.language)

    def named(code: str) -> dict[str, str]:
        return {"code": code, "name": words.number(MOUSE_CARDS[code])}

    values = sorted(set(hand), key=lambda code: MOUSE_CARDS[code])
    return {"hand": [named(code) for code in sorted(hand, key=lambda code: MOUSE_CARDS[code])],
            "values": [named(code) for code in values], "chosen": named(choice.card) if choice else None,
            "may_choose": may_choose, "may_swap": may_swap}


@robot_pages.get("/setup/robots")
def robot_setup_page() -> str:
    """A new game with robots: who is a robot and how strong, real or practice table, learning aids, pace."""
    return render_template("robot_setup.html", levels=LEVELS, pace_s=DEFAULT_PACE_MS / 1000,
                           robot_hands=_buffet_robot_hands(), **common_context())


def _buffet_robot_hands() -> dict[str, dict[str, Any]]:
    """At a real Sus au buffet ! table with robots, for the host: each robot's hand as typed values ("3 3 -1"),
    the cards its latest exchange gave up (to take from its tray; never said aloud) and how many it lacks."""
    table = service()
    with table.lock:
        ledger = table.robots
        if table.game_name != "buffet" or not ledger.setup.any or ledger.setup.practice:
            return {}
        hands: dict[str, dict[str, Any]] = {}
        for name in ledger.setup.seats:
            cards = ledger.hand(name) or ()
            hands[name] = {"hand": typed(cards), "discards": typed(ledger.discards(name)),
                           "short": max(0, BUFFET_HAND - len(cards)) if ledger.hand(name) is not None else 0}
        return hands


def typed(cards: tuple[str, ...]) -> str:
    """Mouse cards as the host types them: "3 3 -1"."""
    return " ".join(card.removeprefix("mouse-").replace("n1", "-1") for card in cards)
