"""A person's own seat at a Sus au buffet ! practice table without cards: the virtual hand their phone shows."""

from __future__ import annotations

from typing import Any

from companion.buffet import KIND
from companion.buffet.announcer import Words
from companion.buffet.plates import MOUSE_CARDS
from companion.buffet.table_seats import SEATS
from companion.robot_talk import still_choosing
from web_ui.context import service


def practice_seat(name: str) -> dict[str, Any]:
    """A person's seat at a Sus au buffet ! practice without cards, for their own phone: their virtual hand
    (code and spoken name, one entry per value), the card they chose face down, and what they may do now."""
    table = service()
    with table.view_lock:  # never behind a write stuck on the disk
        state, ledger = table.game_state, table.robots
        if state is None or ledger.setup.practice != "virtual" or table.game_name != KIND.name:
            return {"hand": [], "chosen": None, "may_choose": False, "may_swap": False}
        count = table.action_count
        hand = ledger.hand(name) or ()
        choice = ledger.pending(name, count)
        may_choose = choice is None and bool(hand) and ledger.decide(
            {"type": "robot", "player": name, "card": hand[0]}, state, count) is None
        may_swap = SEATS.swap_due(state, ledger, name, count)
    words = Words(table.language)

    def named(code: str) -> dict[str, str]:
        return {"code": code, "name": words.number(MOUSE_CARDS[code])}

    values = sorted(set(hand), key=lambda code: MOUSE_CARDS[code])
    return {"hand": [named(code) for code in sorted(hand, key=lambda code: MOUSE_CARDS[code])],
            "values": [named(code) for code in values], "chosen": named(choice.card) if choice else None,
            "may_choose": may_choose, "may_swap": may_swap}


def own_cards(name: str) -> list[str]:
    """The cards the table knows `name` holds (a practice hand: virtual, or dealt and read), worded from the
    lowest; empty where the table knows none (at a real table a person's cards are theirs alone)."""
    table = service()
    with table.view_lock:
        state, ledger = table.game_state, table.robots
        if state is None or table.game_name != KIND.name or ledger.is_robot(name):
            return []
        hand = SEATS.hand_of(state, ledger, name) or ()
    words = Words(table.language)
    return [words.number(MOUSE_CARDS[code]) for code in sorted(hand, key=lambda code: MOUSE_CARDS[code])]


def choosing() -> list[str]:
    """At a practice without cards, during a step: the players still to choose their card face down, in order
    (the table turns none over until all have); empty anywhere else, and once the reveal is under way."""
    table = service()
    with table.view_lock:
        state, ledger = table.game_state, table.robots
        if state is None or ledger.setup.practice != "virtual" or table.game_name != KIND.name:
            return []
        return still_choosing(state, ledger, table.action_count)


def exchanging() -> str | None:
    """At a practice without cards: the person who left first and may still exchange cards (the table turns no
    card over until they have); None anywhere else."""
    table = service()
    with table.view_lock:
        state, ledger = table.game_state, table.robots
        if state is None or table.game_name != KIND.name:
            return None
        return SEATS.exchanging_person(state, ledger, table.action_count)
