"""The game lists its legal actions, and that list agrees with the referee's decisions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.chaud_devant.cards import ALL_CODES, MENUS
from companion.chaud_devant.simulate import simulate
from companion.chaud_devant.state import State
from companion.referee import Referee
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import hand, menus, new_game, referee_after


def current(referee: Referee) -> State:
    assert isinstance(referee.state, State)
    return referee.state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5), sequential=st.booleans())
def test_every_listed_action_is_accepted_and_every_other_menu_or_card_refused(
    seed: int, players: int, sequential: bool
) -> None:
    sim = simulate(random.Random(seed), players=players, known_hands=range(players),
                   menu_reveal="sequential" if sequential else "simultaneous")
    referee = Referee(GAMES)
    for event in sim.events:
        state = referee.state
        if isinstance(state, State) and not state.is_terminal():
            legal = state.legal_actions()
            keys = {(e["type"], e.get("player"), e.get("menu"), e.get("card")) for e in legal}
            candidates = [{"type": "menu", "player": p, "menu": m} for p in state.players for m in MENUS]
            candidates += [{"type": "card", "card": code} for code in ALL_CODES]
            for candidate in candidates:
                key = (candidate["type"], candidate.get("player"), candidate.get("menu"), candidate.get("card"))
                assert (state.decide(candidate) is None) == (key in keys), candidate
        referee.apply(event)
    assert current(referee).is_terminal()
    assert current(referee).legal_actions() == []


def test_a_known_hand_that_holds_the_led_suit_may_only_follow() -> None:
    players = ("A", "B", "C")
    deal_a = [c for c in ALL_CODES if c.startswith("pea-")][:13]
    deal_b = [c for c in ALL_CODES if c.startswith("onion-")][:6] + [c for c in ALL_CODES if c.startswith("pea-")][13:]
    deal_b += [c for c in ALL_CODES if c.startswith("pepper-")][: 13 - len(deal_b)]
    referee = referee_after(new_game(players, dealer="C"), hand("A", deal_a), hand("B", deal_b),
                            *menus(players, ("pea", "onion", "none")),
                            {"type": "card", "card": "pea-1a"})
    legal = {e["card"] for e in current(referee).legal_actions()}
    assert legal == {c for c in deal_b if c.startswith("pea-")}


def test_a_hidden_hand_may_play_any_unplayed_card_as_the_referee_accepts() -> None:
    """Found by the conformance suite: with hidden hands the list followed suit over every unplayed
    card, while the referee accepts any of them (a revoke is flagged later, when the proof comes)."""
    players = ("A", "B", "C")
    referee = referee_after(new_game(players, dealer="C"), *menus(players, ("pea", "onion", "none")),
                            {"type": "card", "card": "pea-1a"})
    legal = {e["card"] for e in current(referee).legal_actions()}
    assert "onion-2a" in legal and current(referee).decide({"type": "card", "card": "onion-2a"}) is None
    assert legal == {code for code in ALL_CODES if code != "pea-1a"}


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_an_owners_seat_view_names_the_cards_the_rules_allow_now(seed: int) -> None:
    """The practice phone's "skip to my moves" focuses a card the rules allow: its view says which they are."""
    sim = simulate(random.Random(seed), players=4, known_hands=range(4))
    referee = Referee(GAMES)
    seen_a_choice = False
    for event in sim.events:
        state = referee.state
        if isinstance(state, State) and not state.is_terminal():
            for player in state.players:
                view = state.seat_view(player, owner=True)
                assert view is not None
                if view["my_turn"]:
                    allowed = [code for code in view["hand"] if state.decide({"type": "card", "card": code}) is None]
                    assert view["playable"] == sorted(allowed)
                    seen_a_choice |= len(allowed) < len([c for c in view["hand"] if c in ALL_CODES])
                else:
                    assert view["playable"] == []
                assert state.seat_view(player, owner=False)["playable"] == []  # type: ignore[index]
        referee.apply(event)
    assert seen_a_choice  # some turn had a card the rules refused, so the list is a real choice
