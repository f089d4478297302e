"""Every refusal reason of the contract, each on its own, and their order of precedence."""

from __future__ import annotations

from companion.chaud_devant.cards import ALL_CODES
from companion.chaud_devant.views import public_state
from companion.referee import Referee
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import (
    UNDO,
    card,
    hand,
    menu,
    new_game,
    play_out_round,
    referee_after,
    refusal,
    started,
    state_after,
)

THIRTEEN = list(ALL_CODES[:13])


def test_bad_setup_too_few_players() -> None:
    assert refusal(new_game(("A", "B"))) == "bad_setup"


def test_bad_setup_too_many_players() -> None:
    assert refusal(new_game(("A", "B", "C", "D", "E", "F"))) == "bad_setup"


def test_bad_setup_duplicate_names() -> None:
    assert refusal(new_game(("A", "B", "A"), dealer="A")) == "bad_setup"


def test_bad_setup_unknown_dealer() -> None:
    assert refusal(new_game(("A", "B", "C"), dealer="Z")) == "bad_setup"


def test_bad_setup_unknown_rule_or_value() -> None:
    assert refusal(new_game(edition="1999")) == "bad_setup"
    assert refusal(new_game(menu_reveal="shouted")) == "bad_setup"
    assert refusal({**new_game(), "rules": {"speed": "fast"}}) == "bad_setup"


def test_a_refused_new_game_keeps_the_running_game() -> None:
    before = state_after(*started(), card("pea-1a"))
    after = state_after(*started(), card("pea-1a"), new_game(("A",)))
    assert {k: v for k, v in after.items() if k != "refused"} == {k: v for k, v in before.items() if k != "refused"}


def test_no_game_before_a_valid_new_game() -> None:
    assert refusal(card("pea-1a")) == "no_game"
    assert refusal(menu("Bruno", "pea")) == "no_game"
    assert refusal(UNDO) == "no_game"


def test_unknown_player_in_menu_and_hand() -> None:
    assert refusal(new_game(), menu("Zoé", "pea")) == "unknown_player"
    assert refusal(new_game(), hand("Zoé", THIRTEEN)) == "unknown_player"


def test_unknown_card_and_unknown_menu() -> None:
    assert refusal(*started(), card("pea-11")) == "unknown_card"
    assert refusal(*started(), card("tag:04aabbccddeeff")) == "unknown_card"
    assert refusal(new_game(), menu("Bruno", "soup")) == "unknown_card"
    assert refusal(new_game(), hand("Bruno", ["pea-1a", "nope"])) == "unknown_card"


def test_wrong_phase_card_during_menus() -> None:
    assert refusal(new_game(), card("pea-1a")) == "wrong_phase"


def test_wrong_phase_menu_or_hand_during_play() -> None:
    assert refusal(*started(), menu("Bruno", "onion")) == "wrong_phase"
    assert refusal(*started(), hand("Bruno", THIRTEEN)) == "wrong_phase"


def test_already_played_this_round() -> None:
    assert refusal(*started(), card("pea-1a"), card("pea-1a")) == "already_played"


def test_menu_used_in_an_earlier_round() -> None:
    referee = referee_after(*started(players=("A", "B", "C"), choices=("pea", "onion", "none")))
    play_out_round(referee)
    game = referee.state
    assert game is not None
    assert game.progress.phase == "menu"
    assert str(referee.apply(menu("A", "pea")).reason) == "menu_used"
    assert referee.apply(menu("A", "onion")).accepted


def test_not_your_turn_in_sequential_reveal() -> None:
    assert refusal(new_game(menu_reveal="sequential"), menu("Bruno", "pea")) == "not_your_turn"


def test_sequential_revealing_again_is_not_your_turn_even_with_the_same_menu() -> None:
    events = [new_game(menu_reveal="sequential"), menu("Virginie", "pea")]
    assert refusal(*events, menu("Virginie", "pea")) == "not_your_turn"
    assert refusal(*events, menu("Virginie", "onion")) == "not_your_turn"


def test_menu_forbidden_dealer_copies_first_player() -> None:
    events = [new_game(menu_reveal="sequential"), menu("Virginie", "pea"), menu("Bruno", "onion"),
              menu("Valentine", "none")]
    assert refusal(*events, menu("Nicolas", "pea")) == "menu_forbidden"
    assert refusal(*events, menu("Nicolas", "pepper")) is None


def test_bad_hand_wrong_size() -> None:
    assert refusal(new_game(), hand("Bruno", THIRTEEN[:12])) == "bad_hand"


def test_bad_hand_duplicate_card() -> None:
    assert refusal(new_game(), hand("Bruno", [THIRTEEN[0], *THIRTEEN[:12]])) == "bad_hand"


def test_bad_hand_card_held_by_another_player() -> None:
    assert refusal(new_game(), hand("Bruno", THIRTEEN), hand("Virginie", list(ALL_CODES[12:25]))) == "bad_hand"


def test_out_of_turn_card_in_another_known_hand() -> None:
    events = [new_game(), hand("Bruno", THIRTEEN), *started()[1:]]
    assert refusal(*events, card(THIRTEEN[0])) == "out_of_turn"


def test_not_in_hand() -> None:
    events = [new_game(), hand("Virginie", THIRTEEN), *started()[1:]]
    assert refusal(*events, card("pepper-5a")) == "not_in_hand"


def test_must_follow_suit_with_a_known_hand() -> None:
    bruno = ["pea-2a", *ALL_CODES[16:28]]  # one Pois and twelve Oignon
    events = [new_game(), hand("Bruno", bruno), *started()[1:], card("pea-1a")]
    assert refusal(*events, card(bruno[5])) == "must_follow_suit"
    assert refusal(*events, card("pea-2a")) is None


def test_pepper_is_not_a_free_card_when_holding_the_led_suit() -> None:
    bruno = ["pea-2a", "pepper-1a", *ALL_CODES[16:27]]
    events = [new_game(), hand("Bruno", bruno), *started()[1:], card("pea-1a")]
    assert refusal(*events, card("pepper-1a")) == "must_follow_suit"


def test_no_need_to_follow_once_spoiled() -> None:
    bruno = ["pea-2a", *ALL_CODES[16:28]]
    events = [new_game(), hand("Bruno", bruno), *started()[1:], card("pepper-1a")]
    assert refusal(*events, card(bruno[3])) is None


def test_a_void_player_may_play_anything() -> None:
    bruno = list(ALL_CODES[14:27])  # Oignon only
    events = [new_game(), hand("Bruno", bruno), *started()[1:], card("pea-1a")]
    assert refusal(*events, card(bruno[4])) is None


def test_nothing_to_undo() -> None:
    assert refusal(new_game(), UNDO) == "nothing_to_undo"


def test_precedence_unknown_player_before_unknown_card() -> None:
    assert refusal(new_game(), menu("Zoé", "soup")) == "unknown_player"


def test_precedence_unknown_card_before_wrong_phase() -> None:
    assert refusal(new_game(), card("pea-99")) == "unknown_card"


def test_precedence_wrong_phase_before_menu_used() -> None:
    assert refusal(*started(), menu("Virginie", "pea")) == "wrong_phase"


def test_precedence_already_played_before_out_of_turn() -> None:
    events = [new_game(), hand("Virginie", THIRTEEN), *started()[1:], card(THIRTEEN[0])]
    assert refusal(*events, card(THIRTEEN[0])) == "already_played"


def test_precedence_menu_used_before_not_your_turn() -> None:
    referee = referee_after(new_game(("A", "B", "C"), menu_reveal="sequential"),
                            menu("A", "pea"), menu("B", "onion"), menu("C", "none"))
    play_out_round(referee)
    game = referee.state
    assert game is not None
    # Round 2: B leads the reveal; C tries a menu it already used.
    assert str(referee.apply(menu("C", "none")).reason) == "menu_used"
    assert str(referee.apply(menu("C", "pea")).reason) == "not_your_turn"


def test_precedence_out_of_turn_before_not_in_hand() -> None:
    events = [new_game(), hand("Virginie", THIRTEEN), hand("Bruno", list(ALL_CODES[13:26])), *started()[1:]]
    assert refusal(*events, card(ALL_CODES[13])) == "out_of_turn"


def test_a_refusal_changes_nothing() -> None:
    events = [new_game(), hand("Bruno", ["pea-2a", *ALL_CODES[16:28]]), *started()[1:], card("pea-1a")]
    referee = referee_after(*events)
    before = public_state(referee.state)
    for bad in (card(ALL_CODES[20]), card("pea-1a"), menu("Bruno", "pea"), card("zzz"), hand("Bruno", [])):
        assert not referee.apply(bad).accepted
    assert public_state(referee.state) == before


def test_refused_lines_are_listed_with_their_line_number() -> None:
    state = state_after(new_game(), card("pea-1a"), menu("Zoé", "pea"))
    assert state["refused"] == [{"line": 2, "reason": "wrong_phase"}, {"line": 3, "reason": "unknown_player"}]


def test_empty_referee_has_no_game() -> None:
    assert Referee(GAMES).game is None
    assert state_after()["rounds"] == []


def test_a_later_hand_for_the_same_player_replaces_the_earlier_one() -> None:
    first, second = THIRTEEN, list(ALL_CODES[13:26])
    events = [new_game(), hand("Bruno", first), hand("Bruno", second), *started()[1:], card("pea-1a")]
    assert refusal(*events, card(second[0])) is None  # Bruno's hand is now the second one
    assert refusal(*events, card(first[5])) == "not_in_hand"
    assert refusal(new_game(), hand("Bruno", first), hand("Virginie", second), hand("Bruno", second)) == "bad_hand"
