"""The duel benchmark's bookkeeping: games already recorded are not played again, and the pooled difference
pairs candidate and control in the same deal, seat and opponent, averaging a deal's seats before the SE."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from benchmarks import robot_duel


def row(deal: int, seat: int, player: str, score: float, opponent: str = "random") -> dict[str, object]:
    return {"game": "buffet", "deal": deal, "seat": seat, "opponent": opponent, "player": player, "score": score,
            "rounds": None}


def test_pairs_are_pooled_by_deal() -> None:
    rows = [row(1, 0, "a", 5), row(1, 0, "b", 3), row(1, 1, "a", 1), row(1, 1, "b", 1),  # deal 1: +2, 0
            row(2, 2, "a", 4), row(2, 2, "b", 5),  # deal 2: -1
            row(3, 3, "a", 9), row(3, 3, "b", 7, opponent="heuristic")]  # not a pair: other opponents
    mean, se, deals, pairs = robot_duel.paired(rows, "buffet", "a", "b")  # type: ignore[arg-type]
    assert (deals, pairs) == (2, 3)
    assert math.isclose(mean, 0.0) and math.isclose(se, math.sqrt(2) / math.sqrt(2))


def test_a_recorded_game_is_not_played_again(tmp_path: Path) -> None:
    path = tmp_path / "duels.jsonl"
    robot_duel.run(["buffet"], ["random"], ["random"], range(7, 8), every_seat=False, path=path)
    robot_duel.run(["buffet"], ["random", "heuristic"], ["random"], range(7, 8), every_seat=False, path=path)
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(game["player"], game["deal"], game["seat"]) for game in games] == [("random", 7, 3), ("heuristic", 7, 3)]


def test_the_summary_can_pool_only_some_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "duels.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [row(1, 0, "a", 5), row(1, 0, "b", 3),
                                                           row(9, 0, "a", 0), row(9, 0, "b", 7)]))
    robot_duel.summary([("a", "b")], path, deals=range(1, 2))
    out = capsys.readouterr().out
    assert "deals 1–1" in out and "+2.00 ± nan [1, 1]" in out


def test_answer_times_can_time_one_game_only(capsys: pytest.CaptureFixture[str]) -> None:
    """`--answer-times` with `--only`: the rows of that game alone."""
    robot_duel.answer_times(["frozen-pimc"], [1], samples=3, games=("chaud_devant",))
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "@1 " in line]
    assert rows and all(line.startswith("| chaud_devant |") for line in rows)
