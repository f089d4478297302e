"""The learning aid's "why" for a Sus au buffet ! robot's card, said when the card is turned over at a
practice table: from public facts only (the card now named, the step, the buffet), never from the cards
the robot keeps, whose comparison its own evaluation uses."""

from __future__ import annotations

from typing import Any

from companion.buffet.plates import MOUSE_CARDS
from companion.seam import Part

HIGH = 5
"""A card from five up is played to win a duel; below, a duel is not what it aims at (no reason said)."""


def public_why(state: Any, player: str, card: str) -> Part | None:
    """Why `player` turns `card` over now, from the public situation: a duel, the worst plate to leave with
    (a card of 0 or −1), or getting ahead of the last mouse; None when nothing public explains it, or when the
    board the card leaves says otherwise (the line also says the mouse's place: "en tête" is never followed by
    "pour partir avec poulet à 2", nor a mouse still last by "pour passer devant la dernière souris")."""
    public = state.public_state()
    value = MOUSE_CARDS.get(card)
    if value is None or public.get("turn") != player or public.get("phase") != "step":
        return None
    in_round = list(public.get("in_round", []))
    plates = list(public.get("buffet", []))
    at_stake = len(plates) - 2 if public.get("part") == 1 else len(plates)
    if len(in_round) == 2 and at_stake == 1:
        return Part("robot_why_duel") if value >= HIGH else None
    positions = dict(public.get("positions", {}))
    moved = positions.get(player, 0) + value
    others = [positions.get(name, 0) for name in in_round if name != player]
    last = not others or moved <= min(others)  # at the rear (alone or level) once this card is turned over
    if value <= 0 and plates:
        return Part("robot_why_take_plate", {"plate": plates[-1]}) if last else None
    return None if last else Part("robot_why_escape")
