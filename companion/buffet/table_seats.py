"""Sus au buffet !'s robot seats at a table (see companion.seam.TableSeats): hands kept in `robot` notes,
nine mouse cards each, drawn from the 110 (ten copies of each value), a face-down card each step."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from companion.buffet.plates import COPIES, MOUSE_CARDS
from companion.buffet.practice_words import practice_words
from companion.robot_seats import RobotLedger
from companion.seam import Due, Event, Part, PracticeTalk, State

BUFFET_HAND = 9


class BuffetSeats:
    """What the robot driver asks of a Sus au buffet ! table."""

    practice_talk = PracticeTalk(own_choice=("swap",))
    """A robot's call to exchange ("Bip échange 2 cartes." follows at once)."""

    def practice_words(self, parts: tuple[Part, ...], robots: Iterable[str],
                       held: tuple[Part, ...]) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
        """At a practice without cards each step's opening calls the people to choose first (`practice_words`)."""
        return practice_words(parts, robots, held)

    def hand_of(self, state: State, ledger: RobotLedger, player: str) -> tuple[str, ...] | None:
        """A seat's hand from its `robot` hands."""
        return known_hand(state, ledger, player)

    def due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> Due | None:
        """A face-down card for the step under way, until its card is turned over."""
        public = state.public_state()
        in_round = list(public.get("in_round", []))
        if public.get("phase") != "step" or player not in in_round or ledger.pending(player, actions) is not None:
            return None
        turn = public.get("turn")
        shown = in_round.index(turn) if turn in in_round else 0
        if in_round.index(player) < shown:
            return None  # its card of this step is already turned over
        return Due(player, "step", actions - shown)  # the log as it stood when the step began

    def missing_hands(self, state: State, ledger: RobotLedger, virtual: bool) -> list[str]:
        """Robots (and in the fully virtual variant everyone) short of cards."""
        robots = list(ledger.setup.seats)
        public = state.public_state()
        humans_virtual = [p for p in state.players if p not in robots] if virtual else []
        short = []
        excess = buffet_excess(state, ledger)
        for player in robots + humans_virtual:
            hand = ledger.hand(player)
            if hand is None or player in excess or (public.get("phase") == "buffet" and len(hand) < BUFFET_HAND) or (
                    public.get("phase") == "step" and not hand and player in public.get("in_round", [])):
                short.append(player)
        return short

    def deal_virtually(self, state: State, ledger: RobotLedger, players: list[str], seed: int) -> list[Event]:
        """`robot` hands drawn from the 110 mouse cards (nine each, topped up to nine between rounds)."""
        rng = random.Random(seed)
        excess = buffet_excess(state, ledger)
        kept = {holder: _without(known_hand(state, ledger, holder) or (), excess.get(holder, ()))
                for holder in state.players}
        pile = [code for code in MOUSE_CARDS for _ in range(10)]
        for holder in state.players:  # the cards in every hand the table keeps are not in the draw pile
            for card in kept[holder]:
                if card in pile:
                    pile.remove(card)
        events: list[Event] = []
        for player in players:
            hand = list(kept[player])
            rng.shuffle(pile)
            while len(hand) < BUFFET_HAND and pile:
                hand.append(pile.pop())
            events.append({"type": "robot", "player": player, "hand": sorted(hand)})
        return events

    def table_lays(self, state: State, ledger: RobotLedger, seed: int) -> Event | None:
        """At a practice without cards, the next plate the table draws for the buffet (the plates are virtual
        too), once every hand is dealt; None when no plate is due."""
        if ledger.setup.practice != "virtual" or state.public_state().get("phase") != "buffet":
            return None
        if self.missing_hands(state, ledger, True):
            return None
        legal = state.legal_actions()
        return dict(random.Random(seed).choice(legal)) if legal else None

    def tag_deal_bases(self, state: State, ledger: RobotLedger) -> dict[str, tuple[tuple[str, ...], int]]:
        """Between rounds every hand is drawn back up to nine; during a step only a mouse of the round with no
        card (none left, or never dealt) is dealt nine. Empty when nothing can be dealt by tag now."""
        public = state.public_state()
        phase = public.get("phase")
        bases: dict[str, tuple[tuple[str, ...], int]] = {}
        for player in tag_dealt_seats(state, ledger):
            held = known_hand(state, ledger, player)  # after a person's exchange: their whole hand is passed again
            if phase == "buffet":
                keep = held or ()
                bases[player] = (keep, BUFFET_HAND - len(keep))
            elif phase == "step" and not held and player in public.get("in_round", []):  # none left, or never dealt
                bases[player] = ((), BUFFET_HAND)
            else:
                bases[player] = (held or (), 0)
        return bases

    def swap_due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> bool:
        """True when `player` left first this round, may exchange cards, and has not yet done so."""
        buffet: Any = state
        record = buffet.current_round
        if record is None or not record.departures or record.number != buffet.round_number:
            return False
        first = record.departures[0]
        if not (first.may_swap and state.players[first.seat] == player):
            return False
        in_round = len(record.laid) + sum(len(step.reveals) for step in record.steps)
        return not ledger.swapped_since(player, actions - in_round)

    def swap_hand(self, hand: tuple[str, ...], given: list[str], seed: int) -> list[str] | None:
        """The hand after giving up `given` and drawing as many from the cards left."""
        left = list(hand)
        for card in given:
            if card not in left:
                return None
            left.remove(card)
        pile = [code for code in MOUSE_CARDS for _ in range(10)]
        for card in hand:
            pile.remove(card)
        rng = random.Random(seed)
        rng.shuffle(pile)
        return sorted(left + pile[: len(given)])

    def person_exchanging(self, state: State, ledger: RobotLedger, actions: int) -> bool:
        """True while a person at a practice without cards may still make their exchange (the table turns no
        card over meanwhile: the round would end and take the chance away)."""
        return self.exchanging_person(state, ledger, actions) is not None

    def exchanging_person(self, state: State, ledger: RobotLedger, actions: int) -> str | None:
        """The person at a practice without cards who may still make their exchange, if any."""
        if ledger.setup.practice != "virtual":
            return None
        return next((player for player in state.players
                     if not ledger.is_robot(player) and self.swap_due(state, ledger, player, actions)), None)

    def draws_up(self, state: State, ledger: RobotLedger) -> dict[str, int]:
        """Between rounds, each robot short of nine cards (the host types only those on the robots page)."""
        if state.public_state().get("phase") != "buffet":
            return {}
        short: dict[str, int] = {}
        for player in ledger.setup.seats:
            held = ledger.hand(player)
            if held is not None and len(held) < BUFFET_HAND:
                short[player] = BUFFET_HAND - len(held)
        return short

    def public_why(self, state: State, player: str, card: str) -> Part | None:
        """None: a card chosen face down is explained as it is turned over (`reveal_why`)."""
        return None

    def reveal_why(self, state: State, player: str, card: str) -> Part | None:
        from companion.buffet.robot_public import public_why

        return public_why(state, player, card)


def _without(hand: tuple[str, ...] | list[str], given: tuple[str, ...] | list[str]) -> list[str]:
    left = list(hand)
    for card in given:
        if card in left:
            left.remove(card)
    return left


def buffet_excess(state: State, ledger: RobotLedger) -> dict[str, list[str]]:
    """At a practice with cards, between rounds: the cards of robots' virtual hands that the people's real
    hands (dealt by tag) leave no copy for, robot by robot in seating order. Those robots draw again from
    the cards left, so no value is held more than ten times."""
    if ledger.setup.practice != "cards" or state.public_state().get("phase") != "buffet":
        return {}
    left = dict.fromkeys(MOUSE_CARDS, COPIES)
    for person in state.players:
        if not ledger.is_robot(person):
            for card in known_hand(state, ledger, person) or ():
                left[card] = left.get(card, 0) - 1
    excess: dict[str, list[str]] = {}
    for robot in state.players:
        if not ledger.is_robot(robot):
            continue
        for card in ledger.hand(robot) or ():
            if left.get(card, 0) > 0:
                left[card] -= 1
            else:
                excess.setdefault(robot, []).append(card)
    return excess


def tag_dealt_seats(state: State, ledger: RobotLedger) -> list[str]:
    """Whose mouse cards are dealt by tag: the people at a practice table with cards (the robots then draw
    virtually from the cards left), the robots' trays at a real table; none elsewhere."""
    if not ledger.setup.any or ledger.setup.practice == "virtual":
        return []
    if ledger.setup.practice == "cards":
        return [player for player in state.players if not ledger.is_robot(player)]
    return [player for player in state.players if ledger.is_robot(player)]


def exchanged_since(state: State, ledger: RobotLedger, player: str) -> bool:
    """True for a person at a practice with cards who was a round's first mouse out, free to exchange cards
    with the real deck, after their hand was dealt by tag: the table no longer knows it (it is passed over
    the reader again between rounds)."""
    if ledger.is_robot(player) or ledger.setup.practice != "cards":
        return False
    given = [position for position, who, _ in ledger.hands if who == player]
    if not given:
        return False
    buffet: Any = state
    end = 0
    for record in buffet.rounds:  # a round's actions: its plates and its cards turned over
        end += len(record.laid) + sum(len(step.reveals) for step in record.steps)
        first = record.departures[0] if record.departures else None
        if first is not None and first.may_swap and state.players[first.seat] == player and given[-1] < end:
            return True
    return False


def known_hand(state: State, ledger: RobotLedger, player: str) -> tuple[str, ...] | None:
    """A seat's hand as the table knows it: the ledger's, unless a person exchanged since."""
    return None if exchanged_since(state, ledger, player) else ledger.hand(player)


SEATS = BuffetSeats()
