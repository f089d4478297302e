"""What a Sus au buffet ! robot seat may see: the public game as the step began, and its own hand.

Every fact of the game is public but the hands and the draw pile; a step's cards are chosen face
down, so the robot decides on the state as it stood when the step began, before any reveal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmarks.baseline_flat_pimc.robots import RobotAsk, RobotRefusal
from companion.buffet.plates import COPIES, MOUSE_CARDS, MOUSE_VALUES, value_code
from companion.buffet.state import State

HAND_SIZE = 9


@dataclass(frozen=True)
class View:
    """One seat's information set at its decision (seats are indexes, cards are values)."""

    seat: int
    players: int
    kind: str  # "card" or "swap"
    hand: tuple[int, ...]
    positions: tuple[int, ...]
    in_round: tuple[int, ...]
    order: tuple[int, ...]  # every seat clockwise from the first player
    buffet: tuple[str, ...]
    won: tuple[tuple[str, ...], ...]
    part: int | None
    two_parts: bool
    swap_given: bool
    laid: frozenset[str]
    hand_sizes: tuple[int, ...]  # cards each seat holds now (public: nine less the cards played)
    seen: tuple[int, ...]  # copies of each value (index value + 1) seen since the last estimated reshuffle
    choices: tuple[dict[str, Any], ...]


def robot_view(state: State, actions: list[dict[str, Any]], ask: RobotAsk) -> View:
    """The seat's View, or RobotRefusal when it is not its decision or its hand contradicts the log."""
    seat = state.players.index(ask.seat)
    if ask.ask not in (None, "swap"):
        raise RobotRefusal("bad_ask", f"Sus au buffet ! has no {ask.ask!r} decision")
    if state.phase == "game_over":
        raise RobotRefusal("not_due", "the game is over")
    if ask.ask == "swap":
        return _swap_view(state, actions, seat, ask.hand)
    if state.phase != "step" or state.step is None:
        raise RobotRefusal("not_due", "no step is under way: the buffet is being laid out")
    if seat not in state.in_round:
        raise RobotRefusal("not_due", f"{ask.seat}'s mouse has left the round")
    revealed = len(state.step.reveals)
    if seat in state.in_round[:revealed]:
        raise RobotRefusal("not_due", f"{ask.seat}'s card of this step is already revealed")
    if revealed:  # decide as the step began: the cards turned over since are not the robot's to see
        state = _replayed(state, actions[:-revealed])
        actions = actions[:-revealed]
    sizes = _hand_sizes(state)
    values = _hand_values(ask.hand)
    if not values:
        raise RobotRefusal("no_hand", f"{ask.seat} has no dealt hand")
    if len(values) > sizes[seat]:
        raise RobotRefusal("bad_hand", f"{ask.seat} holds {sizes[seat]} cards now, not {len(values)}")
    choices = tuple({"type": "card", "card": f"mouse-{value_code(v)}"} for v in sorted(set(values)))
    return _view(state, actions, seat, "card", values, sizes, choices)


def _swap_view(state: State, actions: list[dict[str, Any]], seat: int, hand: tuple[str, ...]) -> View:
    """The first mouse to leave a round (not in part 2) may trade cards: only then is a swap asked."""
    record = state.current_round
    name = state.players[seat]
    if record is None or not record.departures:
        raise RobotRefusal("not_due", "no mouse has left the round yet")
    first = record.departures[0]
    if first.seat != seat or not first.may_swap:
        raise RobotRefusal("not_due", f"{name} is not the first mouse to leave this round")
    sizes = _hand_sizes(state, at_departure=True)
    values = _hand_values(hand)
    if len(values) > sizes[seat]:
        raise RobotRefusal("bad_hand", f"{name} holds {sizes[seat]} cards now, not {len(values)}")
    choices = tuple(_swap_choices(values))
    return _view(state, actions, seat, "swap", values, sizes, choices)


def _swap_choices(values: tuple[int, ...]) -> list[dict[str, Any]]:
    """The sensible trades: the k lowest cards, for k from none to all (a robot never keeps a low card
    while giving a higher one)."""
    ordered = sorted(values)
    return [{"type": "swap", "cards": [f"mouse-{value_code(v)}" for v in ordered[:k]]} for k in range(len(ordered) + 1)]


def _view(state: State, actions: list[dict[str, Any]], seat: int, kind: str, values: tuple[int, ...],
          sizes: list[int], choices: tuple[dict[str, Any], ...]) -> View:
    return View(seat, len(state.players), kind, values, tuple(state.positions), tuple(state.in_round),
                tuple(state.game.clockwise(list(range(len(state.players))))),
                tuple(state.buffet), tuple(tuple(w) for w in state.won), state.part, state.game.two_parts,
                state.swap_given, frozenset(state.laid), tuple(sizes), _seen(state, actions, values), choices)


def _hand_values(hand: tuple[str, ...]) -> tuple[int, ...]:
    values = []
    for code in hand:
        if code not in MOUSE_CARDS:
            raise RobotRefusal("bad_hand", f"{code!r} is not a mouse card")
        values.append(MOUSE_CARDS[code])
    for value in MOUSE_VALUES:
        if values.count(value) > COPIES:
            raise RobotRefusal("bad_hand", f"there are only {COPIES} cards of value {value}")
    return tuple(sorted(values))


def _replayed(state: State, actions: list[dict[str, Any]]) -> State:
    fresh = state.game.new_initial_state()
    for action in actions:
        fresh.apply(action)
    return fresh


def _round_reveals(state: State, *, last: bool) -> list[int]:
    """How many cards each seat has revealed in the current round (both parts), or in the last one begun."""
    counts = [0] * len(state.players)
    record = state.current_round
    if record is None or (not last and record.number != state.round_number):
        return counts
    for step in record.steps:
        for reveal in step.reveals:
            counts[reveal.seat] += 1
    return counts


def _hand_sizes(state: State, *, at_departure: bool = False) -> list[int]:
    """Cards each seat holds now: nine, less the cards revealed this round; a seat that has played its
    ninth draws nine more before it plays again (at a departure it holds none)."""
    sizes = []
    for played in _round_reveals(state, last=at_departure):
        held = HAND_SIZE - played % HAND_SIZE
        if played and held == HAND_SIZE and at_departure:
            held = 0
        sizes.append(held)
    return sizes


def _seen(state: State, actions: list[dict[str, Any]], hand: tuple[int, ...]) -> tuple[int, ...]:
    """Copies of each value out of the draw pile as far as the seat can tell: its hand, and the cards
    revealed since the pile was last estimated to run out (110 less the hands dealt, per cycle)."""
    count = len(state.players)
    cycle = COPIES * len(MOUSE_VALUES) - HAND_SIZE * count
    revealed = [MOUSE_CARDS[a["card"]] for a in actions if a.get("type") == "card"]
    recent = revealed[len(revealed) - len(revealed) % cycle:] if cycle > 0 else revealed
    seen = [0] * len(MOUSE_VALUES)
    for value in [*recent, *hand]:
        seen[value + 1] = min(COPIES, seen[value + 1] + 1)
    return tuple(seen)
