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
from tests.companion.robot_crash_table import BUFFET_HAND, HANDS

ROOT = Path(__file__).resolve().parents[2]


def killed_after_the_choice(tmp_path: Path, *game: str) -> str:
    """Run the crash table, SIGKILL it as soon as the robot's choice is durable; the card it chose."""
    process = subprocess.Popen([sys.executable, "-m", "tests.companion.robot_crash_table", str(tmp_path), *game],
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
    return next(line.split()[1] for line in lines if line.startswith("chosen "))


def test_sigkill_between_the_robots_choice_and_its_card_asks_for_the_same_card(tmp_path: Path) -> None:
    chosen = killed_after_the_choice(tmp_path)
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
        robot_events = [r for r in table.journal.records() if r.body["type"] == "robot" and "card" in r.body]
        assert len(robot_events) == 1  # chosen once: nothing chosen again after the restart
        wrong = next(code for code in HANDS["Marmiton"] if code != chosen)
        assert table.submit({"type": "card", "card": wrong}).reason == "not_robot_card"
        assert table.submit({"type": "card", "card": chosen}).accepted
    finally:
        driver.close()
        table.close()


def test_sus_au_buffet_sigkill_after_the_face_down_choice_asks_for_the_same_card_at_its_reveal(
        tmp_path: Path) -> None:
    chosen = killed_after_the_choice(tmp_path, "buffet")
    assert chosen in BUFFET_HAND
    table = TableService.open(tmp_path, GAMES)
    driver = RobotDriver(table, think_ms=50).start()
    try:
        with table.lock:
            choice = table.robots.pending("Marmiton", len(table.standing_actions()) - 1)
        assert choice is not None and choice.card == chosen  # nothing chosen again after the restart
        assert table.submit({"type": "card", "card": "mouse-9"}).accepted  # Ana reveals: Marmiton's turn
        deadline = time.monotonic() + 20
        while not any(m.kind == "robot" and m.text("fr").startswith("Marmiton joue la souris")
                      for m in table.messages_after(0)):
            assert time.monotonic() < deadline, "the restarted table did not name the robot's card at its reveal"
            time.sleep(0.02)
        assert len([r for r in table.journal.records() if r.body["type"] == "robot" and "card" in r.body]) == 1
        wrong = "mouse-9" if chosen != "mouse-9" else "mouse-8"
        answer = table.submit({"type": "card", "card": wrong})
        assert answer.reason == "not_robot_card" and answer.message is not None
        assert answer.message.text("fr").startswith("Ce n'est pas la carte de Marmiton")
        assert table.submit({"type": "card", "card": chosen}).accepted
    finally:
        driver.close()
        table.close()
