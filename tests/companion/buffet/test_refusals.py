"""Every refusal of a buffet log, one test each, and their precedence; a refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.buffet.plates import STAND_IN_SET

from .rulebook import FIVE, FOUR, SIX, THREE, UNDO, mice, mouse, new_game, plate, plates, quick_round, reasons, run

FOUR_PLATES = plates("plate-salad-n1", "plate-cheese-3", "plate-pizza-2")


@pytest.mark.parametrize("setup", [
    {"players": ["Ana", "Ben"], "first": "Ana"},
    {"players": [*SIX, "Gus"], "first": "Ana"},
    {"players": ["Ana", "Ben", "Ana"], "first": "Ana"},
    {"players": ["Ana", "Ben", " "], "first": "Ana"},
    {"players": list(THREE), "first": "Zoé"},
    {"players": list(THREE)},
    {"players": "Ana, Ben, Cléo", "first": "Ana"},
])
def test_bad_setup(setup: dict[str, Any]) -> None:
    out = run([{"type": "new_game", "game": "buffet", **setup}])
    assert reasons(out) == [(1, "bad_setup")]


def test_an_unknown_game_is_a_bad_setup_and_changes_nothing() -> None:
    out = run([new_game(), {"type": "new_game", "game": "belote", "players": list(FOUR), "first": "Ana"},
               plate("plate-cheese-1")])
    assert reasons(out) == [(2, "bad_setup")] and out["game"] == "buffet" and out["buffet"] == ["plate-cheese-1"]


def test_no_game_before_any_new_game() -> None:
    out = run([plate("plate-cheese-1"), mouse(3), UNDO])
    assert reasons(out) == [(1, "no_game"), (2, "no_game"), (3, "no_game")]


@pytest.mark.parametrize("event", [
    {"type": "plate", "plate": "plate-cheese-6"}, {"type": "plate", "plate": "plate-fish-1"},
    {"type": "plate", "plate": "mouse-3"}, {"type": "plate", "plate": 3}, {"type": "plate"},
    {"type": "plate", "plate": "plate-cheese-n2"}, {"type": "plate", "plate": "PLATE-CHEESE-1"},
])
def test_unknown_plate(event: dict[str, Any]) -> None:
    out = run([new_game(), event])
    assert reasons(out) == [(2, "unknown_card")] and out["buffet"] == [] and out["plates_left"] == 36


@pytest.mark.parametrize("code", ["mouse-10", "mouse--1", "mouse-n2", "pea-3", "plate-cheese-1", "mouse-7@3", ""])
def test_unknown_mouse_card(code: str) -> None:
    out = run([new_game(), *FOUR_PLATES, {"type": "card", "card": code}])
    assert reasons(out) == [(5, "unknown_card")] and out["turn"] == "Ana"


def test_a_card_while_the_buffet_is_laid_out_is_wrong_phase() -> None:
    out = run([new_game(), plate("plate-cheese-1"), mouse(4)])
    assert reasons(out) == [(3, "wrong_phase")] and out["positions"]["Ana"] == 0


def test_a_plate_during_a_step_is_wrong_phase() -> None:
    out = run([new_game(), *FOUR_PLATES, mouse(4), plate("plate-potato-1")])
    assert reasons(out) == [(6, "wrong_phase")] and out["plates_left"] == 33


def test_hand_and_menu_events_in_a_buffet_game_are_wrong_phase() -> None:
    out = run([new_game(), {"type": "hand", "player": "Ana", "cards": ["pea-1a"]},
               {"type": "menu", "player": "Zoé", "menu": "bogus"}])
    assert reasons(out) == [(2, "wrong_phase"), (3, "wrong_phase")]


def test_a_plate_in_a_chaud_devant_game_is_wrong_phase() -> None:
    out = run([{"type": "new_game", "players": ["A", "B", "C"], "dealer": "C"}, plate("plate-cheese-1"),
               {"type": "plate", "plate": "nonsense"}])
    assert reasons(out) == [(2, "wrong_phase"), (3, "wrong_phase")] and "revokes" in out and "game" not in out


def test_a_plate_laid_out_in_an_earlier_round_is_already_played() -> None:
    events = [new_game(), *FOUR_PLATES]
    events += quick_round(events)
    out = run([*events, plate("plate-cheese-3")])
    assert reasons(out) == [(len(events) + 1, "already_played")] and out["buffet"] == []


def test_a_plate_laid_twice_in_one_buffet_is_already_played() -> None:
    out = run([new_game(), plate("plate-cheese-3"), plate("plate-cheese-3")])
    assert reasons(out) == [(3, "already_played")] and out["buffet"] == ["plate-cheese-3"]


def test_nothing_to_undo_after_new_game() -> None:
    out = run([new_game(), UNDO, plate("plate-pizza-1"), UNDO, UNDO])
    assert reasons(out) == [(2, "nothing_to_undo"), (5, "nothing_to_undo")] and out["buffet"] == []


def test_undo_takes_back_the_last_card_even_across_a_departure() -> None:
    events = [new_game(), *FOUR_PLATES, *mice(5, 3, 7, 6)]
    before = run(events[:-1])
    after = run([*events, UNDO])
    assert after == before and after["turn"] == "Dan" and after["plates"]["Ben"] == []


def test_undo_takes_back_the_last_plate_and_reopens_the_buffet() -> None:
    out = run([new_game(), *FOUR_PLATES, UNDO])
    assert out["phase"] == "buffet" and out["buffet"] == ["plate-cheese-3", "plate-salad-n1"]
    assert out["plates_left"] == 34


def test_precedence_unknown_card_before_wrong_phase_before_already_played() -> None:
    events = [new_game(), *FOUR_PLATES, {"type": "plate", "plate": "plate-fish-2"},
              plate("plate-cheese-3"), plate("plate-potato-5")]
    assert reasons(run(events)) == [(5, "unknown_card"), (6, "wrong_phase"), (7, "wrong_phase")]
    out = run([new_game(), plate("plate-cheese-3"), {"type": "card", "card": "mouse-99"}, mouse(2)])
    assert reasons(out) == [(3, "unknown_card"), (4, "wrong_phase")]


def test_at_game_over_everything_is_wrong_phase_but_unknown_cards() -> None:
    events = [new_game(FIVE)]
    codes = list(STAND_IN_SET)
    for _ in range(9):
        events += plates(*codes[:4])
        codes = codes[4:]
        events += quick_round(events)
    assert run(events)["phase"] == "game_over"
    tail = [plate("plate-cheese-4"), mouse(3), {"type": "card", "card": "mouse-x"}, plate("plate-cheese-n1"),
            {"type": "menu", "player": "Ana", "menu": "pea"}]
    out = run([*events, *tail])
    n = len(events)
    assert reasons(out) == [(n + 1, "wrong_phase"), (n + 2, "wrong_phase"), (n + 3, "unknown_card"),
                            (n + 4, "wrong_phase"), (n + 5, "wrong_phase")]
