"""Chaud Devant !'s robot seats at a table (see companion.seam.TableSeats): hands are the contract's `hand`
events, a menu each round, then a card on its turn; it has no exchange, no plate and no face-down step."""

from __future__ import annotations

import random
from typing import Any

from companion.chaud_devant.cards import ALL_CODES
from companion.robot_seats import PlainSeats, RobotLedger
from companion.seam import Due, Event, Part, PracticeTalk, State


class ChaudSeats(PlainSeats):
    """What the robot driver asks of a Chaud Devant ! table."""

    practice_talk = PracticeTalk(own_choice=("menu_chosen",), dealt=("hand_recorded",), won=("trick_won",))
    """A robot's menu (it chooses at once: the reveal says it), the hands a table without cards deals, and
    "À Cléo." after "Cléo gagne le pli avec 13."."""

    def hand_of(self, state: State, ledger: RobotLedger, player: str) -> tuple[str, ...] | None:
        """The seat's known hand less the cards played; None when no hand was dealt to it."""
        current = getattr(getattr(state, "progress", None), "open_round", None)
        if current is None:
            return None
        hand = current.hands.get(state.players.index(player))
        if hand is None:
            return None
        return tuple(sorted(code for code in hand if code not in current.played))

    def due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> Due | None:
        """A menu once a round, then the card due on its turn."""
        public = state.public_state()
        phase = public.get("phase")
        if phase == "menu":
            current = getattr(getattr(state, "progress", None), "open_round", None)
            if current is not None and state.players.index(player) in current.choices:
                return None  # chosen once (a simultaneous reveal would let it choose again)
            if any(event.get("player") == player for event in state.legal_actions()):
                return Due(player, "menu", actions)
            return None
        if phase == "play" and public.get("turn") == player and ledger.pending(player, actions) is None:
            return Due(player, "card", actions)
        return None

    def missing_hands(self, state: State, ledger: RobotLedger, virtual: bool) -> list[str]:
        """The robots (in the fully virtual variant everyone) once the humans' real hands are known."""
        if state.public_state().get("phase") != "menu":
            return []
        robots = list(ledger.setup.seats)
        current = getattr(getattr(state, "progress", None), "open_round", None)
        known = set(current.hands) if current is not None else set()
        if current is not None and current.plays:
            return []
        seats = range(len(state.players))
        humans = [seat for seat in seats if state.players[seat] not in robots]
        if not virtual and not all(seat in known for seat in humans):
            return []
        return [state.players[seat] for seat in seats if seat not in known
                and (virtual or state.players[seat] in robots)]

    def deal_virtually(self, state: State, ledger: RobotLedger, players: list[str], seed: int) -> list[Event]:
        """`hand` events from the deck less the known hands."""
        rng = random.Random(seed)
        chaud: Any = state  # its Game deals, its open round knows the hands
        game = chaud.game
        current = chaud.progress.open_round
        taken = set().union(*current.hands.values()) if current is not None and current.hands else set()
        left = [code for code in ALL_CODES if code not in taken and not code.startswith("menu-")]
        rng.shuffle(left)
        sizes = game.deal_sizes(game.dealer_of(chaud.round_number))
        events: list[Event] = []
        for player in players:
            size = sizes[state.players.index(player)]
            hand, left = left[:size], left[size:]
            events.append({"type": "hand", "player": player, "cards": sorted(hand)})
        return events

    def public_why(self, state: State, player: str, card: str) -> Part | None:
        from companion.chaud_devant.robot_public import public_why

        return public_why(state, player, card)

    def reveal_why(self, state: State, player: str, card: str) -> Part | None:
        return None


SEATS = ChaudSeats()
