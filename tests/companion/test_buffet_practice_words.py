"""A Sus au buffet ! practice without cards says each step's call to choose first (issue 30, buffet pace): the
call right after the card's own line, the step's outcome after it; a round's end and the next buffet after the
next round's call; never a call to a person already out of the round; the table's plates without a word; and
a robot's reason that the board it leaves does not contradict."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.buffet.announcer import BuffetVoice
from companion.buffet.practice_words import practice_words
from companion.buffet.robot_public import public_why
from companion.buffet.table_seats import SEATS
from companion.hub import Message
from companion.robot_table import RobotDriver
from companion.seam import Part
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.buffet.rulebook import mice, new_game, plates, state_after
from tests.companion.test_robot_table import wait_for

PLAYERS = ["Ana", "Bip", "Bop", "Bup"]
ROBOTS = ("Bip", "Bop", "Bup")
CALLS = ("new_step_choose", "buffet_ready_choose")


def said(parts: tuple[Part, ...], language: str = "fr") -> str:
    return BuffetVoice().render(parts, language)


def test_the_call_follows_the_card_and_the_outcome_follows_the_call() -> None:
    parts = (Part("moved", {"player": "Bup", "value": 0, "square": 3, "place": (3, False)}),
             Part("departure", {"player": "Bip", "plate": "plate-chicken-2"}),
             Part("new_step", {"player": "Ana", "in_round": ["Ana", "Bop", "Bup"]}))
    now, held = practice_words(parts, ROBOTS)
    assert held == ()
    assert said(now) == "Bup : zéro — case 3, troisième. Ana, à vous de choisir. Bip part avec poulet à 2."
    assert said(now, "en") == "Bup: zero — square 3, third. Ana, choose your card. Bip leaves with chicken 2."
    assert said(now, "nl").startswith("Bup: nul — vak 3, derde. Ana, kies je kaart. ")
    two = practice_words(parts, ("Bip", "Bup"))[0]  # two people: the plural, in each language
    assert "Ana et Bop, à vous de choisir." in said(two) and "Ana and Bop, choose your cards." in said(two, "en")
    assert "Ana en Bop, kies jullie kaarten." in said(two, "nl")


def test_a_person_out_of_the_round_is_not_called_to_choose() -> None:
    parts = (Part("moved", {"player": "Bup", "value": 5, "square": 9, "place": (1, False)}),
             Part("departure", {"player": "Ana", "plate": "plate-chicken-2"}),
             Part("new_step", {"player": "Bip", "in_round": ["Bip", "Bop", "Bup"]}))
    now, _ = practice_words(parts, ROBOTS)
    assert [part.key for part in now] == ["moved", "departure", "new_step_robots"]
    assert said(now).endswith("Ana part avec poulet à 2. Nouvelle étape.")


def test_a_persons_call_to_exchange_comes_right_after_the_card_before_her_departure() -> None:
    parts = (Part("moved", {"player": "Bup", "value": 5, "square": 11, "place": (2, False)}),
             Part("departure", {"player": "Ana", "plate": "plate-pizza-n1"}), Part("swap", {"player": "Ana"}),
             Part("new_step", {"player": "Bip", "in_round": ["Bip", "Bop", "Bup"]}))
    now, _ = practice_words(parts, ROBOTS)
    assert said(now) == ("Bup : cinq — case 11, deuxième. Ana, vous pouvez échanger des cartes. Ana part avec "
                         "pizza à moins 1. Nouvelle étape.")
    assert "Ana, you may exchange cards. Ana leaves with" in said(now, "en")
    assert "Ana, je mag kaarten ruilen. Ana vertrekt met" in said(now, "nl")
    robot = practice_words((*parts[:2], Part("swap", {"player": "Bip"}), parts[3]), ROBOTS)[0]
    assert "swap_call" not in [part.key for part in robot]  # a robot's own line says its exchange


def test_a_round_end_is_said_after_the_next_call_with_the_buffet_in_one_line() -> None:
    end = (Part("moved", {"player": "Bop", "value": 0, "square": 17, "place": (1, False)}),
           Part("duel_won", {"player": "Bop", "plate": "plate-cheese-5"}), Part("duel_lost", {"player": "Ana"}),
           Part("round_ended", {"round": 1, "tally": [("Ana", 0), ("Bip", 2), ("Bop", -1), ("Bup", 4)]}))
    now, held = practice_words(end, ROBOTS)
    assert said(now) == "Bop : zéro — case 17, en tête."
    for plate in ("plate-salad-5", "plate-cheese-2"):  # the table's own plates: not a word
        silent, held = practice_words((Part("plate_laid", {"plate": plate}), Part("missing", {"count": 1})),
                                      ROBOTS, held)
        assert silent == ()
    opening = (Part("plate_laid", {"plate": "plate-salad-4"}),
               Part("buffet_ready", {"part": None, "buffet": ["plate-salad-5", "plate-salad-4", "plate-cheese-2"],
                                     "player": "Ana", "round": 2, "in_round": PLAYERS}))
    now, held = practice_words(opening, ROBOTS, held)
    assert held == ()
    assert said(now) == ("Ana, à vous de choisir. Bop gagne le duel et emporte fromage à 5. Ana repart sans rien. "
                         "Fin de la manche 1 : Ana 0, Bip 2, Bop moins 1, Bup 4. Manche 2 — buffet : salade de "
                         "tomates à 5, salade de tomates à 4, fromage à 2.")
    assert said(now, "en").endswith("End of round 1: Ana 0, Bip 2, Bop minus 1, Bup 4. Round 2, buffet: tomato "
                                    "salad 5, tomato salad 4, cheese 2.")
    assert said(now, "nl").endswith("Einde van ronde 1: Ana 0, Bip 2, Bop min 1, Bup 4. Ronde 2, buffet: "
                                    "tomatensalade 5, tomatensalade 4, kaas 2.")
    three = (Part("buffet_ready", {"part": Part("part_label", {"part": 1}), "buffet": ["plate-pizza-n1"],
                                   "player": "Ana", "round": 2, "in_round": ["Ana", "Bip", "Bop"]}),)
    opening = practice_words(three, ("Bip", "Bop"))[0]  # a game of three: each round in two parts
    assert said(opening) == "Ana, à vous de choisir. Manche 2, partie 1 — buffet : pizza à moins 1."
    assert said(opening, "en").endswith("Round 2, part 1, buffet: pizza minus 1.")
    assert said(opening, "nl").endswith("Ronde 2, deel 1, buffet: pizza min 1.")
    last = (*end, Part("game_over", {"winners": Part("winner", {"players": ["Bup"], "points": 4, "tie": None})}))
    assert practice_words(last, ROBOTS)[1] == ()  # the game's end is said at once


def test_a_robot_reason_never_contradicts_the_place_its_card_leaves() -> None:
    plated = plates("plate-cheese-3", "plate-pizza-2", "plate-salad-n1")
    ahead = state_after([new_game(), *plated, *mice(5, 3, 7, 3, 0, 1)])  # Ana 5, Ben 4, Cléo 7, Dan 3; Cléo next
    assert ahead.public_state()["turn"] == "Cléo"
    assert public_why(ahead, "Cléo", "mouse-n1") is None  # still in the lead: not "to leave with salad"
    assert public_why(ahead, "Cléo", "mouse-2") is not None
    behind = state_after([new_game(), *plated, *mice(5, 3, 7, 3, 0, 1, 0)])  # Dan on 3, the rear, turns over
    assert public_why(behind, "Dan", "mouse-1") is None  # still last: not "to get ahead of the last mouse"
    assert public_why(behind, "Dan", "mouse-n1") == Part("robot_why_take_plate", {"plate": "plate-salad-n1"})
    assert public_why(behind, "Dan", "mouse-3") == Part("robot_why_escape")


def test_a_practice_round_calls_only_the_people_in_it_and_after_the_card(opened: Any) -> None:
    """A whole round and the next round's opening at a practice without cards, Ana playing her lowest card."""
    table, _ = opened()
    start = {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana",
             "robots": {"seats": dict.fromkeys(ROBOTS, "debutant"), "practice": "virtual", "pace_ms": 0,
                        "aids": True}}
    assert table.submit(start).accepted
    play_to_round_two(table)
    messages = [m for m in table.messages_after(0) if m.parts]
    assert not [m for m in messages if {"plate_laid", "round_opened"} & keys(m)]  # the plates: not a word
    out, left = False, 0
    for message in messages:
        parts = [part.key for part in message.parts]
        out = out and "round_buffet" not in parts
        calls = [part for part in message.parts if part.key in CALLS]
        assert not (out and calls), message.text("fr")  # never called once out of the round
        if calls:
            assert calls[0].fields["players"] == ["Ana"]
            at = parts.index(calls[0].key)
            assert at == (1 if parts[0] in ("moved", "robot.played_named") else 0), parts  # straight after the card
        if "round_ended" in parts:
            assert "round_buffet" in parts and parts.index(calls[0].key) < parts.index("round_ended"), parts
        if any(part.key in ("departure", "duel_lost") and part.fields["player"] == "Ana" for part in message.parts):
            out, left = True, left + 1
    assert left and any("round_ended" in keys(m) for m in messages)


def keys(message: Message) -> set[str]:
    return {part.key for part in message.parts}


def play_to_round_two(table: TableService) -> None:
    """Ana chooses her lowest card each step, keeps her hand if she may exchange, until round 2 opens."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = table.state()
        if state["round"] == 2 and state["phase"] == "step":
            return
        play, keep = anas_moves(table, state)
        if play:
            table.submit(play, source="seat")
        elif keep:
            table.submit(keep, source="seat")
        time.sleep(0.01)
    wait_for(lambda: False, 0)


def test_an_undone_plate_keeps_the_held_round_end(tmp_path: Path) -> None:
    """An undo of one of the next round's plates (the round's last card still stands) keeps the round's end for
    the next opening; only undoing the round's last card drops it (it is said again when the card is)."""
    table = TableService.open(tmp_path, GAMES)
    driver = RobotDriver(table, think_ms=5)  # never started: each look is taken here, one at a time
    try:
        start = {"type": "new_game", "game": "buffet", "players": PLAYERS, "first": "Ana",
                 "robots": {"seats": dict.fromkeys(ROBOTS, "debutant"), "practice": "virtual", "pace_ms": 0}}
        assert table.submit(start).accepted
        until(table, driver, lambda: table.state()["phase"] == "buffet" and table.state()["round"] == 2)
        while not table.state()["buffet"]:  # the next round's first plate
            driver.step()
        assert table.undo().accepted  # that plate taken back: the round's end still stands
        assert not driver.step()  # the robots wait after an undo, until the host lets them go on
        driver.resume()
        until(table, driver, lambda: table.state()["round"] == 2 and table.state()["phase"] == "step")
        opening = [m for m in table.messages_after(0) if "round_buffet" in keys(m)][-1]
        assert "Manche 2" in opening.text("fr") and "round_ended" in keys(opening), opening.text("fr")
        until(table, driver, lambda: table.state()["phase"] == "buffet" and table.state()["round"] == 3)
        assert table.undo().accepted  # the round's last card taken back: played again, it ends the round again
        assert not driver.step()
        driver.resume()
        until(table, driver, lambda: table.state()["round"] == 3 and table.state()["phase"] == "step")
        opening = [m for m in table.messages_after(0) if "round_buffet" in keys(m)][-1]
        assert [part.key for part in opening.parts].count("round_ended") == 1, opening.text("fr")
    finally:
        table.close()


def until(table: TableService, driver: RobotDriver, done: Callable[[], bool]) -> None:
    """The driver's looks, one at a time, Ana choosing her lowest card and keeping her hand, until `done`."""
    for _ in range(2000):
        if done():
            return
        state = table.state()
        play, keep = anas_moves(table, state)
        if keep:
            assert table.submit(keep, "seat").accepted
        elif play:
            assert table.submit(play, "seat").accepted
        else:
            driver.step()
    raise AssertionError(f"never done: {table.state()}")


def anas_moves(table: TableService, state: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """What Ana may send now: her lowest card if a step waits for her choice, and keeping her whole hand if
    she may exchange (each None when not due)."""
    with table.lock:
        count = len(table.standing_actions()) - 1
        hand = table.robots.hand("Ana") or ()
        due = (state["phase"] == "step" and "Ana" in state["in_round"]
               and table.robots.pending("Ana", count) is None
               and state["in_round"].index("Ana") >= state["in_round"].index(state["turn"]))
        exchange = table.game_state is not None and SEATS.swap_due(table.game_state, table.robots, "Ana", count)
    play = {"type": "robot", "player": "Ana", "card": min(hand)} if due and hand else None
    keep = {"type": "robot", "player": "Ana", "hand": list(hand), "swap": []} if exchange else None
    return play, keep
