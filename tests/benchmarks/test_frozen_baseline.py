"""The frozen flat PIMC (benchmarks/baseline_flat_pimc) plays as the project's flat PIMC did at commit 23919bc:
the same answers, for the same seeds, on requests of both games (recorded when it was frozen, and checked then
to be the live flat PIMC's)."""

from __future__ import annotations

import math
import random

from benchmarks.baseline_flat_pimc import flat_pimc, position_of
from marmite.games import GAMES
from tests.companion.test_robots import buffet_asks, chaud_asks

RECORDED = {  # the answers' indexes, a = 0
    "chaud_devant": "ddbdbiaaafbfabaabdeadfehcaeabbdbbabadddcabbaacddaaaacgfadafabcafaacdbcbecacabacabaa",
    "buffet": "aaeacaaaaaafcaagadaaaadfagdeaaaac",
}


def answers(game: str) -> str:
    asks = chaud_asks(5, 4, "simultaneous", "2023")[::3] if game == "chaud_devant" else buffet_asks(6, 4, 3)
    chosen = [flat_pimc(position_of(GAMES, ask), random.Random(index), 6, math.inf) for index, ask in enumerate(asks)]
    return "".join(chr(ord("a") + choice) for choice in chosen)


def test_the_frozen_flat_pimc_gives_its_recorded_answers() -> None:
    for game, recorded in RECORDED.items():
        assert answers(game) == recorded, game
