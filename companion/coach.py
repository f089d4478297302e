"""The coach: the practice table's advice says why, in one sentence addressed to the player.

Game-agnostic. Over worlds the seat may imagine (the robots' public sampling from its Position, built
from what the seat may know only), the game plays the advised answer out as far as it matters and names
the outcome (a phrase key of its own); the commonest outcome is said with how often it came, rounded to
a small fraction ("in 3 deals out of 4"). Seeded: the same request and seed give the same sentence.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.referee import Referee
from companion.robot_words import RobotVoice, card_name
from companion.robots import RobotAsk, position_of
from companion.seam import Games, Part

COACH_WORLDS = 24
"""How many worlds the coach counts over: enough for a fraction said with a denominator of five at most."""
ALMOST = 0.9
"""From this share on (but not every world), the outcome comes "in almost every deal"."""
FRACTIONS = tuple((hits, worlds) for worlds in range(2, 6) for hits in range(1, worlds))
"""The fractions the coach says, smallest denominators first (a tie goes to the simpler one)."""


@runtime_checkable
class Coaches(Protocol):
    """Optional for a GameKind: what an answer leads to in one sampled world, for the coach."""

    def coach_outcome(self, world: Any, choice: int, rng: random.Random) -> str | None:
        """Play the seat's `choice`-th answer in `world` (a copy it may change) as far as it matters; the
        key of the game's phrase for the outcome ("{named} … {often}."), None when it says nothing."""
        ...


@dataclass(frozen=True, slots=True)
class Reason:
    """The commonest outcome of the advised card: the game's phrase key, and in how many of the worlds."""

    key: str
    card: str
    hits: int
    worlds: int


def reason(games: Games, ask: RobotAsk, event: dict[str, Any], seed: int,
           worlds: int = COACH_WORLDS) -> Reason | None:
    """Why `event` (the advised card) is good for the seat of `ask`, counted over `worlds` sampled worlds;
    None for an answer that is no card, or a game without a coach."""
    card = event.get("card")
    kind = _kind(games, ask)
    if not isinstance(card, str) or not isinstance(kind, Coaches):
        return None
    position = position_of(games, ask)
    if event not in position.choices:
        return None
    choice = list(position.choices).index(event)
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    for _ in range(worlds):
        outcome = kind.coach_outcome(position.sample(rng), choice, rng)
        if outcome is not None:
            outcomes[outcome] += 1
    if not outcomes:
        return None
    key, hits = min(outcomes.items(), key=lambda item: (-item[1], item[0]))
    return Reason(key, card, hits, sum(outcomes.values()))


def _kind(games: Games, ask: RobotAsk) -> object:
    """The game the request's log plays (its last `new_game`'s), None without one."""
    starts = [event for event in ask.log if isinstance(event, dict) and event.get("type") == "new_game"]
    return Referee(games).kind_of(starts[-1]) if starts else None


def often(hits: int, worlds: int) -> Part:
    """How often, said simply: every time, in almost every deal, or the nearest small fraction ("3 out of 4")."""
    if hits >= worlds:
        return Part("robot.often_always")
    share = hits / worlds
    if share >= ALMOST:
        return Part("robot.often_almost")
    said, out_of = min(FRACTIONS, key=lambda fraction: abs(share - fraction[0] / fraction[1]))
    return Part("robot.often_ratio", {"hits": said, "worlds": out_of})


def say(why: Reason, voice: RobotVoice, language: str) -> str:
    """The coach's sentence in `language`: the card as the match names it, the outcome, how often."""
    fields = {"named": card_name(voice.names, why.card, language),
              "often": voice.render([often(why.hits, why.worlds)], language)}
    return voice.render([Part(why.key, fields)], language)
