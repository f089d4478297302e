"""What each opponent's plays so far say of how it plays, for the chef's Chaud Devant ! playouts.

Two models of a player: the fitted policy of `robot_policy` (how searching players play) and the
rule-based player (its card, or with `RULE_NOISE` any legal one). Each card an opponent played from
a choice of several is scored under both; the summed log-likelihood ratio gives the chance that the
rule-based model is the right one, and the chef's playouts then draw that opponent's cards from it
with that chance. Earlier rounds are approximate: a seat's hand there is taken as the cards it played in
it, though a round ends with cards still held (about 5 a round), so the legal cards are a lower bound;
the open round's hands are the sampled worlds' (the cards a seat holds now plus those it played).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from companion.chaud_devant.cards import MENUS
from companion.chaud_devant.robot_cards import INDEX, OVERFLOW, PEPPER, SUIT_OF, VALUE_OF, WORTH
from companion.chaud_devant.robot_policy import Weights, policy_odds

RuleCard = Callable[[list[int], tuple[int, ...], list[int], int, int, bool], int]
RULE_NOISE = 0.1
"""The rule-based model's chance of any legal card (a rule-based player that never strays would be
ruled out by one odd card)."""
SURE = 0.95
"""The most either model is believed: every opponent keeps some chance of either in the playouts."""


def likelihoods(hands: Sequence[list[int]], menus: Sequence[int], plays: Sequence[tuple[int, int]], robot: int,
                weights: Weights, rule_card: RuleCard) -> list[tuple[float, float]]:
    """Each play's likelihood under the rule-based and the fitted model ((1, 1) for the robot's own or a
    forced card) in a round dealt `hands` (each seat's cards at its start, consumed), with these menus;
    as many plays as the hands fit."""
    pot: list[int] = []
    total, led, spoiled = 0, -1, False
    odds: list[tuple[float, float]] = []
    for seat, c in plays:
        hand = hands[seat]
        if c not in hand:
            break  # a sampled hand that does not fit the plays: no more evidence from it
        legal = hand if led < 0 or spoiled else [x for x in hand if SUIT_OF[x] == led] or hand
        if seat != robot and len(legal) > 1 and c in legal and menus[seat] >= 0:
            worth = WORTH[menus[seat]]
            rule = (1 - RULE_NOISE) * (c == rule_card(hand, worth, pot, total, led, spoiled)) + RULE_NOISE / len(legal)
            odds.append((rule, policy_odds(hand, legal, worth, pot, total, led, weights, c)))
        else:
            odds.append((1.0, 1.0))
        hand.remove(c)
        if not pot:
            led = -1 if SUIT_OF[c] == PEPPER else SUIT_OF[c]
            spoiled = SUIT_OF[c] == PEPPER
            total = 0 if VALUE_OF[c] == 10 else VALUE_OF[c]
        else:
            total = 0 if OVERFLOW[c] else total + VALUE_OF[c]
            spoiled = spoiled or SUIT_OF[c] == PEPPER
        pot.append(c)
        if len(pot) > 1 and total >= 10:
            pot = []
            total, led, spoiled = 0, -1, False
    return odds


def add_evidence(worlds: Sequence[list[tuple[float, float]]], plays: Sequence[tuple[int, int]],
                 into: list[float]) -> None:
    """Add to `into[seat]` the log-likelihood ratio (rule-based over fitted) of each of its plays, each
    model's likelihood of a play averaged over the hands of `worlds` that fit it."""
    for index, (seat, _) in enumerate(plays):
        fitting = [odds[index] for odds in worlds if index < len(odds)]
        if fitting:
            rule = sum(r for r, _ in fitting) / len(fitting)
            fitted = sum(f for _, f in fitting) / len(fitting)
            into[seat] += math.log(rule) - math.log(max(fitted, 1e-9))


def menu_indexes(menus: Sequence[str]) -> list[int]:
    """Menu names as the search counts them (-1 for one not known)."""
    return [MENUS.index(m) if m in MENUS else -1 for m in menus]


def past_hands(players: int, plays: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Each seat's hand at a finished round's start: the cards it played, in order."""
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat, c in plays:
        hands[seat].append(c)
    return hands


def rule_chance(ratio: float) -> float:
    """The chance of the rule-based model from its log-likelihood ratio (even odds before any play)."""
    ratio = max(-30.0, min(30.0, ratio))
    return min(SURE, max(1 - SURE, 1 / (1 + math.exp(-ratio))))


def as_indexes(plays: Sequence[tuple[int, str]]) -> list[tuple[int, int]]:
    return [(seat, INDEX[code]) for seat, code in plays]
