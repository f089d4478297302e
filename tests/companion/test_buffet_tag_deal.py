"""Sus au buffet ! dealt by tag, on its own: whose hands and how many cards, the known hands it journals,
and (a property) that the robots' virtual hands never hold a value more often than the box does."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.buffet import KIND as BUFFET
from companion.buffet.plates import COPIES, MOUSE_CARDS
from companion.buffet.table_seats import SEATS
from companion.referee import Referee
from companion.tag_deal import TagDeal
from marmite.games import GAMES

PLAYERS = ["Ana", "Bip", "Cléo"]
VALUES = sorted(MOUSE_CARDS)


def fold(practice: str, *events: dict[str, Any]) -> Referee:
    referee = Referee(GAMES)
    start = {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Cléo",
             "robots": {"seats": {"Bip": "chef"}, "practice": practice}}
    for event in (start, *events):
        assert referee.apply(event).accepted, event
    return referee


def test_the_plan_deals_nine_each_clockwise_from_the_first_player_and_journals_known_hands() -> None:
    referee = fold("cards", {"type": "robot", "player": "Ana", "hand": ["mouse-1"] * 4})
    assert referee.state is not None
    plan = BUFFET.deal_plan(referee.state)
    assert plan is not None and plan.known_as == "robot" and plan.first == PLAYERS.index("Cléo")
    bases = SEATS.tag_deal_bases(referee.state, referee.robots)
    assert bases == {"Ana": (("mouse-1",) * 4, 5), "Cléo": ((), 9)}  # the people; the robot: virtual
    deal = TagDeal(plan.__class__(plan.players, (5, 0, 9), plan.first, plan.cards, known_as="robot",
                                  kept=(("mouse-1",) * 4, (), ())))
    assert deal.next_player() == "Cléo"
    assert deal.read("plate-cheese-3").key == "deal_not_a_mouse"  # a plate is not dealt
    assert deal.read("mouse-2").key == "deal_not_a_mouse"  # a value, not a physical card
    for copy in range(1, 11):
        deal.read(f"mouse-2@{copy}")
    assert deal.read("mouse-2@1").key == "deal_already"
    for copy in range(1, 5):
        deal.read(f"mouse-3@{copy}")
    assert deal.complete
    events = deal.events()
    assert {"type": "robot", "player": "Ana", "hand": ["mouse-1"] * 4 + ["mouse-2"] * 5} in events
    cleo = next(event for event in events if event["player"] == "Cléo")
    assert Counter(cleo["hand"]) == {"mouse-2": 5, "mouse-3": 4}
    assert all(event["player"] != "Bip" for event in events)


def test_whose_hands_are_dealt_by_tag_depends_on_the_table() -> None:
    real = fold("")
    assert real.state is not None
    assert SEATS.tag_deal_bases(real.state, real.robots) == {"Bip": ((), 9)}  # a real table: the robot's tray
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-sausage-0", "plate-salad-5"):
        assert real.apply({"type": "plate", "plate": plate}).accepted
    assert SEATS.tag_deal_bases(real.state, real.robots) == {"Bip": ((), 9)}  # forgotten before the step: still dealt
    assert real.apply({"type": "robot", "player": "Bip", "hand": ["mouse-1"] * 9}).accepted
    assert SEATS.tag_deal_bases(real.state, real.robots) == {"Bip": (("mouse-1",) * 9, 0)}  # a full hand mid-step
    virtual = fold("virtual")
    assert virtual.state is not None and SEATS.tag_deal_bases(virtual.state, virtual.robots) == {}
    plain = Referee(GAMES)
    assert plain.apply({"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana"}).accepted
    assert plain.state is not None and SEATS.tag_deal_bases(plain.state, plain.robots) == {}  # nothing needs hands


def test_a_persons_known_hand_at_a_practice_with_cards_shrinks_as_their_cards_are_read() -> None:
    referee = fold("cards", {"type": "robot", "player": "Cléo", "hand": ["mouse-5"] * 9},
                   {"type": "robot", "player": "Ana", "hand": ["mouse-4"] * 9},
                   {"type": "robot", "player": "Bip", "hand": ["mouse-3"] * 9})
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-sausage-0", "plate-salad-5"):
        assert referee.apply({"type": "plate", "plate": plate}).accepted
    assert referee.apply({"type": "card", "card": "mouse-5"}).accepted  # Cléo, the first player: not gated
    assert referee.robots.hand("Cléo") == ("mouse-5",) * 8
    real = fold("")
    refused = real.apply({"type": "robot", "player": "Ana", "hand": ["mouse-4"]})
    assert (refused.accepted, refused.reason) == (False, "not_a_robot")  # a real table keeps no person's hand


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), few=st.integers(2, 11),
       people=st.lists(st.integers(0, 10), min_size=18, max_size=18))
def test_robots_drawn_after_the_peoples_real_hands_never_exceed_the_box(seed: int, few: int,
                                                                        people: list[Any]) -> None:
    people = [VALUES[index % few] for index in people]  # few values: the robot often holds a copy too many
    counts = Counter(people)
    assume(max(counts.values()) <= COPIES)  # real cards: at most ten copies of a value exist
    rng = random.Random(seed)
    robot = [rng.choice(VALUES[:few]) for _ in range(9)]  # dealt before the people's cards were known
    referee = fold("cards", {"type": "robot", "player": "Bip", "hand": robot},
                   {"type": "robot", "player": "Ana", "hand": people[:9]},
                   {"type": "robot", "player": "Cléo", "hand": people[9:]})
    state = referee.state
    assert state is not None
    short = SEATS.missing_hands(state, referee.robots, False)
    over = any(counts[card] + Counter(robot)[card] > COPIES for card in robot)
    assert short == (["Bip"] if over else [])
    for event in SEATS.deal_virtually(state, referee.robots, short, seed):
        assert referee.apply(event).accepted
    held = Counter(card for name in PLAYERS for card in referee.robots.hand(name) or ())
    assert max(held.values()) <= COPIES and len(referee.robots.hand("Bip") or ()) == 9
    kept = Counter(referee.robots.hand("Bip") or ()) & Counter(robot)
    room = {card: max(0, COPIES - counts[card]) for card in VALUES}
    assert all(kept[card] >= min(Counter(robot)[card], room[card]) for card in VALUES)  # keeps what it may
    assert SEATS.missing_hands(state, referee.robots, False) == []


def test_after_a_persons_exchange_with_the_real_deck_their_hand_is_unknown_until_passed_again() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        hands = {name: [rng.choice(VALUES) for _ in range(9)] for name in PLAYERS}
        referee = fold("cards", *({"type": "robot", "player": name, "hand": hands[name]} for name in PLAYERS))
        for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-sausage-0", "plate-salad-5"):
            assert referee.apply({"type": "plate", "plate": plate}).accepted
        state: Any = referee.state
        while not state.rounds[-1].departures:
            turn = referee.public_state["turn"]
            card = rng.choice(referee.robots.hand(turn) or VALUES)
            if turn == "Bip":
                assert referee.apply({"type": "robot", "player": "Bip", "card": card}).accepted
            assert referee.apply({"type": "card", "card": card}).accepted
        first = state.rounds[-1].departures[0]
        if not first.may_swap or PLAYERS[first.seat] == "Bip":
            continue
        person = PLAYERS[first.seat]
        assert referee.robots.hand(person) is not None  # the ledger still has the hand it was given
        assert SEATS.tag_deal_bases(state, referee.robots)[person] == ((), 0)  # not known now: nothing dealt
        assert SEATS.hand_of(state, referee.robots, person) is None  # the chef's advice will not use a stale hand
        other = next(name for name in PLAYERS if name not in (person, "Bip"))
        assert SEATS.hand_of(state, referee.robots, other) is not None
        while referee.public_state["phase"] == "step":  # the round played out
            turn = referee.public_state["turn"]
            card = rng.choice(referee.robots.hand(turn) or VALUES)
            if turn == "Bip":
                assert referee.apply({"type": "robot", "player": "Bip", "card": card}).accepted
            assert referee.apply({"type": "card", "card": card}).accepted
        bases = SEATS.tag_deal_bases(state, referee.robots)
        assert bases[person] == ((), 9)  # between rounds: their whole hand passes the reader again
        kept = referee.robots.hand(other) or ()
        assert bases[other] == (kept, 9 - len(kept))  # the other person draws back up to nine
        return
    raise AssertionError("no seed made a person the first mouse out")
