"""What the robot driver must know of each game: a seat's hand, what it must decide now, what it may see.

One small adapter per hosted game, reading its State; the driver (`robot_table.py`) knows only these.
The information set is built here: a robot's request holds the public log, its own hand and its own
choices, never another seat's known hand or a menu still hidden.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.robot_seats import RobotLedger, is_buffet
from companion.seam import Part, State

BUFFET_HAND = 9


@dataclass(frozen=True, slots=True)
class Due:
    """A decision a robot seat owes now: `kind` "menu", "card" (chosen for the card due next) or
    "step" (face down for the step under way); `log_len` is how much of the log it may see."""

    player: str
    kind: str
    log_len: int


def visible_log(log: list[dict[str, Any]], seat: str, state: State) -> list[dict[str, Any]]:
    """The log as `seat` may see it: other seats' hands dropped, this round's menus kept only once
    revealed, the table's own `robot` notes and robot setup dropped (the contract's events only)."""
    public = state.public_state()
    revealed: dict[str, str] = {}
    if public.get("rounds"):
        revealed = dict(public["rounds"][-1].get("menus", {}) or {})
    last_card = max((i for i, event in enumerate(log) if event.get("type") == "card"), default=-1)
    in_menus = public.get("phase") == "menu"
    superseded = superseded_menus(log)
    seen: list[dict[str, Any]] = []
    for index, event in enumerate(log):
        kind = event.get("type")
        if kind == "robot":
            continue
        if kind == "new_game":  # the contract's setup: who else is a robot is no concern of its play
            event = {name: value for name, value in event.items() if name != "robots"}
        if kind == "hand" and event.get("player") != seat:
            continue
        if kind == "menu" and event.get("player") != seat and (index in superseded or (
                in_menus and index > last_card and revealed.get(str(event.get("player"))) != event.get("menu"))):
            continue
        seen.append(event)
    return seen


def superseded_menus(log: list[dict[str, Any]]) -> set[int]:
    """The positions of menus a player changed before the reveal (a later menu of theirs with no card
    in between): chosen face down and never shown, so no other seat ever saw them."""
    latest: dict[Any, int] = {}
    superseded: set[int] = set()
    for index, event in enumerate(log):
        if event.get("type") == "card":
            latest.clear()
        elif event.get("type") == "menu":
            player = event.get("player")
            if player in latest:
                superseded.add(latest[player])
            latest[player] = index
    return superseded


def decision_seed(game: int, ask_log: list[dict[str, Any]]) -> int:
    """A robot's seed for a decision: the table's game and how long the seat's visible log is, so that
    nothing hidden from the seat (other hands, menus still face down) changes it."""
    return game * 7919 + len(ask_log)


def hand_of(state: State, ledger: RobotLedger, player: str) -> tuple[str, ...] | None:
    """The cards `player` holds now: Chaud Devant's known hand less the cards played; a buffet robot's
    hand from its `robot` hands. None when no hand was dealt to it."""
    if is_buffet(state):
        return known_hand(state, ledger, player)
    current = getattr(getattr(state, "progress", None), "open_round", None)
    if current is None:
        return None
    seat = state.players.index(player)
    hand = current.hands.get(seat)
    if hand is None:
        return None
    return tuple(sorted(code for code in hand if code not in current.played))


def due(state: State, ledger: RobotLedger, player: str, actions: int) -> Due | None:
    """What `player` (a robot seat) must decide now, if anything."""
    public = state.public_state()
    phase = public.get("phase")
    if is_buffet(state):
        in_round = list(public.get("in_round", []))
        if phase != "step" or player not in in_round or ledger.pending(player, actions) is not None:
            return None
        turn = public.get("turn")
        shown = in_round.index(turn) if turn in in_round else 0
        if in_round.index(player) < shown:
            return None  # its card of this step is already turned over
        return Due(player, "step", actions - shown)  # the log as it stood when the step began
    if phase == "menu":
        current = getattr(getattr(state, "progress", None), "open_round", None)
        if current is not None and state.players.index(player) in current.choices:
            return None  # chosen once (a simultaneous reveal would let it choose again)
        legal = state.legal_actions()
        if any(event.get("player") == player for event in legal):
            return Due(player, "menu", actions)
        return None
    if phase == "play" and public.get("turn") == player and ledger.pending(player, actions) is None:
        return Due(player, "card", actions)
    return None


def missing_hands(state: State, ledger: RobotLedger, virtual: bool) -> list[str]:
    """Seats a practice table deals virtually now: the robots (and in the fully virtual variant
    everyone) once the humans' real hands are known (Chaud Devant), or robots short of cards (buffet)."""
    robots = list(ledger.setup.seats)
    if is_buffet(state):
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
    if state.public_state().get("phase") != "menu":
        return []
    current = getattr(state.progress, "open_round", None)  # type: ignore[attr-defined]
    known = set(current.hands) if current is not None else set()
    if current is not None and current.plays:
        return []
    seats = range(len(state.players))
    humans = [seat for seat in seats if state.players[seat] not in robots]
    if not virtual and not all(seat in known for seat in humans):
        return []
    return [state.players[seat] for seat in seats if seat not in known
            and (virtual or state.players[seat] in robots)]


def deal_virtually(state: State, ledger: RobotLedger, players: list[str], seed: int) -> list[dict[str, Any]]:
    """The events that deal `players` their hands from the cards left: Chaud Devant `hand` events
    from the deck less the known hands; buffet `robot` hands drawn from the 110 mouse cards (nine
    each, topped up to nine between rounds)."""
    rng = random.Random(seed)
    if is_buffet(state):
        from companion.buffet.plates import MOUSE_CARDS

        excess = buffet_excess(state, ledger)
        kept = {holder: _without(known_hand(state, ledger, holder) or (), excess.get(holder, ()))
                for holder in state.players}
        pile = [code for code in MOUSE_CARDS for _ in range(10)]
        for holder in state.players:  # the cards in every hand the table keeps are not in the draw pile
            for card in kept[holder]:
                if card in pile:
                    pile.remove(card)
        events = []
        for player in players:
            hand = list(kept[player])
            rng.shuffle(pile)
            while len(hand) < BUFFET_HAND and pile:
                hand.append(pile.pop())
            events.append({"type": "robot", "player": player, "hand": sorted(hand)})
        return events
    from companion.chaud_devant.cards import ALL_CODES

    chaud: Any = state  # a Chaud Devant State: its Game deals, its open round knows the hands
    game = chaud.game
    current = chaud.progress.open_round
    taken = set().union(*current.hands.values()) if current is not None and current.hands else set()
    left = [code for code in ALL_CODES if code not in taken and not code.startswith("menu-")]
    rng.shuffle(left)
    round_number = chaud.round_number
    sizes = game.deal_sizes(game.dealer_of(round_number))
    events = []
    for player in players:
        size = sizes[state.players.index(player)]
        hand, left = left[:size], left[size:]
        events.append({"type": "hand", "player": player, "cards": sorted(hand)})
    return events


def _without(hand: tuple[str, ...] | list[str], given: tuple[str, ...] | list[str]) -> list[str]:
    left = list(hand)
    for card in given:
        if card in left:
            left.remove(card)
    return left


def buffet_excess(state: State, ledger: RobotLedger) -> dict[str, list[str]]:
    """At a Sus au buffet ! practice with cards, between rounds: the cards of robots' virtual hands that the
    people's real hands (dealt by tag) leave no copy for, robot by robot in seating order. Those robots
    draw again from the cards left, so no value is held more than ten times."""
    if ledger.setup.practice != "cards" or not is_buffet(state) or state.public_state().get("phase") != "buffet":
        return {}
    from companion.buffet.plates import COPIES, MOUSE_CARDS

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
    """Whose Sus au buffet ! mouse cards are dealt by tag: the people at a practice table with cards (the
    robots then draw virtually from the cards left), the robots' trays at a real table; none elsewhere."""
    if not is_buffet(state) or not ledger.setup.any or ledger.setup.practice == "virtual":
        return []
    if ledger.setup.practice == "cards":
        return [player for player in state.players if not ledger.is_robot(player)]
    return [player for player in state.players if ledger.is_robot(player)]


def exchanged_since(state: State, ledger: RobotLedger, player: str) -> bool:
    """True for a person at a Sus au buffet ! practice with cards who was a round's first mouse out, free to
    exchange cards with the real deck, after their hand was dealt by tag: the table no longer knows it (it
    is passed over the reader again between rounds)."""
    if ledger.is_robot(player) or ledger.setup.practice != "cards" or not is_buffet(state):
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
    """A seat's buffet hand as the table knows it: the ledger's, unless a person exchanged since."""
    return None if exchanged_since(state, ledger, player) else ledger.hand(player)


def tag_deal_bases(state: State, ledger: RobotLedger) -> dict[str, tuple[tuple[str, ...], int]]:
    """For a Sus au buffet ! deal by tag now: each seat dealt by tag → (the cards it keeps, how many it is
    dealt). Between rounds every hand is drawn back up to nine; during a step only a mouse of the round
    with no card (none left, or never dealt) is dealt nine. Empty when nothing can be dealt by tag now."""
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


def swap_due(state: State, ledger: RobotLedger, player: str, actions: int) -> bool:
    """True when a buffet robot left first this round, may exchange cards, and has not yet done so."""
    if not is_buffet(state):
        return False
    buffet: Any = state
    record = buffet.current_round
    if record is None or not record.departures or record.number != buffet.round_number:
        return False
    first = record.departures[0]
    if not (first.may_swap and state.players[first.seat] == player):
        return False
    in_round = len(record.laid) + sum(len(step.reveals) for step in record.steps)
    return not ledger.swapped_since(player, actions - in_round)


def swap_hand(hand: tuple[str, ...], given: list[str], seed: int) -> list[str] | None:
    """A practice robot's hand after giving up `given` and drawing as many from the cards left; None if
    `given` is not in its hand."""
    left = list(hand)
    for card in given:
        if card not in left:
            return None
        left.remove(card)
    from companion.buffet.plates import MOUSE_CARDS

    pile = [code for code in MOUSE_CARDS for _ in range(10)]
    for card in hand:
        pile.remove(card)
    rng = random.Random(seed)
    rng.shuffle(pile)
    return sorted(left + pile[: len(given)])


def public_why(state: State, player: str, card: str) -> Part | None:
    """The reason said to the whole table for a robot's named card, from public facts only (the robot's
    own reason may compare its other cards); a buffet card is face down when chosen: its reason is said
    when it is turned over (`reveal_why`)."""
    if is_buffet(state):
        return None
    from companion.chaud_devant.robot_public import public_why as chaud_why

    return chaud_why(state, player, card)


def reveal_why(state: State, player: str, card: str) -> Part | None:
    """The reason said for a buffet robot's card as it is turned over, from public facts only."""
    if not is_buffet(state):
        return None
    from companion.buffet.robot_public import public_why as buffet_why

    return buffet_why(state, player, card)


def plate_to_lay(state: State, ledger: RobotLedger, seed: int) -> dict[str, Any] | None:
    """At a Sus au buffet ! practice without cards, the next plate the table draws for the buffet (the
    plates are virtual too), once every hand is dealt; None when no plate is due."""
    if ledger.setup.practice != "virtual" or not is_buffet(state) or state.public_state().get("phase") != "buffet":
        return None
    if missing_hands(state, ledger, True):
        return None
    legal = state.legal_actions()
    return dict(random.Random(seed).choice(legal)) if legal else None


def everyone_chose(state: State, ledger: RobotLedger, actions: int) -> bool:
    """True when every mouse still to turn its card over in this step has chosen it face down (a Sus au
    buffet ! practice without cards turns the cards over only then: the choices are simultaneous)."""
    public = state.public_state()
    in_round = list(public.get("in_round", []))
    turn = public.get("turn")
    if turn not in in_round:
        return False
    return all(ledger.pending(player, actions) is not None for player in in_round[in_round.index(turn):])


def person_exchanging(state: State, ledger: RobotLedger, actions: int) -> bool:
    """True while a person at a Sus au buffet ! practice without cards may still make their exchange (the
    table turns no card over meanwhile: the round would end and take the chance away)."""
    return ledger.setup.practice == "virtual" and any(
        not ledger.is_robot(player) and swap_due(state, ledger, player, actions) for player in state.players)
