"""`marmite robot` end to end: JSON Lines in, one flushed answer per request, errors that do not stop
it, the same answers for the same seed, exit 0 at end of input. Times are printed, never asserted."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from companion.buffet.arena import play_game as buffet_game
from companion.referee import Referee
from companion.robots import RobotAsk
from marmite.games import GAMES
from tests.companion.test_robots import chaud_asks

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "marmite.cli", "robot"]


def request(ask: RobotAsk) -> str:
    body: dict[str, Any] = {"log": ask.log, "seat": ask.seat, "hand": list(ask.hand)}
    if ask.ask is not None:
        body["ask"] = ask.ask
    return json.dumps(body, ensure_ascii=False)


def sample_requests() -> list[RobotAsk]:
    chaud = chaud_asks(11, 4, "sequential", "2005")
    rng = random.Random(3)

    def player(ask: RobotAsk) -> dict[str, Any]:
        if ask.ask == "swap":
            return {"type": "swap", "cards": []}
        return {"type": "card", "card": rng.choice(ask.hand)}

    buffet = buffet_game([player] * 3, random.Random(4), max_rounds=1).asks
    swaps = [ask for ask in buffet if ask.ask == "swap"]
    return [chaud[0], chaud[7], chaud[30], buffet[0], buffet[9], *swaps[:1]]


def test_marmite_robot_answers_each_line_and_survives_bad_ones() -> None:
    asks = sample_requests()
    lines = [request(ask) for ask in asks[:3]]
    lines += ["this is not JSON", json.dumps({"log": asks[0].log, "seat": "Nobody", "hand": []}), ""]
    lines += [request(ask) for ask in asks[3:]]
    started = time.monotonic()
    done = subprocess.run([*COMMAND, "--seed", "7", "--think-ms", "150"], cwd=ROOT, input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, check=False)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(asks) + 2  # the blank line gets no answer
    assert "error" in answers[3] and "error" in answers[4]
    assert all("\n" not in answer["error"] for answer in answers[3:5])
    for ask, answer in zip(asks, answers[:3] + answers[5:], strict=True):
        assert "error" not in answer, (ask.seat, answer)
        if ask.ask == "swap":
            assert answer["type"] == "swap"
            continue
        referee = Referee(GAMES)
        for event in ask.log:
            referee.apply(event)
        assert referee.decide(answer) is None
        if answer["type"] == "card":
            assert answer["card"] in ask.hand
    print(f"\nmarmite robot: {len(lines)} lines answered in {elapsed * 1000:.0f} ms, start-up included")


def test_marmite_robot_is_deterministic_for_a_seed_and_answers_one_line_at_a_time() -> None:
    asks = sample_requests()
    runs = []
    for _ in range(2):
        # a level whose whole search fits far inside its time even on a busy machine: only a search cut
        # short by the clock may differ between two runs (see companion.robots)
        command = [*COMMAND, "--seed", "3", "--level", "cuisinier", "--think-ms", "1000"]
        process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                   bufsize=1)
        assert process.stdin is not None and process.stdout is not None
        answers, times = [], []
        for ask in asks:
            started = time.monotonic()
            process.stdin.write(request(ask) + "\n")
            process.stdin.flush()
            answers.append(json.loads(process.stdout.readline()))  # flushed before the next request
            times.append((time.monotonic() - started) * 1000)
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        runs.append(answers)
        print("\nanswer times (ms, the first with start-up):", " ".join(f"{t:.0f}" for t in times))
    assert runs[0] == runs[1]
