"""Chaud Devant !'s robot: the seat's Position for the game-agnostic search of `companion.robots`.

A world is one deal of the unseen cards consistent with the View (hand sizes, voids shown, cards
played; the menus still hidden are chosen by the rollout policy from each sampled hand), copied
cheaply as small lists of card numbers. The rollout policy (`card_choice`, `menu_choice`) is the
rule-based player the lower level and the benchmark's heuristic opponent also use; the chef's worlds
(`search_world`) draw their cards from the fitted policy of `robot_policy` instead. The horizon is
the end of the round: a world is worth the robot seat's points for the round (the chef's, at a menu
decision, plus what the menus it keeps are worth in the rounds after).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.chaud_devant.cards import ALL_CODES, MENUS
from companion.chaud_devant.events import ChaudEvent, accepted
from companion.chaud_devant.robot_cards import (
    INDEX,
    LEAD_COST,
    NONE_MENU,
    OVERFLOW,
    PEPPER,
    SUIT_OF,
    SUITS,
    VALUE_OF,
    WORTH,
)
from companion.chaud_devant.robot_infer import (
    add_evidence,
    as_indexes,
    likelihoods,
    menu_indexes,
    past_hands,
    rule_chance,
)
from companion.chaud_devant.robot_policy import (
    CHEF_POLICY,
    MENUS_LATER,
    Weights,
    policy_card,
)
from companion.chaud_devant.robot_view import View, robot_view
from companion.chaud_devant.state import State
from companion.robots import RobotAsk
from companion.seam import Part

ROLLOUT_NOISE = 0.1
READ_WORLDS = 8
"""Sampled worlds over which the open round's plays are read (`read_opponents`): their hands are unseen."""
CHEF_PLAYOUT_COST = 0.75
"""What a chef's playout (the fitted policy, each card drawn, its lean `run_out`, the reading spread over them)
costs against the rule-based playouts `rollouts_per_ms` counts: set so that a chef's answer's CPU ends by
about 80 % of `--think-ms` (`bench_robot.py --answer-times`, docs/BENCHMARKS.md, eighth run; it was 2.5, then
1.1, which left the chef's answers at 0.5–0.66 of it); the chef's budget is divided by it
(`companion.robots.SearchCost`)."""
_NO_DICE = random.Random(0)  # the policy without noise rolls no dice; it only needs something to hold


def playable(hand: list[int], led: int, spoiled: bool) -> list[int]:
    """The cards of `hand` that may be played: the led suit if held and the soup is not spoiled."""
    if led < 0 or spoiled:
        return hand
    following = [c for c in hand if SUIT_OF[c] == led]
    return following or hand


def card_choice(hand: list[int], menu: int, pot: list[int], total: int, led: int, spoiled: bool,
                rng: random.Random, noise: float) -> int:
    """The rule-based card: take a trick worth taking, else dodge it, dumping what is worth least to
    this menu; lead low (a led 10 counts 0)."""
    legal = playable(hand, led, spoiled)
    if len(legal) == 1:
        return legal[0]
    if noise and rng.random() < noise:
        return legal[rng.randrange(len(legal))]
    worth = WORTH[menu]
    best, best_score = legal[0], -1e9
    if not pot:
        for c in legal:
            lead = 0 if VALUE_OF[c] == 10 else VALUE_OF[c]
            score = -lead - 1.5 * worth[c]
            if score > best_score:
                best, best_score = c, score
        return best
    in_pot = sum(worth[c] for c in pot)
    for c in legal:
        after = 0 if OVERFLOW[c] else total + VALUE_OF[c]
        if after >= 10:
            score = 3.0 * (in_pot + worth[c])
        else:
            score = -worth[c] + 0.1 * VALUE_OF[c] - (0.3 if after >= 5 and in_pot > 0 else 0.0)
        if score > best_score:
            best, best_score = c, score
    return best


def lean_card_choice(hand: list[int], worth: tuple[int, ...], pot: list[int], total: int, led: int,
                     spoiled: bool) -> int:
    """`card_choice` without noise, in fewer steps (the chef's playouts): the same card, ties alike."""
    legal = hand
    if led >= 0 and not spoiled:
        legal = [c for c in hand if SUIT_OF[c] == led] or hand
    if len(legal) == 1:
        return legal[0]
    card, best = legal[0], -1e9
    if not pot:
        for c in legal:
            score = LEAD_COST[c] - 1.5 * worth[c]
            if score > best:
                card, best = c, score
        return card
    in_pot = 0
    for c in pot:
        in_pot += worth[c]
    value_of, overflow = VALUE_OF, OVERFLOW
    for c in legal:
        after = 0 if overflow[c] else total + value_of[c]
        if after >= 10:
            score = 3.0 * (in_pot + worth[c])
        else:
            score = -worth[c] + 0.1 * value_of[c] - (0.3 if after >= 5 and in_pot > 0 else 0.0)
        if score > best:
            card, best = c, score
    return card


def menu_choice(hand: Sequence[int], menus: Sequence[int], rng: random.Random, noise: float) -> int:
    """The rule-based menu: the soup the hand holds most of, pepper with many peppers, no soup with a
    weak hand (few high cards to be forced into tricks with)."""
    if len(menus) == 1:
        return menus[0]
    if noise and rng.random() < noise:
        return menus[rng.randrange(len(menus))]
    return max(menus, key=lambda menu: menu_estimate(hand, menu))


def menu_estimate(hand: Sequence[int], menu: int) -> float:
    """A rough guess of a menu's points from the hand alone."""
    counts = [0, 0, 0, 0]
    for c in hand:
        counts[SUIT_OF[c]] += 1
    if menu < PEPPER:
        strong = sum(1 for c in hand if SUIT_OF[c] == menu and VALUE_OF[c] >= 4)
        return 0.7 * counts[menu] + 0.4 * strong - 0.3 * counts[PEPPER] - 1.5
    if menu == PEPPER:
        return 0.9 * counts[PEPPER] - 2.0
    high = sum(1 for c in hand if VALUE_OF[c] >= 4)
    return 3.0 - 0.6 * high - 0.1 * len(hand)


class ChaudWorld:
    """One determinized round: every hand, every menu (or who still chooses), the pot."""

    __slots__ = (
        "answers",
        "forbidden",
        "hands",
        "later",
        "later_worth",
        "led",
        "menus",
        "noise",
        "over",
        "own_noise",
        "pending",
        "policies",
        "policy",
        "pot",
        "seat",
        "spoiled",
        "total",
        "turn",
        "used",
        "won",
    )

    def __init__(self) -> None:
        self.seat = 0
        self.hands: list[list[int]] = []
        self.menus: list[int] = []
        self.pending: list[int] = []  # seats still to choose a menu, in order (the robot first)
        self.used: list[tuple[int, ...]] = []  # menus each seat may still choose
        self.won: list[int] = []  # points so far by seat (menus known once play starts)
        self.pot: list[int] = []
        self.total = 0
        self.led = -1
        self.spoiled = False
        self.turn = 0
        self.over = False
        self.noise = ROLLOUT_NOISE
        self.own_noise: float | None = None  # the robot seat's own noise in playouts (None: `noise`)
        self.forbidden: tuple[int, int] = (-1, -1)  # sequential: (dealer, first player's seat)
        self.answers: tuple[tuple[str, int], ...] = ()  # the robot's root answers: ("menu"|"card", number)
        self.later: tuple[float, ...] | None = None  # the worth of the robot's unused menus (MENUS_LATER), if counted
        self.later_worth = 0.0  # that worth once the robot has chosen its menu
        self.policy: Weights | None = None  # a fitted policy every seat's cards are drawn from (None: rule-based)
        self.policies: list[Weights | None] | None = None  # or one per seat (None in it: that seat rule-based)

    def clone(self) -> ChaudWorld:
        copy = ChaudWorld.__new__(ChaudWorld)
        copy.seat, copy.menus, copy.pending, copy.used = self.seat, list(self.menus), list(self.pending), self.used
        copy.hands = [list(hand) for hand in self.hands]
        copy.won, copy.pot = list(self.won), list(self.pot)
        copy.total, copy.led, copy.spoiled, copy.turn = self.total, self.led, self.spoiled, self.turn
        copy.over, copy.noise, copy.forbidden, copy.answers = self.over, self.noise, self.forbidden, self.answers
        copy.own_noise, copy.policy, copy.policies = self.own_noise, self.policy, self.policies
        copy.later, copy.later_worth = self.later, self.later_worth
        return copy

    def apply_root(self, choice: int) -> None:
        """The robot seat gives its `choice`-th answer."""
        kind, value = self.answers[choice]
        if kind == "menu":
            if self.later is not None:
                self.later_worth = self.later[sum(1 << m for m in self.used[self.seat] if m != value)]
            self.apply_menu(self.seat, value)
        else:
            self.play(value)

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> float:
        points = self.won[self.seat]
        return float(points + 5 if self.menus[self.seat] == NONE_MENU else points) + self.later_worth

    def apply_menu(self, seat: int, menu: int) -> None:
        self.menus[seat] = menu
        self.pending.remove(seat)

    def options(self, seat: int) -> list[int]:
        """Menus this seat may choose now (sequential: the dealer may not copy the first player)."""
        menus = list(self.used[seat])
        dealer, first = self.forbidden
        if seat == dealer and first >= 0 and self.menus[first] >= 0 and len(menus) > 1:
            menus = [m for m in menus if m != self.menus[first]] or menus
        return menus

    def play(self, c: int) -> None:
        """The seat due plays card `c`: the pot, the trick's winner, the round's end."""
        seat = self.turn
        self.hands[seat].remove(c)
        if not self.pot:
            self.led = -1 if SUIT_OF[c] == PEPPER else SUIT_OF[c]
            self.spoiled = SUIT_OF[c] == PEPPER
            self.total = 0 if VALUE_OF[c] == 10 else VALUE_OF[c]
        else:
            self.total = 0 if OVERFLOW[c] else self.total + VALUE_OF[c]
            self.spoiled = self.spoiled or SUIT_OF[c] == PEPPER
        self.pot.append(c)
        if len(self.pot) > 1 and self.total >= 10:
            worth = WORTH[self.menus[seat]]
            self.won[seat] += sum(worth[card] for card in self.pot)
            self.pot = []
            self.total, self.led, self.spoiled = 0, -1, False
        else:
            self.turn = (seat + 1) % len(self.hands)
        if not self.hands[self.turn]:
            self.over = True

    def can_run_out(self) -> bool:
        """The lean playout plays the world's card policy without random moves."""
        return self.noise == 0.0 and self.own_noise == 0.0

    def run_out(self, dice: int) -> float:
        """Play the round out with the world's card policy and no random move, as `rollout_step` does with
        `noise` 0 and `random.Random(dice)` (same choices, same ties; the dice only for the fitted policy's
        draws), in one tight loop: the chef's playouts."""
        while self.pending:
            seat = self.pending[0]
            self.apply_menu(seat, menu_choice(self.hands[seat], self.options(seat), _NO_DICE, 0.0))
        if self.over:
            return self.returns()
        hands, pot, won = self.hands, self.pot, self.won
        worths = [WORTH[menu] for menu in self.menus]
        total, led, spoiled, turn, players = self.total, self.led, self.spoiled, self.turn, len(hands)
        suit_of, value_of, overflow = SUIT_OF, VALUE_OF, OVERFLOW
        policy, policies = self.policy, self.policies
        draws = random.Random(dice) if policy is not None or policies is not None else None
        while True:
            hand, worth = hands[turn], worths[turn]
            if policies is not None:
                policy = policies[turn]
            if policy is None:
                card = lean_card_choice(hand, worth, pot, total, led, spoiled)
            else:
                card = policy_card(hand, worth, pot, total, led, spoiled, policy, draws)
            hand.remove(card)
            suit = suit_of[card]
            if not pot:
                led = -1 if suit == PEPPER else suit
                spoiled = suit == PEPPER
                total = 0 if value_of[card] == 10 else value_of[card]
            else:
                total = 0 if overflow[card] else total + value_of[card]
                spoiled = spoiled or suit == PEPPER
            pot.append(card)
            if len(pot) > 1 and total >= 10:
                points = worth[card]
                for c in pot[:-1]:
                    points += worth[c]
                won[turn] += points
                pot.clear()
                total, led, spoiled = 0, -1, False
            else:
                turn = (turn + 1) % players
            if not hands[turn]:
                break
        self.total, self.led, self.spoiled, self.turn, self.over = total, led, spoiled, turn, True
        return self.returns()

    def noise_of(self, seat: int) -> float:
        """The rollout policy's chance of a random move for `seat` (the robot's own may differ)."""
        return self.own_noise if seat == self.seat and self.own_noise is not None else self.noise

    def rollout_step(self, rng: random.Random) -> None:
        if self.pending:
            seat = self.pending[0]
            self.apply_menu(seat, menu_choice(self.hands[seat], self.options(seat), rng, self.noise_of(seat)))
            return
        seat = self.turn
        policy = self.policy if self.policies is None else self.policies[seat]
        if policy is None:
            self.play(card_choice(self.hands[seat], self.menus[seat], self.pot, self.total, self.led, self.spoiled,
                                  rng, self.noise_of(seat)))
            return
        hand, noise = self.hands[seat], self.noise_of(seat)
        legal = playable(hand, self.led, self.spoiled)
        if len(legal) > 1 and noise and rng.random() < noise:
            self.play(legal[rng.randrange(len(legal))])
            return
        self.play(policy_card(hand, WORTH[self.menus[seat]], self.pot, self.total, self.led, self.spoiled,
                              policy, rng))


def answer(choice: ChaudEvent) -> tuple[str, int]:
    """A legal event as the search counts it: a menu's index or a card's index."""
    if choice["type"] == "menu":
        return "menu", MENUS.index(choice["menu"])
    if choice["type"] == "card":
        return "card", INDEX[choice["card"]]
    raise ValueError("a hand is never a robot's choice")


class Position:
    """A seat's decision: its legal answers and worlds consistent with its View."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.hand = [INDEX[code] for code in view.hand]
        self.answers: tuple[tuple[str, int], ...] = tuple(answer(accepted(choice)) for choice in view.choices)
        seen = set(view.played) | set(view.hand)
        self.unseen = [index for index, code in enumerate(ALL_CODES) if code not in seen]
        self.plays_left = sum(view.left)
        self.rule_odds: list[float] | None = None  # each seat's chance of playing rule-based (`read_opponents`)
        self.search_cost = CHEF_PLAYOUT_COST  # SearchCost
        self.sort_hands = True  # the reading replays hands in the deck's order (False: the cards played first)

    @property
    def choices(self) -> Sequence[dict[str, Any]]:
        return self.view.choices

    @property
    def rollouts_per_ms(self) -> float:
        """Calibrated in CPU time on the benchmark machine: about 250 card plays (with their choices) per ms."""
        return 250.0 / max(8, self.plays_left)

    def sample(self, rng: random.Random) -> ChaudWorld:
        """A world: the unseen cards dealt to the other seats by their hand sizes, no card of a suit
        a seat showed void in (relaxed only if no such deal turns up); hidden menus left to choose."""
        view = self.view
        world = ChaudWorld()
        world.seat = view.seat
        world.answers = self.answers
        world.hands = self._deal(rng)
        world.menus = [MENUS.index(view.menus[s]) if s in view.menus else -1 for s in range(view.players)]
        order = [(view.first + k) % view.players for k in range(view.players)]
        world.pending = [s for s in order if world.menus[s] < 0]
        if view.kind == "menu":
            world.pending.remove(view.seat)
            world.pending.insert(0, view.seat)
        world.used = [tuple(m for m in range(len(MENUS)) if MENUS[m] not in view.used_menus[s])
                      for s in range(view.players)]
        world.forbidden = (view.dealer, view.first) if view.sequential else (-1, -1)
        world.won = [0] * view.players
        for s, cards in enumerate(view.won):
            if world.menus[s] >= 0:
                worth = WORTH[world.menus[s]]
                world.won[s] = sum(worth[INDEX[c]] for c in cards)
        world.pot = [INDEX[c] for c in view.pot]
        world.total = view.pot_sum
        world.led = -1 if view.led is None else SUITS.index(view.led)
        world.spoiled = view.spoiled
        world.turn = view.seat if view.turn is None else view.turn
        if view.kind == "menu":
            world.turn = view.first
        return world

    def search_world(self, rng: random.Random) -> ChaudWorld:
        """A world for the chef's search: `sample`'s, its cards drawn by the fitted policy (`CHEF_POLICY`, a
        model of how searching players play) or, for an opponent read as rule-based, by that player, and, at
        a menu decision, the menus the robot keeps counted at what they are worth over the rounds left
        (`MENUS_LATER`)."""
        world = self.sample(rng)
        world.noise, world.own_noise, world.policy = 0.0, 0.0, CHEF_POLICY
        if self.rule_odds is not None:
            world.policies = [None if s != world.seat and rng.random() < odds else CHEF_POLICY
                              for s, odds in enumerate(self.rule_odds)]
        if self.view.kind == "menu":
            world.later = MENUS_LATER.get((self.view.players, sum(self.view.left)))
        return world

    def read_opponents(self, rng: random.Random) -> None:
        """Weigh, for each opponent, the rule-based model against the fitted one by its plays so far
        (`robot_infer`); the chef's worlds then draw its cards from each with that chance. Each round is
        replayed from hands in the deck's order (`ordered`)."""
        view = self.view
        ratios = [0.0] * view.players
        finished = max(0, view.round_number - 1)
        for past in view.history[:finished]:
            plays = as_indexes(past.plays)
            add_evidence([likelihoods(self.ordered(past_hands(view.players, plays)), menu_indexes(past.menus), plays,
                                      view.seat, CHEF_POLICY, lean_card_choice)], plays, ratios)
        if view.kind == "card" and len(view.history) > finished:
            plays = as_indexes(view.history[finished].plays)
            menus = menu_indexes(view.history[finished].menus)
            played = past_hands(view.players, plays)
            worlds = [self.sample(rng) for _ in range(READ_WORLDS)]
            add_evidence([likelihoods(self.ordered([played[s] + world.hands[s] for s in range(view.players)]), menus,
                                      plays, view.seat, CHEF_POLICY, lean_card_choice) for world in worlds], plays,
                         ratios)
        self.rule_odds = [rule_chance(r) for r in ratios]

    def ordered(self, hands: list[list[int]]) -> list[list[int]]:
        """Hands in the deck's order, as a player holds them (the rule-based card breaks ties by it), if
        `sort_hands`; else as given (the cards played first)."""
        return [sorted(hand) for hand in hands] if self.sort_hands else hands

    def _deal(self, rng: random.Random) -> list[list[int]]:
        view = self.view
        hands: list[list[int]] = [[] for _ in range(view.players)]
        hands[view.seat] = list(self.hand)
        others = [s for s in range(view.players) if s != view.seat]
        others.sort(key=lambda s: -len(view.voids[s]))
        for attempt in range(4):
            pool = list(self.unseen)
            rng.shuffle(pool)
            ok = True
            for s in others:
                void = {SUITS.index(suit) for suit in view.voids[s]} if attempt < 3 else set()
                taken = [c for c in pool if SUIT_OF[c] not in void][: view.left[s]]
                if len(taken) < view.left[s]:
                    ok = False
                    break
                hands[s] = taken
                chosen = set(taken)
                pool = [c for c in pool if c not in chosen]
            if ok:
                return hands
        raise AssertionError("no deal fits the hand sizes")  # unreachable: sizes come from the same deck

    def heuristic(self, rng: random.Random, *, noise: float = 0.0) -> int:
        view = self.view
        if view.kind == "menu":
            menus = [value for _, value in self.answers]
            return menus.index(menu_choice(self.hand, menus, rng, noise))
        menu = MENUS.index(view.menus[view.seat])
        pot = [INDEX[c] for c in view.pot]
        led = -1 if view.led is None else SUITS.index(view.led)
        chosen = card_choice(list(self.hand), menu, pot, view.pot_sum, led, view.spoiled, rng, noise)
        return [value for _, value in self.answers].index(chosen)

    def why(self, choice: int) -> Part | None:
        """The reason the robot gives for an answer, from what it does to the trick or the round."""
        view = self.view
        kind, value = self.answers[choice]
        if len(self.answers) == 1:
            return Part("robot_why_forced")
        if kind == "menu":
            return Part("robot_why_menu", {"menu": MENUS[value]})
        if not view.pot:
            return Part("robot_why_lead")
        menu = MENUS.index(view.menus[view.seat])
        worth = WORTH[menu]
        after = 0 if OVERFLOW[value] else view.pot_sum + VALUE_OF[value]
        if after >= 10:
            gain = sum(worth[INDEX[c]] for c in view.pot) + worth[value]
            return Part("robot_why_take", {"points": gain}) if gain > 0 else Part("robot_why_least_bad")
        others_take = any(
            (0 if OVERFLOW[v] else view.pot_sum + VALUE_OF[v]) >= 10 for k, v in self.answers if k == "card"
        )
        if others_take:
            return Part("robot_why_dodge", {"sum": view.pot_sum + min(
                VALUE_OF[v] for _, v in self.answers if not OVERFLOW[v] and view.pot_sum + VALUE_OF[v] >= 10)})
        return Part("robot_why_dump", {"card": ALL_CODES[value]})


def robot_position(state: State, actions: list[dict[str, Any]], ask: RobotAsk) -> Position:
    """The robot's Position for `ask` (RobotRefusal when it is not the seat's decision)."""
    return Position(robot_view(state, ask))

