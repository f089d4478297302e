"""Sus au buffet !'s robot: the seat's Position for the game-agnostic search of `benchmarks.baseline_flat_pimc.robots`.

A world deals the other hands and the draw pile from the 110-card composition less what the seat
has seen (its hand, the cards revealed since the pile last ran out), plays steps to the end of the
round with every mouse choosing face down by the rollout policy (`card_choice`, which never looks
at the cards chosen in the same step), and is worth the robot's plate points won in the round plus
a share of what its kept cards are worth for the rounds after (hands are refilled to nine, so a high
card kept is a step won later). That linear share (`KEPT_WEIGHT`) is the flat PIMC's estimate, also in
the game's last round, where a kept card is worth nothing. The chef's worlds (`Position.extend`) price
a kept card at `SEARCH_KEPT_WEIGHT` instead (measured: nothing is best), and at nothing whenever their
horizon reaches the game's end. They may also play on past the round's end (`search_rounds`: every
hand refilled to nine from the world's pile, every mouse back to 0, the next buffet drawn from the
plates not laid yet, so a card spent now is valued by what it fails to win in the next round);
measured, that bought nothing beyond the last round's value, so it is off (`SEARCH_ROUNDS`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from benchmarks.baseline_flat_pimc.buffet.robot_view import HAND_SIZE, View, robot_view
from benchmarks.baseline_flat_pimc.robots import RobotAsk
from companion.buffet.plates import COPIES, FOODS, MOUSE_VALUES, PLATES, STAND_IN_SET, TOTAL_PLATES
from companion.buffet.state import State
from companion.seam import Part

ROLLOUT_NOISE = 0.1
KEPT_WEIGHT = 0.3
"""Plate points per card value above the pile's mean kept in hand at the round's end."""
MEAN_CARD = sum(MOUSE_VALUES) / len(MOUSE_VALUES)
SEARCH_ROUNDS = 0
"""Rounds the chef's worlds play on past the current one (the flat PIMC's stop at its end). 0: they stop
there too, and only a kept card's value changes (nothing in the game's last round). Measured at equal
CPU against the flat PIMC (docs/BENCHMARKS.md, fourth run): one round further +1.60 ± 0.46 plate points
per game on 40 fresh deals; the game's last round alone +2.36 ± 0.42 on the same deals (and as good on
the exploration's), so the longer playouts buy nothing beyond it and cost worlds; this default then
confirmed on 40 other fresh deals: +1.71 ± 0.51."""
SEARCH_KEPT_WEIGHT = 0.0
"""`KEPT_WEIGHT` for the chef's worlds in the rounds before the game's last (a card kept there may be
worth something; in the last round it is worth nothing whatever this says). Measured, not derived: at
equal CPU against the flat PIMC on the exploration deals 1000–1011 (every seat), 0.5: +0.08 ± 0.61,
0.3: +2.12 ± 0.43, 0.15: +3.06 ± 0.70, 0.08: +2.58 ± 0.75, 0: +3.44 ± 0.63 plate points per game
(docs/BENCHMARKS.md, fourth run): the heuristic's playouts overrate a card saved; the search does better
weighing only the plates its answer wins in the round."""


class Shuffles(Protocol):
    """What a playout's draws need of a random-number generator."""

    def shuffle(self, x: list[int]) -> None: ...


class LazyDice:
    """A `random.Random(seed)` made only if a playout needs it (the pile rarely runs out within a round)."""

    __slots__ = ("rng", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng: random.Random | None = None

    def shuffle(self, x: list[int]) -> None:
        if self.rng is None:
            self.rng = random.Random(self.seed)
        self.rng.shuffle(x)


def plate_gain(won: dict[int, int], food: int, value: int) -> int:
    """What winning this plate adds to a score that counts the last plate of each food."""
    return value - won.get(food, 0)


def card_choice(hand: list[int], me: int, positions: list[int], mice: list[int], buffet: list[tuple[int, int]],
                part_plates: int, won: dict[int, int], rng: random.Random, noise: float) -> int:
    """The rule-based card for a step: in a duel, play high for a plate worth having; at the rear,
    leave cheaply (lowest card) when the worst plate is as good as what staying promises, else play
    the smallest card that should clear the rearmost of the others."""
    if noise and rng.random() < noise:
        return hand[rng.randrange(len(hand))]
    ordered = sorted(hand)
    mine = positions[me]
    others = [positions[s] for s in mice if s != me]
    if len(mice) == 2 and part_plates == 1:
        food, value = buffet[len(buffet) - 1]
        if plate_gain(won, food, value) <= 0:
            return ordered[0]
        need = others[0] - mine + 1
        fitting = [v for v in ordered if v >= need + 5]
        return fitting[0] if fitting else ordered[-1]
    contested = buffet[len(buffet) - part_plates:]
    gains = [plate_gain(won, food, value) for food, value in contested]
    worst = gains[-1]
    hope = max(gains[:-1]) if len(gains) > 1 else worst
    if worst >= hope - 1:
        return ordered[0]
    rear = min(others)
    fitting = [v for v in ordered if mine + v > rear + 4]
    return fitting[0] if fitting else ordered[-1]


def lean_card_choice(hand: list[int], me: int, positions: list[int], mice: list[int], buffet: list[tuple[int, int]],
                     part_plates: int, won: dict[int, int]) -> int:
    """`card_choice` without noise, in fewer steps (the chef's playouts): the same card for the same step."""
    ordered = sorted(hand)
    mine = positions[me]
    if len(mice) == 2 and part_plates == 1:
        food, value = buffet[-1]
        if value - won.get(food, 0) <= 0:
            return ordered[0]
        need = positions[mice[1] if mice[0] == me else mice[0]] - mine + 6
        for card in ordered:
            if card >= need:
                return card
        return ordered[-1]
    food, value = buffet[-1]
    worst = value - won.get(food, 0)
    hope = worst
    if part_plates > 1:
        hope = max(value - won.get(food, 0) for food, value in buffet[len(buffet) - part_plates:-1])
    if worst >= hope - 1:
        return ordered[0]
    clear = min(positions[s] for s in mice if s != me) + 4 - mine
    for card in ordered:
        if card > clear:
            return card
    return ordered[-1]


def swap_count(hand: Sequence[int], pile_mean: float) -> int:
    """The rule-based trade: give up every card below what a draw is worth on average, less a margin."""
    return sum(1 for v in hand if v < pile_mean - 1.5)


class BuffetWorld:
    """One determinized round from the start of a step: hands, pile, positions, buffet, plates won."""

    __slots__ = ("ahead", "answers", "buffet", "chosen", "hands", "in_round", "kept_weight", "kind", "noise", "order",
                 "over", "own_noise", "part", "pile", "positions", "seat", "start_hand", "start_score", "swap_given",
                 "two_parts", "won")

    def __init__(self) -> None:
        self.seat = 0
        self.kind = "card"
        self.hands: list[list[int]] = []
        self.pile: list[int] = []
        self.positions: list[int] = []
        self.in_round: list[int] = []
        self.order: tuple[int, ...] = ()  # every seat clockwise from the first player
        self.buffet: list[tuple[int, int]] = []  # (food index, value), best first
        self.won: list[dict[int, int]] = []  # counted plate value by food, per seat
        self.part: int | None = None
        self.two_parts = False
        self.swap_given = False
        self.chosen: dict[int, int] = {}
        self.over = False
        self.noise = ROLLOUT_NOISE
        self.own_noise: float | None = None  # the robot seat's own noise in playouts (None: `noise`)
        self.answers: tuple[tuple[int, ...], ...] = ()
        self.start_score = 0
        self.start_hand = 0
        self.ahead: tuple[tuple[tuple[int, int], ...], ...] = ()  # the buffets of rounds played on (the chef's)
        self.kept_weight = KEPT_WEIGHT  # what a kept card's value above the mean is worth at the horizon

    def clone(self) -> BuffetWorld:
        copy = BuffetWorld.__new__(BuffetWorld)
        copy.seat, copy.kind, copy.part, copy.two_parts = self.seat, self.kind, self.part, self.two_parts
        copy.hands = [list(hand) for hand in self.hands]
        copy.pile, copy.positions, copy.in_round = list(self.pile), list(self.positions), list(self.in_round)
        copy.buffet, copy.won = list(self.buffet), [dict(w) for w in self.won]
        copy.swap_given, copy.chosen, copy.over, copy.noise = self.swap_given, dict(self.chosen), self.over, self.noise
        copy.answers, copy.start_score, copy.start_hand = self.answers, self.start_score, self.start_hand
        copy.order, copy.own_noise = self.order, self.own_noise
        copy.ahead, copy.kept_weight = self.ahead, self.kept_weight
        return copy

    @property
    def part_plates(self) -> int:
        return len(self.buffet) - 2 if self.part == 1 else len(self.buffet)

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> float:
        hand = self.hands[self.seat]
        kept = sum(v - MEAN_CARD for v in hand) if self.kind == "card" else sum(hand) - self.start_hand
        return sum(self.won[self.seat].values()) - self.start_score + self.kept_weight * kept

    def draw(self, count: int, rng: Shuffles) -> list[int]:
        """Cards from the pile; an empty pile is refilled from the whole composition (an estimate)."""
        taken = []
        for _ in range(count):
            if not self.pile:
                self.pile = [v for v in MOUSE_VALUES for _ in range(COPIES)]
                rng.shuffle(self.pile)
            taken.append(self.pile.pop())
        return taken

    def apply_root(self, choice: int) -> None:
        if self.kind == "swap":  # give up the k lowest cards, draw as many: the world ends there
            given = self.answers[choice]
            hand = self.hands[self.seat]
            for v in given:
                hand.remove(v)
            hand.extend(self.pile[-len(given):] if given else [])
            self.over = True
            return
        self.choose(self.seat, self.answers[choice][0])

    def choose(self, seat: int, value: int) -> None:
        self.hands[seat].remove(value)
        self.chosen[seat] = value

    def can_run_out(self) -> bool:
        """The lean playout plays the rule-based policy without noise only."""
        return self.noise == 0.0 and self.own_noise == 0.0

    def run_out(self, dice: int) -> float:
        """Play the round out with the rule-based policy and no random move, as `rollout_step` does with
        `noise` 0 with `random.Random(dice)` (the same cards, the same draws), a step at a time: the chef's playouts."""
        hands, positions, chosen = self.hands, self.positions, self.chosen
        rng = LazyDice(dice)
        while not self.over:
            mice, buffet, part_plates = self.in_round, self.buffet, self.part_plates
            for seat in mice:
                if seat not in chosen:
                    hand = hands[seat]
                    if not hand:
                        hand.extend(self.draw(HAND_SIZE, rng))
                    card = lean_card_choice(hand, seat, positions, mice, buffet, part_plates, self.won[seat])
                    hand.remove(card)
                    chosen[seat] = card
            self.end_step(rng)
            chosen = self.chosen
        return self.returns()

    def noise_of(self, seat: int) -> float:
        """The rollout policy's chance of a random move for `seat` (the robot's own may differ)."""
        return self.own_noise if seat == self.seat and self.own_noise is not None else self.noise

    def rollout_step(self, rng: random.Random) -> None:
        for seat in self.in_round:
            if seat not in self.chosen:
                hand = self.hands[seat]
                if not hand:
                    hand.extend(self.draw(HAND_SIZE, rng))
                won = self.won[seat]
                self.choose(seat, card_choice(hand, seat, self.positions, self.in_round, self.buffet,
                                              self.part_plates, won, rng, self.noise_of(seat)))
                return
        self.end_step(rng)

    def end_step(self, rng: Shuffles) -> None:
        """Every mouse has moved: who leaves with which plate, then the next step, part or the end."""
        for seat, value in self.chosen.items():
            self.positions[seat] += value
        self.chosen = {}
        mice = self.in_round
        rear = min(self.positions[s] for s in mice)
        rearmost = [s for s in mice if self.positions[s] == rear]
        if len(rearmost) > 1:
            return
        loser = rearmost[0]
        if len(mice) == 2 and self.part_plates == 1:
            winner = mice[0] if mice[1] == loser else mice[1]
            self.leave(winner, len(self.buffet) - self.part_plates, rng)
            self.leave(loser, None, rng)
        else:
            self.leave(loser, len(self.buffet) - 1, rng)
            if len(self.in_round) == 1 and self.part_plates == 1:
                self.leave(self.in_round[0], len(self.buffet) - 1, rng)
        if self.in_round:
            return
        if self.part == 1:
            self.part = 2
            self.in_round = list(self.order)
            return
        if self.ahead:
            self.next_round(rng)
            return
        self.over = True

    def next_round(self, rng: Shuffles) -> None:
        """The round is over and the world plays on (the chef's): every hand back up to nine from the pile,
        every mouse back to 0, the next buffet laid out, nobody has traded yet."""
        self.buffet, self.ahead = list(self.ahead[0]), self.ahead[1:]
        for hand in self.hands:
            if len(hand) < HAND_SIZE:
                hand.extend(self.draw(HAND_SIZE - len(hand), rng))
        self.positions[:] = [0] * len(self.positions)  # in place: a lean playout holds the list
        self.in_round = list(self.order)
        self.part = 1 if self.two_parts else None
        self.swap_given = False

    def leave(self, seat: int, index: int | None, rng: Shuffles) -> None:
        may_swap = not self.swap_given and self.part != 2
        self.swap_given = True
        if index is not None:
            food, value = self.buffet.pop(index)
            self.won[seat][food] = value
        self.in_round.remove(seat)
        if may_swap and seat != self.seat:
            hand = self.hands[seat]
            hand.sort()
            give = swap_count(hand, MEAN_CARD)
            del hand[:give]
            hand.extend(self.draw(give, rng))


class Position:
    """A seat's decision: its legal answers and worlds consistent with its View."""

    def __init__(self, view: View) -> None:
        self.view = view
        if view.kind == "swap":
            self.answers: tuple[tuple[int, ...], ...] = tuple(
                tuple(sorted(view.hand)[:k]) for k in range(len(view.choices)))
        else:
            self.answers = tuple((PLATE_VALUE[choice["card"]],) for choice in view.choices)
        left = [COPIES - seen for seen in view.seen]
        self.pool = [v for index, v in enumerate(MOUSE_VALUES) for _ in range(left[index])]
        self.pile_mean = sum(self.pool) / len(self.pool) if self.pool else MEAN_CARD
        self.steps_left = max(1, len(view.in_round)) * (1 + len(view.buffet))

    @property
    def choices(self) -> Sequence[dict[str, Any]]:
        return self.view.choices

    search_noise = 0.3  # the chef's worlds: the other mice make 30 % random moves (they are not the heuristic)
    search_own_noise = 0.0  # and the robot's own later steps keep the rule-based policy (measured: BENCHMARKS)
    search_rounds = SEARCH_ROUNDS
    search_kept_weight = SEARCH_KEPT_WEIGHT

    def rounds_ahead(self) -> int:
        """Rounds the chef's worlds play on past this one: `search_rounds`, fewer if the game ends first
        (it ends at a round's start with fewer plates left than its buffet takes)."""
        view = self.view
        if view.kind != "card":
            return 0
        size = 5 if view.two_parts else view.players - 1
        return min(self.search_rounds, (TOTAL_PLATES - len(view.laid)) // size)

    @property
    def search_cost(self) -> float:
        """A chef playout's length relative to one to the round's end, in mouse cards (as `steps_left`)."""
        view = self.view
        size = 5 if view.two_parts else view.players - 1
        return 1 + self.rounds_ahead() * view.players * (1 + size) / self.steps_left

    def extend(self, world: BuffetWorld, rng: random.Random) -> None:
        """The chef's world plays `rounds_ahead` more rounds, their buffets drawn now from the plates not laid
        yet (the simulator's stand-in set less the plates seen, an estimate at a real table); when that reaches
        the game's end, a card kept is worth nothing."""
        view = self.view
        if view.kind != "card":
            return
        size = 5 if view.two_parts else view.players - 1
        rounds = self.rounds_ahead()
        world.kept_weight = self.search_kept_weight
        if (TOTAL_PLATES - len(view.laid)) // size <= self.search_rounds:  # no round after the horizon's
            world.kept_weight = 0.0
        if not rounds:
            return
        left = [code for code in STAND_IN_SET if code not in view.laid]
        if len(left) < rounds * size:
            left += [code for code in PLATES if code not in view.laid and code not in left]
        drawn = [(FOODS.index(PLATES[code].food), PLATES[code].value) for code in rng.sample(left, rounds * size)]
        world.ahead = tuple(tuple(sorted(drawn[r * size:(r + 1) * size], key=lambda plate: (-plate[1], plate[0])))
                            for r in range(rounds))

    def search_world(self, rng: random.Random) -> BuffetWorld:
        """A world for the chef's search: `sample`'s, with the chef's rollout noise, extended (`extend`)."""
        world = self.sample(rng)
        world.noise, world.own_noise = self.search_noise, self.search_own_noise
        self.extend(world, rng)
        return world

    @property
    def rollouts_per_ms(self) -> float:
        """Calibrated in CPU time on the benchmark machine: about 150 mouse cards chosen and moved per ms."""
        return 150.0 / self.steps_left

    def sample(self, rng: random.Random) -> BuffetWorld:
        view = self.view
        world = BuffetWorld()
        world.seat, world.kind, world.answers = view.seat, view.kind, self.answers
        pool = list(self.pool)
        rng.shuffle(pool)
        hands: list[list[int]] = []
        for seat in range(view.players):
            if seat == view.seat:
                hands.append(list(view.hand))
            else:
                size = view.hand_sizes[seat]
                hands.append(pool[:size])
                pool = pool[size:]
        world.hands, world.pile = hands, pool
        world.positions, world.in_round, world.order = list(view.positions), list(view.in_round), view.order
        world.buffet = [(FOODS.index(PLATES[code].food), PLATES[code].value) for code in view.buffet]
        world.won = [{FOODS.index(PLATES[code].food): PLATES[code].value for code in won} for won in view.won]
        world.part, world.two_parts, world.swap_given = view.part, view.two_parts, view.swap_given
        world.start_score = sum(world.won[view.seat].values())
        world.start_hand = sum(view.hand)
        if view.kind == "swap":
            world.pile = pool
        return world

    def heuristic(self, rng: random.Random, *, noise: float = 0.0) -> int:
        view = self.view
        if view.kind == "swap":
            return swap_count(sorted(view.hand), self.pile_mean)
        world = self.sample(random.Random(0))
        won = world.won[view.seat]
        value = card_choice(list(view.hand), view.seat, world.positions, world.in_round, world.buffet,
                            world.part_plates, won, rng, noise)
        return self.answers.index((value,))

    def why(self, choice: int) -> Part | None:
        view = self.view
        if len(self.answers) == 1:
            return Part("robot_why_forced")
        if view.kind == "swap":
            given = len(self.answers[choice])
            return Part("robot_why_swap", {"count": given}) if given else Part("robot_why_keep")
        value = self.answers[choice][0]
        others = [view.positions[s] for s in view.in_round if s != view.seat]
        mine = view.positions[view.seat]
        highest = max(a[0] for a in self.answers)
        if len(view.in_round) == 2 and len(view.buffet) - (2 if view.part == 1 else 0) == 1:
            return Part("robot_why_duel") if value == highest else Part("robot_why_let_go")
        if value == min(a[0] for a in self.answers):
            return Part("robot_why_take_plate", {"plate": view.buffet[-1]}) if mine <= min(others) else \
                Part("robot_why_save")
        return Part("robot_why_escape")


PLATE_VALUE: dict[str, int] = {f"mouse-{'n1' if v == -1 else v}": v for v in MOUSE_VALUES}


def robot_position(state: State, actions: list[dict[str, Any]], ask: RobotAsk) -> Position:
    """The robot's Position for `ask` (RobotRefusal when it is not the seat's decision)."""
    return Position(robot_view(state, actions, ask))
