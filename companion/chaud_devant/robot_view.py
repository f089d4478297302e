"""What a Chaud Devant ! robot seat may see: its decision, checked against the log, and nothing hidden.

Built from the referee's state but keeping only what is public (cards played, tricks, revealed
menus, hand sizes, voids shown) plus the seat's own hand: other seats' `hand` events and menus
not yet revealed never reach the robot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.chaud_devant.cards import DECK, MENUS, card
from companion.chaud_devant.state import State, playable
from companion.robots import RobotAsk, RobotRefusal


@dataclass(frozen=True)
class RoundPlays:
    """One round's public plays: who led it, each seat's revealed menu, the cards in order with their seat."""

    first: int
    menus: tuple[str, ...]
    plays: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class View:
    """One seat's information set at its decision (seats are indexes; cards are codes)."""

    seat: int
    players: int
    kind: str  # "menu" or "card"
    hand: tuple[str, ...]
    round_number: int
    first: int  # who leads the round's first trick
    dealer: int
    sequential: bool
    stars: tuple[int, ...]
    used_menus: tuple[frozenset[str], ...]  # menus used in earlier rounds (public once revealed)
    menus: dict[int, str]  # menus revealed this round
    left: tuple[int, ...]  # cards each seat still holds
    played: frozenset[str]  # cards played this round
    won: tuple[tuple[str, ...], ...]  # cards each seat has won this round
    pot: tuple[str, ...]
    pot_sum: int
    led: str | None
    spoiled: bool
    voids: tuple[frozenset[str], ...]  # suits each seat showed void in this round
    turn: int | None
    choices: tuple[dict[str, Any], ...]
    history: tuple[RoundPlays, ...] = ()  # the plays of every round so far, this one's too (all public)


def robot_view(state: State, ask: RobotAsk) -> View:
    """The seat's View, or RobotRefusal when it is not the seat's decision or its hand contradicts the log."""
    if ask.ask is not None:
        raise RobotRefusal("bad_ask", f"Chaud Devant has no {ask.ask!r} decision")
    seat = state.players.index(ask.seat)
    progress = state.progress
    if progress.phase == "game_over":
        raise RobotRefusal("not_due", "the game is over")
    current = progress.open_round
    count = len(state.players)
    if progress.phase == "menu":
        number = state.round_number
        dealer = state.game.dealer_of(number)
        sequential = state.game.rules.menu_reveal == "sequential"
        chosen = current.choices if current is not None else {}
        if sequential and state.next_to_reveal() != seat:
            raise RobotRefusal("not_due", f"it is not {ask.seat}'s turn to reveal a menu")
        if not sequential and seat in chosen:
            raise RobotRefusal("not_due", f"{ask.seat} has already chosen a menu this round")
        hand = _checked_hand(state, seat, ask.hand)
        menus = {s: m for s, m in chosen.items()} if sequential else {}
        choices = tuple(
            {"type": "menu", "player": ask.seat, "menu": menu}
            for menu in MENUS
            if state.decide({"type": "menu", "player": ask.seat, "menu": menu}) is None
        )
        empty: tuple[tuple[str, ...], ...] = tuple(() for _ in range(count))
        return View(seat, count, "menu", hand, number, state.game.next_seat(dealer), dealer, sequential,
                    tuple(progress.stars), tuple(frozenset(u) for u in progress.used_menus), menus,
                    state.game.deal_sizes(dealer), frozenset(), empty, (), 0, None, False,
                    tuple(frozenset() for _ in range(count)), None, choices, _history(state))
    assert current is not None and progress.turn is not None
    if progress.turn != seat:
        raise RobotRefusal("not_due", f"it is {state.players[progress.turn]}'s turn, not {ask.seat}'s")
    hand = _checked_hand(state, seat, ask.hand)
    pot = progress.pot
    cards = playable(hand, pot)
    won = tuple(tuple(c for t in current.tricks if t.winner == s for c in t.cards) for s in range(count))
    return View(seat, count, "card", hand, current.number, current.first, current.dealer,
                state.game.rules.menu_reveal == "sequential", tuple(progress.stars),
                tuple(frozenset(u - {current.choices[s]}) for s, u in enumerate(progress.used_menus)),
                dict(current.choices), tuple(current.left), frozenset(current.played), won, tuple(pot.cards),
                pot.sum, None if pot.led is None else str(pot.led), pot.spoiled, _voids(state, count), seat,
                tuple({"type": "card", "card": code} for code in cards), _history(state))


def _history(state: State) -> tuple[RoundPlays, ...]:
    """The plays of the rounds whose menus are revealed (every round once its cards are played)."""
    count = len(state.players)
    return tuple(RoundPlays(past.first, tuple(past.choices.get(s, "") for s in range(count)),
                            tuple((play.seat, play.card) for play in past.plays))
                 for past in state.progress.rounds if past.plays and len(past.choices) == count)


def _checked_hand(state: State, seat: int, hand: tuple[str, ...]) -> tuple[str, ...]:
    """The hand, sorted, if the log allows it; else RobotRefusal naming what it contradicts."""
    name = state.players[seat]
    for code in hand:
        if card(code) is None:
            raise RobotRefusal("bad_hand", f"{code!r} is not a soup card")
    if len(set(hand)) != len(hand):
        raise RobotRefusal("bad_hand", "the hand holds a card twice")
    current = state.progress.open_round
    if state.progress.phase == "menu":
        expected = state.game.deal_sizes(state.game.dealer_of(state.round_number))[seat]
    else:
        assert current is not None
        expected = current.left[seat]
    if not hand:
        raise RobotRefusal("no_hand", f"{name} has no dealt hand")
    if len(hand) > expected:  # fewer is a partly known hand (the contract's own example has three cards)
        raise RobotRefusal("bad_hand", f"{name} holds {expected} cards now, not {len(hand)}")
    if current is not None:
        for code in hand:
            if code in current.played:
                raise RobotRefusal("bad_hand", f"{code} was already played this round")
        for other, known in current.hands.items():
            if other == seat and known != set(hand):
                raise RobotRefusal("bad_hand", f"the log gives {name} another hand")
            if other != seat and not known.isdisjoint(hand):
                raise RobotRefusal("bad_hand", f"the log gives a card of this hand to {state.players[other]}")
    return tuple(sorted(hand, key=list(DECK).index))


def _voids(state: State, count: int) -> tuple[frozenset[str], ...]:
    """Suits each seat showed void in this round, from the plays alone (known hands ignored)."""
    current = state.progress.open_round
    voids: list[set[str]] = [set() for _ in range(count)]
    if current is None:
        return tuple(frozenset(v) for v in voids)
    for previous, play in zip(current.plays, current.plays[1:], strict=False):
        follows = previous.trick == play.trick and previous.led is not None and not previous.spoiled
        if follows and DECK[play.card].suit is not previous.led:
            voids[play.seat].add(str(previous.led))
    return tuple(frozenset(v) for v in voids)

