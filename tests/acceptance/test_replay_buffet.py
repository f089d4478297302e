"""Black-box acceptance tests of `marmite replay` on Sus au buffet ! logs, as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .helpers import run_replay

P4 = ["Ana", "Ben", "Cléo", "Dan"]


def ng(players: list[str] | None = None, first: str = "Ana") -> dict[str, Any]:
    return {"type": "new_game", "game": "buffet", "players": players or P4, "first": first}


def plate(code: str) -> dict[str, Any]:
    return {"type": "plate", "plate": code}


def card(code: str) -> dict[str, Any]:
    return {"type": "card", "card": code}


def replay(events: list[dict[str, Any] | str]) -> dict[str, Any]:
    proc = run_replay([e if isinstance(e, str) else json.dumps(e, ensure_ascii=False) for e in events])
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def test_the_contract_example_shape_from_a_file(tmp_path: Path) -> None:
    log = tmp_path / "buffet.jsonl"
    events = [ng(), plate("plate-cheese-3"), card("mouse-7"), plate("plate-salad-n1"), plate("plate-pizza-2"),
              card("mouse-7"), card("mouse-3"), card("mouse-n1"), card("mouse-5")]
    log.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "marmite.cli", "replay", str(log)], capture_output=True,
                          text=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == ["game", "phase", "round", "part", "turn", "positions", "in_round", "buffet", "plates",
                         "score", "plates_left", "winners", "refused"]
    assert out == {
        "game": "buffet", "phase": "step", "round": 1, "part": None, "turn": "Ana",
        "positions": {"Ana": 7, "Ben": 3, "Cléo": -1, "Dan": 5}, "in_round": ["Ana", "Ben", "Dan"],
        "buffet": ["plate-cheese-3", "plate-pizza-2"],
        "plates": {"Ana": [], "Ben": [], "Cléo": ["plate-salad-n1"], "Dan": []},
        "score": {"Ana": 0, "Ben": 0, "Cléo": -1, "Dan": 0}, "plates_left": 33, "winners": [],
        "refused": [{"line": 3, "reason": "wrong_phase"}],
    }


@pytest.mark.parametrize("bad", ["not json", "[1, 2]", '"str"', '{"no": "type"}', '{"type": "bogus"}'])
def test_a_malformed_line_exits_2_and_prints_nothing(bad: str) -> None:
    proc = run_replay([json.dumps(ng()), json.dumps(plate("plate-cheese-1")), bad])
    assert proc.returncode == 2 and proc.stdout == "" and "line 3" in proc.stderr


def test_a_missing_file_exits_with_an_error(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "marmite.cli", "replay", str(tmp_path / "absent.jsonl")],
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode != 0 and proc.stdout == "" and proc.stderr


def test_blank_lines_count_in_line_numbers() -> None:
    out = replay(["", json.dumps(ng()), "  ", json.dumps(card("mouse-3"))])
    assert out["refused"] == [{"line": 4, "reason": "wrong_phase"}]


def test_a_game_key_picks_the_game_and_its_absence_is_chaud_devant() -> None:
    cd = replay([{"type": "new_game", "players": ["A", "B", "C"], "dealer": "C"}])
    assert "game" not in cd and cd["phase"] == "menu"
    explicit = replay([{"type": "new_game", "game": "chaud_devant", "players": ["A", "B", "C"], "dealer": "C"}])
    assert explicit == cd
    assert replay([ng()])["game"] == "buffet"
    unknown = replay([{"type": "new_game", "game": "uno", "players": P4, "first": "Ana"}])
    assert unknown["refused"] == [{"line": 1, "reason": "bad_setup"}]
    assert {k: v for k, v in unknown.items() if k != "refused"} == {k: v for k, v in cd.items() if k != "refused"} | {
        "stars": {}}  # before any game: the default game's empty object


def test_every_refusal_reason_in_precedence() -> None:
    events = [plate("plate-cheese-1"), ng(), {"type": "undo"}, plate("plate-fish-1"), card("mouse-2"),
              plate("plate-cheese-1"), plate("plate-cheese-1"), {"type": "hand", "player": "Ana", "cards": []},
              {"type": "new_game", "game": "buffet", "players": ["Ana", "Ben"], "first": "Ana"}]
    out = replay(events)
    assert [(r["line"], r["reason"]) for r in out["refused"]] == [
        (1, "no_game"), (3, "nothing_to_undo"), (4, "unknown_card"), (5, "wrong_phase"), (7, "already_played"),
        (8, "wrong_phase"), (9, "bad_setup")]
    assert out["buffet"] == ["plate-cheese-1"]


def test_a_whole_three_player_game_through_the_command_line() -> None:
    import random

    from companion.buffet.simulate import random_game

    events = random_game(random.Random(21), players=3)
    out = replay(list(events))
    assert out["phase"] == "game_over" and out["round"] == 7 and out["plates_left"] == 1
    assert sum(len(won) for won in out["plates"].values()) == 7 * 5  # every plate laid is won
    assert out["winners"] and out["refused"] == []
