"""`marmite robot` answers every line of any input and goes on: arbitrary JSON lines and arbitrary bytes
through the command's own loop, and the lone-surrogate name that once ended the process."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marmite.robot_command import open_input, serve_requests
from tests.companion.test_robots import chaud_asks

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ARGS = argparse.Namespace(seed=0, think_ms=5, speed=1.0, level="cuisinier")
ASKS = chaud_asks(11, 4, "sequential", "2005")
ASK, MENU = ASKS[7], ASKS[0]  # a card to play; a menu to choose (its answer names the seat)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
requests = st.fixed_dictionaries({}, optional={
    "log": st.one_of(json_values, st.just(ASK.log)),
    "seat": st.one_of(st.text(), st.just(ASK.seat)),
    "hand": st.one_of(st.lists(st.text(max_size=8), max_size=4), st.just(list(ASK.hand))),
    "ask": st.one_of(st.none(), st.text(max_size=6)),
})


def served(data: bytes) -> tuple[int, list[str]]:
    """Run the command's loop over raw input bytes; its exit code and the lines it wrote (as UTF-8)."""
    sink = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)
    code = serve_requests(ARGS, open_input(io.BytesIO(data)), sink)
    written = sink.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
    assert written.endswith("\n") or not written
    return code, written.split("\n")[:-1]  # JSON Lines: a line ends at \n only (an answer may hold U+2028)


def expected_answers(data: bytes) -> int:
    """How many answers the input calls for: one a line that is not blank, Unicode spaces included (JSON Lines:
    lines end at \\n)."""
    return sum(1 for line in data.split(b"\n") if line.decode("utf-8", "surrogateescape").strip())


def check_answers(code: int, lines: list[str], count: int) -> list[dict[str, Any]]:
    assert code == 0
    assert len(lines) == count
    answers = [json.loads(line) for line in lines]
    assert all(isinstance(answer, dict) and answer for answer in answers)
    return answers


@SETTINGS
@given(st.lists(st.one_of(requests.map(json.dumps), json_values.map(json.dumps), st.text()), min_size=1, max_size=5))
def test_every_json_line_gets_one_answer(lines: list[str]) -> None:
    lines = [" ".join(line.splitlines()) for line in lines]  # one request a line
    data = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"
    check_answers(*served(data), expected_answers(data))


@SETTINGS
@given(st.binary(max_size=200))
def test_any_bytes_get_an_answer_a_line(data: bytes) -> None:
    answers = check_answers(*served(data + b"\n" + json.dumps(ASK.__dict__).encode() + b"\n"),
                            expected_answers(data) + 1)
    assert "error" in answers[-1] or answers[-1]["type"] == "card"  # the robot still answers after them


def surrogate_request() -> str:
    """A real decision whose seat is named by a lone surrogate escape (valid JSON) that the answer echoes."""
    log = json.loads(json.dumps(MENU.log).replace(json.dumps(MENU.seat), '"\\ud800"'))
    assert log != MENU.log
    return json.dumps({"log": log, "seat": "\ud800", "hand": list(MENU.hand)})


def test_a_lone_surrogate_name_is_echoed_and_the_robot_goes_on() -> None:
    line = surrogate_request()
    assert "\\ud800" in line
    data = (line + "\n" + line + "\n").encode("ascii")
    answers = check_answers(*served(data), 2)
    assert answers[0] == answers[1]
    assert answers[0]["type"] == "menu" and answers[0]["player"] == "\ud800"


def test_the_command_itself_survives_a_lone_surrogate_and_bad_bytes() -> None:
    data = (surrogate_request() + "\n").encode("ascii") + b"\xff\xfe{\n" + (surrogate_request() + "\n").encode("ascii")
    done = subprocess.run([sys.executable, "-m", "marmite.cli", "robot", "--think-ms", "50", "--level", "cuisinier"],
                          cwd=ROOT, input=data, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(answers) == 3
    assert [answers[0]["player"], answers[2]["player"]] == ["\ud800", "\ud800"]  # (the first's search is smaller)
    assert "UTF-8" in answers[1]["error"]


def test_blank_lines_of_any_spaces_get_no_answer_and_others_one() -> None:
    data = "\u3000\n\u00a0 \r\n{}\n\n".encode() + b"\xc2\n"
    answers = check_answers(*served(data), 2)
    assert all("error" in answer for answer in answers)


def test_answers_are_utf8_whatever_the_platform_encoding() -> None:
    """A Windows pipe writes in its code page: a name it cannot hold killed the robot, others came out not UTF-8."""
    log = json.loads(json.dumps(MENU.log).replace(json.dumps(MENU.seat), json.dumps("Zoë\u4e00")))
    line = json.dumps({"log": log, "seat": "Zoë\u4e00", "hand": list(MENU.hand)})
    done = subprocess.run([sys.executable, "-m", "marmite.cli", "robot", "--think-ms", "50", "--level", "cuisinier"],
                          cwd=ROOT, input=(line + "\n" + line + "\n").encode("ascii"), capture_output=True,
                          timeout=120, check=False, env={**os.environ, "PYTHONIOENCODING": "cp1252"})
    assert done.returncode == 0, done.stderr
    answers = [json.loads(text) for text in done.stdout.decode("utf-8").splitlines()]
    assert [answer["player"] for answer in answers] == ["Zoë\u4e00", "Zoë\u4e00"]
