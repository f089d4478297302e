"""The learning aid's "why" for a robot's card, said to the whole table: built only from what is public
once the card is named (the pot, the revealed menus, the card), never from the robot's hand, so the
reason never hints at what the robot still holds (the robot's own reason compares its other cards)."""

from __future__ import annotations

from typing import Any

from companion.chaud_devant.cards import MENUS
from companion.chaud_devant.effects import TrickWon
from companion.chaud_devant.robot_cards import INDEX, WORTH
from companion.seam import Part


def public_why(state: Any, player: str, card: str) -> Part | None:
    """Why `player` plays `card` now, from public facts only: it takes the trick (and what that trick is
    worth to its revealed menu), or it stays under ten; None when nothing is to be said (opening the trick:
    "pour ouvrir le pli" told nothing the card's line does not, and a shorter line keeps the table's pace)."""
    public = state.public_state()
    if public.get("turn") != player or state.decide({"type": "card", "card": card}) is not None:
        return None
    if not public.get("pot", {}).get("cards"):
        return None
    after = state.snapshot()
    effects = after.apply({"type": "card", "card": card})
    seat = state.players.index(player)
    won = next((effect for effect in effects if isinstance(effect, TrickWon)), None)
    if won is None:
        return Part("robot_why_under")
    if won.seat != seat:
        return None
    menu = (public.get("rounds") or [{}])[-1].get("menus", {}).get(player)
    if menu not in MENUS:
        return None
    worth = WORTH[MENUS.index(menu)]
    points = sum(worth[INDEX[code]] for code in won.cards if code in INDEX)
    return Part("robot_why_take", {"points": points}) if points > 0 else Part("robot_why_take_now")
