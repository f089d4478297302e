"""Sus au buffet !'s half of the coach (companion/coach.py): where the advised card leaves the player's mouse."""

from __future__ import annotations

import random

from companion.buffet.robot import BuffetWorld


def outcome(world: BuffetWorld, choice: int, rng: random.Random) -> str | None:
    """Choose the seat's card in `world`, let the other mice choose by the rollout policy and turn the step
    over: still in the race, gone with a plate, or gone with nothing (a phrase key); None for an exchange."""
    if world.kind != "card":
        return None
    seat = world.seat
    plates = dict(world.won[seat])
    world.apply_root(choice)
    while world.chosen and not world.over:
        world.rollout_step(rng)
    if world.won[seat] != plates:
        return "coach_plate"
    return "coach_stay" if seat in world.in_round else "coach_nothing"
