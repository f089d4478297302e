"""Deal-by-tag crash writer: `python -m tests.companion.deal_writer DATA_DIR [SYNC_MS]`.

With SYNC_MS, every fdatasync of the journal takes that much longer (a slow SD card). Opens the table
and its deck desk on DATA_DIR (a deck of test UIDs), starts a five-player game and deals it by tag,
one read per card; prints `last` just before the last card's read and `dealt` once it returned.
The crash test kills it (SIGKILL) around the last card.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.deck_desk import DeckDesk
from companion.table import TableService
from marmite.games import GAMES

CODES = GAMES.kinds[GAMES.default].tag_codes
PLAYERS = ["Ana", "Ben", "Cléo", "Dan", "Eva"]


def uid(index: int) -> str:
    return f"04{index:012x}"


def main(argv: list[str]) -> int:
    data = Path(argv[0])
    if len(argv) > 1:
        import companion.journal

        real_sync, pause = companion.journal._datasync, float(argv[1]) / 1000

        def slow_sync(fd: int) -> None:
            time.sleep(pause)
            real_sync(fd)

        companion.journal._datasync = slow_sync
    service = TableService.open(data, GAMES)
    desk = DeckDesk(service, data)
    if not desk.store.load():
        desk.import_text("uid,card\n" + "".join(f"{uid(i)},{code}\n" for i, code in enumerate(CODES)))
    service.submit({"type": "new_game", "players": PLAYERS, "dealer": "Eva", "rules": {"edition": "2005"}})
    desk.deal_start()
    for index in range(51):
        service.tag_seen(uid(index))
    print("last", flush=True)
    service.tag_seen(uid(51))
    print("dealt", flush=True)
    service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
