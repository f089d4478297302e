"""Crash-test writer: appends scripted games' events to a journal, printing each seq once durable.

`python -m tests.companion.crash_writer DATA_DIR SCRIPT [STOP_AFTER]`: SCRIPT is a JSON list of
`[event, accepted, reason]` that starts with a `new_game`, repeated without end (seq n is entry
(n - 1) mod its length). The writer continues from what the journal already holds, prints
`ready <last_seq>` once the journal is open, then each seq on its own line after its `append`
returns; it runs until killed, or closes cleanly after seq STOP_AFTER — or, with a fourth argument
`hold`, prints `held` after seq STOP_AFTER and waits to be killed with the journal still open.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from companion.journal import Journal

SOURCE = "crash-writer"


def main(argv: list[str]) -> int:
    data_dir, script_path = Path(argv[0]), Path(argv[1])
    stop_after = int(argv[2]) if len(argv) > 2 else None
    hold = len(argv) > 3 and argv[3] == "hold"
    script = json.loads(script_path.read_text(encoding="utf-8"))
    with Journal.open(data_dir) as journal:
        print(f"ready {journal.last_seq}", flush=True)
        seq = journal.last_seq
        while seq != stop_after:
            event, accepted, reason = script[seq % len(script)]
            seq = journal.append(event, accepted, reason, SOURCE)
            print(seq, flush=True)
        if hold:
            print("held", flush=True)
            time.sleep(600)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
