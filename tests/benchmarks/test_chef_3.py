"""The duel benchmark's `chef-3` is the chef of issue 31's seventh run: on the seam's recorded requests it
gives the chef answers recorded before `chef-4` (`chef_3_answers.jsonl`, the golden file's chef rows then)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

from benchmarks.robot_duel import as_chef_3
from companion.robots import LEVEL_SETTINGS, choose, position_of
from marmite.games import GAMES
from tests.golden.test_robot_answers_golden import SEED, requests

RECORDED = Path(__file__).with_name("chef_3_answers.jsonl")


def test_chef_3_gives_its_recorded_answers() -> None:
    asks = requests()
    for line in RECORDED.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        position = as_chef_3(position_of(GAMES, asks[row["request"]]))
        choice = choose(position, LEVEL_SETTINGS["chef"], random.Random(SEED), row["think_ms"], math.inf)
        assert dict(position.choices[choice]) == row["answer"], row
