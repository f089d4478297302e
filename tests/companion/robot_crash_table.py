"""Crash-test table with a robot seat: sets up a game where the robot must choose a card, prints
`chosen <card>` as soon as its choice is durable (announced after the journal write), then waits to
be killed (SIGKILL) before anyone puts that card in the pot.

`python -m tests.companion.robot_crash_table DATA_DIR`
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from companion.chaud_devant.cards import ALL_CODES
from companion.hub import Message
from companion.robot_table import RobotDriver
from companion.table import TableService
from marmite.games import GAMES

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}


def main(argv: list[str]) -> int:
    table = TableService.open(Path(argv[0]), GAMES)
    chosen = threading.Event()

    def heard(message: Message) -> None:
        if message.kind == "robot" and message.is_event and message.accepted:
            record = next(iter(table.journal.records(after=message.seq - 1, limit=1)))
            card = record.body["card"]  # the journal's, not the stream's (a face-down card never goes there)
            print(f"chosen {card}", flush=True)
            chosen.set()

    table.add_listener(heard)
    table.submit({"type": "new_game", "players": PLAYERS, "dealer": "Cléo", "robots": {"seats": {"Marmiton": "chef"}}})
    for name in PLAYERS:
        table.submit({"type": "hand", "player": name, "cards": HANDS[name]})
    for name in PLAYERS:
        table.submit({"type": "menu", "player": name, "menu": "none"})  # the robot's menu given here
    lead = next(code for code in HANDS["Ana"] if not code.startswith("pepper"))
    table.submit({"type": "card", "card": lead})
    print("ready", flush=True)
    RobotDriver(table, think_ms=150).start()
    chosen.wait(60)
    time.sleep(600)  # killed here: the card is never put in the pot
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
