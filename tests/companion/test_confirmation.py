"""The `confirm` event: a note beside a finished game that changes no state, is refused before the end,
is never what `undo` takes back, and stands only until the next action."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.buffet import simulate as buffet_simulate
from companion.chaud_devant import simulate as chaud_devant_simulate
from companion.confirmation import standing_verdict
from companion.referee import Referee
from companion.seam import Games
from companion.side_ledgers import RobotSide
from companion.sides import note_types
from companion.table import TableService
from marmite.games import GAMES

NOTES = note_types(GAMES)


def whole_game(kind: str, seed: int, players: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    if kind == "buffet":
        return buffet_simulate.random_game(rng, players=players)
    return chaud_devant_simulate.random_game(rng, players=players)


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(["chaud_devant", "buffet"]), seed=st.integers(0, 10_000), players=st.integers(3, 5),
       at=st.floats(0, 1), verdict=st.sampled_from(["confirmed", "disputed"]), seat=st.integers(0, 4))
def test_a_confirmation_is_accepted_only_at_game_over_and_changes_no_state(
        kind: str, seed: int, players: int, at: float, verdict: str, seat: int) -> None:
    events = whole_game(kind, seed, players)
    names = events[0]["players"]
    cut = 1 + int(at * (len(events) - 1))
    referee = Referee(GAMES)
    for event in events[:cut]:
        referee.apply(event)
    before = referee.public_state
    over = referee.state is not None and referee.state.is_terminal()
    outcome = referee.apply({"type": "confirm", "player": names[seat % len(names)], "verdict": verdict})
    assert outcome.accepted == over
    assert outcome.reason == (None if over else "not_over")
    assert referee.public_state == before
    for event in events[cut:]:  # the game goes on exactly as without it
        referee.apply(event)
    plain = Referee(GAMES)
    for event in events:
        plain.apply(event)
    assert referee.public_state == plain.public_state


def test_a_stranger_or_a_bad_verdict_is_refused_and_undo_takes_back_the_last_card_not_the_confirmation() -> None:
    events = whole_game("chaud_devant", 7, 4)
    referee = Referee(GAMES)
    for event in events:
        referee.apply(event)
    assert referee.apply({"type": "confirm", "player": "Nobody", "verdict": "confirmed"}).reason == "unknown_player"
    player = events[0]["players"][1]
    assert referee.apply({"type": "confirm", "player": player, "verdict": "maybe"}).reason == "bad_verdict"
    assert referee.apply({"type": "confirm", "player": player, "verdict": "confirmed"}).accepted
    assert referee.apply({"type": "undo"}).accepted
    assert referee.public_state["phase"] != "game_over"  # the last card was taken back: no longer over
    assert referee.apply({"type": "confirm", "player": player, "verdict": "confirmed"}).reason == "not_over"


def test_a_confirmation_stands_only_from_a_seat_and_until_the_next_action() -> None:
    card = {"type": "card", "card": "pea-1a"}
    confirm = {"type": "confirm", "player": "Ana", "verdict": "confirmed"}
    dispute = {"type": "confirm", "player": "Ben", "verdict": "disputed"}
    assert standing_verdict([(card, True, "api"), (confirm, True, "seat")], NOTES) == ("confirmed", "Ana")
    assert standing_verdict([(card, True, "api"), (confirm, True, "api")], NOTES) is None  # typed on the tablet
    assert standing_verdict([(confirm, True, "seat"), ({"type": "undo"}, True, "api")], NOTES) is None
    assert standing_verdict([(confirm, True, "seat"), (card, False, "api")], NOTES) == ("confirmed", "Ana")
    assert standing_verdict([(confirm, True, "seat"), (dispute, True, "seat")], NOTES) == ("disputed", "Ben")
    robot = {"type": "robot", "player": "Ben", "card": "pea-2a"}
    assert standing_verdict([(confirm, True, "seat"), (robot, True, "robot")], NOTES) == ("confirmed", "Ana")


def test_the_notes_that_void_no_confirmation_are_the_side_ledgers_own() -> None:
    assert {"robot", "confirm"} == NOTES  # what GAMES's side ledgers handle, declared by them only
    robots_only = Games.of(*GAMES.kinds.values(), sides=(RobotSide,))
    assert note_types(robots_only) == {"robot"}  # without the confirmations' ledger, a confirm is no note
    assert note_types(Games.of(*GAMES.kinds.values())) == set()


def test_the_table_journals_and_says_a_confirmation_and_its_export_leaves_it_out(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    events = whole_game("buffet", 3, 4)
    service = TableService.open(tmp_path, GAMES)
    try:
        early = service.submit({"type": "confirm", "player": events[0]["players"][0], "verdict": "confirmed"},
                               source="seat")
        assert not early.accepted and early.reason == "no_game"
        for event in events:
            service.submit(event)
        service.language = "fr"
        answer = service.submit({"type": "confirm", "player": events[0]["players"][2], "verdict": "confirmed"},
                                source="seat")
        assert answer.accepted and answer.message is not None
        assert service.render(answer.message)["text"] == f"{events[0]['players'][2]} confirme les scores finaux."
        last = service.journal.last_seq
    finally:
        service.close()
    exported = subprocess.run([sys.executable, "-m", "marmite.cli", "export", "--data", str(tmp_path)],
                              capture_output=True, check=True, text=True).stdout
    lines = [json.loads(line) for line in exported.splitlines()]
    assert lines == events  # the confirmation stays in the journal (published to the club), not in the log
    assert last == len(events) + 2
