"""Hidden hands: a void shown, then a card of that suit played later in the round, is a revoke."""

from __future__ import annotations

from companion.chaud_devant.cards import ALL_CODES
from tests.companion.chaud_devant.rulebook import card, hand, new_game, started, state_after


def test_a_revoke_is_cited_with_both_tricks() -> None:
    # Trick 1: Bruno shows void in Pois (plays Oignon). Trick 2: Bruno plays a Pois.
    plays = ["pea-5a", "onion-4a", "pea-1a",  # 10: Valentine wins trick 1 and leads
             "mushroom-1a", "mushroom-2a", "mushroom-3a", "pea-2a"]
    state = state_after(*started(), *map(card, plays))
    assert state["revokes"] == [
        {"round": 1, "player": "Bruno", "suit": "pea", "void_trick": 1, "proof_trick": 2}
    ]


def test_no_void_is_shown_on_a_spoiled_soup() -> None:
    plays = ["pea-5a", "pepper-1a", "onion-3a", "mushroom-1a", "pea-2a"]
    assert state_after(*started(), *map(card, plays))["revokes"] == []


def test_no_void_is_shown_when_a_pepper_leads() -> None:
    plays = ["pepper-5a", "onion-4a", "pea-1a", "mushroom-1a", "pea-2a"]
    assert state_after(*started(), *map(card, plays))["revokes"] == []


def test_a_pepper_off_the_led_suit_shows_void() -> None:
    plays = ["pea-5a", "pepper-4a", "pea-1a",  # Valentine wins with 10
             "mushroom-1a", "mushroom-2a", "mushroom-3a", "pea-2a"]
    revokes = state_after(*started(), *map(card, plays))["revokes"]
    assert revokes == [{"round": 1, "player": "Bruno", "suit": "pea", "void_trick": 1, "proof_trick": 2}]


def test_one_entry_per_void_shown() -> None:
    plays = ["pea-5a", "onion-4a", "pea-1a",
             "mushroom-1a", "mushroom-2a", "mushroom-3a", "pea-2a",  # proof: revoke 1
             "mushroom-4a", "pea-3a"]  # Bruno's void was used up: no second entry
    revokes = state_after(*started(), *map(card, plays))["revokes"]
    assert len(revokes) == 1


def test_known_hands_are_checked_at_once_so_they_never_show_revokes() -> None:
    bruno = ["onion-4a", *ALL_CODES[28:40]]  # an Oignon and twelve Champignons
    events = [new_game(), hand("Bruno", bruno), *started()[1:]]
    state = state_after(*events, card("pea-5a"), card("onion-4a"), card("pea-1a"))
    assert state["revokes"] == [] and state["refused"] == []
