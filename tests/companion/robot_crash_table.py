"""Crash-test table with a robot seat: sets up a game where the robot must choose a card, prints
`chosen <card>` as soon as its choice is durable (announced after the journal write), then waits to
be killed (SIGKILL) before anyone puts that card in the pot.

`python -m tests.companion.robot_crash_table DATA_DIR [buffet]` (buffet: the robot's face-down card of a
Sus au buffet ! step, at a real table whose host entered the robot's hand)
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
BUFFET_PLAYERS = ["Ana", "Marmiton", "Cléo", "Dan"]
BUFFET_HAND = ["mouse-n1", "mouse-0", "mouse-1", "mouse-2", "mouse-3", "mouse-4", "mouse-5", "mouse-6", "mouse-7"]


def set_up_buffet(table: TableService) -> None:
    """A real Sus au buffet ! table: the robot's hand entered, the buffet laid out (its step begins)."""
    table.submit({"type": "new_game", "game": "buffet", "players": BUFFET_PLAYERS, "first": "Ana",
                  "robots": {"seats": {"Marmiton": "chef"}}})
    table.submit({"type": "robot", "player": "Marmiton", "hand": BUFFET_HAND})
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1"):
        table.submit({"type": "plate", "plate": plate})


def set_up_chaud_devant(table: TableService) -> None:
    """A real Chaud Devant table: hands scanned, menus chosen, Ana has led: the robot's card is due."""
    table.submit({"type": "new_game", "players": PLAYERS, "dealer": "Cléo", "robots": {"seats": {"Marmiton": "chef"}}})
    for name in PLAYERS:
        table.submit({"type": "hand", "player": name, "cards": HANDS[name]})
    for name in PLAYERS:
        if name == "Marmiton":  # the robot's menu noted just before it is given here, as the robot driver does
            table.submit({"type": "robot", "player": name, "menu": "none"}, "robot")
        table.submit({"type": "menu", "player": name, "menu": "none"})
    lead = next(code for code in HANDS["Ana"] if not code.startswith("pepper"))
    table.submit({"type": "card", "card": lead})


def main(argv: list[str]) -> int:
    table = TableService.open(Path(argv[0]), GAMES)
    chosen = threading.Event()

    def heard(message: Message) -> None:
        if message.kind == "robot" and message.is_event and message.accepted:
            record = next(iter(table.journal.records(after=message.seq - 1, limit=1)))
            card = record.body.get("card")  # the journal's, not the stream's (a face-down card never goes there)
            if card is None:
                return  # a robot's hand entered by the host, not its choice
            print(f"chosen {card}", flush=True)
            chosen.set()

    table.add_listener(heard)
    (set_up_buffet if argv[1:] == ["buffet"] else set_up_chaud_devant)(table)
    print("ready", flush=True)
    RobotDriver(table, think_ms=150).start()
    chosen.wait(60)
    time.sleep(600)  # killed here: the card is never put in the pot
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
