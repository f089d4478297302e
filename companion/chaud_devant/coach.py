"""Chaud Devant !'s half of the coach (companion/coach.py): does the advised card leave the player the trick?"""

from __future__ import annotations

import random

from companion.chaud_devant.robot import ChaudWorld


def outcome(world: ChaudWorld, choice: int, rng: random.Random) -> str | None:
    """Play the seat's card in `world`, then the rollout policy until its trick is taken or the round ends:
    whether the player takes that trick (a phrase key); None for a menu."""
    if world.answers[choice][0] != "card":
        return None
    seat = world.seat
    world.apply_root(choice)
    while world.pot and not world.over:
        world.rollout_step(rng)
    taken = not world.pot and world.turn == seat  # the pot is emptied by whoever takes it, who leads next
    return "coach_trick" if taken else "coach_no_trick"
