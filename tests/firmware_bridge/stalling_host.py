"""A host process for the crash tests: a table on DATA with the usb reader on PORT, whose journal hangs
on the first card, `before` or `after` writing it, and drops a `stalled` file there, so the test can
kill it exactly between queueing the tag and acknowledging it.

    python -m tests.firmware_bridge.stalling_host DATA PORT before|after
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

from companion.journal import Journal
from companion.table import TableService
from companion.tags import TagMap
from firmware_bridge.host_reader import UsbReader
from marmite.games import GAMES
from marmite.wiring import ReaderPump

STALLED = "stalled"


class StallingJournal(Journal):
    """A journal that hangs forever on its first card event, before or after recording it."""

    when = "before"

    def append(
        self, event: dict[str, Any], accepted: bool, reason: str | None, source: str = "api", **options: Any,
    ) -> int:
        if event.get("type") == "card":
            if self.when == "after":
                super().append(event, accepted, reason, source, **options)
            (self.path.parent / STALLED).write_text(self.when, encoding="utf-8")
            threading.Event().wait()  # until the test kills the process
        return super().append(event, accepted, reason, source, **options)


def main(argv: list[str]) -> None:
    """Serve the table until killed."""
    data, port, when = Path(argv[0]), argv[1], argv[2]
    StallingJournal.when = when
    service = TableService(StallingJournal.open(data), GAMES, tags=TagMap.load(data, GAMES.tag_codes()))
    ReaderPump(service, UsbReader(port, backoff=(0.05, 0.2))).start()
    threading.Event().wait()


if __name__ == "__main__":
    main(sys.argv[1:])
