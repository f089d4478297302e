"""The robot's answers through the seam, as recorded: requests of both games, each asked at every level and
at several think-ms (with no clock in the way), compared with `robot_answers.jsonl`.

A change of the robot's play shows here as a diff of that file. Re-record only in the commit that changes
the robot on purpose, saying why there (and with the figures that justify it):
`python -m tests.golden.test_robot_answers_golden`, then review the diff.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from companion.robots import LEVELS, RobotAsk, RobotRefusal, decide
from marmite.games import GAMES
from tests.companion.test_robots import buffet_asks, chaud_asks

GOLDEN = Path(__file__).with_name("robot_answers.jsonl")
THINK_MS = (20, 100)
SEED = 5


def requests() -> list[RobotAsk]:
    """A dozen decisions of each game: menus, leads and follows; buffet steps and a first leaver's swap."""
    chaud = chaud_asks(21, 4, "simultaneous", "2005")
    chaud = chaud[:1] + chaud[9::13][:6] + chaud_asks(22, 3, "sequential", "2023")[5::17][:5]
    buffet = buffet_asks(23, 4, 2)
    swaps = [ask for ask in buffet if ask.ask == "swap"]
    return chaud + buffet[::3][:10] + swaps[:2]


def answers() -> list[dict[str, Any]]:
    rows = []
    for number, ask in enumerate(requests()):
        for level in LEVELS:
            for think_ms in THINK_MS if level != "debutant" else THINK_MS[:1]:
                try:
                    event: dict[str, Any] = decide(GAMES, ask, level=level, seed=SEED, think_ms=think_ms,
                                                   deadline=math.inf).event
                except RobotRefusal as refusal:
                    event = {"error": refusal.reason}
                rows.append({"request": number, "seat": ask.seat, "level": level, "think_ms": think_ms,
                             "answer": event})
    return rows


def test_the_robots_answers_are_as_recorded() -> None:
    recorded = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    got = answers()
    assert len(got) == len(recorded)
    assert {(row["level"], row["think_ms"]) for row in got} >= {("chef", 20), ("chef", 100), ("cuisinier", 100)}
    changed = [(old, new) for old, new in zip(recorded, got, strict=True) if old != new]
    assert not changed, f"{len(changed)} answers differ, the first: {changed[0]}"


if __name__ == "__main__":
    GOLDEN.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in answers()), encoding="utf-8")
    print(f"recorded {GOLDEN}", file=sys.stderr)
