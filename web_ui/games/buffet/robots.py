"""Sus au buffet !'s robot seats on the pages: a phone's card is chosen face down, the chef advises a mouse
card, and at a real table the host enters the robots' hands as typed values."""

from __future__ import annotations

from typing import Any

from companion.buffet import KIND
from companion.buffet.table_seats import BUFFET_HAND
from web_ui.context import service


def robot_hands() -> dict[str, dict[str, Any]]:
    """At a real Sus au buffet ! table with robots, for the host: each robot's hand as typed values ("3 3 -1"),
    the cards its latest exchange gave up (to take from its tray; never said aloud) and how many it lacks."""
    table = service()
    with table.view_lock:  # never behind a write stuck on the disk
        ledger = table.robots
        if table.game_name != KIND.name or not ledger.setup.any or ledger.setup.practice:  # a game may just have begun
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
