"""A robot's choice survives SIGKILL: the table process killed between the robot's choice and its card
asks, after a restart, for the same card (the choice was journaled before it was announced)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.robot_table import RobotDriver
from companion.table import TableService
from marmite.games import GAMES
from tests.companion.robot_crash_table import HANDS

ROOT = Path(__file__).resolve().parents[2]


def test_sigkill_between_the_robots_choice_and_its_card_asks_for_the_same_card(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "tests.companion.robot_crash_table", str(tmp_path)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stdout.readline().strip()
        lines.append(line)
        if line.startswith("chosen ") or not line:
            break
    process.send_signal(signal.SIGKILL)  # right after the choice was durable, before any card
    process.wait(timeout=30)
    chosen = next(line.split()[1] for line in lines if line.startswith("chosen "))
    assert chosen in HANDS["Marmiton"]

    table = TableService.open(tmp_path, GAMES)
    driver = RobotDriver(table, think_ms=50).start()
    try:
        with table.lock:
            choice = table.robots.pending("Marmiton", len(table.standing_actions()) - 1)
        assert choice is not None and choice.card == chosen
        deadline = time.monotonic() + 20
        while not any(m.kind == "robot" and not m.is_event for m in table.messages_after(0)):
            assert time.monotonic() < deadline, "the restarted table did not ask for the robot's card"
            time.sleep(0.02)
        asked = [m for m in table.messages_after(0) if m.kind == "robot" and not m.is_event][-1]
        assert asked.text("fr").startswith("Marmiton joue ")
        robot_events = [r for r in table.journal.records() if r.body["type"] == "robot"]
        assert len(robot_events) == 1  # chosen once: nothing chosen again after the restart
        wrong = next(code for code in HANDS["Marmiton"] if code != chosen)
        assert table.submit({"type": "card", "card": wrong}).reason == "not_robot_card"
        assert table.submit({"type": "card", "card": chosen}).accepted
    finally:
        driver.close()
        table.close()
