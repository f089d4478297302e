"""The practice robots wait for the table's voice to finish, with a ceiling; counts on a hand-driven clock."""

from __future__ import annotations

from typing import Any

from companion.robot_table import RobotDriver
from companion.speech_pace import CEILING_S, MAX_WAIT_S, SpeechPace
from companion.table import TableService
from tests.companion.clock import Clock


def test_without_a_voice_the_pause_counts_from_the_announcement() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.heard(5)
    assert not pace.ready(2500)
    clock.now += 2.5
    assert pace.ready(2500)


def test_with_a_voice_the_robots_wait_for_its_end_not_for_the_pause() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("table", 4)
    pace.heard(5)
    clock.now += 10  # far beyond the host's pause: the line is still being said
    assert not pace.ready(2500)
    pace.spoken("table", 5)
    assert not pace.ready(2500)  # a breath after the end
    clock.now += pace.breath_s
    assert pace.ready(2500)


def test_every_voice_that_speaks_for_the_table_is_waited_for() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("table", 0)
    pace.spoken("speaker", 0)
    pace.heard(3)
    pace.spoken("table", 3)
    clock.now += 5
    assert not pace.ready(2500)
    pace.spoken("speaker", 3)
    clock.now += 1
    assert pace.ready(2500)


def test_a_silent_voice_costs_one_ceiling_then_the_pause_again() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("table", 0)
    pace.heard(1)
    clock.now += CEILING_S - 0.1
    assert not pace.ready(2500)
    clock.now += 0.1
    assert pace.ready(2500)  # the ceiling
    assert pace.voices() == []  # no longer waited for
    pace.heard(2)
    clock.now += 2.5
    assert pace.ready(2500)  # the host's pause, as with no voice
    pace.spoken("table", 2)  # it speaks again: waited for again
    assert pace.voices() == ["table"]
    pace.heard(3)
    clock.now += 5
    assert not pace.ready(2500)


def test_a_voice_that_leaves_is_not_waited_for() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("seat:Ana", 0)
    pace.heard(1)
    pace.leave("seat:Ana")
    clock.now += 2.5
    assert pace.ready(2500)


def test_a_voice_never_goes_back_and_the_voices_are_bounded() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("table", 7)
    pace.spoken("table", 3)  # a late report of an older line
    pace.heard(7)
    clock.now += 1
    assert pace.ready(2500)
    for n in range(20):
        pace.spoken(f"seat:{n}", 7)
    assert len(pace.voices()) <= 8


def robot_moves(table: TableService) -> int:
    """What the robots have journaled (a choice, then its card), each an announcement."""
    return sum(1 for record in table.journal.records() if record.accepted and record.source == "robot")


def steps(driver: RobotDriver, times: int = 30) -> None:
    for _ in range(times):
        if not driver.step():
            return


def test_a_practice_robot_plays_its_card_when_the_voice_has_said_the_last_line(table: TableService,
                                                                              clock: Clock) -> None:
    driver = RobotDriver(table, think_ms=10, clock=clock)  # not started: the test turns the handle
    robots: dict[str, Any] = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual",
                              "pace_ms": 2500}
    assert table.submit({"type": "new_game", "players": ["Ana", "Marmiton", "Cléo"], "dealer": "Ana",
                         "robots": robots}).accepted
    driver.pace.spoken("table", 0)  # the tablet speaks for the table
    checked = 0
    for _ in range(200):  # menus, then cards: after each of Ana's cards, a robot waits for the voice
        steps(driver)
        public = table.state()
        state = table.game_state
        assert state is not None
        if public["phase"] == "menu":
            ana = [event for event in state.legal_actions() if event.get("player") == "Ana"]
            if ana:
                assert table.submit(ana[0]).accepted
        elif public["phase"] == "play" and public["turn"] == "Ana":
            assert table.submit(state.legal_actions()[0]).accepted
            if table.state()["turn"] in robots["seats"]:
                played = robot_moves(table)
                clock.now += 15  # long past the 2.5 s pause, the voice still saying Ana's card
                steps(driver)
                assert robot_moves(table) == played
                driver.pace.spoken("table", table.last_serial)
                clock.now += 1
                steps(driver)
                assert robot_moves(table) == played + 2  # its choice (silent) and its card, one line; then it
                # waits for the voice again
                checked += 1
                if checked == 3:
                    break
        driver.pace.spoken("table", table.last_serial)
        clock.now += 1
    assert checked == 3


def test_a_voice_still_saying_lines_is_waited_for_beyond_the_ceiling() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("table", 0)
    pace.heard(1)
    for _ in range(3):  # a long answer to a question: a line finished every 15 s, the announcement not yet
        clock.now += 15
        pace.spoken("table", 0)
        assert not pace.ready(2500)
    assert pace.voices() == ["table"]
    clock.now += CEILING_S  # then silence: the ceiling, counted from its last report
    assert pace.ready(2500)


def test_a_voice_that_reports_without_catching_up_holds_the_robots_no_longer_than_the_cap() -> None:
    clock = Clock()
    pace = SpeechPace(clock)
    pace.spoken("table", 4)
    pace.heard(5)
    waited = 0.0
    while not pace.ready(2500) and waited < 10 * MAX_WAIT_S:  # serial 4 again every 15 s: never the latest
        clock.now += 15
        waited += 15
        pace.spoken("table", 4)
    assert waited == MAX_WAIT_S
