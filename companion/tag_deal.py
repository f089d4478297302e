"""Dealing by tag: each card passes over the reader as it is dealt, one at a time clockwise.

The dealer deals from the first player (left of the dealer), one card each in turn, skipping a
seat whose hand is full (with five players in the 2005 edition the first two get one more).
Pure: the desk submits the `hand` events when the deal is complete. Parts never name a dealt
card: the whole table hears the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.seam import Part


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Who is dealt to, in seating order, how many cards each, and the first to receive one."""

    players: tuple[str, ...]
    sizes: tuple[int, ...]
    first: int
    cards: frozenset[str]
    round: int = 1
    known_as: str = "hand"
    """"hand": the contract's `hand` events (the physical codes are the game's); "robot": known hands
    journaled as `robot` hand events (Sus au buffet !: a physical code `<card>@<copy>` names card `<card>`)."""
    kept: tuple[tuple[str, ...], ...] = ()
    """With "robot": the cards each seat already holds, topped up by the cards dealt."""


class TagDeal:
    """The cards passed so far, in order, each given to the seat whose turn it was."""

    def __init__(self, plan: DealPlan) -> None:
        self.plan = plan
        self.cards = plan.cards
        self.order = self._pass_order()
        self.dealt: list[str] = []

    def _pass_order(self) -> tuple[int, ...]:
        """The seat of each pass: round after round clockwise from `first`, skipping full hands."""
        left = list(self.plan.sizes)
        seat = self.plan.first
        order: list[int] = []
        count = len(left)
        while any(left):
            if left[seat]:
                order.append(seat)
                left[seat] -= 1
            seat = (seat + 1) % count
        return tuple(order)

    @property
    def complete(self) -> bool:
        return len(self.dealt) == len(self.order)

    def next_player(self) -> str | None:
        return None if self.complete else self.plan.players[self.order[len(self.dealt)]]

    def read(self, code: str | None) -> Part:
        """A card passed: given to the next seat; refused if it is no card or was already dealt."""
        if self.complete:
            return Part("deal_complete", {})
        if code is None or code not in self.cards:
            key = "deal_not_a_card" if self.plan.known_as == "hand" else "deal_not_a_mouse"
            return Part(key, {"player": self.next_player()})
        if code in self.dealt:
            return Part("deal_already", {"player": self.next_player()})
        player = self.next_player()
        self.dealt.append(code)
        if self.complete:
            return Part("deal_complete", {})
        held = sum(1 for seat in self.order[:len(self.dealt)] if self.plan.players[seat] == player)
        return Part("deal_given", {"player": player, "count": len(self.dealt), "total": len(self.order),
                                   "next": self.next_player(), "held": held})

    def undo(self) -> Part:
        """Take back the last pass (a card dealt to the wrong seat, or passed by mistake)."""
        if not self.dealt:
            return Part("deal_nothing_to_undo", {})
        self.dealt.pop()
        return Part("deal_undone", {"player": self.next_player(), "count": len(self.dealt),
                                    "total": len(self.order)})

    def hands(self) -> dict[str, list[str]]:
        hands: dict[str, list[str]] = {name: [] for name in self.plan.players}
        for seat, code in zip(self.order, self.dealt, strict=False):
            hands[self.plan.players[seat]].append(code)
        return hands

    def events(self) -> list[dict[str, Any]]:
        """The known hands of a complete deal, one event per seat dealt to (an empty hand: not dealt)."""
        hands = self.hands()
        if self.plan.known_as == "hand":
            return [{"type": "hand", "player": player, "cards": cards} for player, cards in hands.items() if cards]
        kept = self.plan.kept or tuple(() for _ in self.plan.players)
        return [{"type": "robot", "player": player,
                 "hand": sorted([*before, *(code.partition("@")[0] for code in hands[player])])}
                for player, before in zip(self.plan.players, kept, strict=True) if hands[player]]

    def as_json(self) -> dict[str, Any]:
        """Progress for the host's screen (counts only: the table sees it)."""
        hands = self.hands()
        return {"count": len(self.dealt), "total": len(self.order), "next": self.next_player(),
                "complete": self.complete,
                "players": [{"name": name, "count": len(hands[name]), "size": size}
                            for name, size in zip(self.plan.players, self.plan.sizes, strict=True)]}

    def sequence(self) -> Sequence[int]:
        return self.order
