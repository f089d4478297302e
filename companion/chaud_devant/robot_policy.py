"""The chef's rollout policy for Chaud Devant !: a linear score over a card's features, fitted offline to
the choices of the flat PIMC (what a searching player does), so the chef's playouts model the table
better than the rule-based heuristic that the flat PIMC rolls out with.

The features see what the rule-based `card_choice` sees (the mover's hand and menu, the pot, its sum,
the led suit, the spoiled state) and nothing hidden. `benchmarks/fit_chaud_policy.py` records the
flat PIMC's decisions and fits the weights below (softmax regression); its docstring gives the run.
"""

from __future__ import annotations

import math
import random

from companion.chaud_devant.robot_cards import LEAD_COST, OVERFLOW, PEPPER, SUIT_OF, VALUE_OF

LEAD_FEATURES = ("lead_cost", "worth", "pepper", "ten", "overflow", "suit_length", "value_high")
FOLLOW_FEATURES = (
    "take", "take_gain", "take_value", "give_worth", "leave_sum", "leave_five", "leave_five_points",
    "value", "pepper", "overflow", "ten", "suit_length", "off_suit", "take_pot_size",
)


def lead_features(hand: list[int], worth: tuple[int, ...], c: int) -> tuple[float, ...]:
    """What leading card `c` means: its cost in the sum, its worth to the leader, its kind, its suit's length."""
    suit = SUIT_OF[c]
    length = 0
    for other in hand:
        if SUIT_OF[other] == suit:
            length += 1
    value = VALUE_OF[c]
    return (LEAD_COST[c] / 10, float(worth[c]), float(suit == PEPPER), float(value == 10), float(OVERFLOW[c]),
            length / 10, float(value >= 4))


def follow_features(hand: list[int], worth: tuple[int, ...], pot: list[int], total: int, led: int,
                    c: int) -> tuple[float, ...]:
    """What playing `c` on this pot means: whether it takes the trick and what the trick is worth to the
    mover, how close to ten it leaves the sum for the next player, the card's kind and suit's length."""
    suit, value = SUIT_OF[c], VALUE_OF[c]
    after = 0 if OVERFLOW[c] else total + value
    take = after >= 10
    in_pot = 0
    for p in pot:
        in_pot += worth[p]
    length = 0
    for other in hand:
        if SUIT_OF[other] == suit:
            length += 1
    if take:
        return (1.0, float(in_pot + worth[c]), value / 10, 0.0, 0.0, 0.0, 0.0, value / 10, float(suit == PEPPER),
                float(OVERFLOW[c]), float(value == 10), length / 10, float(led >= 0 and suit != led),
                len(pot) / 5)
    five = after >= 5
    return (0.0, 0.0, 0.0, float(worth[c]), after / 10, float(five), float(five and in_pot > 0), value / 10,
            float(suit == PEPPER), float(OVERFLOW[c]), float(value == 10), length / 10,
            float(led >= 0 and suit != led), 0.0)


class Weights:
    """A linear policy: one weight per lead feature and per follow feature, with the per-card parts of
    each score summed once into tables (a playout scores thousands of cards)."""

    __slots__ = ("follow", "follow_card", "lead", "lead_card", "take_card")

    def __init__(self, lead: tuple[float, ...], follow: tuple[float, ...]) -> None:
        if len(lead) != len(LEAD_FEATURES) or len(follow) != len(FOLLOW_FEATURES):
            raise ValueError("one weight per feature")
        self.lead, self.follow = lead, follow
        cards = range(len(VALUE_OF))
        self.lead_card = tuple(
            lead[0] * LEAD_COST[c] / 10 + lead[2] * (SUIT_OF[c] == PEPPER) + lead[3] * (VALUE_OF[c] == 10)
            + lead[4] * OVERFLOW[c] + lead[6] * (VALUE_OF[c] >= 4) for c in cards)
        self.follow_card = tuple(
            follow[7] * VALUE_OF[c] / 10 + follow[8] * (SUIT_OF[c] == PEPPER) + follow[9] * OVERFLOW[c]
            + follow[10] * (VALUE_OF[c] == 10) for c in cards)
        self.take_card = tuple(follow[0] + follow[2] * VALUE_OF[c] / 10 + self.follow_card[c] for c in cards)


def score(weights: tuple[float, ...], features: tuple[float, ...]) -> float:
    """A candidate's score under a linear policy (what `policy_card` computes, in fewer steps)."""
    total = 0.0
    for weight, feature in zip(weights, features, strict=True):
        total += weight * feature
    return total


def policy_card(hand: list[int], worth: tuple[int, ...], pot: list[int], total: int, led: int, spoiled: bool,
                weights: Weights, rng: random.Random | None = None) -> int:
    """The card the linear policy plays: the legal card of highest score (ties to the first in hand), or
    with `rng` one drawn with the softmax of the scores (the fitted model's probabilities)."""
    legal = hand
    if led >= 0 and not spoiled:
        legal = [c for c in hand if SUIT_OF[c] == led] or hand
    if len(legal) == 1:
        return legal[0]
    scores = _scores(hand, legal, worth, pot, total, led, weights)
    top = max(scores)
    if rng is None:
        return legal[scores.index(top)]
    odds = [math.exp(value - top) for value in scores]
    return legal[_pick(odds, rng.random() * sum(odds))]


def policy_odds(hand: list[int], legal: list[int], worth: tuple[int, ...], pot: list[int], total: int, led: int,
                weights: Weights, card: int) -> float:
    """The fitted model's probability of `card` among the `legal` cards of `hand` (the softmax of the scores)."""
    scores = _scores(hand, legal, worth, pot, total, led, weights)
    top = max(scores)
    odds = [math.exp(value - top) for value in scores]
    return odds[legal.index(card)] / sum(odds)


def _scores(hand: list[int], legal: list[int], worth: tuple[int, ...], pot: list[int], total: int, led: int,
            weights: Weights) -> list[float]:
    """Each legal card's score under the linear policy."""
    suit_of = SUIT_OF
    lengths = [0, 0, 0, 0]
    for c in hand:
        lengths[suit_of[c]] += 1
    scores = []
    if not pot:
        lead_card, per_worth, per_length = weights.lead_card, weights.lead[1], weights.lead[5] / 10
        for c in legal:
            scores.append(lead_card[c] + per_worth * worth[c] + per_length * lengths[suit_of[c]])
        return scores
    w = weights.follow
    in_pot = 0
    for c in pot:
        in_pot += worth[c]
    per_length, off_suit, pot_size = w[11] / 10, w[12], w[13] * len(pot) / 5
    five_points = w[6] if in_pot > 0 else 0.0
    value_of, overflow, take_card, follow_card = VALUE_OF, OVERFLOW, weights.take_card, weights.follow_card
    for c in legal:
        after = 0 if overflow[c] else total + value_of[c]
        value = per_length * lengths[suit_of[c]] + (off_suit if 0 <= led != suit_of[c] else 0.0)
        if after >= 10:
            value += take_card[c] + w[1] * (in_pot + worth[c]) + pot_size
        else:
            value += follow_card[c] + w[3] * worth[c] + w[4] * after / 10
            if after >= 5:
                value += w[5] + five_points
        scores.append(value)
    return scores


def _pick(odds: list[float], point: float) -> int:
    """The index whose share of the summed odds holds `point`."""
    for index, odd in enumerate(odds):
        point -= odd
        if point < 0:
            return index
    return len(odds) - 1


CHEF_POLICY = Weights(
    lead=(0.619, 0.517, 0.101, -0.568, -0.039, -0.576, 0.067),
    follow=(0.165, 1.182, -0.927, -0.439, 0.573, 0.163, -1.590, 0.535, -0.277, 0.316, -0.489, -1.071, -0.148, -0.195),
)
"""Fitted to 8,068 card decisions of flat PIMC players in 40 games of 4 (`benchmarks/fit_chaud_chef.py record
/tmp/d.jsonl --games 40 --first-deal 40000`, then `fit /tmp/d.jsonl`): on the fifth held out it names the
flat PIMC's card 49 % of the time when following (the heuristic 48 %), 28 % when leading (18 %)."""

MENUS_LATER: dict[tuple[int, int], tuple[float, ...]] = {
    (3, 39): (0.00, 1.80, 1.84, 4.39, 1.88, 4.42, 4.46, 7.42, 2.96, 5.59, 5.64, 8.65, 5.68, 8.68, 8.73, 12.00, 0.68,
              3.85, 3.88, 7.15, 3.95, 7.20, 7.23, 10.64, 5.11, 8.45, 8.48, 11.95, 8.54, 11.98, 12.02, 15.61),
    (4, 52): (0.00, 2.41, 2.43, 5.66, 2.52, 5.75, 5.78, 9.47, 3.60, 6.89, 6.92, 10.64, 7.01, 10.73, 10.76, 14.78, -0.08,
              3.79, 3.79, 7.82, 3.92, 7.95, 7.95, 12.17, 5.04, 9.11, 9.12, 13.36, 9.25, 13.49, 13.49, 17.89),
    (5, 52): (0.00, 2.10, 2.11, 4.91, 2.15, 4.95, 4.98, 8.17, 2.93, 5.70, 5.72, 8.88, 5.73, 8.89, 8.92, 12.36, 0.82,
              4.23, 4.26, 7.77, 4.32, 7.82, 7.86, 11.50, 5.02, 8.51, 8.53, 12.17, 8.57, 12.19, 12.23, 16.00),
    (5, 50): (0.00, 1.89, 1.92, 4.49, 2.06, 4.64, 4.68, 7.63, 2.73, 5.30, 5.33, 8.27, 5.48, 8.42, 8.46, 11.66, 0.48,
              3.71, 3.76, 7.05, 3.91, 7.21, 7.27, 10.69, 4.52, 7.80, 7.85, 11.27, 8.01, 11.42, 11.47, 15.02),
}
"""What the unused menus are worth over the rounds left (index: bit m set for menu m unused), by table
(players, cards dealt): `benchmarks/fit_chaud_chef.py menus --hands 1500`. The chef's menu choice
adds the worth of the menus it keeps to the round's points, so a menu strong in every hand is not
spent on a round where another does nearly as well."""
